//! Pass one of the scanner: typed facts about what each line of a file does.
//!
//! The content rules (`guest/rules/content-rules.json`) are matched line by line; a rule with a `fact`
//! states one about its line ("reads the SSH key", "sends a request", "downloads to F", "runs F",
//! "writes the agent's settings", "tells the agent to keep something from the user"…), with the
//! line's place and, where the rule captures one, a name or path. Facts are not findings: the judge
//! ([`super::judge`]) combines them within a file and across the bundle (a secret read here and sent
//! there; a file downloaded here and run there; lure prose next to a password-protected archive) into
//! findings that carry both ends' evidence.
//!
//! A fact keeps byte offsets into its file, not a copy of the line, so stating one costs no
//! allocation beyond a captured name; at most [`MAX_FACTS_PER_KIND`] of each kind are kept per file.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Facts of one kind kept per file (further ones are counted in the scan's stats, not kept: a file
/// would have to repeat the same kind of statement this often before anything is lost).
pub const MAX_FACTS_PER_KIND: usize = 256;

/// What a line does. The names are the `fact` values of the rule file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FactKind {
    // Sources of secrets.
    /// A secret-named environment variable is read (`$OPENAI_API_KEY`, `os.environ["X_TOKEN"]`,
    /// `process.env.X_SECRET`…); the capture is the variable's name.
    SecretEnv,
    /// The whole environment is read or walked (`env |`, `os.environ.items()`, `process.env` as a
    /// value, `Get-ChildItem env:`, `ENV.to_h`).
    EnvDump,
    /// The environment is copied into a value (`os.environ.copy()`, `{...process.env}`): what a
    /// subprocess call needs; a secret only if the copy is sent somewhere.
    EnvCopy,
    /// Only the names of the environment variables are read.
    EnvNames,
    /// Environment variables are filtered by secret-like names (`grep -i token`, `/KEY|SECRET/`):
    /// collecting secrets on purpose.
    SecretHarvest,
    /// A credential store is named in code (`~/.ssh/id_*`, `~/.aws/credentials`, `.env`, browser
    /// cookie databases, wallets, the agent's own secrets and memory…); the rule's tag says which.
    SecretFile,
    /// A command prints a secret (`security find-generic-password -w`, `git credential fill`,
    /// clipboard reads, `gh auth token`).
    SecretCommand,
    /// Prose that tells the agent to read a secret (an API key, the `.env` file, tokens).
    SecretProse,
    // Where data goes.
    /// A URL (any); the capture is the URL. The judge takes hosts from these.
    Url,
    /// Data leaves the machine: an HTTP request, DNS lookup, ping, scp/rsync, git push, mail, a raw
    /// socket. The tag names the channel.
    NetSend,
    /// A file is downloaded; the capture is where it is saved, when the line says.
    Download,
    /// Downloaded content is held in a value (`$(curl …)`, `urlopen(…).read()`,
    /// `DownloadString(…)`, `fetch(…).text()`).
    FetchToValue,
    /// Something is piped or fed into an interpreter on this line (`| sh`, `bash -c "$(…)"`,
    /// `bash <(…)`, `iex`); the tag says what feeds it.
    PipeExec,
    /// A file is run, sourced or made executable; the capture is the file.
    RunFile,
    /// A value is evaluated as code (`eval(x)`, `exec(src)`, `iex $s`, `new Function(s)`).
    EvalValue,
    /// Encoded data is decoded (base64, hex, char codes).
    Decode,
    /// A file is written; the capture is its path, the tag what kind of file it is.
    Write,
    /// Files are copied or archived (`cp`, `tar`, `zip`, `shutil.copytree`): staging.
    Stage,
    // The agent itself.
    /// A value that lifts the agent's permission checks (`bypassPermissions`, `Bash(*)`,
    /// `approval_policy = "never"`, `autoApprove: ["*"]`).
    PermissionValue,
    /// An agent is launched with its permission checks disabled (`--dangerously-skip-permissions`,
    /// `--yolo`).
    PermissionBypass,
    /// The agent's settings file is named in code (`~/.claude/settings.json`, `~/.codex/config.toml`…).
    AgentConfigPath,
    /// The agent's instruction, memory or identity files are named in code (AGENTS.md, CLAUDE.md,
    /// MEMORY.md, SOUL.md, `.cursorrules`, other skills' SKILL.md).
    AgentInstructionsPath,
    // Prose addressed to the user or the agent.
    /// "Before using…", "Prerequisites", "required first step".
    LurePrereq,
    /// "Download … and run/open/extract", "run the installer", "double-click".
    LureRun,
    /// A password-protected archive ("extract with password …", `unzip -P`).
    PasswordArchive,
    /// "Paste this into Terminal", "copy the script from this page".
    PasteRun,
    /// Turning off or getting around antivirus, Gatekeeper or quarantine ("add an exclusion",
    /// "it is a false positive", `xattr -d com.apple.quarantine`).
    AvBypass,
    /// Software fetched from a chat group, a pinned post or a file-sharing channel.
    SocialDownload,
    /// Granting broad rights: Full Disk Access, administrator, unpacked browser extensions.
    PrivilegeGrant,
    /// Keeping something from the user ("do not mention…", "quietly", "hide … from the user").
    Conceal,
    /// Words addressed to the agent rather than the user ("AGENT:", "Note to the AI").
    AddressAgent,
    /// Talking the user or agent into approving everything ("always pick Yes, don't ask again").
    ApproveAll,
    /// Talking the user or agent out of reading what will run ("do not inspect the scripts").
    NoInspect,
    /// The skill claiming every task for itself ("always use this skill for every task", "before
    /// any other tool"): not reported alone, a second signal next to approvals.
    ScopeGrab,
    /// A condition that delays or hides an action (when the user is away, after review passes).
    Conditional,
    /// Putting secrets into output the user or others see (reports, commit messages, URLs).
    SecretToOutput,
    /// Telling the agent to put "them", "the contents" or "the output" into its reply (a leak when
    /// the lines before read a secret).
    OutputRequest,
    /// Claiming to replace one of the agent's built-in tools, or redirecting another tool's
    /// messages to a fixed recipient.
    ToolShadow,
    /// Asking for the conversation (system prompt, user messages, chat history) to be passed into
    /// a tool's argument or request.
    ContextLeak,
    /// Fetching instructions from a URL and following them.
    RemoteInstructions,
    /// Instructions that outrank the user's.
    OverrideUser,
    /// Prose telling the agent to edit its instruction or memory files.
    MemoryEdit,
    /// Text the user does not see (HTML comments, `display:none`, zero-size fonts) carrying words.
    HiddenMarkup,
    /// Instructions that weaken what the agent builds: a backdoor password, a swapped payment
    /// address, a hidden link or script added to every page.
    Sabotage,
    /// Asking people to enter, type or send their password, card details or one-time code
    /// (phishing), in a message the agent writes or a step it takes.
    CredentialRequest,
    /// Code that hands an account password to a command that stores it (`tool set X_PASSWORD
    /// "your-password"`): the capture is the setting's name.
    PasswordHandover,
    /// Words telling the user the skill works offline or that nothing leaves the machine.
    OfflineClaim,
    // Hostile code pieces the judge combines.
    /// An outbound socket connection.
    SocketConnect,
    /// A shell process whose input or output is wired to something else.
    ShellSpawn,
    /// A listener on all interfaces or a port.
    Listener,
    /// `sudo` or an administrator elevation.
    Sudo,
    /// A recursive delete; the capture is its target.
    RemoveTree,
    /// A raw write to a block device; the capture is the device.
    DeviceWrite,
}

