//! Each rule at its boundary, plus properties.

use super::*;
use crate::state::{HistoryRecord, LastAction};
use proptest::prelude::*;

const NOW: &str = "2026-05-18T12:00:00Z";
const DESC: &str = "A complete toolkit that extracts tables from PDF files into spreadsheets.";

fn cand(id: &str, name: &str, source: &str) -> Candidate {
    Candidate {
        skill_id: id.into(),
        name: name.into(),
        url: format!("https://example.org/{}", id.replace(':', "/")),
        source_code_url: Some(format!(
            "https://github.com/example/{}",
            name_key(name).replace(' ', "-")
        )),
        description: DESC.into(),
        categories: vec!["pdf".into()],
        source: source.into(),
        updated_at: Some("2026-05-01T00:00:00Z".into()),
        popularity: crate::model::Popularity {
            downloads: 500,
            stars: 20,
            ..Default::default()
        },
        has_install_docs: true,
        has_security_disclosure: true,
        cross_source_count: 1,
        ..Default::default()
    }
}

fn clock() -> Clock {
    Clock::new(NOW, None, None).unwrap()
}

fn run(cands: Vec<Candidate>) -> Outcome {
    run_with(
        cands,
        Mode::Manual,
        &State::default(),
        &History::default(),
        &[],
        &clock(),
    )
}

fn run_with(
    cands: Vec<Candidate>,
    mode: Mode,
    state: &State,
    history: &History,
    installed: &[InstalledSkill],
    clock: &Clock,
) -> Outcome {
    filter(
        cands.into_iter().map(Ok).collect(),
        mode,
        state,
        history,
        installed,
        clock,
    )
}

fn kept(o: &Outcome) -> Vec<&str> {
    o.kept.iter().map(|c| c.skill_id.as_str()).collect()
}

fn reason(o: &Outcome, id: &str) -> Option<Reason> {
    o.dropped
        .iter()
        .find(|d| d.skill_id == id)
        .map(|d| d.reason)
}

fn days_ago(n: i64) -> String {
    let ts = parse_stored(NOW).unwrap() - jiff::SignedDuration::from_hours(24 * n);
    crate::clock::stamp(ts)
}

fn record(id: &str, date: &str, action: &str) -> HistoryRecord {
    serde_json::from_value(json!({"date": date, "skill_id": id, "user_action": action})).unwrap()
}

#[test]
fn dedup_by_name_keeps_the_more_trusted_source_and_reports_the_loser() {
    let o = run(vec![
        cand("github:pdf-tool", "PDF_Tool", "github"),
        cand("clawhub:pdf-tool", "pdf-tool", "clawhub"),
    ]);
    assert_eq!(kept(&o), ["clawhub:pdf-tool"]);
    let d = &o.dropped[0];
    assert_eq!(
        (d.reason, d.duplicate_of.as_deref(), d.matched_on),
        (Reason::Duplicate, Some("clawhub:pdf-tool"), Some("name"))
    );
    assert_eq!(o.kept[0].cross_source_count, 2);
}

#[test]
fn dedup_folds_whitespace_and_matches_source_urls() {
    let mut a = cand("clawhub:a-b", "pdf  table   tool", "clawhub");
    let b = cand("github:ab", "PDF table tool", "github");
    a.source_code_url = Some("https://github.com/x/one".into());
    assert_eq!(kept(&run(vec![a, b])), ["clawhub:a-b"]);
    let mut one = cand("clawhub:one", "One Tool", "clawhub");
    let mut two = cand("glama:two", "Another Name", "glama");
    one.source_code_url = Some("https://github.com/Same/Repo".into());
    two.source_code_url = Some("http://www.github.com/same/repo.git/".into());
    let o = run(vec![two, one]);
    assert_eq!(kept(&o), ["clawhub:one"]);
    assert_eq!(o.dropped[0].matched_on, Some("source_url"));
}

