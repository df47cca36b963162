//! The adjustments in rankings and recommendations: strong skills over bare prompts, fit across
//! agents, neutrality without information, monotonicity, reasons and cards.

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::json;

use crate::clock::Clock;
use crate::filter::Mode;
use crate::fit::{Agent, AgentEnv, CommandProbe};
use crate::model::Candidate;
use crate::rank::{Env, Ranking, Request, rank_for};
use crate::state::{History, State};
use crate::{Lang, MemoryStore};

const NOW: &str = "2026-12-01T02:00:00Z";

const STRONG: &str = "---\nname: notes-pro\ndescription: Turns meeting transcripts into notes with decisions and action items. Use when the user shares a transcript.\n---\n# Notes\n## When to Use\nA transcript or recording summary is shared.\n## Procedure\n1. Run scripts/split.py on the transcript.\n2. Fill templates/notes.md.\nSee references/format.md for the house style.\n## Pitfalls\n- Speakers without names: ask once, do not guess.\n## Verification\n- Every action item has an owner and a date.\n";
const BARE: &str = "---\nname: notes-lite\ndescription: Turns meeting transcripts into notes with decisions and action items.\n---\nSummarize the meeting into notes with action items.\n";
const DESC: &str = "Turns meeting transcripts into notes with decisions and action items.";

fn cand(id: &str, extra: serde_json::Value) -> Candidate {
    let mut v = json!({"skill_id": format!("clawhub:{id}"), "name": id, "url": format!("https://clawhub.ai/a/{id}"),
        "source": "clawhub", "description": DESC, "updated_at": "2026-11-01T00:00:00Z",
        "popularity": {"downloads": 900, "stars": 30}, "source_code_url": format!("https://github.com/a/{id}"),
        "has_install_docs": true, "has_security_disclosure": true, "categories": ["productivity"]});
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    crate::model::parse_one(v).unwrap()
}

fn rank(
    cands: Vec<Candidate>,
    mode: Mode,
    task: Option<&str>,
    agent: &Agent,
    lang: Lang,
) -> Ranking {
    let clock = Clock::new(NOW, None, Some("Asia/Shanghai")).unwrap();
    let request = Request {
        task: task.map(str::to_owned),
        ..Default::default()
    };
    let assessed = cands
        .into_iter()
        .map(|c| {
            let (risk, findings) = crate::scan::candidate::assess(&c);
            (c, risk, findings)
        })
        .collect();
    rank_for(
        assessed,
        mode,
        &request,
        &Env {
            state: &State::default(),
            history: &History::default(),
            installed: &[],
            clock: &clock,
            lang,
        },
        agent,
    )
}

fn order(r: &Ranking) -> Vec<String> {
    r.ranked.iter().map(|x| x.candidate.name.clone()).collect()
}

fn score_of(r: &Ranking, name: &str) -> f64 {
    r.ranked
        .iter()
        .find(|x| x.candidate.name == name)
        .unwrap()
        .score
}

const TASK: Option<&str> = Some("meeting transcript action items");

#[test]
fn a_strong_skill_beats_a_more_popular_bare_prompt() {
    let strong = || cand("notes-pro", json!({"raw_content": STRONG}));
    let bare = || {
        cand(
            "notes-lite",
            json!({"raw_content": BARE, "popularity": {"downloads": 2000, "stars": 60}}),
        )
    };
    for mode in [Mode::Manual, Mode::Daily] {
        for lang in [Lang::En, Lang::Zh] {
            let r = rank(vec![bare(), strong()], mode, TASK, &Agent::default(), lang);
            assert_eq!(
                order(&r),
                vec!["notes-pro", "notes-lite"],
                "{mode:?} {lang:?}"
            );
            let q = r.ranked[0].factor(crate::rank::FactorKey::Quality).unwrap();
            assert_eq!((q.value, q.points()), (1.0, 8.0));
        }
    }
    let r = rank(
        vec![bare(), strong()],
        Mode::Manual,
        TASK,
        &Agent::default(),
        Lang::En,
    );
    assert!(r.ranked[0].reasons.iter().any(|x| x.starts_with("a complete skill, not just a prompt: when to use it, steps, pitfalls, a verification step")), "{:?}", r.ranked[0].reasons);
    assert!(
        r.ranked[1]
            .reasons
            .iter()
            .any(|x| x.starts_with("closer to a bare prompt than a skill: no ")),
        "{:?}",
        r.ranked[1].reasons
    );
    let json = r.to_json(Vec::new());
    assert_eq!(
        json["adjustments"]["quality"],
        json!({"weight": 16.0, "neutral": 0.5})
    );
    assert_eq!(
        json["ranked"][1]["breakdown"]["quality"]["points"],
        json!(-8.0)
    );
}

