//! `cargo xtask package`: `cargo package -p` each workspace member whose
//! manifest allows publishing, read from `cargo metadata` (which reports
//! `publish = false` as an empty registry list), so no crate is listed by
//! hand. Packaging them in one run lets cargo verify each against the
//! packages of the others.

use cargo_metadata::MetadataCommand;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why `cargo xtask package` packaged nothing.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// `cargo metadata` failed or printed what cargo_metadata cannot read.
    #[error("cargo metadata: {0}")]
    Metadata(#[from] cargo_metadata::Error),
    /// Every workspace crate says `publish = false`.
    #[error("no workspace crate allows publishing")]
    NothingPublishable,
    /// A stale copy of an earlier packaging cannot be removed.
    #[error("cannot remove the stale {}: {error}", path.display())]
    Unremovable {
        /// The directory.
        path: PathBuf,
        /// What the operating system said.
        error: std::io::Error,
    },
    /// cargo cannot be started.
    #[error("cannot run cargo: {0}")]
    Unstarted(std::io::Error),
    /// `cargo package` failed (it printed why).
    #[error("cargo package -p {} failed", crates.join(" -p "))]
    Failed {
        /// The crates it packaged.
        crates: Vec<String>,
    },
}

/// A workspace crate that may be published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publishable {
    /// Its package name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// The crates of the workspace at `root` that allow publishing, and its
/// target directory.
pub fn publishable(
    root: &Path,
    cargo: &OsString,
) -> Result<(Vec<Publishable>, PathBuf), PackageError> {
    let metadata = MetadataCommand::new()
        .cargo_path(cargo)
        .current_dir(root)
        .no_deps()
        .other_options(vec!["--offline".to_owned()])
        .exec()?;
    let packages: Vec<Publishable> = metadata
        .workspace_packages()
        .into_iter()
        .filter(|package| {
            package
                .publish
                .as_ref()
                .is_none_or(|registries| !registries.is_empty())
        })
        .map(|package| Publishable {
            name: package.name.to_string(),
            version: package.version.to_string(),
        })
        .collect();
    if packages.is_empty() {
        return Err(PackageError::NothingPublishable);
    }
    Ok((packages, metadata.target_directory.into_std_path_buf()))
}

/// Runs `cargo package -p …` for every publishable crate of the workspace at
/// `root`, with `options` passed on; returns the crates packaged.
pub fn package(
    root: &Path,
    cargo: &OsString,
    options: &[String],
) -> Result<Vec<Publishable>, PackageError> {
    let (packages, target) = publishable(root, cargo)?;
    forget_earlier_packages(&packages, &target)?;
    let mut command = Command::new(cargo);
    command.arg("package");
    for package in &packages {
        command.args(["-p", &package.name]);
    }
    let status = command
        .args(options)
        .current_dir(root)
        .status()
        .map_err(PackageError::Unstarted)?;
    if status.success() {
        Ok(packages)
    } else {
        Err(PackageError::Failed {
            crates: packages.into_iter().map(|package| package.name).collect(),
        })
    }
}

/// Cargo verifies the packages of a workspace against each other through a
/// local registry: it unpacks each into `$CARGO_HOME/registry/src/-<hash>/`
/// and builds it as a registry crate. Both steps trust what an earlier run left
/// for the same name and version (an unpacked copy is reused, a registry
/// crate's build is never stale), so after a source change the verification
/// would build the old code. For the crates about to be packaged, both are
/// removed: the unpacked copies, and their build fingerprints under `target`.
fn forget_earlier_packages(packages: &[Publishable], target: &Path) -> Result<(), PackageError> {
    let remove = |path: &Path| {
        std::fs::remove_dir_all(path).map_err(|error| PackageError::Unremovable {
            path: path.to_owned(),
            error,
        })
    };
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let registries = home
        .and_then(|home| std::fs::read_dir(home.join("registry/src")).ok())
        .into_iter()
        .flatten()
        .flatten()
        // Local registries have no host, so their directory name starts with `-`.
        .filter(|registry| registry.file_name().to_string_lossy().starts_with('-'));
    for registry in registries {
        for package in packages {
            let unpacked = registry
                .path()
                .join(format!("{}-{}", package.name, package.version));
            if unpacked.is_dir() {
                remove(&unpacked)?;
            }
        }
    }
    for profile in ["debug", "release"] {
        let fingerprints = target.join(profile).join(".fingerprint");
        for entry in std::fs::read_dir(&fingerprints)
            .into_iter()
            .flatten()
            .flatten()
        {
            let file_name = entry.file_name();
            let file_name = file_name.to_string_lossy();
            let ours = packages.iter().any(|package| {
                file_name
                    .strip_prefix(package.name.as_str())
                    .and_then(|rest| rest.strip_prefix('-'))
                    .is_some_and(|hash| hash.chars().all(|c| c.is_ascii_hexdigit()))
            });
            if ours {
                remove(&entry.path())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_crates_are_those_without_publish_false() {
        let root = cgp_test_support::repo();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let (packages, target) = publishable(&root, &cargo).expect("cargo metadata");
        let names: Vec<&str> = packages
            .iter()
            .map(|package| package.name.as_str())
            .collect();
        for published in ["cgp-types", "cgp-schema", "cgp-check", "cgp-cli"] {
            assert!(names.contains(&published), "{published}: {names:?}");
        }
        for tooling in [
            "xtask",
            "cgp-gates",
            "cgp-codegen",
            "cgp-dist",
            "spec-tests",
        ] {
            assert!(!names.contains(&tooling), "{tooling}: {names:?}");
        }
        assert!(target.is_absolute(), "{}", target.display());
    }
}