#[test]
fn skills_of_one_monorepo_are_not_duplicates() {
    let mut a = cand("skillssh:o/r/pdf", "pdf", "skillssh");
    let mut b = cand("skillssh:o/r/docx", "docx", "skillssh");
    a.source_code_url = Some("https://github.com/o/r".into());
    b.source_code_url = Some("https://github.com/o/r".into());
    a.source_subpath = Some("pdf".into());
    b.source_subpath = Some("docx".into());
    assert_eq!(run(vec![a, b]).kept.len(), 2);
}

#[test]
fn same_id_from_different_owners_is_not_a_duplicate() {
    let mut a = cand("clawhub:pdf", "PDF Toolkit", "clawhub");
    let mut b = cand("clawhub:pdf", "PDF 助手", "clawhub");
    a.owner = Some("docsmith".into());
    b.owner = Some("lin-wei".into());
    assert_eq!(run(vec![a.clone(), b]).kept.len(), 2);
    let mut c = a.clone();
    c.name = "Other".into();
    c.source_code_url = None;
    let o = run(vec![a, c]);
    assert_eq!(o.kept.len(), 1, "same id, same owner: one skill");
    assert_eq!(o.dropped[0].matched_on, Some("id"));
}

#[test]
fn canonical_urls() {
    let c = |u| canonical_url(u, None);
    assert_eq!(
        c("https://github.com/Owner/Repo.git/"),
        Some("github.com/owner/repo".into())
    );
    assert_eq!(
        c("https://github.com/o/r/tree/main/skills/pdf"),
        Some("github.com/o/r/skills/pdf".into())
    );
    assert_eq!(
        canonical_url("https://github.com/o/r", Some("skills/PDF")),
        Some("github.com/o/r/skills/pdf".into())
    );
    assert_eq!(
        canonical_url("https://github.com/o/r/tree/main/pdf", Some("pdf")),
        Some("github.com/o/r/pdf".into())
    );
    assert_eq!(
        c("https://Example.org/Case/Path?q=1#x"),
        Some("example.org/Case/Path".into()),
        "only code hosts fold path case"
    );
    assert_eq!(c("ftp://github.com/o/r"), None);
}

#[test]
fn ties_go_to_the_first_seen_and_invalid_listings_never_win() {
    let o = run(vec![
        cand("github:a", "Same", "github"),
        cand("glama:a", "same", "glama"),
    ]);
    assert_eq!(kept(&o), ["github:a"], "glama = github: first seen wins");
    let mut broken = cand("clawhub:a", "Same", "clawhub");
    broken.url = "ftp://nope".into();
    let o = run(vec![broken, cand("github:a", "Same", "github")]);
    assert_eq!(
        kept(&o),
        ["github:a"],
        "a listing that fails validation does not knock out a valid duplicate"
    );
    assert_eq!(reason(&o, "clawhub:a"), Some(Reason::Duplicate));
}

#[test]
fn required_fields_and_urls() {
    let mut a = cand("clawhub:e", "", "clawhub");
    a.description = " ".into();
    let mut u = cand("clawhub:u", "U", "clawhub");
    u.url = "ftp://x.org/u".into();
    let mut j = cand("clawhub:j", "J", "clawhub");
    j.url = "javascript:alert(1)".into();
    let o = run(vec![a, u, j]);
    assert_eq!(reason(&o, "clawhub:e"), Some(Reason::MissingRequiredFields));
    assert!(o.dropped[0].detail.contains("name, description"));
    assert_eq!(reason(&o, "clawhub:u"), Some(Reason::InvalidUrl));
    assert_eq!(reason(&o, "clawhub:j"), Some(Reason::InvalidUrl));
}

