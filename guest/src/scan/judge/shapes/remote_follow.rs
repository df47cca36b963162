//! Round 42c (scan42c): control handed to a remote text. Three shapes, one pass each over a
//! file's lowered lines after a whole-file gate:
//!
//! - `prompt_injection.standing-remote-orders`: a prose block (any language; a small table of
//!   carry-out verbs, order nouns and quantifiers per language) naming a URL on a suspicious host
//!   (not local, a vendor's, an installer's or a registry's; not a documentation page) with a
//!   carry-out verb, an order noun and a quantifier or standing word within [`NEAR`] lines of it:
//!   "fetch <url> and follow every instruction in it", "ejecuta las instrucciones … cada sesión".
//!   Whatever that page says today is what the agent does. Not judged: a block that warns
//!   (never, untrusted, injection), an install or setup guide link, a vendor's docs page.
//! - `persistence.remote-skills-overwrite`: code that downloads from a suspicious host and writes
//!   the skill's own `SKILL.md` (or its scripts, located through `__file__`, `$0`, `SKILL_DIR`):
//!   the reviewed skill is replaced at run time by whatever the host serves (a rug-pull update).
//! - `supply_chain.eval-remote`: a DNS TXT record of a suspicious domain evaluated or piped to a
//!   shell (on its line, or through the variable it is assigned to within [`NEAR`] lines).

use super::model_relay::skill_words;
use super::{found, has, prose_blocks, rel, suspicious};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::classify;
use crate::scan::judge::find::{Has, has_any};
use crate::scan::judge::foreign::own_host;
use crate::scan::judge::{Bundle, File, Host, hosts_in};
use crate::scan::rules::Severity;

/// Lines on either side of the URL within which the order's words count.
const NEAR: usize = 3;

/// The words this judge's whole-text gates ask ([`crate::scan::judge::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] =
    &[ORDERS, &["://", "skill.md", "txt"], FETCHES, SELF, TXT];

/// Words without one of which no rule of this file can fire on a text with no facts.
pub(super) const RAW: &[&str] = &["skill.md", "txt"];

/// Verbs that carry out what they are given (lowered; non-ASCII letters as written).
const OBEY: &[&str] = &[
    "follow",
    "execute",
    "obey",
    "carry out",
    "do what it says",
    "run every",
    "run each",
    "run all",
    "befolge",
    "führe",
    "fuhre",
    "ausführen",
    "ejecuta",
    "sigue ",
    "obedece",
    "cumple",
    "exécute",
    "suis ",
    "suivez",
    "obéis",
    "esegui",
    "segui ",
    "obbedisci",
    "siga ",
    "obedeça",
    "cumpra",
    "выполни",
    "следуй",
    "исполни",
    "実行",
    "従",
    "执行",
    "遵循",
    "照做",
    "voer ",
    "volg ",
    "wykonaj",
    "postępuj",
    "çalıştır",
    "uygula",
];
/// What is carried out: orders, not data.
const ORDERS: &[&str] = &[
    "instruction",
    "command",
    "directive",
    "what it says",
    "whatever it says",
    "anweisung",
    "befehl",
    "instrucci",
    "comando",
    "orden",
    "commande",
    "consigne",
    "istruzion",
    "instruç",
    "инструкц",
    "команд",
    "указани",
    "指示",
    "命令",
    "コマンド",
    "指令",
    "instructie",
    "opdracht",
    "instrukcj",
    "polecen",
    "talimat",
    "komut",
];
/// Quantifiers and standing words: every order, every run, when told.
const STANDING: &[&str] = &[
    "every",
    "each",
    "all ",
    "always",
    "whenever",
    "when told",
    "when asked",
    "precedence",
    "overrides",
    "jede",
    "alle ",
    "immer",
    "cada",
    "todas",
    "todos",
    "siempre",
    "chaque",
    "toutes",
    "tous ",
    "toujours",
    "quand",
    "lorsque",
    "ogni",
    "tutte",
    "sempre",
    "каждый",
    "каждую",
    "каждом",
    "все ",
    "всегда",
    "когда",
    "毎",
    "すべて",
    "全て",
    "常に",
    "每",
    "所有",
    "总是",
    "始终",
    "elke",
    "altijd",
    "każd",
    "wszystk",
    "zawsze",
    "her ",
    "tüm",
];
/// Blocks that warn or teach.
const WARNS: &[&str] = &[
    "never",
    "do not follow",
    "don't follow",
    "do not execute",
    "don't execute",
    "untrusted",
    "injection",
    "attacker",
    "malicious",
    "nunca",
    "niemals",
    "jamais",
    "никогда",
    "絶対に",
    "切勿",
    "nigdy",
    "asla",
];
/// A link to an install or setup guide, or a documentation page: read, not obeyed.
const GUIDES: &[&str] = &["install", "setup", "set up", "getting started", "readme"];

