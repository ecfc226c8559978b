//! The published bundles, embedded at build time: `cgp` needs no files at run
//! time and never touches the network.

use cgp_schema::{Bundle, Profile, Validator};

/// One embedded bundle.
struct Embedded {
    version: &'static str,
    profile: Profile,
    text: &'static str,
}

const EMBEDDED: &[Embedded] = &[
    Embedded {
        version: "contextgraph/1.0",
        profile: Profile::Interop,
        text: include_str!("../../../generated/schema/contextgraph-1.0/interop.schema.json"),
    },
    Embedded {
        version: "contextgraph/1.0",
        profile: Profile::Strict,
        text: include_str!("../../../generated/schema/contextgraph-1.0/strict.schema.json"),
    },
];

/// The protocol version `cgp validate` and `cgp check` speak.
pub const CURRENT: &str = cgp_types::PROTOCOL_VERSION;

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

/// A validator for the current version's bundle of `profile`.
pub fn validator(profile: Profile) -> Result<Validator, String> {
    let text = text(CURRENT, profile)
        .ok_or_else(|| format!("no embedded {profile} bundle for {CURRENT}"))?;
    let bundle = Bundle::from_published(text)?;
    Validator::new(&bundle).map_err(|problems| problems.to_string())
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
        }
        assert_eq!(versions(), vec![CURRENT]);
    }
}