#[test]
fn installed_by_id_name_and_source_url_before_blacklist() {
    let state = State {
        installed_skill_ids: vec!["clawhub:pdf-tables".into()],
        ..State::default()
    };
    let mut astro = cand("clawhub:pdf-tables", "X", "clawhub");
    astro.categories = vec!["astrology".into()];
    let by_name = cand("github:pdf-x", "PDF_Tables", "github");
    let mut by_url = cand("glama:other", "Other", "glama");
    by_url.source_code_url = Some("https://github.com/me/tool".into());
    let installed = [InstalledSkill {
        name: "tool-alias".into(),
        dir: "/home/me/.claude/skills/tool".into(),
        source: Some("claude".into()),
        source_url: Some("https://github.com/ME/tool/".into()),
    }];
    let o = run_with(
        vec![astro, by_name, by_url],
        Mode::Manual,
        &state,
        &History::default(),
        &installed,
        &clock(),
    );
    assert_eq!(
        reason(&o, "clawhub:pdf-tables"),
        Some(Reason::AlreadyInstalled)
    );
    assert_eq!(reason(&o, "github:pdf-x"), Some(Reason::AlreadyInstalled));
    let d = o
        .dropped
        .iter()
        .find(|d| d.skill_id == "glama:other")
        .unwrap();
    assert_eq!(
        (d.reason, d.matched_on),
        (Reason::AlreadyInstalled, Some("source_url"))
    );
    assert!(d.detail.contains(".claude/skills/tool"));
}

#[test]
fn recommend_cooldown_boundary_29_vs_30_days_from_the_newest_record() {
    for (n, dropped) in [(29, true), (30, false)] {
        let history = History {
            recommendations: vec![record("clawhub:h", &days_ago(n), "shown")],
            ..Default::default()
        };
        let o = run_with(
            vec![cand("clawhub:h", "H", "clawhub")],
            Mode::Manual,
            &State::default(),
            &history,
            &[],
            &clock(),
        );
        assert_eq!(
            reason(&o, "clawhub:h") == Some(Reason::RecommendedRecently),
            dropped,
            "{n} days"
        );
    }
    // Newest wins, not the last in list order (the original's quirk).
    let history = History {
        recommendations: vec![
            record("clawhub:n", &days_ago(2), "shown"),
            record("clawhub:n", &days_ago(60), "shown"),
        ],
        ..Default::default()
    };
    let o = run_with(
        vec![cand("clawhub:n", "N", "clawhub")],
        Mode::Manual,
        &State::default(),
        &history,
        &[],
        &clock(),
    );
    assert_eq!(reason(&o, "clawhub:n"), Some(Reason::RecommendedRecently));
    // A record under a duplicate's id counts for the group.
    let history = History {
        recommendations: vec![record("github:n", &days_ago(3), "shown")],
        ..Default::default()
    };
    let o = run_with(
        vec![
            cand("clawhub:n", "N", "clawhub"),
            cand("github:n", "N", "github"),
        ],
        Mode::Manual,
        &State::default(),
        &history,
        &[],
        &clock(),
    );
    assert_eq!(reason(&o, "clawhub:n"), Some(Reason::RecommendedRecently));
}

#[test]
fn reject_cooldown_boundary_13_vs_14_days() {
    for (n, dropped) in [(13, true), (14, false), (15, false)] {
        let state = State {
            last_actions: vec![LastAction {
                skill_id: "clawhub:r".into(),
                action: "reject".into(),
                date: days_ago(n),
                extra: Default::default(),
            }],
            ..State::default()
        };
        let o = run_with(
            vec![cand("clawhub:r", "R", "clawhub")],
            Mode::Manual,
            &state,
            &History::default(),
            &[],
            &clock(),
        );
        assert_eq!(
            reason(&o, "clawhub:r") == Some(Reason::RejectedRecently),
            dropped,
            "{n} days"
        );
    }
}

#[test]
fn blacklist_is_case_insensitive() {
    let mut a = cand("clawhub:a", "A", "clawhub");
    a.categories = vec!["tools".into(), " Astrology ".into()];
    assert_eq!(
        reason(&run(vec![a]), "clawhub:a"),
        Some(Reason::BlacklistCategory)
    );
}

#[test]
fn description_boundary_19_vs_20_characters_cjk_counting_one() {
    let mut a = cand("clawhub:d1", "D1", "clawhub");
    a.description = "x".repeat(19);
    let mut b = cand("clawhub:d2", "D2", "clawhub");
    b.description = "一".repeat(20);
    let mut c = cand("clawhub:d3", "D3", "clawhub");
    c.description = format!("  {}  ", "表".repeat(19));
    let o = run(vec![a, b, c]);
    assert_eq!(reason(&o, "clawhub:d1"), Some(Reason::DescriptionTooShort));
    assert_eq!(kept(&o), ["clawhub:d2"]);
    assert_eq!(
        reason(&o, "clawhub:d3"),
        Some(Reason::DescriptionTooShort),
        "trimmed first"
    );
}