/// Downloads in code.
const FETCHES: &[&str] = &[
    "curl ",
    "wget ",
    "urlopen(",
    "requests.get(",
    "httpx.get(",
    "fetch(",
    "invoke-webrequest",
    "iwr ",
    "urlretrieve(",
    "http.get(",
    "download(",
];
/// Writes of what was fetched.
const WRITES: &[&str] = &[
    " -o ",
    " -o\"",
    "--output",
    "write_bytes(",
    "write_text(",
    "writefile",
    "open(",
    "> ",
    "set-content",
    "out-file",
    "-outfile",
    "urlretrieve(",
    "copyfile",
];
/// Tokens that locate the running skill's own folder.
const SELF: &[&str] = &[
    "__file__",
    "$0",
    "skill_dir",
    "__dirname",
    "$psscriptroot",
    "import.meta.url",
    "dirname \"$0\"",
    "bash_source",
];
/// DNS TXT lookups.
const TXT: &[&str] = &[
    "dig ",
    "nslookup",
    "host -t",
    "resolve-dnsname",
    "resolver",
    "resolvetxt",
];
/// Runs of a value.
const RUNS: &[&str] = &[
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "eval ",
    "eval(",
    "iex",
    "invoke-expression",
    "exec(",
    "sh -c",
    "bash -c",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut words: Option<Vec<String>> = None;
    for f in &b.files {
        if f.place.test || f.place.signature {
            continue;
        }
        let all = f.words();
        if f.kind != FileKind::Code {
            if all.any(ORDERS)
                && all.has("://")
                && !has(
                    out,
                    f,
                    "prompt_injection.standing-remote-orders",
                    Severity::Critical,
                )
                && let Some(x) = remote_orders(f, words.get_or_insert_with(|| skill_words(b)))
            {
                out.push(x);
            }
            continue;
        }
        if all.has("skill.md")
            && all.any(FETCHES)
            && all.any(SELF)
            && !has(
                out,
                f,
                "persistence.remote-skills-overwrite",
                Severity::Critical,
            )
            && let Some(x) = self_overwrite(f)
        {
            out.push(x);
        }
        if all.has("txt")
            && all.any(TXT)
            && !has(out, f, "supply_chain.eval-remote", Severity::Critical)
            && let Some(x) = txt_run(f)
        {
            out.push(x);
        }
    }
}

/// A suspicious URL of `line` that is not a documentation page or the skill's own host (a
/// runbook skill reading its own runbook server).
fn order_host(line: &str, words: &[String]) -> Option<Host> {
    hosts_in(line).into_iter().find(|h| {
        let host = h.host.to_ascii_lowercase();
        let path = h.path.to_ascii_lowercase();
        h.url.has("://")
            && suspicious(h.class)
            && !["docs.", "help.", "wiki.", "developer.", "learn."]
                .iter()
                .any(|p| host.starts_with(p))
            && !path.has("/docs")
            && !path.has("/wiki")
            && !path.has("#")
            && !own_host(h, words)
    })
}