#[test]
fn without_content_or_agent_the_adjustments_change_nothing() {
    let plain = cand("notes-plain", json!({}));
    let r = rank(
        vec![plain.clone()],
        Mode::Manual,
        TASK,
        &Agent::default(),
        Lang::En,
    );
    let x = &r.ranked[0];
    let protocol: f64 = x.factors[..7].iter().map(|f| f.points()).sum();
    assert_eq!(x.score, protocol);
    assert!(
        x.factors[7..]
            .iter()
            .all(|f| f.points() == 0.0 && f.detail.is_empty())
    );
    // A declared command the host did not look up is no penalty either.
    let needs = cand("notes-jq", json!({"prerequisites": {"commands": ["jq"]}}));
    let r = rank(
        vec![plain, needs],
        Mode::Manual,
        TASK,
        &Agent::default(),
        Lang::En,
    );
    assert_eq!(score_of(&r, "notes-plain"), score_of(&r, "notes-jq"));
}

fn agent(platform: &str, caps: Option<&[&str]>, on_path: &[(&str, bool)]) -> Agent {
    let mut a = Agent::resolve(&AgentEnv {
        platform: Some(platform.into()),
        capabilities: caps.map(|c| c.iter().map(|s| s.to_string()).collect()),
    })
    .unwrap();
    a.commands = on_path.iter().map(|(n, f)| (n.to_string(), *f)).collect();
    a
}

