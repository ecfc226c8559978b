//! Where the published bundles live under `generated/schema/`.

use cgp_schema::{Profile, ProtocolVersion};

/// Where the bundle of `profile` for `version` is published, relative to the
/// repository root: `generated/schema/<name>-<major>.<minor>/<profile>.schema.json`.
pub fn published_path(version: &ProtocolVersion, profile: Profile) -> String {
    format!("generated/schema/{}/{profile}.schema.json", version.slug())
}
