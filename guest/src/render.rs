//! The cards an agent shows: the daily card in the protocol's exact structure and the manual card, in
//! Chinese or English, without markdown tables.
//!
//! Copy comes from the agent's own fields when present (`tagline`, `pain_point`, `highlights`);
//! otherwise every line is derived from the candidate's data (description, categories, popularity,
//! source, dates) and the ranking's reasons. Nothing is invented: a fact the data lacks is left out.

use serde_json::{Value, json};

use crate::Lang;
use crate::error::{Error, Result};
use crate::filter::Mode;
use crate::model::{Candidate, parse_one};

pub mod copy;

/// The most characters of a derived one-line position.
pub const POSITION_MAX_CHARS: usize = 80;

/// One skill on a card.
#[derive(Debug, Clone, Default)]
pub struct Item {
    pub candidate: Candidate,
    /// `low` or `medium` (high never reaches a card).
    pub risk_level: String,
    pub risk_explanation: String,
    /// Whether the scan found anything at all.
    pub has_findings: bool,
    /// The ranking's readable reasons, best first.
    pub reasons: Vec<String>,
    pub installed: bool,
    /// What the user would need to set up to run it (missing commands, environment variables,
    /// capabilities; see [`crate::fit::Fit::needs`]), if anything.
    pub needs: Option<String>,
    /// Facts the source did not state (`updated_at`, `popularity`): said on the card.
    pub unknown: Vec<String>,
}

/// The facts a candidate's source left unstated, as `unknown` lists them in JSON.
pub fn unknown_fields(c: &Candidate) -> Vec<String> {
    let mut out = Vec::new();
    if c.updated_at
        .as_deref()
        .and_then(crate::clock::parse_stored)
        .is_none()
    {
        out.push("updated_at".to_owned());
    }
    if c.popularity.unknown {
        out.push("popularity".to_owned());
    }
    out
}

/// Everything a card shows.
#[derive(Debug, Clone, Default)]
pub struct Card {
    pub pick: Item,
    pub alternatives: Vec<Item>,
    /// Fewer than three usable candidates: say the pick is less certain.
    pub low_confidence: bool,
    /// `YYYY-MM-DD` in the user's zone.
    pub local_date: String,
    /// Daily theme label, if any.
    pub theme_label: Option<String>,
    /// Appended after the install question (the protocol's one extra question per turn).
    pub update_question: Option<String>,
    /// The bundled sample data: the card says it is a demonstration.
    pub demo: bool,
}

/// Split off the first sentence (Chinese or English punctuation).
pub(crate) fn first_sentence(text: &str) -> (&str, &str) {
    let t = text.trim();
    let mut cut = None;
    let mut iter = t.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let end = i + c.len_utf8();
        match c {
            '。' | '！' | '？' | '；' => {
                cut = Some(end);
                break;
            }
            '.' | '!' | '?' | ';' if iter.peek().is_none_or(|(_, n)| n.is_whitespace()) => {
                cut = Some(end);
                break;
            }
            _ => {}
        }
    }
    match cut {
        Some(end) => (t[..end].trim(), t[end..].trim()),
        None => (t, ""),
    }
}

fn strip_end_punct(s: &str) -> &str {
    s.trim_end_matches(['。', '.', '！', '!', '；', ';'])
}

pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

fn join(items: &[String], lang: Lang) -> String {
    items.join(if lang == Lang::Zh { "、" } else { ", " })
}

/// The one-line position: the agent's `tagline`, else the description's first sentence.
pub fn position(c: &Candidate) -> String {
    if let Some(t) = c
        .tagline
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        return shorten(t, POSITION_MAX_CHARS);
    }
    let (first, _) = first_sentence(&c.description);
    shorten(strip_end_punct(first), POSITION_MAX_CHARS)
}