#[test]
fn stale_boundary_180_vs_181_days_and_49_vs_50_popularity() {
    let mk = |id: &str, days: Option<i64>, downloads: u64, stars: u64| {
        let mut c = cand(id, id, "clawhub");
        c.updated_at = days.map(days_ago);
        c.popularity.downloads = downloads;
        c.popularity.stars = stars;
        c
    };
    let o = run(vec![
        mk("clawhub:s180", Some(180), 0, 0),
        mk("clawhub:s181", Some(181), 40, 9),
        mk("clawhub:s181b", Some(181), 40, 10),
        mk("clawhub:none", None, 0, 0),
        mk("clawhub:nonepop", None, 50, 0),
    ]);
    assert!(kept(&o).contains(&"clawhub:s180"), "180 days is not stale");
    assert_eq!(
        reason(&o, "clawhub:s181"),
        Some(Reason::StaleAndLowPopularity),
        "181 days, 49"
    );
    assert!(kept(&o).contains(&"clawhub:s181b"), "181 days but 50");
    assert!(
        kept(&o).contains(&"clawhub:none"),
        "no date: unknown is not stale (the original's quirk, fixed)"
    );
    assert!(kept(&o).contains(&"clawhub:nonepop"));
}

#[test]
fn unknown_dates_and_counts_are_never_stale_or_unpopular() {
    // What a web search gives: name, page, description, source; no date, no counts.
    let search_only = |id: &str| {
        let mut c = cand(id, id, "github");
        c.updated_at = None;
        c.popularity = crate::model::Popularity::not_given();
        c
    };
    let mut old_unknown_counts = search_only("github:a/old-no-counts");
    old_unknown_counts.updated_at = Some(days_ago(900));
    let mut no_date_low_counts = search_only("github:a/no-date-low");
    no_date_low_counts.popularity = crate::model::Popularity {
        downloads: 3,
        ..Default::default()
    };
    let mut known_old_low = search_only("github:a/known-old-low");
    known_old_low.updated_at = Some(days_ago(900));
    known_old_low.popularity = crate::model::Popularity::default();
    let o = run(vec![
        search_only("github:a/search-only"),
        old_unknown_counts,
        no_date_low_counts,
        known_old_low,
    ]);
    for id in [
        "github:a/search-only",
        "github:a/old-no-counts",
        "github:a/no-date-low",
    ] {
        assert!(kept(&o).contains(&id), "{id} kept: {:?}", o.dropped);
    }
    assert_eq!(
        reason(&o, "github:a/known-old-low"),
        Some(Reason::StaleAndLowPopularity),
        "stale still means a known old date with known low counts"
    );
}

#[test]
fn daily_quota_in_the_users_zone() {
    // 2026-05-18T15:30Z is 23:30 on the 18th in Shanghai.
    let history = History {
        recommendations: vec![record("clawhub:old", "2026-05-18T15:30:00+00:00", "shown")],
        ..Default::default()
    };
    let state = State {
        timezone: Some("Asia/Shanghai".into()),
        ..State::default()
    };
    let next_day = Clock::new("2026-05-18T16:30:00Z", Some("Asia/Shanghai"), None).unwrap();
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &next_day,
    );
    assert_eq!(
        kept(&o),
        ["clawhub:q"],
        "00:30 on the 19th in Shanghai is a new day"
    );
    let same_day = Clock::new("2026-05-18T15:45:00Z", Some("Asia/Shanghai"), None).unwrap();
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &same_day,
    );
    assert_eq!(reason(&o, "clawhub:q"), Some(Reason::DailyQuotaExhausted));
    // Manual mode has no quota.
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Manual,
        &state,
        &history,
        &[],
        &same_day,
    );
    assert_eq!(kept(&o), ["clawhub:q"]);
}

