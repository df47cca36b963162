//! Round 42c (scan42c): the agent's own context ordered out (`exfiltration.agent-context-leak`,
//! `critical`). A prose block (any language; small word tables) that names the agent's context —
//! its system prompt, its instruction files (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`), its tool
//! definitions, or (only toward a stranger's host) the conversation — with a word that puts it
//! somewhere (include, paste, send, full, contents …) and, within [`NEAR`] lines, a place others
//! read: a URL on a suspicious host (a rendered image or link whose query carries it counts), or
//! an issue, a commit message, a telemetry event, an error or diagnostic report.
//!
//! Not judged: a block that warns, redacts or refuses (bug-report guides, prompt-leak defences),
//! a host named after the skill (an observability skill's own service), a block naming no
//! context (badges, version-only templates). One pass over each document's prose blocks.

use super::model_relay::skill_words;
use super::{found, has, prose_blocks, rel, suspicious};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::{Has, has_any};
use crate::scan::judge::foreign::own_host;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.agent-context-leak";

/// Lines on either side of the context's name within which the sink counts.
const NEAR: usize = 3;

/// The agent's context that is secret by itself (lowered; non-ASCII letters as written).
pub(super) const CONTEXT: &[&str] = &[
    "system prompt",
    "system-prompt",
    "systemprompt",
    "prompt di sistema",
    "prompt del sistema",
    "prompt do sistema",
    "prompt système",
    "prompt systeme",
    "системный промпт",
    "системного промпта",
    "システムプロンプト",
    "系统提示",
    "prompt systemow",
    "claude.md",
    "agents.md",
    "gemini.md",
    "tool definition",
    "tool schema",
    "definizioni di tutti gli strumenti",
    "definizioni degli strumenti",
    "definiciones de las herramientas",
    "описания всех инструментов",
    "описания инструментов",
    "werkzeugdefinitionen",
];
/// The conversation: only toward a stranger's host.
pub(super) const CONVERSATION: &[&str] = &[
    "conversation",
    "chat history",
    "conversa",
    "conversación",
    "conversazione",
    "разговор",
    "переписк",
    "会話",
    "对话",
    "gesprächsverlauf",
    "chatverlauf",
];
/// Words that put the context somewhere.
const PUT: &[&str] = &[
    "include",
    "paste",
    "put ",
    "add ",
    "append",
    "copy",
    "send",
    "attach",
    "embed",
    "full",
    "entire",
    "complete",
    "contents",
    "verbatim",
    "filling",
    "includi",
    "incolla",
    "completo",
    "incluye",
    "añade",
    "pega",
    "toda",
    "inclua",
    "cole ",
    "conteúdo",
    "включи",
    "отправь",
    "полный",
    "содержимое",
    "вставь",
    "füge",
    "vollständig",
    "inhalt",
    "sende",
    "inclus",
    "ajoute",
    "colle",
    "complet",
    "contenu",
    "envoie",
    "含め",
    "貼り付け",
    "送信",
    "包含",
    "粘贴",
    "发送",
    "完整",
];
/// Outputs others read.
const OUTPUTS: &[&str] = &[
    "issue",
    "commit message",
    "messaggio di commit",
    "commit-nachricht",
    "mensaje de commit",
    "mensagem de commit",
    "message de commit",
    "telemetr",
    "error report",
    "bug report",
    "diagnos",
    "отчёт",
    "отчет",
    "relatório",
    "informe",
    "rapport",
    "bericht",
    "pull request description",
    "pr description",
];
/// Blocks that warn, redact or refuse.
const WARNS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "redact",
    "refuse",
    "attacker",
    "leak",
    "exfiltrat",
    "injection",
    "nunca",
    "niemals",
    "jamais",
    "никогда",
    "non includere",
    "não inclua",
    "no incluyas",
    "禁止",
    "しないで",
    "泄露",
    "泄漏",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut words: Option<Vec<String>> = None;
    for f in &b.files {
        if f.kind == FileKind::Code || f.place.test || f.place.signature {
            continue;
        }
        let all = f.lower_all();
        let ctx = has_any(all, CONTEXT);
        if !(ctx || (has_any(all, CONVERSATION) && all.has("://")))
            || has(out, f, RULE, Severity::Critical)
        {
            continue;
        }
        let words = words.get_or_insert_with(|| skill_words(b));
        if let Some(x) = leak(f, words) {
            out.push(x);
        }
    }
}

fn leak(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let lw = f.lowered();
    let places = fence_places(lw.lines.iter().copied());
    for (s, e) in prose_blocks(f) {
        let block = &lw.lower[s..e];
        if block.iter().any(|l| has_any(l, WARNS)) {
            continue;
        }
        for i in s..e {
            // The context named in the sentence itself, not inside a quoted code span (a probe
            // payload, a template shown).
            let l = prose_only(&lw.lower[i]);
            // Round 49b: "the AGENTS.md specification" names a format, not the agent's file.
            let l = super::format_mention::without_format_names(&l);
            let hard = has_any(&l, CONTEXT);
            if !hard && !has_any(&l, CONVERSATION) {
                continue;
            }
            let (a, z) = (i.saturating_sub(NEAR).max(s), (i + NEAR + 1).min(e));
            if !(a..z).any(|k| has_any(&lw.lower[k], PUT)) {
                continue;
            }
            // The sink's URL may stand in the next block (a badge or link shown on its own).
            let (ha, hz) = (i.saturating_sub(NEAR), (i + NEAR + 1).min(lw.lower.len()));
            let host = (ha..hz)
                .filter(|&k| places[k] == FencePlace::Outside)
                .find_map(|k| {
                    hosts_in(lw.lines[k])
                        .into_iter()
                        .find(|h| h.url.has("://") && suspicious(h.class) && !own_host(h, words))
                        .map(|h| (k, h.host))
                });
            let sink = host.map(|(k, h)| (k, format!("a URL on {h}"))).or_else(|| {
                hard.then(|| {
                    (a..z)
                        .find(|&k| has_any(&lw.lower[k], OUTPUTS))
                        .map(|k| (k, "an output others read".to_owned()))
                })
                .flatten()
            });
            let Some((k, what)) = sink else { continue };
            return Some(found(
                RULE,
                "exfiltration",
                Severity::Critical,
                f,
                i,
                format!(
                    "{}:{}: the agent is told to put its own context (system prompt, instruction files, tool definitions or the conversation) into {what} (line {}): everything the user and the agent said, and how the agent is set up, leaves with it.",
                    f.path,
                    i + 1,
                    k + 1
                ),
                if k == i {
                    vec![]
                } else {
                    vec![rel("sink", f, k)]
                },
            ));
        }
    }
    None
}

/// A line with its inline code spans (between single backticks) left out.
fn prose_only(l: &str) -> String {
    l.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}
