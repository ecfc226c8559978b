//! A transcript: messages in order, with the semantic rules of single messages
//! and of the conversation.

use super::finding::{Checked, Finding};
use super::layers::{check_message, locate};
use crate::semantic::{self, Session};
use crate::validate::Validator;

/// Checks a sequence of messages (a transcript): every message on the text,
/// schema and decoder layers, and, when asked, the semantic rules — per message,
/// and across messages (B1, B4, H4), which only bite when the transcript holds
/// both sides of the conversation.
#[derive(Debug)]
pub struct TranscriptChecker<'v> {
    validator: &'v Validator,
    exchange: bool,
    per_message: bool,
    session: Session,
}

impl<'v> TranscriptChecker<'v> {
    /// A checker with `validator`'s profile; `semantic` adds all the semantic
    /// rules.
    pub fn new(validator: &'v Validator, semantic: bool) -> Self {
        Self::with_rules(validator, semantic, semantic)
    }

    /// A checker that applies the exchange rules across messages (B1, B4, H4)
    /// when `exchange` is set, and the rules of single messages (B3, F1, …)
    /// when `per_message` is.
    pub fn with_rules(validator: &'v Validator, exchange: bool, per_message: bool) -> Self {
        TranscriptChecker {
            validator,
            exchange,
            per_message,
            session: Session::speaking(validator.protocol_version()),
        }
    }

    /// Checks the next message. `origin` names it in later messages (`line 3`).
    pub fn check(&mut self, bytes: &[u8], origin: &str) -> Checked {
        let mut checked = check_message(self.validator, bytes);
        self.add_semantic(bytes, origin, &mut checked);
        checked
    }

    /// Adds the semantic findings to the verdict [`check_message`] gave on the
    /// next message (`bytes`), for checks that run the per-message layers
    /// elsewhere (on other threads) and the rules across messages here, in order.
    pub fn add_semantic(&mut self, bytes: &[u8], origin: &str, checked: &mut Checked) {
        let before = checked.findings.len();
        self.semantic_rules(checked, origin);
        if let Some(added) = checked.findings.get_mut(before..) {
            locate(bytes, added);
            added.sort_by_key(|finding| finding.position);
        }
    }

    fn semantic_rules(&mut self, checked: &mut Checked, origin: &str) {
        if !self.exchange && !self.per_message {
            return;
        }
        if let Some(envelope) = &checked.envelope {
            // The session always follows the conversation: the per-message rules
            // need what the provider declared (G1, F11).
            let exchange = self.session.observe(envelope, origin);
            let mut found = if self.exchange { exchange } else { Vec::new() };
            if self.per_message {
                found.extend(semantic::check_envelope(envelope, self.session.context()));
            }
            found.sort();
            checked
                .findings
                .extend(found.into_iter().map(Finding::semantic));
        }
    }
}