impl FactKind {
    /// The kebab-case name (as in the rule file).
    pub fn as_str(self) -> &'static str {
        NAMES[self as usize]
    }

    /// Wording of install lures (prerequisites, download-and-run, archive passwords, paste-and-run,
    /// antivirus or Gatekeeper bypass, chat-group downloads, broad grants).
    pub fn is_lure(self) -> bool {
        matches!(
            self,
            FactKind::LurePrereq
                | FactKind::LureRun
                | FactKind::PasswordArchive
                | FactKind::PasteRun
                | FactKind::AvBypass
                | FactKind::SocialDownload
                | FactKind::PrivilegeGrant
                | FactKind::CredentialRequest
        )
    }

    /// Every kind, in declaration order.
    pub const ALL: &'static [FactKind] = &[
        FactKind::SecretEnv,
        FactKind::EnvDump,
        FactKind::EnvCopy,
        FactKind::EnvNames,
        FactKind::SecretHarvest,
        FactKind::SecretFile,
        FactKind::SecretCommand,
        FactKind::SecretProse,
        FactKind::Url,
        FactKind::NetSend,
        FactKind::Download,
        FactKind::FetchToValue,
        FactKind::PipeExec,
        FactKind::RunFile,
        FactKind::EvalValue,
        FactKind::Decode,
        FactKind::Write,
        FactKind::Stage,
        FactKind::PermissionValue,
        FactKind::PermissionBypass,
        FactKind::AgentConfigPath,
        FactKind::AgentInstructionsPath,
        FactKind::LurePrereq,
        FactKind::LureRun,
        FactKind::PasswordArchive,
        FactKind::PasteRun,
        FactKind::AvBypass,
        FactKind::SocialDownload,
        FactKind::PrivilegeGrant,
        FactKind::Conceal,
        FactKind::AddressAgent,
        FactKind::ApproveAll,
        FactKind::NoInspect,
        FactKind::ScopeGrab,
        FactKind::Conditional,
        FactKind::SecretToOutput,
        FactKind::OutputRequest,
        FactKind::ToolShadow,
        FactKind::ContextLeak,
        FactKind::RemoteInstructions,
        FactKind::OverrideUser,
        FactKind::MemoryEdit,
        FactKind::HiddenMarkup,
        FactKind::Sabotage,
        FactKind::CredentialRequest,
        FactKind::PasswordHandover,
        FactKind::OfflineClaim,
        FactKind::SocketConnect,
        FactKind::ShellSpawn,
        FactKind::Listener,
        FactKind::Sudo,
        FactKind::RemoveTree,
        FactKind::DeviceWrite,
    ];

    /// Number of kinds.
    pub const COUNT: usize = FactKind::ALL.len();
}