fn remote_orders(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let lw = f.lowered();
    for (s, e) in prose_blocks(f) {
        // A block that warns is never judged; asked only once a line of it would fire (most
        // blocks have no such line, and the warning words are many).
        let mut warns = None;
        for i in s..e {
            let l = &lw.lower[i];
            if !l.has("://") || has_any(l, GUIDES) {
                continue;
            }
            let Some(h) = order_host(lw.lines[i], words) else {
                continue;
            };
            let (a, z) = (i.saturating_sub(NEAR).max(s), (i + NEAR + 1).min(e));
            let at = |words: &[&str]| (a..z).find(|&k| has_any(&lw.lower[k], words));
            let (Some(o), Some(_), Some(_)) = (at(OBEY), at(ORDERS), at(STANDING)) else {
                continue;
            };
            if *warns.get_or_insert_with(|| lw.lower[s..e].iter().any(|l| has_any(l, WARNS))) {
                break;
            }
            return Some(found(
                "prompt_injection.standing-remote-orders",
                "prompt_injection",
                Severity::Critical,
                f,
                i,
                format!(
                    "{}:{}: the agent is told to fetch a text from {} and carry out every order in it (line {}): whatever that page says at run time is what the skill does, and it can change after review.",
                    f.path,
                    i + 1,
                    h.host,
                    o + 1
                ),
                if o == i {
                    vec![]
                } else {
                    vec![rel("order", f, o)]
                },
            ));
        }
    }
    None
}

/// Whether a code line is a comment.
fn comment(l: &str) -> bool {
    l.starts_with('#') || l.starts_with("//") || l.starts_with("rem ") || l.starts_with(';')
}

fn self_overwrite(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    let host = low
        .iter()
        .filter(|l| !comment(l))
        .flat_map(|l| hosts_in(l))
        .find(|h| h.url.has("://") && suspicious(h.class))?;
    for (i, l) in low.iter().enumerate() {
        if comment(l) || !l.has("skill.md") {
            continue;
        }
        let (a, z) = (i.saturating_sub(NEAR), (i + NEAR + 1).min(low.len()));
        let fetch = (a..z).find(|&k| !comment(&low[k]) && has_any(&low[k], FETCHES));
        let write = (a..z).find(|&k| !comment(&low[k]) && has_any(&low[k], WRITES));
        let (Some(fe), Some(_)) = (fetch, write) else {
            continue;
        };
        return Some(found(
            "persistence.remote-skills-overwrite",
            "persistence",
            Severity::Critical,
            f,
            i,
            format!(
                "{}:{}: the skill downloads (line {}) and writes over its own SKILL.md or scripts from {}: the reviewed skill is replaced at run time by whatever that host serves.",
                f.path,
                i + 1,
                fe + 1,
                host.host
            ),
            if fe == i {
                vec![]
            } else {
                vec![rel("download", f, fe)]
            },
        ));
    }
    None
}

/// A dotted name on a TXT lookup line that is a suspicious host.
fn txt_host(l: &str) -> Option<String> {
    l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .map(|t| t.trim_matches('.'))
        .find(|t| {
            t.contains('.')
                && !t.starts_with('-')
                && t.rsplit('.').next().is_some_and(|tld| {
                    tld.len() >= 2 && tld.bytes().all(|c| c.is_ascii_lowercase())
                })
                && suspicious(classify(t, ""))
        })
        .map(str::to_owned)
}

fn txt_run(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if comment(l) || !l.has("txt") || !has_any(l, TXT) {
            continue;
        }
        let Some(host) = txt_host(l) else { continue };
        let run = if has_any(l, RUNS) {
            Some(i)
        } else {
            // `v=$(dig … TXT h)` then `eval "$v"` / `sh -c "$v"` / `iex $v`.
            let name = l.split_once('=').map(|(n, _)| {
                n.trim()
                    .trim_start_matches("local ")
                    .trim_start_matches(['$', ' '])
                    .to_owned()
            });
            name.filter(|n| {
                !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
            .and_then(|n| {
                (i + 1..(i + NEAR + 3).min(low.len())).find(|&k| {
                    has_any(&low[k], RUNS)
                        && (low[k].has(&format!("${n}")) || low[k].has(&format!("({n}")))
                })
            })
        };
        let Some(r) = run else { continue };
        return Some(found(
            "supply_chain.eval-remote",
            "supply_chain",
            Severity::Critical,
            f,
            r,
            format!(
                "{}:{}: a DNS TXT record of {host} (line {}) is run as code: whoever controls that domain's records decides what runs, and can change it at any time.",
                f.path,
                r + 1,
                i + 1
            ),
            if r == i {
                vec![]
            } else {
                vec![rel("lookup", f, i)]
            },
        ));
    }
    None
}
