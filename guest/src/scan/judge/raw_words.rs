//! The words without one of which no judge of a held-out round can fire on a text, one function a
//! round, chained into `prose::reads_raw_text` (a text without facts that holds none of them is
//! not judged). Moved out of `judge/mod.rs` at stop 61; the judges stay where they were.

use super::*;

/// Words without one of which no round-43m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round43m_raw_words() -> impl Iterator<Item = &'static str> {
    native_run::RAW.iter().chain(char_fetch::EACH).copied()
}

/// Words without one of which no round-44m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round44m_raw_words() -> impl Iterator<Item = &'static str> {
    agent_cfg_run::CFG_KEYS
        .iter()
        .chain(agent_cfg_run::UNCHECKED)
        .chain(agent_cfg_run::ALIAS_RAW)
        .chain(agent_cfg_run::KEEP_FROM_USER)
        .chain(mem_beacon::MEM_READS)
        .chain(mem_beacon::IDENTITY_SUBS)
        .copied()
}

/// Words without one of which no round-45m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round45m_raw_words() -> impl Iterator<Item = &'static str> {
    loader_lure::DOWNLOADS
        .iter()
        .chain(loader_lure::ATTACHMENT_URLS)
        .chain(["/files/"].iter())
        .chain(quiet_orders::SECRET_FILES)
        .chain(quiet_orders::DEFER)
        .chain(quiet_orders::ATTRS)
        .chain(quiet_orders::SECRET_KINDS)
        .copied()
}

/// Words without one of which no round-46m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round46m_raw_words() -> impl Iterator<Item = &'static str> {
    wallet_drop::RAW
        .iter()
        .chain(wallet_drop::WALLET_CONTEXT)
        .chain(wallet_drop::SESSION_NAMES)
        .chain(editor_autorun::GATE)
        .copied()
}

/// Words without one of which no round-47m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round47m_raw_words() -> impl Iterator<Item = &'static str> {
    recipient_swap::GATE
        .iter()
        .chain(tool_docstring::TOOLS)
        .chain(hook_loader::GATE)
        .chain(escaped_dest::GATE)
        .copied()
}

/// Words without one of which no round-48m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round48m_raw_words() -> impl Iterator<Item = &'static str> {
    install_agent_cfg::CFG
        .iter()
        .chain(followed_orders::OBEY)
        .chain(env_pick_send::ENUMS)
        .chain(tool_desc_order::TOOL_MARKS)
        .copied()
}

/// Words without one of which no round-49m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round49m_raw_words() -> impl Iterator<Item = &'static str> {
    prose_send::COMMANDS
        .iter()
        .chain(hidden_stash::TEMP_DOTS)
        .chain(startup_line::STARTUP)
        .chain(startup_line::HOOKS)
        .copied()
}

/// Words without one of which no round-42m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round42m_raw_words() -> impl Iterator<Item = &'static str> {
    wallet_request::CONTEXT
        .iter()
        .chain(encoded_output::ENCODES)
        .chain(forged_consent::CONSENT)
        .chain(dead_drop::WRITES)
        .chain(blank_exec::EVALS)
        .chain(["<script", "<iframe", "${{ github.event."].iter())
        .copied()
}

/// Words without one of which no round-41m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round41m_raw_words() -> impl Iterator<Item = &'static str> {
    data_phish::RAW
        .iter()
        .chain(host_wipe::RAW)
        .chain(
            [
                "decipher",
                "decrypt(",
                "b64decode",
                "base64",
                "webhook.",
                "requestb",
                "pipedrea",
                "interact",
                "api keys",
                "system prompt",
            ]
            .iter(),
        )
        .copied()
}

/// Words without one of which no round-40m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round40m_raw_words() -> impl Iterator<Item = &'static str> {
    wallet_send::SENDS
        .iter()
        .chain(token_scrape::SHAPES)
        .chain(chunk_eval::GIT_SOURCES)
        .chain(["eval("].iter())
        .copied()
}

/// Words without one of which no round-39m line-reading judge can fire on a text (chained into
/// `prose::reads_raw_text`; the download-run and fetched-code judges need a download or a fetch,
/// which are facts).
pub(crate) fn round39m_raw_words() -> impl Iterator<Item = &'static str> {
    dns_carry::ENCODE
        .iter()
        .chain(harvest::POSTS)
        .chain(setup_beacon::JS_IDENTITY)
        .chain(["secrets."].iter())
        .copied()
}

/// Words without one of which no round-38m judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round38m_raw_words() -> impl Iterator<Item = &'static str> {
    setup_beacon::IDENTITY
        .iter()
        .chain(decoded_drop::RAW)
        .chain(remote_orders::HIDE)
        .chain(secret_reveal::WHOLE)
        .chain(tool_swap::HIDE)
        .chain(transcript_ship::SOURCES)
        .copied()
}

/// Words without one of which no round-37m text judge can fire on a text (chained into
/// `prose::reads_raw_text`; the opaque-run judge reads binary entries, which a lone text has none of).
pub(crate) fn round37m_raw_words() -> impl Iterator<Item = &'static str> {
    override_variant::VERBS.iter().copied()
}

/// Words without one of which no round-36m or round-37t judge can fire on a text (chained into
/// `prose::reads_raw_text`).
pub(crate) fn round36m_raw_words() -> impl Iterator<Item = &'static str> {
    key_upload::RAW
        .iter()
        .chain(zw_order::RAW)
        .chain(marked_param::RAW)
        .copied()
        .chain(shapes::raw_words())
        .chain(foreign::raw_words())
}

/// Words without one of which no round-34m judge can fire on a text (chained into
/// `prose::reads_raw_text`, so a text without facts that holds one is still judged).
pub(crate) fn round34m_raw_words() -> impl Iterator<Item = &'static str> {
    file_exec::RUNNERS
        .iter()
        .chain(codegen_backdoor::DOORS)
        .chain(codegen_backdoor::APPLIES)
        .chain(secret_link::RAW)
        .chain(staged_send::SENDS)
        .chain(concealed_upload::HIDES)
        .chain(["chmod", "<!--"].iter())
        .copied()
}
