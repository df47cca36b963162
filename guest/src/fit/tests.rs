//! Fit: vocabulary, frontmatter and record parsing, the platform check, the fit value across OS and
//! capability combinations, and what the host is asked.

use super::*;
use serde_json::json;

fn cand(v: Value) -> Candidate {
    crate::model::parse_one(v).unwrap()
}

/// A probe that knows a fixed set of programs and records what it was asked.
struct Fixed {
    on_path: BTreeSet<String>,
    asked: Vec<Vec<String>>,
}

impl Fixed {
    fn with(names: &[&str]) -> Fixed {
        Fixed {
            on_path: names.iter().map(|s| s.to_string()).collect(),
            asked: Vec::new(),
        }
    }
}

impl CommandProbe for Fixed {
    fn find_commands(&mut self, names: &[String]) -> Option<Vec<bool>> {
        self.asked.push(names.to_vec());
        Some(names.iter().map(|n| self.on_path.contains(n)).collect())
    }
}

#[test]
fn the_vocabulary_examples_hold() {
    let file: Value = serde_json::from_str(FIT_JSON).unwrap();
    let ex = &file["examples"];
    for (name, want) in ex["platform"].as_object().unwrap() {
        assert_eq!(
            platform(name).as_deref(),
            want.as_str(),
            "platform({name:?})"
        );
    }
    for name in ex["not_platform"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert_eq!(platform(name), None, "{name:?} is not a platform");
    }
    for (name, want) in ex["capability"].as_object().unwrap() {
        assert_eq!(
            capability(name),
            want.as_str().unwrap(),
            "capability({name:?})"
        );
    }
    // Every alias maps to its own canonical name, and no alias is claimed twice.
    let file: VocabFile = serde_json::from_str(FIT_JSON).unwrap();
    for table in [&file.platforms, &file.capabilities] {
        let mut seen = BTreeMap::new();
        for (canonical, aliases) in table {
            for a in aliases.iter().chain([canonical]) {
                if let Some(other) = seen.insert(key(a), canonical.clone()) {
                    assert_eq!(
                        &other, canonical,
                        "{a:?} is claimed by {other} and {canonical}"
                    );
                }
            }
        }
    }
}

