//! Quality: every signal's examples, skills written for each level in English and Chinese, the bundle
//! checks, evidence lines, and monotonicity.

use super::*;
use crate::scan::{BundleFile, EntryKind};
use proptest::prelude::*;
use serde_json::json;

/// Run one signal's detectors on a text as the body of a SKILL.md without frontmatter (or, for the
/// description signal, on a SKILL.md with that description).
fn detect_in(sig: &Signal, text: &str) -> bool {
    let doc_text = if sig.spec.description.is_some() {
        format!("---\nname: x\ndescription: {text:?}\n---\nbody\n")
    } else {
        text.to_owned()
    };
    let a = assess(&doc_text, None);
    a.found(&sig.spec.id)
}

#[test]
fn every_signal_finds_its_examples_and_only_those() {
    let set = Signals::builtin();
    for sig in &set.signals {
        if sig.spec.length {
            continue;
        }
        assert!(
            !sig.spec.examples_match.is_empty() && !sig.spec.no_match.is_empty(),
            "signal {} needs examples both ways",
            sig.spec.id
        );
        for ex in &sig.spec.examples_match {
            assert!(
                detect_in(sig, ex),
                "signal {} must find {ex:?}",
                sig.spec.id
            );
        }
        for ex in &sig.spec.no_match {
            assert!(
                !detect_in(sig, ex),
                "signal {} must not find {ex:?}",
                sig.spec.id
            );
        }
    }
}

#[test]
fn a_signal_file_with_bad_weights_or_patterns_is_refused_naming_the_problem() {
    let mut v: Value = serde_json::from_str(signals::SIGNALS_JSON).unwrap();
    v["signals"][0]["weight"] = json!(11);
    let err = Signals::from_json(&v.to_string()).err().unwrap();
    assert!(err.contains("sum to 101"), "{err}");
    let mut v: Value = serde_json::from_str(signals::SIGNALS_JSON).unwrap();
    v["signals"][1]["headings"] = json!(["(unclosed"]);
    let err = Signals::from_json(&v.to_string()).err().unwrap();
    assert!(err.contains("when_to_use"), "{err}");
}

const EN_STRONG: &str = "---
name: pdf-tables
description: Extracts tables from PDF files into CSV or Excel. Use when the user wants the tables of a PDF as a spreadsheet.
---
# PDF tables

## When to Use
- The user shares a PDF and asks for its tables, totals or a spreadsheet.
- Not for scanned images without a text layer: use an OCR skill first.

## Procedure
1. Run `python scripts/extract.py input.pdf --out tables/`.
2. Merge split tables with the rules in references/formats.md.
3. Write the result with templates/table.csv as the header layout.

## Pitfalls
- Tables spanning pages come out as two tables: merge them when the headers repeat.
- Do not trust totals rows; recompute them, because the PDF may round.

## Verification
- The row count matches the PDF's table (count the rows on the page).
- Recomputed totals equal the PDF's totals.

## Example
Input: `q3-report.pdf` with two tables. Output: `q3-report.xlsx` with two sheets.
";

const EN_BASIC: &str = "---
name: commit-message
description: Writes a commit message from the staged diff. Use when the user asks for a commit message.
---
# Commit messages

## When to Use
The user has staged changes and wants a message for them.

## Steps
1. Read `git diff --staged`.
2. Summarize the change in one line under 72 characters.
3. Add a body that says why the change was made.

## Pitfalls
- Do not list every file, because the diff already does.
- Never invent an issue number; leave it out instead.
";

const EN_PROMPT: &str = "---
name: notes-lite
description: Turns meeting transcripts into notes with decisions and action items.
---
Summarize the meeting into notes with action items. Be concise and make sure the notes are useful.
";

const ZH_STRONG: &str = "---
name: meeting-minutes-cn
description: 把会议录音或文字记录整理成结构化会议纪要。当用户分享会议录音、转写稿或要求写会议纪要时使用。
---
# 会议纪要

## 何时使用
- 用户上传会议录音转写稿，或要求整理会议纪要。

## 操作步骤
1. 运行 `python scripts/split_speakers.py transcript.txt` 按发言人切分。
2. 按 templates/minutes.md 的格式填写：议题、结论、待办。
3. 专有名词对照见 references/glossary.md。

## 注意事项
- 没有署名的发言人：问一次，不要猜测身份。
- 待办没有截止日期时，标注“待定”，不要自己编日期。

## 验证
- 每条待办都有负责人和截止日期（或“待定”）。
- 结论与转写稿中的原话一致。

## 示例
输入：30 分钟的周会转写稿。输出：包含 3 个议题、5 条待办的纪要。
";

