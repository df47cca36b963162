//! Round 50m (sets50m): the misses of the held-out set 28 (BENCHMARKS.md, "Round 50m held-out
//! (sets50m)"), by class. Each judge is general (no sample, name or host of the set), reads the
//! lowered lines of one file (or of a `.pth` file and the module it names) once, and skips a line
//! already judged `critical`.
//!
//! - [`reply::secret_file_to_reply`] (`prompt_injection.secret-file-to-reply`): text for the model,
//!   in code or data, ordering it to read a home credential file into its reply or a tool call.
//! - [`sends::agent_auth_store_sent`] (`exfiltration.agent-auth-store-sent`): an agent's own auth
//!   store read by a file that posts to a stranger.
//! - [`sends::local_claim_send`] (`exfiltration.local-claim-send`): a tool declared local-only
//!   whose code posts data to a stranger.
//! - [`sends::log_handler_secret`] (`exfiltration.log-handler-secret`): a secret handed to a logger
//!   whose handler ships records over the network.
//! - [`pth::pth_import_send`] (`persistence.pth-import-send`): a `.pth` start-up file importing a
//!   bundled module that posts to a stranger at every interpreter start.

mod pth;
mod reply;
mod sends;

use super::Bundle;
use crate::scan::content::Finding;

/// Words without one of which no round-50m judge can fire on a lone text (chained into
/// `prose::reads_raw_text`; the `.pth` judge needs two files, so it has none).
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    reply::RAW
        .iter()
        .chain(sends::AUTH_STORES)
        .chain(sends::LOCAL_CLAIMS)
        .chain(sends::LOG_HANDLERS)
        .copied()
}

/// The round-50m judges, in order; each skips a line already judged `critical`.
pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    reply::secret_file_to_reply(b, out);
    sends::agent_auth_store_sent(b, out);
    sends::local_claim_send(b, out);
    sends::log_handler_secret(b, out);
    pth::pth_import_send(b, out);
}