#[test]
fn declared_platform_lists_are_canonical() {
    let of = |v: &[&str]| platforms_of(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(of(&["darwin", "Linux", "macOS"]), vec!["macos", "linux"]);
    assert_eq!(of(&["win32"]), vec!["windows"]);
    assert_eq!(of(&["macos, linux"]), vec!["macos", "linux"]);
    assert_eq!(of(&["unix"])[..2], ["linux".to_owned(), "macos".to_owned()]);
    assert!(
        of(&["macos", "any"]).is_empty(),
        "any clears the restriction"
    );
    assert_eq!(
        of(&["haiku"]),
        vec!["haiku"],
        "an unknown OS still restricts"
    );
    assert!(of(&["../../etc", ""]).is_empty(), "junk is not a platform");
}

#[test]
fn candidate_fields_parse_leniently() {
    let c = cand(
        json!({"skill_id": "x:a", "platforms": "darwin", "prerequisites": {"commands": "jq, curl", "env_vars": ["API_KEY"]}}),
    );
    assert_eq!(c.platforms, vec!["macos"]);
    assert_eq!(c.prerequisites.commands, vec!["jq", "curl"]);
    assert_eq!(c.prerequisites.env_vars, vec!["API_KEY"]);
    let back = serde_json::to_value(&c).unwrap();
    assert_eq!(back["platforms"], json!(["macos"]));
    assert_eq!(back["prerequisites"]["commands"], json!(["jq", "curl"]));
    // Empty ones are not written (outputs of candidates without them are unchanged).
    let plain = serde_json::to_value(cand(json!({"skill_id": "x:b"}))).unwrap();
    for k in ["platforms", "prerequisites", "bundle_files"] {
        assert!(plain.get(k).is_none(), "{k} is omitted when empty");
    }
    let err = crate::model::parse_one(
        json!({"skill_id": "x:c", "prerequisites": {"commands": {"a": 1}}}),
    )
    .unwrap_err();
    assert!(err.contains("prerequisites.commands"), "{err}");
}

const HERMES: &str = "---\nname: notes\ndescription: Notes.\nplatforms: [macos, linux]\nprerequisites:\n  env_vars: [NOTES_TOKEN]\n  commands: [curl, jq]\nmetadata:\n  hermes:\n    requires_toolsets: [web]\n    requires_tools: [browser_navigate]\n---\n# Notes\n";

#[test]
fn hermes_frontmatter_declares_platforms_prerequisites_and_toolsets() {
    let fm = crate::skill_md::read(HERMES).frontmatter.unwrap();
    let d = declared_in(&fm);
    assert_eq!(d.platforms, vec!["macos", "linux"]);
    assert_eq!(d.commands, vec!["curl", "jq"]);
    assert_eq!(d.env_vars, vec!["NOTES_TOKEN"]);
    assert_eq!(d.toolsets, vec!["web_search", "browser"]);
}

#[test]
fn openclaw_metadata_and_other_shapes() {
    let md = "---\nname: imsg\ndescription: iMessage.\nmetadata: {\"openclaw\": {\"os\": [\"darwin\"], \"requires\": {\"bins\": [\"imsg\"], \"env\": [\"IMSG_DB\"]}}}\nrequired_environment_variables:\n  - name: EXTRA_KEY\n    prompt: Your key\n---\nbody\n";
    let d = declared_in(&crate::skill_md::read(md).frontmatter.unwrap());
    assert_eq!(d.platforms, vec!["macos"]);
    assert_eq!(d.commands, vec!["imsg"]);
    assert_eq!(d.env_vars, vec!["EXTRA_KEY", "IMSG_DB"]);
    // Metadata written as JSON text (the spec's string map), and names that are not names dropped.
    let md = "---\nname: t\nmetadata:\n  clawdbot: '{\"os\": [\"linux\"], \"requires\": {\"bins\": [\"ffmpeg\", \"rm -rf /\"]}}'\nprerequisites:\n  commands: [\"../bin/x\", git]\n  env_vars: [\"BAD-NAME\", GOOD_NAME]\n---\n";
    let d = declared_in(&crate::skill_md::read(md).frontmatter.unwrap());
    assert_eq!(d.platforms, vec!["linux"]);
    assert_eq!(d.commands, vec!["git", "ffmpeg"]);
    assert_eq!(d.env_vars, vec!["GOOD_NAME"]);
}

#[test]
fn raw_content_fills_only_what_the_record_leaves_empty() {
    let c = cand(json!({"skill_id": "x:a", "raw_content": HERMES}));
    assert_eq!(c.platforms, vec!["macos", "linux"]);
    assert_eq!(c.prerequisites.commands, vec!["curl", "jq"]);
    assert_eq!(c.required_toolsets, vec!["web_search", "browser"]);
    let c = cand(
        json!({"skill_id": "x:a", "raw_content": HERMES, "platforms": ["windows"], "prerequisites": {"commands": ["git"]}}),
    );
    assert_eq!(c.platforms, vec!["windows"], "the record wins");
    assert_eq!(c.prerequisites.commands, vec!["git"]);
    let c =
        cand(json!({"skill_id": "x:a", "raw_content": "# Just a README\nplatforms: [macos]\n"}));
    assert!(c.platforms.is_empty(), "no frontmatter, nothing declared");
}

#[test]
fn agent_env_resolves_aliases_and_refuses_unknown_platforms() {
    let a = Agent::resolve(&AgentEnv {
        platform: Some("darwin".into()),
        capabilities: Some(vec!["Terminal, web".into(), "browser-navigate".into()]),
    })
    .unwrap();
    assert_eq!(a.platform.as_deref(), Some("macos"));
    let caps: Vec<&str> = a
        .capabilities
        .as_ref()
        .unwrap()
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(caps, vec!["browser", "terminal", "web_search"]);
    let unknown = Agent::resolve(&AgentEnv::default()).unwrap();
    assert_eq!((unknown.platform, unknown.capabilities), (None, None));
    let err = Agent::resolve(&AgentEnv {
        platform: Some("linx".into()),
        ..Default::default()
    })
    .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { field, message } if field == "platform" && message.contains("linux")),
        "{err}"
    );
}

