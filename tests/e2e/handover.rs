//! The candidates text of an owned command is handed over to the component (the host's copy freed
//! once it is in the component's memory, `host-harness/src/harness/handover.rs`); a borrowed command
//! goes through the generated bindings. Both must give the component the same input: the same
//! result text, the same error.

use host_harness::{
    AgentEnv, Command, Ctx, Error, InstalledSkill, MemoryStateStore, Mode, RankRequest,
    RecommendOptions,
};

use crate::common::{NOW, harness, real_sample_text};
use crate::scale::candidates;

fn installed() -> Vec<InstalledSkill> {
    vec![InstalledSkill {
        name: "skill-3".into(),
        dir: "/skills/skill-3".into(),
        source: Some("claude".into()),
        source_url: None,
    }]
}

fn agent() -> AgentEnv {
    AgentEnv {
        platform: Some("linux".into()),
        capabilities: Some(vec!["shell".into()]),
    }
}

/// Every command whose candidates are handed over, on `text`.
fn commands(text: &str) -> Vec<Command> {
    vec![
        Command::Filter {
            mode: Mode::Manual,
            candidates: text.into(),
            installed: installed(),
            agent: agent(),
        },
        Command::ScanCandidates {
            mode: Mode::Daily,
            candidates: text.into(),
        },
        Command::Rank {
            mode: Mode::Manual,
            candidates: text.into(),
            installed: installed(),
            request: RankRequest {
                task: Some("extract tables from pdf invoices".into()),
                signals: vec!["weekly reports".into()],
                agent: agent(),
            },
        },
        Command::Recommend {
            mode: Mode::Manual,
            candidates: text.into(),
            installed: installed(),
            options: RecommendOptions {
                task: Some("extract tables from pdf invoices".into()),
                dry_run: true,
                agent: agent(),
                ..Default::default()
            },
        },
    ]
}

fn outcome(r: host_harness::Result<String>) -> Result<String, String> {
    r.map_err(|e: Error| format!("{e:?}"))
}

#[test]
fn handed_over_input_gives_the_same_results_as_the_bindings() {
    let ctx = Ctx::at(NOW);
    let inputs = [
        real_sample_text(),
        candidates(300),
        // Not JSON, and JSON of the wrong shape: the same errors both ways.
        "{\"candidates\": [".to_owned(),
        "[\"a\", \"b\"]".to_owned(),
        // Non-ASCII text crosses byte for byte.
        r#"[{"skill_id": "clawhub:表格", "name": "表格提取", "url": "https://clawhub.ai/o/t", "description": "从 PDF 发票中提取表格，导出为 CSV。", "source": "clawhub"}]"#.to_owned(),
    ];
    let mut compared = 0;
    for text in &inputs {
        for command in commands(text) {
            let borrowed = outcome(harness().run_text(&MemoryStateStore::new(), &ctx, &command));
            let owned = outcome(harness().run_text_owned(&MemoryStateStore::new(), &ctx, command));
            assert_eq!(owned, borrowed, "on input {:.80}", text);
            compared += 1;
        }
    }
    assert_eq!(compared, inputs.len() * 4);
}