/// The pain point, as written: the agent's `pain_point`, else a description sentence that states a
/// need ([`copy::need_sentence`]; never a limitation or a negation), else what the categories say,
/// else what the skill does (the description's first sentence).
pub fn pain_point(c: &Candidate, lang: Lang) -> String {
    if let Some(p) = c
        .pain_point
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        return p.to_owned();
    }
    if let Some(need) = copy::need_sentence(&c.description) {
        return need.to_owned();
    }
    let cats: Vec<String> = c.categories.iter().take(3).cloned().collect();
    match (lang, cats.is_empty()) {
        (Lang::Zh, false) => format!("处理{}相关的任务", join(&cats, lang)),
        (Lang::En, false) => format!("getting {} work done", join(&cats, lang)),
        (_, true) => strip_end_punct(first_sentence(&c.description).0).to_owned(),
    }
}

/// What the source did not state, as a clause in the card's language (`None` when nothing is missing).
fn unknown_clause(item: &Item, lang: Lang) -> Option<&'static str> {
    let date = item.unknown.iter().any(|u| u == "updated_at");
    let counts = item.unknown.iter().any(|u| u == "popularity");
    Some(match (date, counts, lang) {
        (true, true, Lang::Zh) => "来源没有给出更新时间和下载量、星标数",
        (true, false, Lang::Zh) => "来源没有给出更新时间",
        (false, true, Lang::Zh) => "来源没有给出下载量和星标数",
        (true, true, Lang::En) => {
            "the source states neither an update date nor download or star counts"
        }
        (true, false, Lang::En) => "the source states no update date",
        (false, true, Lang::En) => "the source states no download or star counts",
        (false, false, _) => return None,
    })
}

/// Why a pick is less certain, as one sentence (`None` when it is not): also `recommend`'s `message`.
pub fn confidence_text(card: &Card, lang: Lang) -> Option<String> {
    confidence_line(card, lang).map(|l| {
        l.trim_end()
            .trim_start_matches(['(', '（'])
            .trim_end_matches([')', '）'])
            .to_owned()
    })
}

/// The line saying a manual pick is less certain, and why (`None` when it is not).
fn confidence_line(card: &Card, lang: Lang) -> Option<String> {
    let mut why: Vec<&str> = Vec::new();
    if card.low_confidence {
        why.push(match lang {
            Lang::Zh => "可用候选不足 3 个",
            Lang::En => "fewer than 3 usable candidates",
        });
    }
    why.extend(unknown_clause(&card.pick, lang));
    if why.is_empty() {
        return None;
    }
    Some(match lang {
        Lang::Zh => format!("（这次推荐的把握较低：{}。）\n", why.join("；")),
        Lang::En => format!("(This pick is less certain: {}.)\n", why.join("; ")),
    })
}

/// The line an agent acts on: the skill's id, for `accept --skill-id` / `reject --skill-id`.
fn id_line(c: &Candidate, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("ID：{}\n", c.skill_id),
        Lang::En => format!("ID: {}\n", c.skill_id),
    }
}

/// The first line of a card made from the bundled sample data.
fn demo_line(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "【演示】以下内容来自内置示例数据，不是真实推荐。\n\n",
        Lang::En => {
            "[Demo] This card comes from the built-in sample data, not a real recommendation.\n\n"
        }
    }
}

/// A registry's display name.
pub fn source_label(source: &str) -> String {
    match source.trim().to_ascii_lowercase().as_str() {
        "clawhub" => "ClawHub".into(),
        "skillssh" => "skills.sh".into(),
        "smithery" => "Smithery".into(),
        "glama" => "Glama".into(),
        "mcpmarket" => "MCP Market".into(),
        "skillhub" => "SkillHub".into(),
        "github" => "GitHub".into(),
        "x" => "X".into(),
        other => other.to_owned(),
    }
}