fn agent(platform: Option<&str>, caps: Option<&[&str]>, on_path: &[(&str, bool)]) -> Agent {
    let mut a = Agent::resolve(&AgentEnv {
        platform: platform.map(str::to_owned),
        capabilities: caps.map(|c| c.iter().map(|s| s.to_string()).collect()),
    })
    .unwrap();
    a.commands = on_path.iter().map(|(n, f)| (n.to_string(), *f)).collect();
    a
}

#[test]
fn platform_check_across_operating_systems() {
    let mac = cand(json!({"skill_id": "x:m", "platforms": ["macos"]}));
    let unix = cand(json!({"skill_id": "x:u", "platforms": ["unix"]}));
    let any = cand(json!({"skill_id": "x:a"}));
    let cases = [
        (Some("linux"), &mac, true),
        (Some("macos"), &mac, false),
        (Some("windows"), &mac, true),
        (None, &mac, false),
        (Some("linux"), &unix, false),
        (Some("windows"), &unix, true),
        (Some("windows"), &any, false),
        (None, &any, false),
    ];
    for (os, c, dropped) in cases {
        let m = platform_mismatch(c, &agent(os, None, &[]));
        assert_eq!(m.is_some(), dropped, "{os:?} × {:?}: {m:?}", c.platforms);
    }
    let detail = platform_mismatch(&mac, &agent(Some("win32"), None, &[])).unwrap();
    assert_eq!(detail, "runs on macos only; this agent runs on windows");
}