#[test]
fn daily_quota_on_dst_change_days() {
    // New York falls back on 2026-11-01: the day has 25 hours. 03:30Z and 04:30Z on Nov 2 are both Nov 1
    // evening local (UTC-5 after the change), while 05:30Z is Nov 2 00:30 local.
    let history = History {
        recommendations: vec![record("clawhub:old", "2026-11-01T04:30:00+00:00", "shown")],
        ..Default::default()
    };
    let state = State {
        timezone: Some("America/New_York".into()),
        ..State::default()
    };
    let at = |now: &str| Clock::new(now, Some("America/New_York"), None).unwrap();
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &at("2026-11-02T04:59:00Z"),
    );
    assert_eq!(
        reason(&o, "clawhub:q"),
        Some(Reason::DailyQuotaExhausted),
        "23:59 on Nov 1 local"
    );
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &at("2026-11-02T05:00:00Z"),
    );
    assert_eq!(kept(&o), ["clawhub:q"], "midnight Nov 2 local");
    // Spring forward (2026-03-08, 23 hours): 04:59Z on Mar 9 is 00:59 EDT on Mar 9.
    let history = History {
        recommendations: vec![record("clawhub:old", "2026-03-08T12:00:00+00:00", "shown")],
        ..Default::default()
    };
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &at("2026-03-09T03:59:00Z"),
    );
    assert_eq!(
        reason(&o, "clawhub:q"),
        Some(Reason::DailyQuotaExhausted),
        "23:59 EDT on Mar 8"
    );
    let o = run_with(
        vec![cand("clawhub:q", "Q", "clawhub")],
        Mode::Daily,
        &state,
        &history,
        &[],
        &at("2026-03-09T04:00:00Z"),
    );
    assert_eq!(kept(&o), ["clawhub:q"], "00:00 EDT on Mar 9");
}

#[test]
fn invalid_items_are_reported_with_their_index() {
    let items = vec![
        Ok(cand("clawhub:a", "A", "clawhub")),
        Err("field `popularity.downloads`: \"many\" is not a number".to_owned()),
    ];
    let o = filter(
        items,
        Mode::Manual,
        &State::default(),
        &History::default(),
        &[],
        &clock(),
    );
    assert_eq!(o.dropped[0].index, 1);
    assert_eq!(o.dropped[0].reason, Reason::InvalidCandidate);
    assert!(o.dropped[0].detail.contains("popularity.downloads"));
}

fn arb_candidate() -> impl Strategy<Value = Candidate> {
    (
        0..4usize,
        0..4usize,
        0..3usize,
        prop::option::of(0..400i64),
        0..120u64,
        any::<bool>(),
        0..3usize,
    )
        .prop_map(|(name, src, url, age, pop, short, cat)| {
            let sources = ["clawhub", "smithery", "github", "x"];
            let mut c = cand(
                "",
                ["Alpha", "alpha_tool", "Beta", "Gamma"][name],
                sources[src],
            );
            c.source_code_url = Some(
                [
                    "https://github.com/a/1",
                    "https://github.com/b/2",
                    "https://gitlab.com/c/3",
                ][url]
                    .into(),
            );
            c.updated_at = age.map(days_ago);
            c.popularity.downloads = pop;
            c.popularity.stars = 0;
            if short {
                c.description = "too short".into();
            }
            c.categories = vec![["pdf", "Fortune", "notes"][cat].into()];
            c
        })
}

fn with_ids(cands: Vec<Candidate>) -> Vec<Candidate> {
    cands
        .into_iter()
        .enumerate()
        .map(|(i, mut c)| {
            c.skill_id = format!("{}:c{i}", c.source);
            c
        })
        .collect()
}

