//! Install lures: prose that gets the user to install something, judged by its signals within a
//! stretch of text (`supply_chain.install-lure`).

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Lines within which lure signals count together.
const LURE_WINDOW: u32 = 25;

/// Executable or archive downloads (a link to one of these from an unknown host is a lure signal).
const PAYLOAD_EXTENSIONS: &[&str] = &[
    ".exe",
    ".dmg",
    ".pkg",
    ".msi",
    ".zip",
    ".rar",
    ".7z",
    ".appimage",
    ".scr",
    ".bat",
    ".cmd",
    ".command",
    ".hta",
    ".jar",
    ".apk",
    ".ps1",
    ".vbs",
    ".lnk",
    ".iso",
    ".tar.gz",
    ".tgz",
    ".deb",
    ".rpm",
    // Office files that carry macros (an add-in or a macro workbook runs code when enabled).
    ".xlam",
    ".xlsm",
    ".docm",
    ".pptm",
];

/// Whether a prose line names an executable or archive file (`download `Helper.dmg` from …`): the
/// link next to it need not end in the file's name for the download to be that file.
fn names_payload(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | '*' | ','))
        .filter(|w| !w.contains("://"))
        .map(|w| {
            w.trim_end_matches(['.', ':', ';', '!', '?'])
                .to_ascii_lowercase()
        })
        .any(|w| {
            PAYLOAD_EXTENSIONS
                .iter()
                .any(|e| w.len() > e.len() && w.ends_with(e))
        })
}

/// Whether a prose line downloads a program named by what it is rather than by its file name
/// ("download the `bridge` binary for your platform from <link>", "get the executable from"):
/// a link to a directory or a "latest" page serves a program all the same (round 34t).
fn names_program_download(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    ["download", "grab ", "get the ", "fetch the "]
        .iter()
        .any(|v| l.contains(v))
        && [" binary", " binaries", " executable", "installer"]
            .iter()
            .any(|n| l.contains(n))
}

/// Whether a prose line documents a setting's default value and how to change it: "Default
/// registry: <link>", "defaults to <link>", "(override with X_URL or --registry)".
fn documents_default(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    let l = l.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '`'));
    let default_key = l.starts_with("default")
        && l.find(':')
            .is_some_and(|i| i < 40 && !l[..i].contains("://"));
    default_key
        || l.contains("defaults to ")
        || l.contains("override with ")
        || l.contains("overridden with ")
        || l.contains("overridden by ")
}

/// An executable or archive uploaded to a release on a code host (`github.com/<owner>/<repo>/
/// releases/download/<tag>/<file>.zip`): the host is known, the uploader is not.
fn release_asset(host: &str, path: &str) -> bool {
    let host = host.to_ascii_lowercase();
    matches!(
        host.as_str(),
        "github.com" | "www.github.com" | "gitlab.com" | "codeberg.org"
    ) && path.contains("/releases/download/")
        && PAYLOAD_EXTENSIONS.iter().any(|e| path.ends_with(e))
}

/// Whether a window's made-executable step also starts the file.
fn window_started(window: &[Signal<'_>]) -> bool {
    window
        .iter()
        .any(|s| s.kind == "exec-bit" && s.what.ends_with("started"))
}

/// Whether a prose line makes a downloaded file executable.
fn makes_executable(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    [
        "mark it executable",
        "make it executable",
        "mark them executable",
        "make them executable",
        "executable bit",
        "chmod +x",
        "chmod 755",
        "执行权限",
    ]
    .iter()
    .any(|w| l.contains(w))
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    Weak,
    Medium,
    Strong,
}

struct Signal<'a> {
    at: At<'a>,
    weight: Weight,
    /// Distinct signals count once each.
    kind: &'static str,
    what: String,
}

