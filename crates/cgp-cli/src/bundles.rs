//! The published bundles, embedded at build time: `cgp` needs no files at run
//! time and never touches the network.
//!
//! `cargo xtask codegen` copies every bundle under `generated/schema/` (each
//! released version and the working one) into `crates/cgp-cli/bundles/` and
//! writes the table below, so a version change needs no edit here.

use cgp_check::Validator;
use cgp_schema::{Bundle, Diagnostics, Profile, PublishedBundleError};
use std::fmt;

/// One embedded bundle.
struct Embedded {
    version: &'static str,
    profile: Profile,
    text: &'static str,
}

include!("../bundles/index.rs");

/// The protocol versions with an embedded bundle, oldest first.
pub fn versions() -> Vec<&'static str> {
    let mut versions: Vec<&str> = EMBEDDED.iter().map(|e| e.version).collect();
    versions.dedup();
    versions
}

/// The bundle text of `version` and `profile`, exactly as published.
pub fn text(version: &str, profile: Profile) -> Option<&'static str> {
    EMBEDDED
        .iter()
        .find(|e| e.version == version && e.profile == profile)
        .map(|e| e.text)
}

/// Why there is no validator for an embedded bundle.
#[derive(Debug)]
pub enum BundleError {
    /// No bundle of that version and profile is embedded.
    Missing {
        /// The version asked for.
        version: String,
        /// The profile asked for.
        profile: Profile,
    },
    /// The embedded text is not a published bundle.
    Unreadable(PublishedBundleError),
    /// The bundle does not compile.
    Uncompilable(Diagnostics),
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::Missing { version, profile } => {
                write!(f, "no embedded {profile} bundle for {version}")
            }
            BundleError::Unreadable(error) => error.fmt(f),
            BundleError::Uncompilable(problems) => problems.fmt(f),
        }
    }
}

impl std::error::Error for BundleError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BundleError::Unreadable(error) => Some(error),
            BundleError::Missing { .. } | BundleError::Uncompilable(_) => None,
        }
    }
}

/// A validator for the bundle of `version` and `profile`, with the
/// single-pass check codegen wrote from the same bundle as its fast path.
pub fn validator(version: &str, profile: Profile) -> Result<Validator, BundleError> {
    let text = text(version, profile).ok_or_else(|| BundleError::Missing {
        version: version.to_owned(),
        profile,
    })?;
    let bundle = Bundle::from_published(text).map_err(BundleError::Unreadable)?;
    // The single-pass check judges every message; jsonschema explains the
    // rejected ones, so its validators are compiled only when one is.
    Ok(match cgp_validator::for_bundle(version, profile.as_str()) {
        Some(precheck) => Validator::deferred(bundle)
            .map_err(BundleError::Uncompilable)?
            .with_precheck(precheck),
        None => Validator::new(&bundle).map_err(BundleError::Uncompilable)?,
    })
}

/// A clap parser that takes one of the embedded versions; a missing or unknown
/// value is a usage error (exit 2) that lists them.
pub fn version_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(versions())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_bundle_compiles_and_names_its_profile() {
        for embedded in EMBEDDED {
            let bundle = Bundle::from_published(embedded.text).expect("bundle");
            assert_eq!(bundle.profile, embedded.profile);
            assert_eq!(
                bundle.document["x-cgp-protocol-version"], embedded.version,
                "{}",
                embedded.version
            );
            Validator::new(&bundle).expect("compiles");
            assert!(
                cgp_validator::for_bundle(embedded.version, embedded.profile.as_str()).is_some(),
                "codegen writes a single-pass check for every embedded bundle"
            );
        }
        assert_eq!(WORKING, cgp_types::PROTOCOL_VERSION);
        assert!(versions().contains(&WORKING));
        for version in versions() {
            for profile in Profile::ALL {
                assert!(text(version, profile).is_some(), "{version} {profile}");
            }
        }
    }
}