const ZH_BASIC: &str = "---
name: weekly-report-cn
description: 根据本周的提交记录和任务列表写周报。当用户要求写周报或总结本周工作时使用。
---
# 周报

## 何时使用
用户要求总结本周工作、写周报，或者需要给上级汇报进度。

## 步骤
1. 读取本周的提交记录和已完成的任务列表。
2. 按“完成、进行中、下周计划”三部分归类，每部分不超过五条。
3. 每条写清楚结果和影响，而不是罗列过程。

## 验证
- 每条都能对应到一条提交或任务，没有编造的内容。
";

const ZH_PROMPT: &str = "---
name: minutes-lite
description: 把会议录音整理成会议纪要，列出待办事项。
---
把会议内容整理成纪要，列出待办。
";

#[test]
fn skills_of_each_level_in_english_and_chinese() {
    for (name, text, level) in [
        ("EN_STRONG", EN_STRONG, Level::Strong),
        ("EN_BASIC", EN_BASIC, Level::Basic),
        ("EN_PROMPT", EN_PROMPT, Level::PromptOnly),
        ("ZH_STRONG", ZH_STRONG, Level::Strong),
        ("ZH_BASIC", ZH_BASIC, Level::Basic),
        ("ZH_PROMPT", ZH_PROMPT, Level::PromptOnly),
    ] {
        let a = assess(text, None);
        assert_eq!(a.level, level, "{name}: {}", a.summary());
    }
    let a = assess(EN_STRONG, None);
    assert_eq!(a.score, 100, "{}", a.summary());
    let a = assess(ZH_STRONG, None);
    assert_eq!(a.score, 100, "{}", a.summary());
    let a = assess(EN_PROMPT, None);
    assert_eq!(a.score, 0, "{}", a.summary());
    assert_eq!(
        a.summary(),
        "prompt-only (0/100); missing: description, when_to_use, procedure, pitfalls, verification, references, scripts, templates, examples, body_length"
    );
}

#[test]
fn evidence_names_the_line() {
    let a = assess(EN_STRONG, None);
    let sig = |id: &str| a.signals.iter().find(|s| s.id == id).unwrap();
    let v = sig("verification");
    assert_eq!(
        (v.evidence[0].line, v.evidence[0].text.as_str()),
        (20, "## Verification")
    );
    assert_eq!(v.note, "section “Verification”");
    let d = sig("description");
    assert_eq!(d.evidence[0].line, 3);
    let s = sig("scripts");
    assert_eq!(
        (s.evidence[0].line, s.evidence[0].text.as_str()),
        (12, "scripts/extract.py")
    );
    let missing = assess(EN_BASIC, None);
    let v = missing
        .signals
        .iter()
        .find(|s| s.id == "verification")
        .unwrap();
    assert!(
        !v.found && v.evidence.is_empty() && v.note.starts_with("Add a \"Verification\""),
        "{v:?}"
    );
}

fn bundle(md: &str, files: &[&str]) -> Bundle {
    let mut out = vec![BundleFile {
        path: "SKILL.md".into(),
        size: md.len() as u64,
        kind: EntryKind::Text,
        content: Some(md.into()),
        executable: false,
        magic: None,
        link_target: None,
        link_escapes: false,
    }];
    for f in files {
        out.push(BundleFile {
            path: (*f).into(),
            content: Some("x\n".into()),
            ..out[0].clone()
        });
    }
    Bundle {
        name: "x".into(),
        files: out,
        notes: Vec::new(),
    }
}

#[test]
fn with_the_file_list_references_must_exist_and_files_must_be_referenced() {
    let full = assess_bundle(&bundle(
        EN_STRONG,
        &[
            "scripts/extract.py",
            "references/formats.md",
            "templates/table.csv",
        ],
    ));
    assert_eq!(
        (full.level, full.score, full.files_checked),
        (Level::Strong, 100, true)
    );
    // Referenced but not shipped: not found, and said so.
    let bare = assess_bundle(&bundle(EN_STRONG, &[]));
    let s = bare.signals.iter().find(|s| s.id == "scripts").unwrap();
    assert!(
        !s.found && s.note.contains("missing from the bundle"),
        "{s:?}"
    );
    assert_eq!(bare.score, 76);
    // Shipped but never referenced: an agent would not load it.
    let orphan = assess_bundle(&bundle(EN_BASIC, &["references/style.md"]));
    let r = orphan
        .signals
        .iter()
        .find(|s| s.id == "references")
        .unwrap();
    assert!(!r.found && r.note.contains("never referenced"), "{r:?}");
    assert_eq!(r.evidence[0].file, "references/style.md");
    // A relative Markdown link to another file counts as a reference; a URL does not.
    let linked = "---\nname: x\ndescription: d\n---\nRead [forms](FORMS.md) and [site](https://e.com/docs/a.md).\n";
    let a = assess_bundle(&bundle(linked, &["FORMS.md"]));
    let r = a.signals.iter().find(|s| s.id == "references").unwrap();
    assert!(r.found, "{r:?}");
    assert_eq!(r.evidence.len(), 1);
    // No SKILL.md: nothing found.
    let empty = assess_bundle(&Bundle::default());
    assert_eq!((empty.level, empty.score), (Level::PromptOnly, 0));
}

