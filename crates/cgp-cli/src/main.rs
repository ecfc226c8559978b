//! `cgp`: tells an implementer, in any language, whether what their code sends
//! is valid `contextgraph/1.0`.
//!
//! A thin front end: the checks live in `cgp-schema` (`transcript`, `semantic`,
//! `conformance`); this crate parses arguments, renders results and picks the
//! exit code. The published bundles are embedded, so `cgp` reads no files but
//! its inputs and never touches the network.
//!
//! Exit codes: 0 all good, 1 something is invalid, 2 usage or I/O error.

mod bundles;
mod style;
mod validate;

use cgp_schema::Profile;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cgp",
    version,
    about = "Validate Context Graph Protocol (contextgraph/1.0) messages and providers",
    long_about = "Validate Context Graph Protocol (contextgraph/1.0) messages and providers.\n\nExit status: 0 when everything is valid, 1 when something is not, 2 on a usage or I/O error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The two published profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ProfileArg {
    /// The receiver's contract: judge a peer's messages by it.
    Interop,
    /// The authoring lint: exactly what the canonical encoder writes.
    Strict,
}

impl From<ProfileArg> for Profile {
    fn from(profile: ProfileArg) -> Self {
        match profile {
            ProfileArg::Interop => Profile::Interop,
            ProfileArg::Strict => Profile::Strict,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Validate NDJSON transcripts (one envelope per line) or JSON documents.
    Validate {
        /// The profile to validate against.
        #[arg(long, value_enum, default_value = "interop")]
        profile: ProfileArg,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: validate::Format,
        /// Also check the semantic rules of SPEC.md (B1, B3, B4, D1, F1-F5, F11,
        /// F13, G1, G2, H3, H4, P1-P3, P5, C5); each error names its rule.
        #[arg(long)]
        semantic: bool,
        /// Read each input as one JSON document (pretty-printing allowed)
        /// instead of one envelope per line.
        #[arg(long)]
        json_document: bool,
        /// Files to read; `-` or none reads standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Print an embedded schema bundle: `cgp schema > cgp.schema.json`.
    Schema {
        /// Which bundle.
        #[arg(long, value_enum, default_value = "interop")]
        profile: ProfileArg,
        /// The protocol version.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::CURRENT)]
        protocol_version: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate {
            profile,
            format,
            semantic,
            json_document,
            paths,
        } => {
            let validator = match bundles::validator(profile.into()) {
                Ok(validator) => validator,
                Err(problem) => {
                    eprintln!("cgp: the embedded bundle does not compile: {problem}");
                    return ExitCode::from(2);
                }
            };
            let options = validate::Options {
                format,
                semantic,
                json_document,
                paths,
            };
            validate::run(&options, &validator)
        }
        Command::Schema {
            profile,
            protocol_version,
        } => schema(profile.into(), &protocol_version),
    }
}

fn schema(profile: Profile, version: &str) -> ExitCode {
    let Some(text) = bundles::text(version, profile) else {
        eprintln!(
            "cgp: unknown protocol version `{version}`; known: {}",
            bundles::versions().join(", ")
        );
        return ExitCode::from(2);
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("cgp: {error}");
            }
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