#[test]
fn fit_value_across_capabilities_and_commands() {
    let c = cand(
        json!({"skill_id": "x:a", "required_toolsets": ["browser", "terminal"], "prerequisites": {"commands": ["jq", "curl"], "env_vars": ["K"]}}),
    );
    let all: &[&str] = &["browser", "terminal"];
    let term: &[&str] = &["terminal"];
    let none: &[&str] = &[];
    type Found<'a> = &'a [(&'a str, bool)];
    let cases: [(Option<&[&str]>, Found, f64); 8] = [
        (None, &[], 1.0),                                  // nothing known: neutral
        (Some(all), &[], 1.0),                             // capabilities there, commands unknown
        (Some(all), &[("jq", true), ("curl", true)], 1.0), // everything there
        (Some(term), &[], 0.5),                            // no browser
        (Some(none), &[], 0.0),                            // no capability at all
        (None, &[("jq", false), ("curl", true)], 0.75),    // one command missing
        (None, &[("jq", false), ("curl", false)], 0.5),
        (Some(term), &[("jq", false), ("curl", false)], 0.0),
    ];
    for (caps, on_path, want) in cases {
        let fit = assess(&c, &agent(Some("linux"), caps, on_path));
        assert_eq!(fit.value, want, "{caps:?} {on_path:?}: {fit:?}");
    }
    let fit = assess(
        &c,
        &agent(None, Some(term), &[("jq", false), ("curl", true)]),
    );
    assert_eq!(fit.commands_missing, vec!["jq"]);
    assert_eq!(fit.commands_found, vec!["curl"]);
    assert_eq!(fit.capabilities_missing, vec!["browser"]);
    assert_eq!(
        fit.needs(Lang::En).unwrap(),
        "jq (not found on this machine); the environment variable K; the browser capability (this agent lacks it)"
    );
    assert_eq!(
        fit.needs(Lang::Zh).unwrap(),
        "jq（本机未找到）；环境变量 K；browser 能力（当前 agent 没有）"
    );
    assert_eq!(
        fit.missing_text(Lang::En),
        "needs jq (not found on this machine); needs the browser capability, which this agent lacks"
    );
    let unchecked = assess(&c, &agent(None, None, &[]));
    assert_eq!(
        unchecked.needs(Lang::En).unwrap(),
        "jq and curl (check they are installed); the environment variable K"
    );
    assert!(!unchecked.lacks_something());
    let plain = assess(
        &cand(json!({"skill_id": "x:p"})),
        &agent(Some("linux"), Some(none), &[]),
    );
    assert_eq!((plain.value, plain.needs(Lang::En)), (1.0, None));
}

#[test]
fn the_host_is_asked_once_about_valid_distinct_names_only() {
    let a = cand(
        json!({"skill_id": "x:a", "prerequisites": {"commands": ["jq", "curl", "/bin/sh", "rm -rf"]}}),
    );
    let b = cand(json!({"skill_id": "x:b", "prerequisites": {"commands": ["jq", "git"]}}));
    let mut agent = Agent::default();
    let mut probe = Fixed::with(&["jq", "git"]);
    agent.look_up_commands(&mut probe, [&a, &b]);
    assert_eq!(probe.asked, vec![vec!["curl", "git", "jq"]]);
    assert_eq!(agent.commands.get("jq"), Some(&true));
    assert_eq!(agent.commands.get("curl"), Some(&false));
    assert_eq!(agent.commands.get("/bin/sh"), None);
    // Nothing declared: the host is not asked at all; a host that does not look leaves them unknown.
    let mut probe = Fixed::with(&[]);
    Agent::default().look_up_commands(&mut probe, [&cand(json!({"skill_id": "x:c"}))]);
    assert!(probe.asked.is_empty());
    let mut unknown = Agent::default();
    unknown.look_up_commands(&mut NoProbe, [&a]);
    assert!(unknown.commands.is_empty());
}

#[test]
fn an_answer_of_the_wrong_length_is_ignored() {
    struct Short;
    impl CommandProbe for Short {
        fn find_commands(&mut self, _: &[String]) -> Option<Vec<bool>> {
            Some(vec![true])
        }
    }
    let a = cand(json!({"skill_id": "x:a", "prerequisites": {"commands": ["jq", "curl"]}}));
    let mut agent = Agent::default();
    agent.look_up_commands(&mut Short, [&a]);
    assert!(agent.commands.is_empty());
}

#[test]
fn command_and_variable_names() {
    for ok in ["jq", "python3", "g++", "docker-compose", "7z", "node.exe"] {
        assert!(is_command_name(ok), "{ok}");
    }
    for bad in [
        "",
        "/bin/sh",
        "../x",
        ".hidden",
        "rm -rf",
        "a;b",
        &"x".repeat(65),
    ] {
        assert!(!is_command_name(bad), "{bad:?}");
    }
    assert!(is_env_var_name("OPENAI_API_KEY") && is_env_var_name("_X1"));
    assert!(!is_env_var_name("1X") && !is_env_var_name("A-B") && !is_env_var_name(""));
}

// ---------------------------------------------------------------------------------------------------
// The filter's `platform_unsupported`.

mod filter {
    use super::*;
    use crate::clock::Clock;
    use crate::filter::{InstalledSkill, Mode, Reason, filter_for};
    use crate::state::{History, State};

    fn listing(id: &str, extra: Value) -> Candidate {
        let mut v = json!({"skill_id": id, "name": id.split(':').nth(1).unwrap(), "url": format!("https://clawhub.ai/a/{id}"),
            "description": "Turns meeting transcripts into notes with decisions and action items.",
            "updated_at": "2026-11-01T00:00:00Z", "popularity": {"downloads": 900, "stars": 30}, "source": "clawhub"});
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        cand(v)
    }

    fn run(
        cands: Vec<Candidate>,
        platform: Option<&str>,
        installed: &[InstalledSkill],
    ) -> Vec<(String, Option<Reason>)> {
        let clock = Clock::new("2026-12-01T02:00:00Z", None, None).unwrap();
        let a = agent(platform, None, &[]);
        let o = filter_for(
            cands.into_iter().map(Ok).collect(),
            Mode::Manual,
            &State::default(),
            &History::default(),
            installed,
            &clock,
            &a,
        );
        let mut out: Vec<(String, Option<Reason>)> =
            o.kept.iter().map(|c| (c.skill_id.clone(), None)).collect();
        out.extend(
            o.dropped
                .iter()
                .map(|d| (d.skill_id.clone(), Some(d.reason))),
        );
        out.sort();
        out
    }

    #[test]
    fn a_skill_for_another_platform_is_dropped_only_when_the_platform_is_known() {
        let cands = || {
            vec![
                listing("clawhub:mac-notes", json!({"platforms": ["macos"]})),
                listing("clawhub:any-notes", json!({})),
                listing(
                    "clawhub:fm-notes",
                    json!({"raw_content": "---\nname: fm-notes\ndescription: x\nplatforms: [windows]\n---\nbody\n"}),
                ),
            ]
        };
        let on_linux = run(cands(), Some("linux"), &[]);
        assert_eq!(
            on_linux,
            vec![
                ("clawhub:any-notes".to_owned(), None),
                (
                    "clawhub:fm-notes".to_owned(),
                    Some(Reason::PlatformUnsupported)
                ),
                (
                    "clawhub:mac-notes".to_owned(),
                    Some(Reason::PlatformUnsupported)
                ),
            ]
        );
        assert!(
            run(cands(), None, &[]).iter().all(|(_, r)| r.is_none()),
            "unknown platform: nothing dropped"
        );
        let on_mac = run(cands(), Some("darwin"), &[]);
        assert_eq!(
            on_mac.iter().filter(|(_, r)| r.is_some()).count(),
            1,
            "{on_mac:?}"
        );
    }

    #[test]
    fn earlier_rules_report_first() {
        let installed = [InstalledSkill {
            name: "mac-notes".into(),
            ..Default::default()
        }];
        let got = run(
            vec![listing(
                "clawhub:mac-notes",
                json!({"platforms": ["macos"]}),
            )],
            Some("linux"),
            &installed,
        );
        assert_eq!(got[0].1, Some(Reason::AlreadyInstalled));
        let got = run(
            vec![listing(
                "clawhub:mac-fun",
                json!({"platforms": ["macos"], "categories": ["astrology"]}),
            )],
            Some("linux"),
            &[],
        );
        assert_eq!(
            got[0].1,
            Some(Reason::PlatformUnsupported),
            "platform before blacklist"
        );
    }

    #[test]
    fn the_export_refuses_an_unknown_platform_and_says_why_it_dropped() {
        let ctx = crate::Ctx::at("2026-12-01T02:00:00Z");
        let list =
            json!({"candidates": [listing("clawhub:mac-notes", json!({"platforms": ["macos"]}))]})
                .to_string();
        let env = |p: &str| AgentEnv {
            platform: Some(p.into()),
            capabilities: None,
        };
        let out = crate::filter::run_for(
            &ctx,
            &mut crate::MemoryStore::default(),
            Mode::Manual,
            &list,
            &[],
            &env("linux"),
        )
        .unwrap();
        assert_eq!(out["dropped"][0]["reason"], "platform_unsupported");
        assert_eq!(
            out["dropped"][0]["detail"],
            "runs on macos only; this agent runs on linux"
        );
        assert_eq!(out["summary"]["by_reason"]["platform_unsupported"], 1);
        let err = crate::filter::run_for(
            &ctx,
            &mut crate::MemoryStore::default(),
            Mode::Manual,
            &list,
            &[],
            &env("plan9"),
        )
        .unwrap_err();
        assert!(err.to_string().contains("platform"), "{err}");
    }
}
