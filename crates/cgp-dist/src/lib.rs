//! `cargo xtask dist`: a release `cgp` packed the ways implementers install
//! tools, into `target/dist` (or `$CARGO_TARGET_DIR/dist`):
//!
//! - [`wheel`]: a Python wheel `cgp_cli-VERSION-py3-none-PLATFORM.whl` whose
//!   `.data/scripts/cgp` pip installs onto `PATH` (`pip install cgp-cli`,
//!   `pipx run cgp-cli`), tagged for the platform it was built on;
//! - [`npm`]: the esbuild/biome pattern, a launcher package `cgp-cli` (bin
//!   `cgp`) with one optional dependency per platform package
//!   `cgp-cli-OS-CPU` holding that platform's binary.
//!
//! Both carry the man page `cgp.1` and the bash, zsh and fish completions,
//! written by the binary itself (`cgp manpage`, `cgp completions SHELL`), and
//! the version `cgp --version` prints. Only the platform of this machine is
//! built; [`platform::PLATFORMS`] describes every one, so a release workflow
//! runs `cargo xtask dist` on a runner of each and publishes what they made.
//! Archives are deterministic: fixed times, owners and modes, sorted entries.
//!
//! [`package`] is `cargo xtask package`: `cargo package` of every workspace
//! crate that allows publishing, as `cargo metadata` reports them.

// No panics on what a build produced (SECURITY.md); tests may assert.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]

pub mod npm;
pub mod package;
pub mod platform;
pub mod wheel;

use platform::Platform;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Python distribution's name (`pip install cgp-cli`).
pub const PYTHON_NAME: &str = "cgp-cli";
/// The npm launcher package's name; the platform packages add `-OS-CPU`.
pub const NPM_NAME: &str = "cgp-cli";
/// What the packages say they are.
pub const SUMMARY: &str = "cgp: validate Context Graph Protocol transcripts and live providers.";
/// Their license.
pub const LICENSE: &str = "MIT OR Apache-2.0";