/// Up to three highlights: the agent's, else facts from the candidate's own data.
pub fn highlights(c: &Candidate, lang: Lang) -> Vec<String> {
    let own: Vec<String> = c
        .highlights
        .iter()
        .map(|h| h.trim())
        .filter(|h| !h.is_empty())
        .take(3)
        .map(|h| strip_end_punct(h).to_owned())
        .collect();
    if !own.is_empty() {
        return own;
    }
    let mut facts = Vec::new();
    if !c.categories.is_empty() {
        let cats: Vec<String> = c.categories.iter().take(4).cloned().collect();
        facts.push(match lang {
            Lang::Zh => format!("覆盖：{}", join(&cats, lang)),
            Lang::En => format!("Covers: {}", join(&cats, lang)),
        });
    }
    let (d, s) = (c.popularity.downloads, c.popularity.stars);
    if d > 0 || s > 0 {
        let src = source_label(&c.source);
        facts.push(match (lang, d > 0, s > 0) {
            (Lang::Zh, true, true) => format!("{src} 上 {d} 次下载、{s} 星"),
            (Lang::Zh, true, false) => format!("{src} 上 {d} 次下载"),
            (Lang::Zh, false, _) => format!("{src} 上 {s} 星"),
            (Lang::En, true, true) => format!("{d} downloads and {s} stars on {src}"),
            (Lang::En, true, false) => format!("{d} downloads on {src}"),
            (Lang::En, false, _) => format!("{s} stars on {src}"),
        });
    }
    if c.complexity.as_deref().map(str::trim) == Some("lightweight") {
        facts.push(match lang {
            Lang::Zh => "轻量级，装上就能用".to_owned(),
            Lang::En => "Lightweight: works right after install".to_owned(),
        });
    }
    if !c.required_toolsets.is_empty() {
        facts.push(match lang {
            Lang::Zh => format!("需要的工具：{}", join(&c.required_toolsets, lang)),
            Lang::En => format!("Needs: {}", join(&c.required_toolsets, lang)),
        });
    }
    if let Some(u) = c
        .source_code_url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
    {
        facts.push(match lang {
            Lang::Zh => format!("源码公开：{u}"),
            Lang::En => format!("Open source: {u}"),
        });
    }
    if let Some(day) = c.updated_at.as_deref().and_then(|t| t.get(..10)) {
        facts.push(match lang {
            Lang::Zh => format!("最近更新：{day}"),
            Lang::En => format!("Last updated {day}"),
        });
    }
    if c.has_install_docs {
        facts.push(match lang {
            Lang::Zh => "附带安装说明".to_owned(),
            Lang::En => "Comes with install docs".to_owned(),
        });
    }
    facts.truncate(3);
    facts
}