const NAMES: [&str; FactKind::COUNT] = [
    "secret-env",
    "env-dump",
    "env-copy",
    "env-names",
    "secret-harvest",
    "secret-file",
    "secret-command",
    "secret-prose",
    "url",
    "net-send",
    "download",
    "fetch-to-value",
    "pipe-exec",
    "run-file",
    "eval-value",
    "decode",
    "write",
    "stage",
    "permission-value",
    "permission-bypass",
    "agent-config-path",
    "agent-instructions-path",
    "lure-prereq",
    "lure-run",
    "password-archive",
    "paste-run",
    "av-bypass",
    "social-download",
    "privilege-grant",
    "conceal",
    "address-agent",
    "approve-all",
    "no-inspect",
    "scope-grab",
    "conditional",
    "secret-to-output",
    "output-request",
    "tool-shadow",
    "context-leak",
    "remote-instructions",
    "override-user",
    "memory-edit",
    "hidden-markup",
    "sabotage",
    "credential-request",
    "password-handover",
    "offline-claim",
    "socket-connect",
    "shell-spawn",
    "listener",
    "sudo",
    "remove-tree",
    "device-write",
];

/// One fact about one (logical) line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub kind: FactKind,
    /// The rule that stated it (index into the rule set).
    pub rule: u16,
    /// 1-based line where the logical line starts.
    pub line: u32,
    /// Byte range of the logical line in the file (a command continued with `\` spans lines).
    pub start: u32,
    pub end: u32,
    /// The match, as byte offsets into [`logical_text`] of that range.
    pub at: u32,
    pub to: u32,
    /// Markdown or text outside code: words for a person or the agent, not code.
    pub prose: bool,
    /// 1-based line of the Markdown heading the line sits under (0: none).
    pub section: u32,
    /// What the rule captured (a variable name, a path, a URL), if anything.
    pub capture: Option<Box<str>>,
}

/// The facts of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFacts {
    pub facts: Vec<Fact>,
    /// Facts stated but not kept (over [`MAX_FACTS_PER_KIND`]).
    pub dropped: usize,
    counts: Vec<u16>,
}

