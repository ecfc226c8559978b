//! The single-pass check (`cgp-validator`) against the `jsonschema` path: the
//! verdict of `check_verdict` on a validator without the fast path (text layer,
//! `jsonschema`, the reference decoder's reading of integers) must be the
//! generated check's, under both profiles, on a line and on its mutations.

use cgp_check::Validator;
use cgp_check::transcript::check_verdict;
pub use cgp_schema::mutate::mutations;
use cgp_schema::{Bundle, Profile, ProtocolVersion};
use std::sync::OnceLock;

/// One profile's two judges.
pub struct Judges {
    pub profile: Profile,
    /// The published bundle, `jsonschema` only.
    pub jsonschema: Validator,
    /// The check codegen wrote from the same bundle.
    pub single_pass: cgp_validator::Check,
}

/// Both profiles' judges of the working version's published bundles.
pub fn judges() -> &'static [Judges; 2] {
    static JUDGES: OnceLock<[Judges; 2]> = OnceLock::new();
    JUDGES.get_or_init(|| {
        Profile::ALL.map(|profile| {
            let version: ProtocolVersion = cgp_types::PROTOCOL_VERSION.parse().expect("version");
            let path =
                cgp_test_support::repo().join(cgp_codegen::plan::published_path(&version, profile));
            let text = std::fs::read_to_string(&path).expect("the published bundle");
            let bundle = Bundle::from_published(&text).expect("a bundle");
            Judges {
                profile,
                jsonschema: Validator::new(&bundle).expect("compiles"),
                single_pass: cgp_validator::for_bundle(
                    cgp_types::PROTOCOL_VERSION,
                    profile.as_str(),
                )
                .expect("codegen writes a check for the working version"),
            }
        })
    })
}

/// Every profile on which the two judges disagree about `line`, described.
pub fn disagreements(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for judges in judges() {
        let slow = check_verdict(&judges.jsonschema, line.as_bytes());
        let fast = (judges.single_pass)(line);
        if fast.is_some() != slow.is_valid() {
            found.push(format!(
                "{}: single pass says {}, jsonschema {:?} on {line}",
                judges.profile,
                if fast.is_some() { "valid" } else { "invalid" },
                slow.findings
            ));
        } else if let Some(tag) = fast {
            if slow.variant.map(|variant| variant.as_str()) != Some(tag) {
                found.push(format!(
                    "{}: tag {tag} vs {:?} on {line}",
                    judges.profile, slow.variant
                ));
            }
        }
    }
    found
}