proptest! {
    #[test]
    fn every_input_is_either_kept_or_dropped_once(cands in prop::collection::vec(arb_candidate(), 0..12)) {
        let cands = with_ids(cands);
        let ids: BTreeSet<String> = cands.iter().map(|c| c.skill_id.clone()).collect();
        let o = run(cands.clone());
        let mut out: Vec<String> = o.kept.iter().map(|c| c.skill_id.clone()).collect();
        out.extend(o.dropped.iter().map(|d| d.skill_id.clone()));
        prop_assert_eq!(out.len(), cands.len());
        prop_assert_eq!(out.into_iter().collect::<BTreeSet<_>>(), ids);
    }

    #[test]
    fn filtering_the_kept_list_again_drops_nothing(cands in prop::collection::vec(arb_candidate(), 0..12)) {
        let o = run(with_ids(cands));
        let again = run(o.kept.clone());
        prop_assert!(again.dropped.is_empty(), "{:?}", again.dropped);
        prop_assert_eq!(kept(&again), kept(&o));
    }

    /// Without ties (each source at most once), the result does not depend on the input order.
    #[test]
    fn order_does_not_matter_without_trust_ties(cands in prop::collection::vec(arb_candidate(), 0..4), seed in any::<u64>()) {
        let mut seen = BTreeSet::new();
        let cands: Vec<Candidate> = with_ids(cands).into_iter().filter(|c| seen.insert(trust_rank(&c.source))).collect();
        let mut shuffled = cands.clone();
        let len = shuffled.len().max(1);
        shuffled.rotate_left((seed as usize) % len);
        if seed % 2 == 0 { shuffled.reverse(); }
        let a = run(cands);
        let b = run(shuffled);
        let summary = |o: &Outcome| {
            let kept: BTreeSet<String> = o.kept.iter().map(|c| c.skill_id.clone()).collect();
            let dropped: BTreeMap<String, (Reason, Option<String>)> =
                o.dropped.iter().map(|d| (d.skill_id.clone(), (d.reason, d.duplicate_of.clone()))).collect();
            (kept, dropped)
        };
        prop_assert_eq!(summary(&a), summary(&b));
    }
}

/// The name key as it was first written (four passes); `name_key`'s one-pass ASCII path must agree.
fn name_key_reference(name: &str) -> String {
    name.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

proptest! {
    #[test]
    fn the_one_pass_name_key_agrees(name in "[ -~\t\n\u{b}\u{c}\r_\u{a0}é]{0,24}") {
        prop_assert_eq!(name_key(&name), name_key_reference(&name));
    }

    #[test]
    fn blacklist_and_url_checks_agree_with_their_definitions(s in "[ a-zA-Z:/.\tÉéK\u{212a}]{0,20}") {
        let reference = BLACKLIST_CATEGORIES.contains(&s.trim().to_lowercase().as_str());
        prop_assert_eq!(blacklisted(&s), reference);
        let lower = s.trim().to_ascii_lowercase();
        let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://"));
        let reference = rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/') && !r.chars().any(char::is_whitespace));
        prop_assert_eq!(is_http_url(&s), reference);
    }

    /// Grouping by sorted key hashes joins exactly the candidates a first-seen map would, also when
    /// different keys share a hash (every key, or keys of one length).
    #[test]
    fn sorted_key_grouping_matches_a_map(keys in prop::collection::vec("[ab]{0,2}", 0..30), collide in 0..3usize) {
        let cands: Vec<Candidate> = keys.iter().map(|k| Candidate { name: k.clone(), ..Default::default() }).collect();
        let hashes: [fn(&[u8]) -> u64; 3] = [key_hash, |_| 0, |k: &[u8]| k.len() as u64];
        let hash = hashes[collide];
        let mut ours = Groups((0..keys.len()).collect());
        link_equal(KeyKind::Name, cands.len(), |j| &cands[j], &mut ours, &mut String::new(), hash);
        let mut reference = Groups((0..keys.len()).collect());
        let mut first: BTreeMap<&str, usize> = BTreeMap::new();
        for (j, k) in keys.iter().enumerate() {
            if k.is_empty() { continue; }
            let f = *first.entry(k).or_insert(j);
            reference.union(f, j);
        }
        let members = Members::new(&mut ours);
        for j in 0..keys.len() {
            prop_assert_eq!(ours.find(j), reference.find(j));
            let expected: Vec<usize> = (0..keys.len()).filter(|&m| reference.find(m) == reference.find(j)).collect();
            prop_assert_eq!(members.of(j), &expected[..]);
        }
        let groups: Vec<Vec<usize>> = members.groups().map(<[usize]>::to_vec).collect();
        prop_assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), keys.len());
    }
}

