//! The faults `cgp mock --behaviour` injects, each with the rule it breaks.

use std::fmt;

/// Declares the behaviours once: each with its doc, then the name
/// `--behaviour` takes, the rules of SPEC.md it breaks (as `cgp check` names
/// them, or `allowed` for a behaviour that is conformant but hard on hosts)
/// and what it does (for `--list-behaviours` and the docs). The macro writes
/// [`Behaviour`], [`Behaviour::ALL`] and the accessors.
macro_rules! behaviours {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal, $rule:literal, $about:literal;)*) => {
        /// One fault a host must survive. Several can be combined.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Behaviour {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Behaviour {
            /// Every behaviour, in the order `--list-behaviours` prints them.
            pub const ALL: [Behaviour; [$($name),*].len()] = [$(Behaviour::$variant,)*];

            /// The name `--behaviour` takes.
            pub fn name(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => $name,)*
                }
            }

            /// The rules of SPEC.md it breaks, as `cgp check` names them, or
            /// `allowed` for a behaviour that is conformant but hard on hosts.
            pub fn rule(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => $rule,)*
                }
            }

            /// What it does, for `--list-behaviours` and the docs.
            pub fn about(self) -> &'static str {
                match self {
                    $(Behaviour::$variant => $about,)*
                }
            }
        }
    };
}

behaviours! {
    /// Answers every query with more frames than `max_frames` and more budget
    /// tokens than `max_tokens`.
    OverBudget => "over-budget",
        "B1 B4",
        "answers every query with more frames than max_frames and more tokens than max_tokens";
    /// Answers a query with an id it did not carry.
    WrongId => "wrong-id",
        "H4",
        "echoes a correlation id the query did not carry";
    /// Writes a line that is not JSON before each reply.
    GarbageLine => "garbage-line",
        "the text layer (SPEC.md §Transport: one JSON envelope per line)",
        "writes a line that is not JSON before every reply";
    /// Waits `--delay` before every reply.
    SlowReply => "slow-reply",
        "allowed (within the host's timeout)",
        "waits --delay before every reply";
    /// Dies in the middle of a reply to the first query, after half a line.
    Crash => "crash",
        "CGP-ANSWER",
        "dies after half of the reply to the first query (exit status 101)";
    /// Says `stale` of every frame a host asks it to verify, its own included.
    StaleVerify => "stale-verify",
        "V2",
        "answers verify with stale for every frame, its own included";
    /// Serves a frame of a kind no version defines (and declares the kind).
    UnknownVocabulary => "unknown-vocabulary",
        "allowed (U2: the host applies the fallback)",
        "serves a frame of a kind no version defines, and declares that kind";
    /// Pads its first `frames` reply past the 16 MiB line limit.
    HugeLine => "huge-line",
        "CGP-ANSWER (the text layer, SPEC.md §Transport: at most 16 MiB per line)",
        "pads its first frames reply past the 16 MiB line limit";
    /// Acknowledges the handshake with a version of another major family.
    OtherMajor => "other-major",
        "H1 (the host refuses it under H3)",
        "acknowledges the handshake with the next major version of the protocol";
}

impl Behaviour {
    /// Whether a conformant provider may do it: its rule column says `allowed`.
    pub fn is_allowed(self) -> bool {
        self.rule().starts_with("allowed")
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
