//! The factor values of one candidate (task, gap, scenario, productivity, credibility, trend,
//! complement, fit…) with the detail sentence each one explains itself by, and the readable
//! reasons picked from them. Separate from [`super`], which gathers the candidates, the profile and
//! the context, ranks and breaks ties: this is the per-candidate arithmetic behind one score.

use jiff::Timestamp;
use serde_json::Value;

use super::relevance::{Match, Query, display_terms};
use super::text::Doc;
use super::*;
use crate::Lang;
use crate::clock::{Clock, parse_stored};
use crate::filter::Mode;
use crate::model::{Candidate, trust_rank};
use crate::scan::candidate::Risk;

fn days_since_update(c: &Candidate, clock: &Clock) -> Option<i64> {
    let ts: Timestamp = parse_stored(c.updated_at.as_deref()?)?;
    Some(
        (clock.now.as_second() - ts.as_second())
            .div_euclid(86_400)
            .max(0),
    )
}

fn trend_obj_u64(c: &Candidate, key: &str) -> u64 {
    c.trend
        .as_ref()
        .and_then(|t| t.get(key))
        .and_then(|v| crate::model::count_of(v).ok())
        .unwrap_or(0)
}

fn trend_value(c: &Candidate, cx: &Ctx<'_>, explain: bool) -> (f64, String) {
    let lang = cx.lang;
    let pop = (c.popularity.downloads as f64) + 5.0 * (c.popularity.stars as f64);
    let p = (libm::log(1.0 + pop) / libm::log(1.0 + POPULARITY_CAP)).min(1.0);
    let sources = c
        .cross_source_count
        .max(trend_obj_u64(c, "source_count"))
        .max(1);
    let cross = ((sources - 1) as f64 / 2.0).min(1.0);
    let mentions = (trend_obj_u64(c, "recent_mentions") as f64 / 10.0).min(1.0);
    let updated_flag = c
        .trend
        .as_ref()
        .and_then(|t| t.get("updated_recently"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let days = days_since_update(c, cx.clock);
    let recency = match days {
        Some(d) if d <= 30 => 1.0,
        Some(d) if d <= 90 => 0.6,
        Some(d) if d <= 180 => 0.3,
        _ if updated_flag => 0.6,
        _ => 0.0,
    };
    let value = 0.4 * p + 0.2 * cross + 0.15 * mentions + 0.25 * recency;
    if !explain {
        return (value, String::new());
    }
    let mut parts = Vec::new();
    let (d, s) = (c.popularity.downloads, c.popularity.stars);
    if d > 0 {
        parts.push(match lang {
            Lang::Zh => format!("{d} 次下载"),
            Lang::En => format!("{d} downloads"),
        });
    }
    if s > 0 {
        parts.push(match lang {
            Lang::Zh => format!("{s} 星"),
            Lang::En => format!("{s} stars"),
        });
    }
    if sources > 1 {
        parts.push(match lang {
            Lang::Zh => format!("在 {sources} 个来源出现"),
            Lang::En => format!("listed on {sources} sources"),
        });
    }
    if let Some(d) = days.filter(|&d| d <= 90) {
        parts.push(match lang {
            Lang::Zh => format!("{d} 天前更新"),
            Lang::En => format!("updated {d} days ago"),
        });
    }
    (value, join(&parts, lang))
}

fn credibility_value(c: &Candidate, risk: Risk, lang: Lang, explain: bool) -> (f64, String) {
    let risk_v = match risk {
        Risk::Low => 1.0,
        Risk::Medium => 0.3,
        Risk::High => 0.0,
    };
    let evidence = [
        (
            c.source_code_url
                .as_deref()
                .is_some_and(|u| !u.trim().is_empty()),
            "源码公开",
            "public source",
        ),
        (c.has_install_docs, "有安装说明", "install docs"),
        (
            c.has_security_disclosure,
            "有安全说明",
            "a security disclosure",
        ),
    ];
    let known = evidence.iter().filter(|x| x.0).count();
    let trust = trust_rank(&c.source.trim().to_ascii_lowercase()) as f64 / 5.0;
    let value = 0.4 * risk_v + 0.3 * (known as f64 / 3.0) + 0.3 * trust;
    if !explain {
        return (value, String::new());
    }
    let present: Vec<String> = evidence
        .iter()
        .filter(|x| x.0)
        .map(|x| if lang == Lang::Zh { x.1 } else { x.2 }.to_owned())
        .collect();
    let label = crate::render::source_label(&c.source);
    let detail = match (lang, present.is_empty()) {
        (Lang::Zh, false) => format!("来自 {label}，{}", join(&present, lang)),
        (Lang::Zh, true) => format!("来自 {label}"),
        (Lang::En, false) => format!("from {label}, with {}", join(&present, lang)),
        (Lang::En, true) => format!("from {label}"),
    };
    (value, detail)
}

fn productivity_value(c: &Candidate, lang: Lang, explain: bool) -> (f64, String) {
    let complexity = c
        .complexity
        .as_deref()
        .map(|s| s.trim().to_ascii_lowercase());
    let cx = match complexity.as_deref() {
        Some("lightweight") => 1.0,
        Some("framework") => 0.6,
        Some("platform") => 0.3,
        _ => 0.6,
    };
    let tools = match c.required_toolsets.len() {
        0 | 1 => 1.0,
        2 => 0.7,
        _ => 0.4,
    };
    let docs = if c.has_install_docs { 1.0 } else { 0.0 };
    let value = 0.4 * cx + 0.3 * tools + 0.3 * docs;
    if !explain {
        return (value, String::new());
    }
    let mut parts = Vec::new();
    if let Some(k) = complexity.as_deref().filter(|k| !k.is_empty()) {
        parts.push(match (k, lang) {
            ("lightweight", Lang::Zh) => "轻量，装上就能用".to_owned(),
            ("lightweight", Lang::En) => "lightweight, works right after install".to_owned(),
            (_, Lang::Zh) => format!("复杂度 {k}"),
            (_, Lang::En) => format!("{k} complexity"),
        });
    }
    if c.has_install_docs {
        parts.push(match lang {
            Lang::Zh => "有安装说明".to_owned(),
            Lang::En => "documented install steps".to_owned(),
        });
    }
    (
        value,
        parts.join(if lang == Lang::Zh { "，" } else { ", " }),
    )
}

#[allow(clippy::too_many_arguments)]
pub(super) fn factors(
    c: &Candidate,
    traits: &Traits,
    risk: Risk,
    mode: Mode,
    task: Option<&str>,
    relevance: f64,
    exact: bool,
    m: &Match,
    doc: &Doc,
    cx: &Ctx<'_>,
) -> Vec<Factor> {
    factors_with(
        c, traits, risk, mode, task, relevance, exact, m, doc, cx, true,
    )
}

/// [`factors`], with the details of the gap, trend, credibility, productivity and complement
/// factors left empty unless `explain`: their values (and so the score and the tie-breakers) are
/// the same either way. For a sort key ([`super::scorer::key`]), which drops the details.
#[allow(clippy::too_many_arguments)]
pub(super) fn factors_with(
    c: &Candidate,
    traits: &Traits,
    risk: Risk,
    mode: Mode,
    task: Option<&str>,
    relevance: f64,
    exact: bool,
    m: &Match,
    doc: &Doc,
    cx: &Ctx<'_>,
    explain: bool,
) -> Vec<Factor> {
    let lang = cx.lang;
    let p = cx.profile;
    let topics = &traits.topics;
    // Capability gap: the share of the candidate's topics nobody installed covers.
    let (gap, gap_detail) = if topics.is_empty() {
        (0.5, String::new())
    } else if !explain {
        let uncovered = topics.iter().filter(|t| !p.covered.contains(*t)).count();
        (uncovered as f64 / topics.len() as f64, String::new())
    } else {
        let new: Vec<String> = c
            .categories
            .iter()
            .map(|x| x.trim().to_lowercase())
            .filter(|x| !x.is_empty() && !p.covered.contains(x))
            .collect();
        let uncovered = topics.iter().filter(|t| !p.covered.contains(*t)).count();
        let v = uncovered as f64 / topics.len() as f64;
        let d = if new.is_empty() {
            String::new()
        } else {
            match lang {
                Lang::Zh => format!("补上你还没有的能力：{}", join(&new, lang)),
                Lang::En => format!("adds what you don't have yet: {}", join(&new, lang)),
            }
        };
        (v, d)
    };
    let (trend, trend_detail) = trend_value(c, cx, explain);
    let (cred, cred_detail) = credibility_value(c, risk, lang, explain);
    let (prod, prod_detail) = productivity_value(c, lang, explain);
    // Complement: fits beside what the user already has (complement_pairs.json).
    let complements = |t: &&String| p.complements.contains(*t) && !p.covered.contains(*t);
    let comp_hits: Vec<String> = if explain {
        topics.iter().filter(complements).cloned().collect()
    } else {
        Vec::new()
    };
    let comp = if topics.iter().any(|t| complements(&t)) {
        1.0
    } else {
        0.0
    };
    let comp_detail = if comp_hits.is_empty() {
        String::new()
    } else {
        match lang {
            Lang::Zh => format!("和你已有的技能互补：{}", join(&comp_hits, lang)),
            Lang::En => format!("complements your skills: {}", join(&comp_hits, lang)),
        }
    };
    // Scenario: the best coverage of any signal by the candidate's text.
    let mut scen = 0.0;
    let mut scen_detail = String::new();
    for (text, ids) in cx.signals {
        // The share of the signal's concepts the candidate has (its words when it names no concept).
        let concepts: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|&t| cx.vocab.is_concept(t))
            .collect();
        let wanted = if concepts.is_empty() { ids } else { &concepts };
        if wanted.is_empty() {
            continue;
        }
        let have = wanted.iter().filter(|&&t| doc.has(t)).count();
        let v = have as f64 / wanted.len() as f64;
        if v > scen {
            scen = v;
            scen_detail = match lang {
                Lang::Zh => format!("符合你的场景：{text}"),
                Lang::En => format!("fits your scenario: {text}"),
            };
        }
    }
    let f = |key, weight, value: f64, detail: String| Factor {
        key,
        weight,
        value: value.clamp(0.0, 1.0),
        neutral: 0.0,
        detail,
    };
    match mode {
        Mode::Manual => {
            let task_detail = match (task, cx.query) {
                (Some(_), Some(q)) => {
                    let mut d = task_detail(q, m, exact, relevance, lang);
                    if !exact && relevance > 0.0 && !m.matched.is_empty() {
                        d.push_str(&lexical_note(cx.lexical_share, lang));
                    }
                    d
                }
                _ => String::new(),
            };
            MANUAL_WEIGHTS
                .iter()
                .map(|&(key, w)| match key {
                    FactorKey::Task => f(key, w, relevance, task_detail.clone()),
                    FactorKey::Gap => f(key, w, gap, gap_detail.clone()),
                    FactorKey::Scenario => f(key, w, scen, scen_detail.clone()),
                    FactorKey::Productivity => f(key, w, prod, prod_detail.clone()),
                    FactorKey::Credibility => f(key, w, cred, cred_detail.clone()),
                    FactorKey::Trend => f(key, w, trend, trend_detail.clone()),
                    _ => f(key, w, comp, comp_detail.clone()),
                })
                .collect()
        }
        Mode::Daily => {
            let theme = cx.theme.unwrap_or(Theme::Practical);
            // Would want to try: fits today's theme, and is easy to pick up.
            let fit = match theme {
                Theme::Practical => {
                    if traits.in_family("practical") {
                        1.0
                    } else {
                        0.3
                    }
                }
                Theme::Hot => trend,
                Theme::Fun => {
                    if traits.in_family("fun") {
                        1.0
                    } else {
                        0.2
                    }
                }
            };
            let approachable = if c.complexity.as_deref().map(str::trim) == Some("lightweight")
                || c.pain_point.is_some()
                || c.required_toolsets.len() <= 1
            {
                1.0
            } else {
                0.5
            };
            let would_try = 0.7 * fit + 0.3 * approachable;
            let try_detail = if fit >= 0.6 {
                match lang {
                    Lang::Zh => format!("契合今天的主题：{}", theme.label(lang)),
                    Lang::En => format!("fits today's theme: {}", theme.label(lang)),
                }
            } else {
                String::new()
            };
            let life = traits.in_family("life");
            let life_detail = if life {
                match lang {
                    Lang::Zh => "生活化、内容向的场景".to_owned(),
                    Lang::En => "a daily-life or content scenario".to_owned(),
                }
            } else {
                String::new()
            };
            // Freshness / diversity: categories not shown lately, not fatigued; recently updated.
            let cats: Vec<String> = c
                .categories
                .iter()
                .map(|x| x.trim().to_lowercase())
                .collect();
            let repeats: Vec<String> = cats
                .iter()
                .filter(|x| p.recent.contains_key(*x) || p.fatigued.contains(*x))
                .cloned()
                .collect();
            let diversity = if cats.is_empty() {
                0.5
            } else {
                1.0 - repeats.len() as f64 / cats.len() as f64
            };
            let recency = match days_since_update(c, cx.clock) {
                Some(d) if d <= 30 => 1.0,
                Some(d) if d <= 90 => 0.5,
                _ => 0.0,
            };
            let fresh = 0.6 * diversity + 0.4 * recency;
            let fresh_detail = if repeats.is_empty() {
                String::new()
            } else {
                match lang {
                    Lang::Zh => format!("最近推荐过同类：{}", join(&repeats, lang)),
                    Lang::En => {
                        format!("similar categories shown lately: {}", join(&repeats, lang))
                    }
                }
            };
            DAILY_WEIGHTS
                .iter()
                .map(|&(key, w)| match key {
                    FactorKey::WouldTry => f(key, w, would_try, try_detail.clone()),
                    FactorKey::Trend => f(key, w, trend, trend_detail.clone()),
                    FactorKey::DailyLife => {
                        f(key, w, if life { 1.0 } else { 0.0 }, life_detail.clone())
                    }
                    FactorKey::Gap => f(key, w, gap, gap_detail.clone()),
                    FactorKey::Productivity => f(key, w, prod, prod_detail.clone()),
                    FactorKey::Credibility => f(key, w, cred, cred_detail.clone()),
                    _ => f(key, w, fresh, fresh_detail.clone()),
                })
                .collect()
        }
    }
}

/// What the `task` factor's detail adds when shared words decide more of the order than usual
/// ([`relevance::lexical_share`]): no listing matches the request's concepts well. Empty otherwise.
pub(super) fn lexical_note(share: f64, lang: Lang) -> String {
    if share <= relevance::LEXICAL_SHARE + 0.005 {
        return String::new();
    }
    let pct = round(100.0 * share, 0);
    match lang {
        Lang::Zh => format!("；没有技能在概念上匹配得好，排序时共有的词占 {pct}%"),
        Lang::En => format!(
            "; no listing matches what you asked well, so the words it shares with your task decide {pct}% of the order"
        ),
    }
}

/// The `task` factor's detail: what matched (as the user wrote it), and why a match counts less
/// (wrong object, a catch-all listing).
pub(super) fn task_detail(q: &Query, m: &Match, exact: bool, relevance: f64, lang: Lang) -> String {
    if exact {
        return match lang {
            Lang::Zh => "名称与请求完全一致".to_owned(),
            Lang::En => "its name is exactly what you asked for".to_owned(),
        };
    }
    if relevance <= 0.0 || m.matched.is_empty() {
        return match lang {
            Lang::Zh => "和当前任务不相关".to_owned(),
            Lang::En => "unrelated to the task".to_owned(),
        };
    }
    let shown = join(&display_terms(q, &m.matched), lang);
    let mut out = match lang {
        Lang::Zh => format!("和你的任务相关（匹配：{shown}）"),
        Lang::En => format!("matches your task ({shown})"),
    };
    // `rank33`: the shared free words that are rare among the candidates weigh more.
    let rare = q.rare_matched(&m.matched);
    if !rare.is_empty() {
        let shown = join(&rare, lang);
        out.push_str(&match lang {
            Lang::Zh => format!("；{shown} 在候选技能里少见，按稀有度加权"),
            Lang::En => format!("; {shown}: rare among the listings, so they weigh more"),
        });
    }
    let readings: Vec<String> = relevance::matched_readings(q, &m.matched)
        .into_iter()
        .map(|r| match lang {
            Lang::Zh => format!("「{}」读作「{}」", r.surface, r.read_as),
            Lang::En => format!("“{}” read as {}", r.surface, r.read_as),
        })
        .collect();
    if !readings.is_empty() {
        let shown = join(&readings, lang);
        out.push_str(&match lang {
            Lang::Zh => format!("；按说法理解：{shown}"),
            Lang::En => format!("; from your wording: {shown}"),
        });
    }
    let done = relevance::matched_done(q, &m.matched);
    if !done.is_empty() {
        let shown = join(
            &done.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>(),
            lang,
        );
        out.push_str(&match lang {
            Lang::Zh => format!("；「{shown}」是已经做完的事，不算这次的要求"),
            Lang::En => format!("; “{shown}” is what was already done, not what you ask"),
        });
    }
    if m.object_miss {
        let objects: Vec<String> = q
            .units
            .iter()
            .filter(|u| {
                matches!(u.kind, relevance::UnitKind::Concept { concept, .. } if q.objects.contains(&concept))
            })
            .map(|u| u.surface.clone())
            .collect();
        let objects = join(&objects, lang);
        out.push_str(&match lang {
            Lang::Zh => format!("，但处理的不是你要的对象（{objects}）"),
            Lang::En => format!(", but not for what you named ({objects})"),
        });
    }
    if m.reversed {
        out.push_str(match lang {
            Lang::Zh => "，但转换方向相反",
            Lang::En => ", but it converts the other way round",
        });
    }
    if m.name_action_miss {
        out.push_str(match lang {
            Lang::Zh => "；它名字里说的是另一件事",
            Lang::En => "; its name says it does something else",
        });
    }
    if m.no_name_evidence && m.order_weight < 1.0 {
        let pct = round(100.0 * relevance::NO_NAME_EVIDENCE, 0);
        out.push_str(&match lang {
            Lang::Zh => format!("；匹配的词都不在它的名字里，排序时按 {pct}% 计"),
            Lang::En => {
                format!("; nothing it matches is in its name, so it counts {pct}% in the order")
            }
        });
    }
    if m.no_subject_word {
        let words: Vec<String> = relevance::rare_subject_words(q)
            .into_iter()
            .filter_map(|i| q.units.get(i))
            .map(|u| u.surface.trim().to_owned())
            .filter(|s| !s.is_empty())
            .take(4)
            .collect();
        let pct = round(100.0 * relevance::NO_SUBJECT_WORD, 0);
        let words = if words.is_empty() {
            String::new()
        } else {
            match lang {
                Lang::Zh => format!("（{}）", join(&words, lang)),
                Lang::En => format!(" ({})", join(&words, lang)),
            }
        };
        out.push_str(&match lang {
            Lang::Zh => format!("；你的任务里少见的词{words}它一个都没有，别的技能有，排序时按 {pct}% 计"),
            Lang::En => format!(
                "; it shares none of your task's rare words{words} that another listing has, so it counts {pct}% in the order"
            ),
        });
    }
    if !m.lone.is_empty() {
        let words: Vec<String> = m
            .lone
            .iter()
            .filter_map(|&i| q.units.get(i))
            .map(|u| u.surface.trim().to_owned())
            .collect();
        let many = words.len() > 1;
        let words = join(&words, lang);
        let pct = round(100.0 * relevance::LONE_CHARACTER, 0);
        out.push_str(&match (lang, many) {
            (Lang::Zh, _) => format!("；「{words}」只是单个字读出的动作，排序时只算 {pct}%"),
            (Lang::En, false) => format!(
                "; “{words}” is a single character read as an action, so it counts {pct}% in the order"
            ),
            (Lang::En, true) => format!(
                "; “{words}” are single characters read as actions, so they count {pct}% in the order"
            ),
        });
    }
    if m.other_language {
        let english = m.doc_script == Some(relevance::Script::Latin);
        out.push_str(match (lang, english) {
            (Lang::Zh, true) => "；只有英文描述",
            (Lang::Zh, false) => "；只有中文描述",
            (Lang::En, true) => "; described only in English",
            (Lang::En, false) => "; described only in Chinese",
        });
    }
    if m.target_only {
        out.push_str(match lang {
            Lang::Zh => "；它只是把别的东西转换成这种文件",
            Lang::En => "; it only makes this kind of file out of something else",
        });
    }
    if m.library {
        out.push_str(match lang {
            Lang::Zh => "；它是现成模板或范例的合集，不替你写或填",
            Lang::En => {
                "; it is a library of ready-made templates or examples, not a writer or filler"
            }
        });
    }
    if m.catch_all {
        out.push_str(match lang {
            Lang::Zh => "；自称什么都能做，说法打折",
            Lang::En => "; it says it does everything, so its claims count less",
        });
    }
    if m.broad_topic {
        let topics: Vec<String> = m
            .matched
            .iter()
            .filter_map(|&i| q.units.get(i))
            .filter(|u| {
                matches!(
                    u.kind,
                    relevance::UnitKind::Concept {
                        kind: super::lexicon::Kind::Topic,
                        ..
                    }
                )
            })
            .map(|u| u.surface.clone())
            .collect();
        let topics = join(&topics, lang);
        out.push_str(&match lang {
            Lang::Zh => format!("；对这么宽泛的技能，话题（{topics}）只算一半"),
            Lang::En => format!("; for so broad a listing the topic ({topics}) counts half"),
        });
    }
    if m.breadth_weight < 1.0 && !m.catch_all {
        let pct = round(100.0 * m.breadth_weight, 0);
        out.push_str(&match lang {
            Lang::Zh => format!("；它声称能做 {} 类事，每项说法只算 {pct}%", m.breadth),
            Lang::En => format!(
                "; it claims {} different jobs, so each claim counts {pct}%",
                m.breadth
            ),
        });
    }
    out
}

/// The readable reasons: the details of the factors that earned the most points, best first, plus the
/// risk when it is not low.
pub(super) fn reasons(factors: &[Factor], risk: Risk, lang: Lang) -> Vec<String> {
    // The task and the user's scenario lead whenever they matched at all; the rest by points.
    // An adjustment that raised the score ([`adjust`]: a strong skill) leads with them.
    let personal = |f: &&Factor| {
        matches!(f.key, FactorKey::Task | FactorKey::Scenario)
            || (f.neutral != 0.0 && f.points() > 0.0)
    };
    let task = factors
        .iter()
        .filter(|f| personal(f) && f.value > 0.0 && !f.detail.is_empty());
    let mut by_points: Vec<&Factor> = factors
        .iter()
        .filter(|f| !personal(f) && !f.detail.is_empty() && f.value >= 0.5)
        .filter(|f| f.neutral == 0.0)
        .collect();
    by_points.sort_by(|a, b| {
        b.points()
            .total_cmp(&a.points())
            .then_with(|| a.key.cmp(&b.key))
    });
    let mut out: Vec<String> = task
        .into_iter()
        .chain(by_points)
        .take(4)
        .map(|f| f.detail.clone())
        .collect();
    // A task mismatch is worth saying even though it earned nothing.
    if let Some(t) = factors
        .iter()
        .find(|f| f.key == FactorKey::Task && f.value == 0.0 && !f.detail.is_empty())
    {
        out.push(t.detail.clone());
    }
    // What lowered it: what this agent lacks, a bare prompt.
    out.extend(
        factors
            .iter()
            .filter(|f| f.points() < 0.0 && !f.detail.is_empty())
            .map(|f| f.detail.clone()),
    );
    if risk != Risk::Low {
        out.push(match lang {
            Lang::Zh => "中等风险：安装前请看安全说明".to_owned(),
            Lang::En => "medium risk: read the safety notes before installing".to_owned(),
        });
    }
    out
}
