//! The faults `cgp mock --behaviour` injects, each with the rule it breaks.

use std::fmt;

/// One fault a host must survive. Several can be combined.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Behaviour {
    /// Answers every query with more frames than `max_frames` and more budget
    /// tokens than `max_tokens`.
    OverBudget,
    /// Answers a query with an id it did not carry.
    WrongId,
    /// Writes a line that is not JSON before each reply.
    GarbageLine,
    /// Waits `--delay` before every reply.
    SlowReply,
    /// Dies in the middle of a reply to the first query, after half a line.
    Crash,
    /// Says `stale` of every frame a host asks it to verify, its own included.
    StaleVerify,
    /// Serves a frame of a kind no version defines (and declares the kind).
    UnknownVocabulary,
    /// Pads its first `frames` reply past the 16 MiB line limit.
    HugeLine,
    /// Acknowledges the handshake with a version of another major family.
    OtherMajor,
}

impl Behaviour {
    /// Every behaviour, in the order `--list-behaviours` prints them.
    pub const ALL: [Behaviour; 9] = [
        Behaviour::OverBudget,
        Behaviour::WrongId,
        Behaviour::GarbageLine,
        Behaviour::SlowReply,
        Behaviour::Crash,
        Behaviour::StaleVerify,
        Behaviour::UnknownVocabulary,
        Behaviour::HugeLine,
        Behaviour::OtherMajor,
    ];

    /// The name `--behaviour` takes.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::OverBudget => "over-budget",
            Behaviour::WrongId => "wrong-id",
            Behaviour::GarbageLine => "garbage-line",
            Behaviour::SlowReply => "slow-reply",
            Behaviour::Crash => "crash",
            Behaviour::StaleVerify => "stale-verify",
            Behaviour::UnknownVocabulary => "unknown-vocabulary",
            Behaviour::HugeLine => "huge-line",
            Behaviour::OtherMajor => "other-major",
        }
    }

    /// The rules of SPEC.md it breaks, as `cgp check` names them, or
    /// `allowed` for a behaviour that is conformant but hard on hosts.
    pub fn rule(self) -> &'static str {
        match self {
            Behaviour::OverBudget => "B1 B4",
            Behaviour::WrongId => "H4",
            Behaviour::GarbageLine => {
                "the text layer (SPEC.md §Transport: one JSON envelope per line)"
            }
            Behaviour::SlowReply => "allowed (within the host's timeout)",
            Behaviour::Crash => "CGP-ANSWER",
            Behaviour::StaleVerify => "V2",
            Behaviour::UnknownVocabulary => "allowed (U2: the host applies the fallback)",
            Behaviour::HugeLine => {
                "CGP-ANSWER (the text layer, SPEC.md §Transport: at most 16 MiB per line)"
            }
            Behaviour::OtherMajor => "H1 (the host refuses it under H3)",
        }
    }

    /// Whether a conformant provider may do it.
    pub fn is_allowed(self) -> bool {
        matches!(self, Behaviour::SlowReply | Behaviour::UnknownVocabulary)
    }

    /// What it does, for `--list-behaviours` and the docs.
    pub fn about(self) -> &'static str {
        match self {
            Behaviour::OverBudget => {
                "answers every query with more frames than max_frames and more tokens than max_tokens"
            }
            Behaviour::WrongId => "echoes a correlation id the query did not carry",
            Behaviour::GarbageLine => "writes a line that is not JSON before every reply",
            Behaviour::SlowReply => "waits --delay before every reply",
            Behaviour::Crash => "dies after half of the reply to the first query (exit status 101)",
            Behaviour::StaleVerify => "answers verify with stale for every frame, its own included",
            Behaviour::UnknownVocabulary => {
                "serves a frame of a kind no version defines, and declares that kind"
            }
            Behaviour::HugeLine => "pads its first frames reply past the 16 MiB line limit",
            Behaviour::OtherMajor => {
                "acknowledges the handshake with the next major version of the protocol"
            }
        }
    }

    /// The behaviour called `name`.
    pub fn from_name(name: &str) -> Option<Behaviour> {
        Behaviour::ALL
            .into_iter()
            .find(|behaviour| behaviour.name() == name)
    }
}

impl fmt::Display for Behaviour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The capabilities `--without` withholds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Without {
    /// No `capabilities.correlation`: replies carry no id.
    pub correlation: bool,
    /// No `capabilities.verify`: `verify` is answered with an error.
    pub verify: bool,
    /// No `capabilities.graph`: relations are left out of frames.
    pub graph: bool,
    /// No `embeddings_fingerprint`: a query embedding is refused.
    pub embeddings: bool,
}

impl Without {
    /// The names `--without` takes.
    pub const NAMES: [&'static str; 4] = ["correlation", "verify", "graph", "embeddings"];

    /// Withholds the capability called `name`; false when there is none.
    pub fn add(&mut self, name: &str) -> bool {
        match name {
            "correlation" => self.correlation = true,
            "verify" => self.verify = true,
            "graph" => self.graph = true,
            "embeddings" => self.embeddings = true,
            _ => return false,
        }
        true
    }
}
