//! The frames and fingerprints of the SPEC.md corpus, as codegen copies them
//! into `corpus/corpus.json`.

use cgp_types::ContextFrame;
use serde::Deserialize;

/// What codegen wrote.
#[derive(Debug, Deserialize)]
struct Written {
    frames: Vec<serde_json::Value>,
    embeddings_fingerprints: Vec<String>,
}

/// The corpus, read.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Every frame of the valid examples the hand-written types decode.
    pub frames: Vec<ContextFrame>,
    /// The embedding fingerprints the corpus's providers declare.
    pub fingerprints: Vec<String>,
}

/// The corpus `cgp mock` was built with. An unreadable copy (which `cargo
/// xtask check` would have refused) reads as empty: the mock then serves no
/// frames rather than failing.
pub fn embedded() -> Corpus {
    let written: Option<Written> = serde_json::from_str(include_str!("../corpus/corpus.json")).ok();
    let Some(written) = written else {
        return Corpus::default();
    };
    Corpus {
        frames: written
            .frames
            .into_iter()
            .filter_map(|frame| serde_json::from_value(frame).ok())
            .collect(),
        fingerprints: written.embeddings_fingerprints,
    }
}