fn why(item: &Item, theme: Option<&str>, lang: Lang) -> String {
    let reasons: Vec<&str> = item
        .reasons
        .iter()
        .map(String::as_str)
        .filter(|r| !r.is_empty())
        .take(3)
        .collect();
    let body = match lang {
        Lang::Zh => reasons.join("；"),
        Lang::En => reasons.join("; "),
    };
    let body = if body.is_empty() {
        match lang {
            Lang::Zh => "在今天的候选里综合得分最高".to_owned(),
            Lang::En => "it scored best among today's candidates".to_owned(),
        }
    } else {
        body
    };
    // The theme is said once: not again when a reason already names it.
    let theme = theme.filter(|t| !reasons.iter().any(|r| r.contains(t)));
    match (theme, lang) {
        (Some(t), Lang::Zh) => format!("今天的主题是「{t}」。{body}。"),
        (Some(t), Lang::En) => format!("Today's theme is {t}. {}.", capitalize(&body)),
        (None, Lang::Zh) => format!("{body}。"),
        (None, Lang::En) => format!("{}.", capitalize(&body)),
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(f) => f.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn safety(item: &Item, lang: Lang) -> String {
    let src = source_label(&item.candidate.source);
    match (item.risk_level.as_str(), lang) {
        ("low", Lang::Zh) if !item.has_findings => {
            format!("低风险（来源 {src}，安全扫描未发现问题）")
        }
        ("low", Lang::Zh) => format!("低风险（来源 {src}）"),
        ("low", Lang::En) if !item.has_findings => {
            format!("low risk (source {src}; the security scan found nothing)")
        }
        ("low", Lang::En) => format!("low risk (source {src})"),
        (_, Lang::Zh) => format!(
            "中等风险，安装前请确认：{}",
            strip_end_punct(&item.risk_explanation)
        ),
        (_, Lang::En) => format!(
            "medium risk, please review before installing: {}",
            strip_end_punct(&item.risk_explanation)
        ),
    }
}

/// What the user would need before it runs, as a card line (empty when nothing).
fn needs_line(item: &Item, lang: Lang) -> String {
    match (&item.needs, lang) {
        (None, _) => String::new(),
        (Some(n), Lang::Zh) => format!("运行需要：{n}\n"),
        (Some(n), Lang::En) => format!("Needs: {n}\n"),
    }
}

/// The daily card, in the protocol's structure (SKILL.md "Output formats"): blank lines between the
/// blocks, so chat UIs that render Markdown keep the lines apart. Beyond the protocol's lines: the
/// skill's ID under the source (what `accept` takes), a note when the source left the update date or
/// counts unstated, and a first line when the card is a demonstration.
pub fn daily_card(card: &Card, lang: Lang) -> String {
    let p = &card.pick;
    let c = &p.candidate;
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    if card.demo {
        out += demo_line(lang);
    }
    out += &if zh {
        format!("📡 每日精选推荐 · {}\n\n", card.local_date)
    } else {
        format!("📡 Daily pick · {}\n\n", card.local_date)
    };
    out += &if zh {
        format!("🎯 今日推荐：{} — {}\n\n", c.name, position(c))
    } else {
        format!("🎯 Today's pick: {} — {}\n\n", c.name, position(c))
    };
    out += &if zh {
        format!(
            "这个 skill 专治一个很常见的问题：{}\n\n",
            pain_point(c, lang)
        )
    } else {
        format!(
            "It fixes a very common problem: {}\n\n",
            pain_point(c, lang)
        )
    };
    out += if zh {
        "它能做什么：\n"
    } else {
        "What it does:\n"
    };
    for h in highlights(c, lang) {
        out += &format!("• {h}\n");
    }
    let why = why(p, card.theme_label.as_deref(), lang);
    out += &if zh {
        format!("\n为什么值得装：{why}\n\n来源：{}\n", c.url)
    } else {
        format!("\nWhy it's worth installing: {why}\n\nSource: {}\n", c.url)
    };
    out += &id_line(c, lang);
    out += &if zh {
        format!("安全状态：{}\n", safety(p, lang))
    } else {
        format!("Safety: {}\n", safety(p, lang))
    };
    if let Some(note) = unknown_clause(p, lang) {
        out += &if zh {
            format!("备注：{note}。\n")
        } else {
            format!("Note: {note}.\n")
        };
    }
    out += &needs_line(p, lang);
    out += if zh {
        "\n需要我帮你装上吗？回复「安装」即可。\n"
    } else {
        "\nWant me to install it? Just reply \"install\".\n"
    };
    if let Some(q) = &card.update_question {
        out += &format!("\n{q}\n");
    }
    out
}

/// The manual card: pick, the problem it solves, up to three highlights, why it fits, source and ID,
/// installed state, safety, up to two alternatives, the install question. A pick that is less certain
/// (few candidates, or a source that left the update date or counts unstated) says so and why.
pub fn manual_card(card: &Card, lang: Lang) -> String {
    let p = &card.pick;
    let c = &p.candidate;
    let zh = lang == Lang::Zh;
    let mut out = String::new();
    if card.demo {
        out += demo_line(lang);
    }
    out += &if zh {
        format!("推荐给你：{} — {}\n", c.name, position(c))
    } else {
        format!("Recommended for you: {} — {}\n", c.name, position(c))
    };
    if let Some(line) = confidence_line(card, lang) {
        out += &line;
    }
    // The pain point is copy: it keeps its own punctuation, and the card adds none after it.
    out += &if zh {
        format!("\n它解决的问题：{}\n", pain_point(c, lang))
    } else {
        format!("\nThe problem it solves: {}\n", pain_point(c, lang))
    };
    let hl = highlights(c, lang);
    if !hl.is_empty() {
        out += if zh {
            "\n亮点：\n"
        } else {
            "\nHighlights:\n"
        };
        for h in &hl {
            out += &format!("• {h}\n");
        }
    }
    let why = why(p, None, lang);
    out += &if zh {
        format!("\n为什么适合你现在的任务：{why}\n\n来源：{}\n", c.url)
    } else {
        format!(
            "\nWhy it fits what you're doing: {why}\n\nSource: {}\n",
            c.url
        )
    };
    out += &id_line(c, lang);
    out += match (zh, p.installed) {
        (true, false) => "已安装状态：未安装\n",
        (true, true) => "已安装状态：已安装\n",
        (false, false) => "Installed: no\n",
        (false, true) => "Installed: yes\n",
    };
    out += &if zh {
        format!("安全状态：{}\n", safety(p, lang))
    } else {
        format!("Safety: {}\n", safety(p, lang))
    };
    out += &needs_line(p, lang);
    if !card.alternatives.is_empty() {
        out += if zh {
            "\n备选：\n"
        } else {
            "\nAlternatives:\n"
        };
        for a in &card.alternatives {
            let risk = match (a.risk_level.as_str(), zh) {
                ("low", _) => "",
                (_, true) => "（中等风险）",
                (_, false) => " (medium risk)",
            };
            out += &format!(
                "• {} — {}{risk}\n",
                a.candidate.name,
                position(&a.candidate)
            );
        }
    }
    out += if zh {
        "\n需要我帮你装上吗？回复「安装」即可。\n"
    } else {
        "\nWant me to install it? Just reply \"install\".\n"
    };
    if let Some(q) = &card.update_question {
        out += &format!("\n{q}\n");
    }
    out
}

/// Render either card.
pub fn card_text(card: &Card, mode: Mode, lang: Lang) -> String {
    match mode {
        Mode::Daily => daily_card(card, lang),
        Mode::Manual => manual_card(card, lang),
    }
}

/// Read a card item from JSON (a `pick` or an alternative of `recommend`'s output, or a candidate with
/// `risk_level`, `risk_explanation`, `reasons`).
fn item_from_json(v: &Value, field: &str, lang: Lang) -> Result<Item> {
    let candidate = parse_one(v.clone()).map_err(|m| Error::invalid(field, m))?;
    let risk_level = match candidate
        .risk_level
        .as_deref()
        .map(|r| r.trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("") | Some("low") => "low".to_owned(),
        Some("medium") => "medium".to_owned(),
        Some(other) => {
            return Err(Error::invalid(
                format!("{field}.risk_level"),
                format!("{other:?}: only low- and medium-risk skills are ever shown on a card"),
            ));
        }
    };
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    Ok(Item {
        risk_explanation: text("risk_explanation"),
        has_findings: v
            .get("findings")
            .and_then(Value::as_array)
            .is_some_and(|f| !f.is_empty()),
        reasons: v
            .get("reasons")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        installed: v.get("installed").and_then(Value::as_bool).unwrap_or(false),
        unknown: unknown_fields(&candidate),
        // Said again in the card's language, from the lists (not the `needs` text).
        needs: v
            .get("fit")
            .and_then(|f| crate::fit::Fit::from_json(f).needs(lang)),
        risk_level,
        candidate,
    })
}

/// The `render` export: `input` is `recommend`'s JSON output (or `{pick, alternatives?, confidence?,
/// local_date?, theme?, update_question?}`); returns `{mode, lang, card}`.
pub fn run(ctx: &crate::Ctx, mode: Mode, input: &str) -> Result<Value> {
    let v: Value = serde_json::from_str(input)
        .map_err(|e| Error::invalid("input", format!("not valid JSON ({e})")))?;
    if !v.is_object() {
        return Err(Error::invalid(
            "input",
            "must be a JSON object with a `pick`",
        ));
    }
    let pick = match v.get("pick") {
        Some(p) if p.is_object() => item_from_json(p, "pick", ctx.lang)?,
        _ => {
            return Err(Error::invalid(
                "pick",
                "missing: there is nothing to show (a silent recommendation has no card)",
            ));
        }
    };
    let mut alternatives = Vec::new();
    for (i, a) in v
        .get("alternatives")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(2)
        .enumerate()
    {
        alternatives.push(item_from_json(a, &format!("alternatives[{i}]"), ctx.lang)?);
    }
    let local_date = match v.get("local_date").and_then(Value::as_str) {
        Some(d) => d.to_owned(),
        None => crate::clock::Clock::new(&ctx.now, None, ctx.host_timezone.as_deref())?
            .today()
            .to_string(),
    };
    let theme_label = v
        .get("theme")
        .and_then(Value::as_str)
        .and_then(crate::rank::Theme::parse)
        .map(|t| t.label(ctx.lang).to_owned());
    let card = Card {
        pick,
        alternatives: if mode == Mode::Manual {
            alternatives
        } else {
            Vec::new()
        },
        // `confidence_reasons` names why; a result without it (older output) meant few candidates.
        low_confidence: v.get("confidence").and_then(Value::as_str) == Some("low")
            && v.get("confidence_reasons")
                .and_then(Value::as_array)
                .is_none_or(|r| r.iter().any(|x| x == "few_candidates")),
        local_date,
        theme_label: if mode == Mode::Daily {
            theme_label
        } else {
            None
        },
        update_question: v
            .get("update_question")
            .and_then(Value::as_str)
            .map(str::to_owned),
        demo: v.get("demo").and_then(Value::as_bool).unwrap_or(false),
    };
    Ok(json!({
        "mode": mode.as_str(),
        "lang": match ctx.lang { Lang::Zh => "zh", Lang::En => "en" },
        "card": card_text(&card, mode, ctx.lang),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentence_splits_on_either_script() {
        assert_eq!(
            first_sentence("把表格导出。支持 OCR。"),
            ("把表格导出。", "支持 OCR。")
        );
        assert_eq!(
            first_sentence("Extracts tables. Scans too."),
            ("Extracts tables.", "Scans too.")
        );
        assert_eq!(first_sentence("v1.2 is here"), ("v1.2 is here", ""));
    }

    #[test]
    fn derived_highlights_are_facts_from_the_data_only() {
        let c = Candidate {
            categories: vec!["pdf".into()],
            source: "clawhub".into(),
            ..Candidate::default()
        };
        assert_eq!(highlights(&c, Lang::Zh), vec!["覆盖：pdf".to_owned()]);
        let mut c2 = c.clone();
        c2.highlights = vec!["One".into(), " ".into(), "Two.".into()];
        assert_eq!(
            highlights(&c2, Lang::En),
            vec!["One".to_owned(), "Two".to_owned()]
        );
    }

    #[test]
    fn a_high_risk_item_cannot_be_rendered() {
        let ctx = crate::Ctx::at("2026-11-29T02:00:00Z");
        let input = r#"{"pick": {"skill_id": "x:y", "name": "y", "url": "https://e.com", "description": "d", "risk_level": "high"}}"#;
        let err = run(&ctx, Mode::Manual, input).unwrap_err();
        assert!(err.to_string().contains("pick.risk_level"), "{err}");
        let err = run(&ctx, Mode::Manual, r#"{"silent": true}"#).unwrap_err();
        assert!(err.to_string().contains("pick"), "{err}");
    }
}