proptest! {
    /// The three kinds' key hashes taken in one pass over the candidates group them exactly as a
    /// pass per kind does (ids, names and URLs that collide across kinds included, and under a hash
    /// where every key collides).
    #[test]
    fn one_pass_key_hashes_group_as_a_pass_per_kind(
        items in prop::collection::vec((0..3usize, 0..3usize, 0..4usize, prop::option::of(0..2usize)), 0..24),
        collide in any::<bool>(),
    ) {
        let cands: Vec<Candidate> = items.iter().map(|&(id, name, url, owner)| Candidate {
            skill_id: ["clawhub:a", "Clawhub:A ", ""][id].into(),
            name: ["a", "A_", "b"][name].into(),
            source_code_url: [None, Some("https://github.com/O/a"), Some("https://GitHub.com/o/A.git"), Some("ftp://x")][url].map(Into::into),
            owner: owner.map(|o| ["o", "O"][o].into()),
            ..Default::default()
        }).collect();
        let hash: fn(&[u8]) -> u64 = if collide { |_| 7 } else { key_hash };
        let n = cands.len();
        let mut per_kind = Groups((0..n).collect());
        for kind in KINDS {
            link_equal(kind, n, |j| &cands[j], &mut per_kind, &mut String::new(), hash);
        }
        let mut fused = Groups((0..n).collect());
        let hashes = key_hashes(&KINDS, n, |j| &cands[j], &mut String::new(), hash);
        for kind in KINDS {
            link_hashed(kind, &hashes, |j| &cands[j], &mut fused);
        }
        let mut joined = false;
        for j in 0..n {
            prop_assert_eq!(fused.find(j), per_kind.find(j));
            joined |= fused.find(j) != j;
        }
        // Not a test that cannot fail: a repeated candidate (its name key is never empty) is joined.
        if items.len() >= 2 && items[0] == items[1] {
            prop_assert!(joined);
        }
    }
}

#[test]
fn ascii_lower_appends_and_folds_only_what_it_appends() {
    let mut out = String::from("Kept|");
    keys::push_ascii_lower_for_test(&mut out, "GitHub.com/O-R_x");
    assert_eq!(out, "Kept|github.com/o-r_x");
    // Non-ASCII text is left to the Unicode path: only ASCII capitals fold here.
    let mut out = String::new();
    keys::push_ascii_lower_for_test(&mut out, "ÄB");
    assert_eq!(out, "Äb");
}