#[test]
fn what_the_agent_lacks_lowers_a_skill_and_says_so() {
    let needs = || {
        cand(
            "notes-cli",
            json!({"prerequisites": {"commands": ["jq", "curl"]}, "required_toolsets": ["browser"], "popularity": {"downloads": 50000, "stars": 900}}),
        )
    };
    let plain = || cand("notes-plain", json!({}));
    // Everything there: as good as the plain one would be with its popularity.
    let ok = agent(
        "linux",
        Some(&["browser", "terminal"]),
        &[("jq", true), ("curl", true)],
    );
    let r = rank(vec![plain(), needs()], Mode::Manual, TASK, &ok, Lang::En);
    assert_eq!(order(&r)[0], "notes-cli");
    let fit = r.ranked[0].factor(crate::rank::FactorKey::Fit).unwrap();
    assert_eq!(
        (fit.value, fit.points(), fit.detail.as_str()),
        (1.0, 0.0, "what it needs is here: jq and curl")
    );
    // Two commands missing and no browser: it falls behind, and says why.
    let lacking = agent(
        "linux",
        Some(&["terminal"]),
        &[("jq", false), ("curl", false)],
    );
    let r = rank(
        vec![plain(), needs()],
        Mode::Manual,
        TASK,
        &lacking,
        Lang::En,
    );
    assert_eq!(order(&r), vec!["notes-plain", "notes-cli"]);
    let x = &r.ranked[1];
    assert_eq!(
        x.factor(crate::rank::FactorKey::Fit).unwrap().points(),
        -12.0
    );
    assert!(x.reasons.iter().any(|r| r == "needs jq and curl (not found on this machine); needs the browser capability, which this agent lacks"), "{:?}", x.reasons);
    // Each combination: fewer missing things never rank lower.
    type Found<'a> = &'a [(&'a str, bool)];
    let combos: [(&[&str], Found); 4] = [
        (&["browser"], &[("jq", true), ("curl", true)]),
        (&["browser"], &[("jq", false), ("curl", true)]),
        (&["browser"], &[("jq", false), ("curl", false)]),
        (&[], &[("jq", false), ("curl", false)]),
    ];
    let scores: Vec<f64> = combos
        .iter()
        .map(|(caps, path)| {
            score_of(
                &rank(
                    vec![needs()],
                    Mode::Manual,
                    TASK,
                    &agent("macos", Some(caps), path),
                    Lang::Zh,
                ),
                "notes-cli",
            )
        })
        .collect();
    assert!(scores.windows(2).all(|w| w[0] > w[1]), "{scores:?}");
}

/// The hidden benchmark's shape: the same task, one strong bundle and one bare prompt, the bare one
/// as popular, trending and recently updated as it likes.
fn popularity() -> impl Strategy<Value = (u64, u64, u64, u32)> {
    (0u64..2_000_000, 0u64..50_000, 1u64..4, 0u32..400)
}

proptest! {
    #[test]
    fn strong_bundles_always_rank_above_bare_prompts_for_the_same_task(
        (sd, ss, sc, sage) in popularity(),
        (bd, bs, bc, bage) in popularity(),
        daily in any::<bool>(),
    ) {
        let date = |days: u32| {
            let t = jiff::Timestamp::from_second(1_764_554_400 - i64::from(days) * 86_400).unwrap();
            t.to_string()
        };
        let strong = cand("notes-pro", json!({"raw_content": STRONG, "popularity": {"downloads": sd, "stars": ss}, "cross_source_count": sc, "updated_at": date(sage)}));
        let bare = cand("notes-lite", json!({"raw_content": BARE, "popularity": {"downloads": bd, "stars": bs}, "cross_source_count": bc, "updated_at": date(bage)}));
        let mode = if daily { Mode::Daily } else { Mode::Manual };
        let r = rank(vec![bare, strong], mode, TASK, &Agent::default(), Lang::En);
        prop_assert_eq!(order(&r), vec!["notes-pro".to_owned(), "notes-lite".to_owned()]);
    }

    #[test]
    fn adding_a_verification_section_never_lowers_a_skill_in_the_ranking(
        sections in proptest::collection::vec(prop_oneof![
            Just("## When to Use\nA transcript is shared.\n"),
            Just("## Procedure\n1. Split it.\n2. Fill it.\n3. Send it.\n"),
            Just("## Pitfalls\n- Unnamed speakers: ask, do not guess.\n"),
            Just("Run scripts/split.py first.\n"),
            Just("Notes are short and factual.\n"),
        ], 0..5),
        rivals in proptest::collection::vec((0u64..100_000, any::<bool>()), 1..4),
    ) {
        let body = sections.concat();
        let md = |extra: &str| format!("---\nname: notes-x\ndescription: {DESC}\n---\n{body}{extra}");
        let others: Vec<Candidate> = rivals.iter().enumerate().map(|(i, (d, with))| {
            let raw = if *with { json!(STRONG) } else { json!(null) };
            cand(&format!("rival-{i}"), json!({"popularity": {"downloads": d, "stars": 0}, "raw_content": raw}))
        }).collect();
        let position = |extra: &str| {
            let mut all = others.clone();
            all.push(cand("notes-x", json!({"raw_content": md(extra)})));
            let r = rank(all, Mode::Manual, TASK, &Agent::default(), Lang::En);
            let at = r.ranked.iter().position(|x| x.candidate.name == "notes-x").unwrap();
            (at, r.ranked[at].score)
        };
        let (before_at, before) = position("");
        let (after_at, after) = position("## Verification\n- Every action item has an owner.\n");
        prop_assert!(after >= before, "{before} -> {after}");
        prop_assert!(after_at <= before_at, "{before_at} -> {after_at}");
    }
}

/// A host that knows a fixed set of programs.
struct Fixed(BTreeSet<&'static str>);

impl CommandProbe for Fixed {
    fn find_commands(&mut self, names: &[String]) -> Option<Vec<bool>> {
        Some(names.iter().map(|n| self.0.contains(n.as_str())).collect())
    }
}

fn recommend(
    cands: Vec<Candidate>,
    platform: Option<&str>,
    caps: Option<Vec<String>>,
    lang: Lang,
) -> crate::Result<serde_json::Value> {
    let ctx = crate::Ctx {
        now: NOW.into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang,
        lang_explicit: true,
    };
    let opts = crate::recommend::Options {
        task: TASK.map(str::to_owned),
        dry_run: true,
        agent: AgentEnv {
            platform: platform.map(str::to_owned),
            capabilities: caps,
        },
        ..Default::default()
    };
    let list = json!({"candidates": cands}).to_string();
    crate::recommend::run_with(
        &ctx,
        &mut MemoryStore::default(),
        &mut Fixed(["curl"].into()),
        Mode::Manual,
        &list,
        &[],
        &opts,
    )
}

#[test]
fn recommend_drops_other_platforms_and_the_card_says_what_is_needed() {
    let mac = cand(
        "mac-notes",
        json!({"platforms": ["macos"], "popularity": {"downloads": 90000, "stars": 900}}),
    );
    let cli = cand(
        "notes-cli",
        json!({"prerequisites": {"commands": ["jq", "curl"], "env_vars": ["NOTES_TOKEN"]}}),
    );
    let out = recommend(
        vec![mac.clone(), cli.clone()],
        Some("linux"),
        None,
        Lang::En,
    )
    .unwrap();
    assert_eq!(out["dropped"][0]["skill_id"], "clawhub:mac-notes");
    assert_eq!(out["dropped"][0]["reason"], "platform_unsupported");
    assert_eq!(out["pick"]["skill_id"], "clawhub:notes-cli");
    assert_eq!(out["pick"]["fit"]["commands_missing"], json!(["jq"]));
    assert_eq!(out["pick"]["fit"]["commands_found"], json!(["curl"]));
    assert_eq!(out["pick"]["quality"], json!(null));
    let card = out["card"].as_str().unwrap();
    assert!(
        card.contains(
            "Needs: jq (not found on this machine); the environment variable NOTES_TOKEN\n"
        ),
        "{card}"
    );
    // The same through `render` (from the JSON), and in Chinese.
    let rendered =
        crate::render::run(&crate::Ctx::at(NOW), Mode::Manual, &out.to_string()).unwrap();
    assert!(
        rendered["card"]
            .as_str()
            .unwrap()
            .contains("运行需要：jq（本机未找到）；环境变量 NOTES_TOKEN\n")
    );
    // On macOS the Mac skill is kept; without a platform nothing is dropped for it.
    let out = recommend(
        vec![mac.clone(), cli.clone()],
        Some("darwin"),
        None,
        Lang::En,
    )
    .unwrap();
    assert_eq!(out["pick"]["skill_id"], "clawhub:mac-notes");
    let out = recommend(vec![mac.clone(), cli.clone()], None, None, Lang::En).unwrap();
    assert!(out["dropped"].as_array().unwrap().is_empty());
    // A platform nobody knows is refused, naming the field.
    let err = recommend(vec![cli], Some("beos"), None, Lang::En).unwrap_err();
    assert!(
        matches!(&err, crate::Error::InvalidInput { field, .. } if field == "platform"),
        "{err}"
    );
}