/// Why `cargo xtask dist` produced no packages.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    /// No package is described for the machine's platform.
    #[error("no package is described for {os}-{arch}; add it to cgp_dist::platform::PLATFORMS")]
    NoPlatform {
        /// `std::env::consts::OS`.
        os: &'static str,
        /// `std::env::consts::ARCH`.
        arch: &'static str,
    },
    /// A program (cargo, the built `cgp`) cannot be started.
    #[error("cannot run {program}: {error}")]
    Unstarted {
        /// The program, as named to the OS.
        program: String,
        /// Why.
        error: std::io::Error,
    },
    /// The release build failed (cargo printed why).
    #[error("cargo build --release -p cgp-cli failed")]
    BuildFailed,
    /// `cgp` ran and failed.
    #[error("`cgp {arguments}` failed: {stderr}")]
    Failed {
        /// Its arguments, space-separated.
        arguments: String,
        /// What it printed on standard error.
        stderr: String,
    },
    /// `cgp --version` printed something that is not `cgp <version>`.
    #[error("`cgp --version` printed `{0}`")]
    Version(String),
    /// `cgp --version` printed bytes that are not UTF-8.
    #[error("`cgp --version` printed no UTF-8")]
    VersionNotUtf8,
    /// A file cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The output directory cannot be created.
    #[error("cannot create {}: {error}", path.display())]
    NoDirectory {
        /// The directory.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// An artifact cannot be written.
    #[error("cannot write {}: {error}", path.display())]
    Unwritten {
        /// The artifact's path.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The wheel's zip archive cannot be written.
    #[error("writing the wheel: {0}")]
    Wheel(#[from] zip::result::ZipError),
    /// A `package.json` cannot be serialised.
    #[error("writing a package.json: {0}")]
    PackageJson(#[from] serde_json::Error),
    /// An npm tarball cannot be written.
    #[error("writing an npm tarball: {0}")]
    Tarball(std::io::Error),
}

/// What goes into every package: the binary and the files written from it.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The version `cgp --version` printed.
    pub version: String,
    /// The platform the binary runs on.
    pub platform: &'static Platform,
    /// The `cgp` executable.
    pub binary: Vec<u8>,
    /// The man page `cgp.1`.
    pub man: Vec<u8>,
    /// The bash completions.
    pub bash: Vec<u8>,
    /// The zsh completions (`_cgp`).
    pub zsh: Vec<u8>,
    /// The fish completions (`cgp.fish`).
    pub fish: Vec<u8>,
}

impl Inputs {
    /// Reads everything from the built `cgp` at `binary`, running it for its
    /// version, man page and completions.
    pub fn from_binary(binary: &Path, platform: &'static Platform) -> Result<Self, DistError> {
        let run =
            |args: &[&str]| -> Result<Vec<u8>, DistError> {
                let output = Command::new(binary).args(args).output().map_err(|error| {
                    DistError::Unstarted {
                        program: binary.display().to_string(),
                        error,
                    }
                })?;
                if !output.status.success() {
                    return Err(DistError::Failed {
                        arguments: args.join(" "),
                        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
                    });
                }
                Ok(output.stdout)
            };
        let printed =
            String::from_utf8(run(&["--version"])?).map_err(|_| DistError::VersionNotUtf8)?;
        let version = printed
            .trim()
            .strip_prefix("cgp ")
            .filter(|version| !version.is_empty() && !version.contains(char::is_whitespace))
            .ok_or_else(|| DistError::Version(printed.trim().to_owned()))?
            .to_owned();
        Ok(Inputs {
            version,
            platform,
            binary: std::fs::read(binary).map_err(|error| DistError::Unreadable {
                path: binary.to_owned(),
                error,
            })?,
            man: run(&["manpage"])?,
            bash: run(&["completions", "bash"])?,
            zsh: run(&["completions", "zsh"])?,
            fish: run(&["completions", "fish"])?,
        })
    }
}

/// Where the artifacts go: `$CARGO_TARGET_DIR/dist`, else `ROOT/target/dist`.
pub fn dist_dir(root: &Path) -> PathBuf {
    target_dir(root).join("dist")
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_relative() {
                root.join(dir)
            } else {
                dir
            }
        })
        .unwrap_or_else(|| root.join("target"))
}

/// Builds the release `cgp` of the workspace at `root` and packs it into
/// [`dist_dir`]; returns the files written.
pub fn dist(root: &Path) -> Result<Vec<PathBuf>, DistError> {
    let platform = Platform::host().ok_or(DistError::NoPlatform {
        os: std::env::consts::OS,
        arch: std::env::consts::ARCH,
    })?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "-p",
            "cgp-cli",
            "--bin",
            "cgp",
        ])
        .current_dir(root)
        .status()
        .map_err(|error| DistError::Unstarted {
            program: "cargo".into(),
            error,
        })?;
    if !status.success() {
        return Err(DistError::BuildFailed);
    }
    let binary = target_dir(root).join("release").join(platform.executable());
    let inputs = Inputs::from_binary(&binary, platform)?;
    pack(&inputs, &dist_dir(root))
}

/// Writes the wheel and the npm packages for `inputs` into `out`; returns
/// their paths.
pub fn pack(inputs: &Inputs, out: &Path) -> Result<Vec<PathBuf>, DistError> {
    std::fs::create_dir_all(out).map_err(|error| DistError::NoDirectory {
        path: out.to_owned(),
        error,
    })?;
    let mut written = Vec::new();
    let (name, bytes) = wheel::build(inputs)?;
    written.push(write(out, &name, &bytes)?);
    for (name, bytes) in npm::build(inputs)? {
        written.push(write(out, &name, &bytes)?);
    }
    Ok(written)
}

/// Writes `bytes` to `out/name` through a temporary file renamed into place.
fn write(out: &Path, name: &str, bytes: &[u8]) -> Result<PathBuf, DistError> {
    let path = out.join(name);
    let scratch = out.join(format!(".{name}.partial"));
    if let Err(error) =
        std::fs::write(&scratch, bytes).and_then(|()| std::fs::rename(&scratch, &path))
    {
        return Err(DistError::Unwritten { path, error });
    }
    Ok(path)
}