/// `serde_json::to_string_pretty`'s layout of compact JSON text, members in the order written.
fn reindent(compact: &str) -> String {
    let (mut out, mut depth, mut in_str, mut escaped) = (String::new(), 0usize, false, false);
    let mut chars = compact.chars().peekable();
    let line = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        if in_str {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                out.push(c);
            }
            '{' | '[' if matches!(chars.peek(), Some('}' | ']')) => {
                out.push(c);
                out.push(chars.next().unwrap());
            }
            '{' | '[' => {
                out.push(c);
                depth += 1;
                line(&mut out, depth);
            }
            '}' | ']' => {
                depth -= 1;
                line(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                line(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

/// `filter-text`'s layouts: compact without members is `filter`'s text; pretty is that text
/// re-indented as the pretty printer would, the host's members in key order, replacing the
/// result's own of the same name.
#[test]
fn laid_out_text_is_the_compact_text_reindented_with_the_hosts_members() {
    let mut odd = cand("clawhub:tables", "PDF \"Tables\" é\u{1}", "clawhub");
    odd.extra
        .insert("zz_note".into(), serde_json::json!({"a": [], "b": [1, {}]}));
    odd.categories.clear();
    let cands = vec![
        odd,
        cand("clawhub:other", "Other", "clawhub"),
        cand("clawhub:other", "Other", "skillssh"),
    ];
    let outcome = run(cands);
    assert_eq!(outcome.dropped.len(), 1, "one duplicate");
    let clock = clock();
    let compact = outcome.to_json_text(Mode::Manual, &clock);
    let layout = |pretty, extra: &[(&str, Value)]| crate::json::Layout {
        pretty,
        extra: extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
        piece: None,
    };
    let text = |l: &crate::json::Layout| outcome.to_json_text_laid_out(Mode::Manual, &clock, l);
    assert_eq!(text(&layout(false, &[])), compact);
    assert_eq!(text(&layout(true, &[])), reindent(&compact));
    assert_ne!(text(&layout(true, &[])), compact);

    let discovery = serde_json::json!({"scanned": [], "installed_skills": 0, "warnings": ["w"]});
    let with = text(&layout(false, &[("discovery", discovery.clone())]));
    let mut want: Value = serde_json::from_str(&compact).unwrap();
    want["discovery"] = discovery.clone();
    assert_eq!(serde_json::from_str::<Value>(&with).unwrap(), want);
    assert!(with.starts_with("{\"discovery\":{"), "in key order: {with}");
    let pretty = text(&layout(true, &[("discovery", discovery.clone())]));
    assert_eq!(pretty, reindent(&with));

    // A member of the result's own name replaces it, a list too.
    let replaced = text(&layout(
        true,
        &[("kept", Value::Null), ("summary", Value::Bool(true))],
    ));
    let v: Value = serde_json::from_str(&replaced).unwrap();
    assert_eq!(
        (&v["kept"], &v["summary"]),
        (&Value::Null, &Value::Bool(true))
    );
    assert_eq!(v["dropped"].as_array().map(Vec::len), Some(1));
    assert!(replaced.contains("\n  \"kept\": null,\n"), "{replaced}");
}

/// Written in pieces, the text is the same bytes, cut only between list items: each piece but the
/// last reaches the piece size and ends before the `,` of the next item; none is empty.
#[test]
fn text_in_pieces_is_the_text_cut_between_items() {
    let mut cands: Vec<Candidate> = (0..40)
        .map(|i| {
            cand(
                &format!("clawhub:s{i}"),
                &format!("Skill \"{i}\" é"),
                "clawhub",
            )
        })
        .collect();
    cands.push(cand("clawhub:s3", "Skill 3", "skillssh"));
    cands.push(Candidate::default());
    let outcome = run(cands);
    assert_eq!((outcome.kept.len(), outcome.dropped.len()), (40, 2));
    let clock = clock();
    for pretty in [false, true] {
        for extra in [
            vec![],
            vec![("discovery".to_owned(), serde_json::json!({"a": [1]}))],
        ] {
            let mut layout = crate::json::Layout {
                pretty,
                extra,
                piece: None,
            };
            let whole = outcome.to_json_text_laid_out(Mode::Manual, &clock, &layout);
            for size in [1, 100, 1_000, whole.len(), 1 << 20] {
                layout.piece = Some(size);
                let pieces = outcome.to_json_pieces_laid_out(Mode::Manual, &clock, &layout);
                assert_eq!(pieces.concat(), whole, "pretty {pretty}, size {size}");
                // The text with the layout asking for pieces, through the one-text call, too.
                let one = outcome.to_json_text_laid_out(Mode::Manual, &clock, &layout);
                assert_eq!(one, whole);
                let (last, full) = pieces.split_last().expect("at least one piece");
                assert!(!last.is_empty());
                for p in full {
                    assert!(
                        p.len() >= size,
                        "a piece closed early: {} < {size}",
                        p.len()
                    );
                    assert!(
                        p.ends_with('}') || p.ends_with(']'),
                        "cut inside an item: {p:?}"
                    );
                }
                let items = 40 + 2;
                match size {
                    1 => assert_eq!(pieces.len(), items + 1, "one piece per item, and the end"),
                    s if s >= whole.len() => assert_eq!(pieces.len(), 1),
                    _ => assert!(pieces.len() > 1 && pieces.len() <= items + 1),
                }
            }
        }
    }
}