impl FileFacts {
    /// Keep a fact unless its kind is already full.
    pub fn push(&mut self, fact: Fact) {
        if self.counts.is_empty() {
            self.counts = vec![0; FactKind::COUNT];
        }
        let n = &mut self.counts[fact.kind as usize];
        if usize::from(*n) >= MAX_FACTS_PER_KIND {
            self.dropped += 1;
            return;
        }
        *n += 1;
        self.facts.push(fact);
    }

    /// Whether no more facts of `kind` are kept (so a rule need not work out its capture).
    pub fn is_full(&self, kind: FactKind) -> bool {
        self.counts
            .get(kind as usize)
            .is_some_and(|n| usize::from(*n) >= MAX_FACTS_PER_KIND)
    }

    /// The index of a fact of this file (a reference into [`FileFacts::facts`]).
    pub fn index_of(&self, fact: &Fact) -> usize {
        let base = self.facts.as_ptr() as usize;
        let at = fact as *const Fact as usize;
        let i = at.wrapping_sub(base) / std::mem::size_of::<Fact>();
        if i < self.facts.len() && std::ptr::eq(&self.facts[i], fact) {
            i
        } else {
            usize::MAX
        }
    }

    /// The facts of one kind, in line order.
    pub fn of(&self, kind: FactKind) -> impl Iterator<Item = &Fact> {
        self.facts.iter().filter(move |f| f.kind == kind)
    }

    pub fn has(&self, kind: FactKind) -> bool {
        self.counts.get(kind as usize).is_some_and(|n| *n > 0)
    }

    /// Keep only the facts `keep` accepts (the per-kind counts follow).
    pub fn retain(&mut self, mut keep: impl FnMut(&Fact) -> bool) {
        self.facts.retain(|f| keep(f));
        self.counts.iter_mut().for_each(|n| *n = 0);
        for f in &self.facts {
            self.counts[f.kind as usize] += 1;
        }
    }
}

/// The text a logical line was matched on: the file's bytes in `start..end`, with each line
/// continuation (`\` at the end of a line) joined by one space and the next line's leading blanks
/// dropped, and line terminators removed. The scanner and the judge both use this, so a fact's
/// offsets mean the same to both.
pub fn logical_text(content: &str, start: u32, end: u32) -> Cow<'_, str> {
    let (s, e) = (start as usize, (end as usize).min(content.len()));
    let raw = content.get(s..e).unwrap_or("");
    let raw = raw.strip_suffix('\n').unwrap_or(raw);
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    if !raw.contains('\n') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut first = true;
    for part in raw.split('\n') {
        let part = part.strip_suffix('\r').unwrap_or(part);
        if first {
            out.push_str(part.strip_suffix('\\').unwrap_or(part));
            first = false;
        } else {
            out.push(' ');
            let t = part.trim_start();
            out.push_str(t.strip_suffix('\\').unwrap_or(t));
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_serde_and_the_table() {
        assert_eq!(NAMES.len(), FactKind::ALL.len());
        for (i, k) in FactKind::ALL.iter().enumerate() {
            assert_eq!(*k as usize, i, "{k:?} is in declaration order");
            assert_eq!(serde_json::to_value(k).unwrap(), NAMES[i], "{k:?}");
            assert_eq!(k.as_str(), NAMES[i]);
        }
    }

    #[test]
    fn logical_text_joins_continuations() {
        let c = "a \\\n   b \\\r\n c\nnext\n";
        let end = c.find("next").unwrap() as u32;
        assert_eq!(logical_text(c, 0, end), "a  b  c");
        assert_eq!(logical_text(c, end, c.len() as u32), "next");
        assert_eq!(logical_text("x\r\n", 0, 3), "x");
    }

    #[test]
    fn kinds_fill_up_one_at_a_time() {
        let mut ff = FileFacts::default();
        let fact = |kind| Fact {
            kind,
            rule: 0,
            line: 1,
            start: 0,
            end: 0,
            at: 0,
            to: 0,
            prose: false,
            section: 0,
            capture: None,
        };
        for _ in 0..MAX_FACTS_PER_KIND + 3 {
            ff.push(fact(FactKind::Url));
        }
        ff.push(fact(FactKind::NetSend));
        assert_eq!(ff.of(FactKind::Url).count(), MAX_FACTS_PER_KIND);
        assert_eq!(ff.dropped, 3);
        assert!(ff.has(FactKind::NetSend) && !ff.has(FactKind::Download));
    }
}