fn lure_signals<'a>(b: &'a Bundle<'a>, file: &'a super::super::File<'a>) -> Vec<Signal<'a>> {
    let mut out = Vec::new();
    let table: &[(FactKind, Weight, &str)] = &[
        (
            FactKind::PasswordArchive,
            Weight::Strong,
            "password-archive",
        ),
        (FactKind::PasteRun, Weight::Strong, "paste-run"),
        (FactKind::SocialDownload, Weight::Strong, "social-download"),
        (FactKind::PrivilegeGrant, Weight::Medium, "privilege"),
        (FactKind::LureRun, Weight::Weak, "run"),
        (FactKind::LurePrereq, Weight::Weak, "prerequisite"),
    ];
    for (kind, weight, name) in table {
        for at in b.in_file(file, *kind) {
            // A password handed over without an archive word on its line: only next to a strong
            // signal (the archive's link is usually the line above).
            let value_only = b.tag(at.fact) == "value-only";
            // A paste step whose text the skill shows and which fetches, runs or decodes nothing:
            // the step is as harmless as what is pasted (round 29p).
            // A step that sends people to a paste site, a raw IP, a tunnel, a shortener or a
            // lookalike to copy what the page shows pastes that page's text, not the inline code
            // on the line (a password, a file name) (round 31m).
            if *kind == FactKind::PasteRun
                && !hosts_in(&at.text()).iter().any(|h| h.class.is_suspicious())
                && super::shown_paste::shown_and_harmless(file.content, at.fact.line as usize)
            {
                out.push(Signal {
                    at,
                    weight: Weight::Weak,
                    kind: "paste-shown",
                    what: "a paste step whose text is shown in the skill and harmless".into(),
                });
                continue;
            }
            out.push(Signal {
                at,
                weight: if value_only { Weight::Medium } else { *weight },
                kind: if value_only { "password-value" } else { name },
                what: b.title(at.fact).to_lowercase(),
            });
        }
    }
    for at in b.in_file(file, FactKind::AvBypass) {
        // SKILL.md's `name:` names the skill (`defender-dev-exclusion`); it tells nobody to do
        // anything.
        // Nor does a Markdown heading (`# Defender build exclusion`): it names a section.
        let t = at.text();
        if file.path.eq_ignore_ascii_case("SKILL.md") && t.trim_start().starts_with("name:")
            || file.kind == crate::scan::content::FileKind::Markdown
                && t.trim_start().starts_with('#')
        {
            continue;
        }
        // An exclusion for the project's own build folder is a speed-up, not protection turned
        // off for a payload (round 29p): a medium signal of its own kind.
        if b.tag(at.fact) == "av" && super::shown_paste::project_exclusion(&at.text()) {
            out.push(Signal {
                at,
                weight: Weight::Medium,
                kind: "av-project",
                what: "an antivirus exclusion for the project's own folder".into(),
            });
            continue;
        }
        let strong = b.tag(at.fact) == "av";
        out.push(Signal {
            at,
            weight: if strong {
                Weight::Strong
            } else {
                Weight::Medium
            },
            kind: if strong { "antivirus" } else { "gatekeeper" },
            what: b.title(at.fact).to_lowercase(),
        });
    }
    // Prose that makes a download executable ("mark it executable", "chmod +x", "赋予执行权限"):
    // the step between fetching a program and starting it.
    for at in b.in_file(file, FactKind::Url).filter(|a| a.fact.prose) {
        if makes_executable(&at.text())
            && !out
                .iter()
                .any(|s: &Signal<'_>| s.kind == "exec-bit" && s.at.fact.line == at.fact.line)
        {
            let text = at.text();
            let l = crate::ascii_lowered(&text);
            let starts = [
                "start it",
                "run it",
                "launch it",
                "execute it",
                "start the",
                "run the",
                "运行",
                "启动",
                "执行一次",
            ]
            .iter()
            .any(|w| l.contains(w));
            out.push(Signal {
                at,
                weight: Weight::Medium,
                kind: "exec-bit",
                what: if starts {
                    "a downloaded file made executable and started".into()
                } else {
                    "a downloaded file made executable".into()
                },
            });
        }
    }
    // A paste-and-run step whose text comes from a page on a host that is neither local nor a
    // known vendor's ("open <link>, copy what it shows, paste it into the Run box"): what runs is
    // whatever that page serves at the time, never shown in the skill.
    for at in b.in_file(file, FactKind::PasteRun) {
        if let Some((h, named)) = hosts_in(&at.text())
            .into_iter()
            .find(|h| h.class.is_outside())
            .map(|h| (h, String::new()))
            // Round 50t: or the page named just above the step, in its paragraph.
            .or_else(|| {
                super::paste_page::page_above(b, file, &at)
                    .map(|(h, line)| (h, format!(", named at {}:{line}", file.path)))
            })
        {
            out.push(Signal {
                at,
                weight: Weight::Medium,
                kind: "paste-source",
                what: format!(
                    "the text to paste comes from a page on {} (not a known vendor{named})",
                    h.host
                ),
            });
        }
    }
    for at in b.in_file(file, FactKind::ApproveAll) {
        out.push(Signal {
            at,
            weight: Weight::Medium,
            kind: "approve-all",
            what: b.title(at.fact).to_lowercase(),
        });
    }
    // Links count in prose; in code only on a line that fetches, runs or sends.
    let acting = |line: u32| {
        file.facts.facts.iter().any(|f| {
            f.line == line
                && matches!(
                    f.kind,
                    FactKind::Download
                        | FactKind::FetchToValue
                        | FactKind::PipeExec
                        | FactKind::RunFile
                )
        })
    };
    let quoted = |a: &At<'_>| a.fact.prose && a.text().trim_start().starts_with('>');
    // A code block of a document holding nothing but a link shows the user an address to open.
    let lone = |a: &At<'_>| a.text().trim() == a.matched().trim();
    for at in b
        .in_file(file, FactKind::Url)
        .filter(|a| (a.fact.prose || acting(a.fact.line) || lone(a)) && !quoted(a))
    {
        // A link written without its scheme (`pastebin.com/raw/…`) names its host in the capture.
        let bare = (b.tag(at.fact) == "bare")
            .then_some(at.fact.capture.as_deref())
            .flatten()
            .and_then(|c| hosts_in(&format!("https://{c}")).into_iter().next());
        let hosts = match bare {
            Some(h) => vec![h],
            None if b.tag(at.fact) == "bare" => Vec::new(),
            None => hosts_in(&at.text()),
        };
        for h in hosts {
            let path = h.path.to_ascii_lowercase();
            // A sentence's punctuation after the link is not part of the file name.
            let path = path
                .split(['?', '#'])
                .next()
                .unwrap_or("")
                .trim_end_matches(['.', ',', ';', ':', ')', '!', '"', '\'', '`']);
            // A shortener's own home page (`https://is.gd`, no path) names the service, not a
            // short link hiding where it leads (round 33b).
            let shortener_home =
                h.class == HostClass::Shortener && path.trim_matches('/').is_empty();
            if h.class.is_suspicious() && !shortener_home {
                // A brand worn only as a subdomain of another company's domain (a partner's
                // endpoint named after the agent) is a weaker sign than a disguise in the name that
                // was registered, a raw IP, a paste site or a tunnel.
                let weak_lookalike = h.class == HostClass::Lookalike
                    && crate::scan::hosts::brand_only_in_subdomain(&h.host);
                // A tool's documented default ("Default registry: <link> (override with …)")
                // states a setting; it asks nobody to download or run anything.
                let setting = at.fact.prose && documents_default(&at.text());
                out.push(Signal {
                    at,
                    weight: if weak_lookalike || setting {
                        Weight::Medium
                    } else {
                        Weight::Strong
                    },
                    kind: "suspicious-link",
                    what: format!("a link to {} ({})", h.host, h.class.phrase()),
                });
            } else if release_asset(&h.host, path)
                || h.class == HostClass::Unknown && at.fact.prose && makes_executable(&at.text())
            {
                // A code host serves anyone's uploads: an archive or program attached to a
                // release of some account's repository is only as trusted as that account.
                let release = release_asset(&h.host, path);
                out.push(Signal {
                    at,
                    weight: Weight::Medium,
                    kind: if release { "release-link" } else { "payload-link" },
                    what: if release {
                        format!(
                            "an archive or program attached to a release of someone's repository on {}",
                            h.host
                        )
                    } else {
                        format!(
                            "a program from {} (not a known vendor) made executable",
                            h.host
                        )
                    },
                });
            } else if h.class == HostClass::Unknown
                && (PAYLOAD_EXTENSIONS.iter().any(|e| path.ends_with(e))
                    || at.fact.prose && {
                        // The sentence may start on the line before the link's (round 35t).
                        let t = super::platform_lure::with_wrapped_previous(
                            file,
                            at.fact.line,
                            &at.text(),
                        );
                        names_payload(&t)
                            || names_program_download(&t)
                            || super::platform_lure::names_program_abroad(&crate::ascii_lowered(&t))
                    })
            {
                // A program from an account's subdomain of a deployment platform: the platform
                // serves whatever anyone deploys (round 35t), so the host vouches for nothing.
                let platform =
                    at.fact.prose && super::platform_lure::anyones_platform_subdomain(&h.host);
                if platform {
                    out.push(Signal {
                        at,
                        weight: Weight::Strong,
                        kind: "platform-payload",
                        what: format!(
                            "a program to download from {}, a subdomain of a platform that serves anyone's deployments",
                            h.host
                        ),
                    });
                    continue;
                }
                out.push(Signal {
                    at,
                    weight: Weight::Medium,
                    kind: "payload-link",
                    what: format!(
                        "a download of an executable or archive from {} (not a known vendor)",
                        h.host
                    ),
                });
            }
        }
    }
    out.sort_by_key(|s| s.at.fact.line);
    out
}

pub(super) fn lure(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // Lures are prose for people: SKILL.md, references, text assets (scripts are judged as code).
    for file in b
        .files
        .iter()
        .filter(|f| f.kind != crate::scan::content::FileKind::Code)
    {
        let signals = lure_signals(b, file);
        if signals.iter().all(|s| s.weight < Weight::Strong)
            && signals
                .iter()
                .filter(|s| s.weight == Weight::Medium)
                .count()
                < 2
        {
            continue;
        }
        // The best window of LURE_WINDOW lines.
        let mut best: Option<(Severity, usize, usize)> = None;
        for i in 0..signals.len() {
            let mut kinds: Vec<(&str, Weight)> = Vec::new();
            let mut j = i;
            while j < signals.len()
                && signals[j].at.fact.line <= signals[i].at.fact.line + LURE_WINDOW
            {
                if !kinds.iter().any(|(k, _)| *k == signals[j].kind) {
                    kinds.push((signals[j].kind, signals[j].weight));
                }
                j += 1;
            }
            let strong = kinds.iter().filter(|(_, w)| *w == Weight::Strong).count();
            let medium = kinds.iter().filter(|(_, w)| *w == Weight::Medium).count();
            let weak = kinds.iter().filter(|(_, w)| *w == Weight::Weak).count();
            let has = |k: &str| kinds.iter().any(|(n, _)| *n == k);
            // An executable from an unknown host, and the protection that would stop it turned
            // off for it: the macOS/Windows dropper shape even without a strong word.
            let dropper =
                has("payload-link") && (has("gatekeeper") || has("antivirus") || has("av-project"));
            // A program from an unknown host made executable and started, or one from some
            // account's release given broad access (Full Disk Access, administrator): the
            // download-then-run chain told in words.
            let started = window_started(&signals[i..j]);
            let chain = has("payload-link")
                && has("exec-bit")
                && (has("run") || has("prerequisite") || started)
                || has("release-link") && has("privilege") && (has("run") || has("prerequisite"));
            let sev = if strong >= 2 || strong == 1 && medium + weak >= 1 || dropper || chain {
                Severity::Critical
            } else if strong == 1 || medium >= 2 && weak >= 1 {
                Severity::High
            } else {
                continue;
            };
            if best.is_none_or(|(s, a, z)| sev > s || sev == s && j - i > z - a) {
                best = Some((sev, i, j));
            }
        }
        let Some((sev, i, j)) = best else { continue };
        let window = &signals[i..j];
        let head = window
            .iter()
            .max_by_key(|s| (s.weight, std::cmp::Reverse(s.at.fact.line)))
            .map(|s| s.at)
            .unwrap_or(window[0].at);
        let mut seen: Vec<&str> = Vec::new();
        let mut whats = Vec::new();
        let mut related: Vec<Related> = Vec::new();
        for s in window {
            if seen.contains(&s.kind) {
                continue;
            }
            seen.push(s.kind);
            whats.push(format!("{} ({})", s.what, s.at.place()));
            if s.at.fact.line != head.fact.line {
                related.push(s.at.related("signal"));
            }
        }
        let why = format!(
            "Install instructions with {}: {}. {}",
            if sev == Severity::Critical {
                "the marks of a malware lure"
            } else {
                "a mark of a malware lure"
            },
            whats.join("; "),
            if sev == Severity::Critical {
                "Real tools ship through package managers or their vendor's site; password-protected archives, paste-and-run steps and turning protection off are how infostealers are delivered. Do not follow these steps."
            } else {
                "Check where this software comes from before following these steps."
            }
        );
        related.truncate(6);
        out.push(finding(
            "supply_chain.install-lure",
            "supply_chain",
            sev,
            head,
            why,
            related,
        ));
    }
}
