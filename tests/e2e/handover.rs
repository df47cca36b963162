//! The candidates text of an owned command is handed over to the component (the host's copy freed
//! once it is in the component's memory, `host-harness/src/harness/handover.rs`); a borrowed command
//! goes through the generated bindings. Both must give the component the same input: the same
//! result text, the same error. A candidates file read straight into the component's memory
//! (`host-harness/src/harness/input_file.rs`) must too.

use std::cell::RefCell;
use std::rc::Rc;

use host_harness::{
    AgentEnv, Command, Ctx, Error, InputFile, InstalledSkill, MemoryStateStore, Mode, RankRequest,
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

/// `command` run with its result streamed, its candidates read from `file` when one is given.
fn streamed(command: Command, file: Option<InputFile>) -> Result<String, String> {
    let ctx = Ctx::at(NOW);
    let text = Rc::new(RefCell::new(None));
    let seen = text.clone();
    let sink = Box::new(move |t: &str| *seen.borrow_mut() = Some(t.to_owned()));
    let store = MemoryStateStore::new();
    match file {
        Some(file) => harness().run_streamed_from(&store, &ctx, command, file, sink),
        None => harness().run_streamed(&store, &ctx, command, sink),
    }
    .map_err(|e: Error| format!("{e:?}"))?;
    Ok(text
        .take()
        .expect("a successful call gives the sink its result"))
}

#[test]
fn a_candidates_file_read_into_the_component_gives_the_same_results_as_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = [
        real_sample_text(),
        candidates(300),
        "{\"candidates\": [".to_owned(),
        "[\"a\", \"b\"]".to_owned(),
        r#"[{"skill_id": "clawhub:表格", "name": "表格提取", "url": "https://clawhub.ai/o/t", "description": "从 PDF 发票中提取表格，导出为 CSV。", "source": "clawhub"}]"#.to_owned(),
    ];
    let mut compared = 0;
    for (i, text) in inputs.iter().enumerate() {
        let path = dir.path().join(format!("{i}.json"));
        std::fs::write(&path, text).unwrap();
        for (command, without_text) in commands(text).into_iter().zip(commands("")) {
            let file = InputFile::open("candidates", &path, 1 << 30).expect("a regular file");
            assert_eq!(file.len(), text.len());
            let from_file = streamed(without_text, Some(file));
            assert_eq!(from_file, streamed(command, None), "on input {:.80}", text);
            compared += 1;
        }
    }
    assert_eq!(compared, inputs.len() * 4);
}

#[test]
fn a_candidates_file_that_is_not_utf8_is_refused_as_its_text_would_be() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.json");
    std::fs::write(&path, b"[{\"skill_id\": \"a\xff\"}]").unwrap();
    let file = InputFile::open("candidates", &path, 1 << 30).expect("a regular file");
    let command = commands("").swap_remove(0);
    let err = streamed(command, Some(file)).unwrap_err();
    let expected = format!("{} is not UTF-8 text", path.display());
    assert!(err.starts_with("InvalidInput"), "{err}");
    assert!(err.contains(&format!("{expected:?}")), "{err}");

    // Valid UTF-8 up to a sequence cut by the end of the file: refused too.
    std::fs::write(&path, b"[\"\xc3").unwrap();
    let file = InputFile::open("candidates", &path, 1 << 30).unwrap();
    let err = streamed(commands("").swap_remove(1), Some(file)).unwrap_err();
    assert!(err.contains("is not UTF-8 text"), "{err}");
}
