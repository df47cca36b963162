//! The whole environment sent where the file does not show (round 28, sets27m).
//!
//! Credentials in bulk reaching a request whose destination the file does not show are worth a look
//! (`high`): the address may come from the skill's own configuration. The whole environment is
//! different: every key of every service the user has set, serialised into one request. No client
//! needs that to talk to its own service, and a destination kept out of the file (a variable, a
//! placeholder, an address assembled at run time) is how such a send hides where it goes; so an
//! environment dump reaching a request with no visible destination is `critical`, like one sent to
//! an unknown host. (A copy of the environment, `dict(os.environ)`, counts when it is what reaches
//! the request; one handed to a subprocess reaches no request.) Other bulk sources (SSH or cloud key
//! files, harvested secrets) keep the `high` grade.

use super::{At, Bundle, Verdict, what};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// The verdict for a bulk source reaching a request whose destination the file does not show.
pub(super) fn unseen_destination(b: &Bundle<'_>, src: &At<'_>) -> Verdict {
    if matches!(src.fact.kind, FactKind::EnvDump | FactKind::EnvCopy) {
        return Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.secret-to-network",
            why: format!(
                "{} (every variable, with its value) reaches a request whose destination the file does not show: no client needs the whole environment, and an address kept out of the file hides where it goes",
                what(b, src)
            ),
        };
    }
    Verdict {
        severity: Severity::High,
        rule: "exfiltration.secret-to-network",
        why: format!(
            "{} reaches a request whose destination the file does not show",
            what(b, src)
        ),
    }
}