#[test]
fn an_over_long_body_misses_the_length_signal() {
    let long = format!(
        "---\nname: x\ndescription: d\n---\n{}",
        "A line of steady instruction text.\n".repeat(501)
    );
    let a = assess(&long, None);
    let l = a.signals.iter().find(|s| s.id == "body_length").unwrap();
    assert!(!l.found && l.note.contains("over the guidance"), "{l:?}");
    assert_eq!(l.evidence[0].text, "501 lines, 3006 words");
}

#[test]
fn headings_are_read_without_numbering_or_emoji() {
    assert_eq!(heading_text("## 3. Verification"), Some("Verification"));
    assert_eq!(heading_text("### ✅ Pitfalls ###"), Some("Pitfalls"));
    assert_eq!(heading_text("**When to use:**"), Some("When to use:"));
    assert_eq!(heading_text("## 2、验证"), Some("验证"));
    assert_eq!(heading_text("#hashtag"), None);
    assert_eq!(heading_text("####### seven"), None);
    assert_eq!(words("one two, three — 四五六"), 5);
}

#[test]
fn the_level_values_order_the_adjustment() {
    assert!(Level::PromptOnly.value() < Level::Basic.value());
    assert!(Level::Basic.value() < Level::Strong.value());
    assert_eq!(Level::Basic.value(), QUALITY_NEUTRAL);
    // Adding a verification never costs more than it gains: its weight covers the length signal's.
    let set = Signals::builtin();
    let w = |id: &str| {
        set.signals
            .iter()
            .find(|s| s.spec.id == id)
            .unwrap()
            .spec
            .weight
    };
    assert!(w("verification") >= w("body_length"));
}

// A skill assembled from sections (none of them a verification), with filler.
fn section() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("## When to Use\nThe user shares a transcript.\n".to_owned()),
        Just("## Procedure\n1. Split it.\n2. Fill the notes.\n3. Send them.\n".to_owned()),
        Just("## Pitfalls\n- Unnamed speakers: ask, do not guess.\n".to_owned()),
        Just("See references/format.md and run scripts/split.py.\n".to_owned()),
        Just("## 示例\n输入：周会转写稿。\n".to_owned()),
        Just("Use templates/notes.md for the layout.\n".to_owned()),
        "[a-z ]{0,60}\n",
        "(一段说明文字){1,8}\n",
    ]
}

fn verification() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("## Verification\n- Every action item has an owner.\n".to_owned()),
        Just("## 验证\n- 每条待办都有负责人。\n".to_owned()),
        Just("- Verify that the totals match the source.\n".to_owned()),
        Just("**Checks**\n- The file opens.\n".to_owned()),
    ]
}

proptest! {
    #[test]
    fn adding_a_verification_never_lowers_a_skill(
        sections in proptest::collection::vec(section(), 0..8),
        described in any::<bool>(),
        filler_lines in 0usize..600,
        at in any::<prop::sample::Index>(),
        check in verification(),
    ) {
        let description = if described { "Notes from transcripts. Use when the user shares a transcript." } else { "Notes from transcripts." };
        let mut body = sections.join("\n");
        body.push_str(&"filler text line\n".repeat(filler_lines));
        let before = format!("---\nname: x\ndescription: {description}\n---\n{body}");
        let a = assess(&before, None);
        prop_assume!(!a.found("verification"));
        // The verification goes at a line boundary anywhere in the body.
        let lines: Vec<&str> = body.split_inclusive('\n').collect();
        let i = at.index(lines.len() + 1);
        let with = format!("---\nname: x\ndescription: {description}\n---\n{}\n{check}{}", lines[..i].concat(), lines[i..].concat());
        let b = assess(&with, None);
        prop_assert!(b.found("verification"), "{}", b.summary());
        prop_assert!(b.score >= a.score, "{} -> {}", a.summary(), b.summary());
        prop_assert!(b.level >= a.level, "{} -> {}", a.summary(), b.summary());
    }
}
