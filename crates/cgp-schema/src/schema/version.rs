//! Protocol versions as this project writes them: `<name>/<major>.<minor>`.
//!
//! The wire itself has no version grammar (SPEC.md §Version rule: peers compare
//! only the major family). Our own schemas are stricter: the version declared in
//! `schema/` must parse here, so bundles, release manifests and the bump gate
//! can order versions.

use std::fmt;
use std::str::FromStr;

/// A protocol version such as `demo/1.0`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProtocolVersion {
    /// The protocol name, e.g. `demo`.
    pub name: String,
    /// The major version: a new major is a new, incompatible family.
    pub major: u64,
    /// The minor version: additive changes within a family.
    pub minor: u64,
}

impl ProtocolVersion {
    /// The major family, e.g. `demo/1` (what the wire compares).
    pub fn family(&self) -> String {
        format!("{}/{}", self.name, self.major)
    }

    /// The family as a path segment, e.g. `demo-1`; source `$id`s carry it.
    pub fn family_slug(&self) -> String {
        format!("{}-{}", self.name, self.major)
    }

    /// The version as a path segment, e.g. `demo-1.0`; bundles live under it.
    pub fn slug(&self) -> String {
        format!("{}-{}.{}", self.name, self.major, self.minor)
    }

    /// The `major.minor` part, the form `x-cgp-since` uses.
    pub fn number(&self) -> String {
        format!("{}.{}", self.major, self.minor)
    }

    /// Parses a version slug such as `demo-1.0` back into a version.
    pub fn from_slug(slug: &str) -> Option<Self> {
        let (name, number) = slug.rsplit_once('-')?;
        format!("{name}/{number}").parse().ok()
    }

    /// The same protocol at `major.minor`.
    pub fn with_number(&self, major: u64, minor: u64) -> Self {
        Self {
            name: self.name.clone(),
            major,
            minor,
        }
    }

    /// `(major, minor)`, for ordering versions of one protocol.
    pub fn key(&self) -> (u64, u64) {
        (self.major, self.minor)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}.{}", self.name, self.major, self.minor)
    }
}

/// Why a version string is not of the form `<name>/<major>.<minor>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionError(pub String);

impl fmt::Display for VersionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a protocol version of the form `<name>/<major>.<minor>`",
            self.0
        )
    }
}

impl std::error::Error for VersionError {}

impl FromStr for ProtocolVersion {
    type Err = VersionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fail = || VersionError(text.to_owned());
        let (name, number) = text.split_once('/').ok_or_else(fail)?;
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid_name {
            return Err(fail());
        }
        let (major, minor) = parse_number(number).ok_or_else(fail)?;
        Ok(Self {
            name: name.to_owned(),
            major,
            minor,
        })
    }
}

/// Parses `major.minor` (the `x-cgp-since` form) into numbers.
pub(crate) fn parse_number(number: &str) -> Option<(u64, u64)> {
    let (major, minor) = number.split_once('.')?;
    let digits = |part: &str| {
        let canonical = !part.is_empty()
            && part.bytes().all(|b| b.is_ascii_digit())
            && (part == "0" || !part.starts_with('0'));
        canonical.then(|| part.parse::<u64>().ok()).flatten()
    };
    Some((digits(major)?, digits(minor)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_derives_slugs() {
        let version: ProtocolVersion = "demo/1.0".parse().expect("valid");
        assert_eq!(version.family(), "demo/1");
        assert_eq!(version.family_slug(), "demo-1");
        assert_eq!(version.slug(), "demo-1.0");
        assert_eq!(version.number(), "1.0");
        assert_eq!(
            ProtocolVersion::from_slug("demo-1.0"),
            Some(version.clone())
        );
        assert_eq!(version.to_string(), "demo/1.0");
    }

    #[test]
    fn rejects_what_is_not_name_major_minor() {
        for bad in [
            "demo/1",
            "demo/1.0-draft",
            "demo/01.0",
            "/1.0",
            "Context/1.0",
            "demo1.0",
            "",
        ] {
            assert!(bad.parse::<ProtocolVersion>().is_err(), "{bad}");
        }
    }

    #[test]
    fn orders_by_major_then_minor() {
        let v = |s: &str| s.parse::<ProtocolVersion>().expect("valid").key();
        assert!(v("demo/1.10") > v("demo/1.9"));
        assert!(v("demo/2.0") > v("demo/1.99"));
    }
}
