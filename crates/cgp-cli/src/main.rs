//! `cgp`: tells an implementer, in any language, whether what their code sends
//! is valid Context Graph Protocol, by any version it embeds (the working
//! version unless `--version` names another).
//!
//! A thin front end: the checks live in `cgp-schema` (`transcript`, `semantic`,
//! `conformance`); this crate parses arguments, renders results and picks the
//! exit code. The published bundles are embedded, so `cgp` reads no files but
//! its inputs and never touches the network, but for the loopback endpoint
//! `cgp check --http` is given.
//!
//! Exit codes ([`exit::Exit`]): 0 all good, 1 something is invalid, 2 usage or
//! I/O error.

mod bundles;
mod check;
mod diff;
mod exit;
mod github;
mod render;
mod style;
mod validate;

use crate::exit::Exit;
use cgp_schema::Profile;
use clap::{Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "cgp",
    version,
    about = "Validate Context Graph Protocol messages and providers",
    long_about = "Validate Context Graph Protocol messages and providers, by any protocol version cgp embeds (`cgp schema --version` lists them).\n\nExit status: 0 when everything is valid, 1 when something is not, 2 on a usage or I/O error."
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
    #[command(
        long_about = "Validate NDJSON transcripts (one envelope per line) or JSON documents.\n\nFraming (SPEC.md §Transport): a line ends at a line feed; JSON whitespace around the object is fine, so CRLF line endings are valid and blank lines are skipped. A line that starts with a byte-order mark (U+FEFF) is an error: it is not JSON whitespace and the reference host cannot decode it. A line over 16 MiB is reported and skipped without being read into memory; nesting deeper than 127 levels, raw control characters (NUL included), lone surrogate escapes and numbers beyond a double (1e400) are errors of the line. cgp never touches the network and writes nothing but its report."
    )]
    Validate {
        /// The profile to validate against.
        #[arg(long, value_enum, default_value = "interop")]
        profile: ProfileArg,
        /// Judge by this protocol version's frozen bundles.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: render::Format,
        /// Also check the semantic rules of SPEC.md (B1, B3, B4, D1, F1-F5,
        /// F11-F15, G1, G2, G4, E1, H3, H4, P1-P3, P5, C5, Q1, Q2); each error
        /// names its rule.
        #[arg(long)]
        semantic: bool,
        /// Read each input as one JSON document (pretty-printing allowed)
        /// instead of one envelope per line.
        #[arg(long)]
        json_document: bool,
        /// Check lines on N threads (1: on the main thread alone); the report
        /// stays in input order. Default: one per core, at most 8.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: Option<u16>,
        /// Files to read; `-` or none reads standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Drive a provider as a host would, judging every line both sides send:
    /// interop problems and broken MUSTs of SPEC.md are errors, strict-profile
    /// problems and broken SHOULDs warnings. The provider is a stdio program
    /// started from the command after `--`, or an HTTP endpoint given with
    /// `--http`.
    Check {
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: render::Format,
        /// Write the report as one JSON object (the same as `--format json`).
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Judge by this protocol version's frozen bundles.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Seconds to wait for each reply, and for the exit after shutdown; over
        /// HTTP, for each whole request (connecting, sending, reading).
        #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_timeout)]
        timeout: Duration,
        /// Pass KEY=VALUE to the provider. Its environment is otherwise cleared
        /// but for PATH, HOME and LANG.
        #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env, conflicts_with = "http")]
        env: Vec<(OsString, OsString)>,
        /// Check the provider at this HTTP endpoint instead: one POST per
        /// envelope. Plain http:// to a loopback host only (localhost,
        /// 127.0.0.0/8 or the IPv6 loopback ::1); https:// is not supported yet.
        #[arg(long, value_name = "URL", conflicts_with = "command")]
        http: Option<String>,
        /// Send the token in the environment variable NAME as `Authorization:
        /// Bearer`. The token is never printed.
        #[arg(long, value_name = "NAME", requires = "http")]
        bearer_env: Option<String>,
        /// The provider's command line, after `--`.
        #[arg(
            last = true,
            required_unless_present = "http",
            value_name = "PROGRAM [ARGS]"
        )]
        command: Vec<OsString>,
    },
    /// Classify what changed between two schema versions (schema directories or
    /// published bundles) and the version bump it requires.
    Diff {
        /// The old version: a schema directory or a bundle file.
        old: PathBuf,
        /// The new version: a schema directory or a bundle file.
        new: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: render::Format,
        /// Exit 1 when a change requires at least this bump.
        #[arg(long, value_enum)]
        fail_on: Option<diff::FailOn>,
    },
    /// Print an embedded schema bundle: `cgp schema > cgp.schema.json`.
    Schema {
        /// Which bundle.
        #[arg(long, value_enum, default_value = "interop")]
        profile: ProfileArg,
        /// The protocol version.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate {
            profile,
            protocol_version,
            format,
            semantic,
            json_document,
            jobs,
            paths,
        } => {
            let validator = match bundles::validator(&protocol_version, profile.into()) {
                Ok(validator) => validator,
                Err(problem) => {
                    eprintln!("cgp: the embedded bundle does not compile: {problem}");
                    return ExitCode::from(Exit::Trouble);
                }
            };
            let options = validate::Options {
                format,
                semantic,
                json_document,
                jobs: jobs.map_or_else(validate::default_jobs, usize::from),
                paths,
            };
            validate::run(&options, &validator)
        }
        Command::Check {
            format,
            json,
            protocol_version,
            timeout,
            env,
            http,
            bearer_env,
            command,
        } => {
            let validators =
                bundles::validator(&protocol_version, Profile::Interop).and_then(|interop| {
                    Ok((
                        interop,
                        bundles::validator(&protocol_version, Profile::Strict)?,
                    ))
                });
            let (interop, strict) = match validators {
                Ok(pair) => pair,
                Err(problem) => {
                    eprintln!("cgp: the embedded bundle does not compile: {problem}");
                    return ExitCode::from(Exit::Trouble);
                }
            };
            let provider = match http {
                Some(url) => check::Provider::Http { url, bearer_env },
                None => check::Provider::Command { command, env },
            };
            let options = check::Options {
                format: if json { render::Format::Json } else { format },
                timeout,
                provider,
            };
            check::run(&options, &interop, &strict)
        }
        Command::Diff {
            old,
            new,
            format,
            fail_on,
        } => diff::run(&old, &new, format, fail_on),
        Command::Schema {
            profile,
            protocol_version,
        } => schema(profile.into(), &protocol_version),
    }
}

fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err("the timeout must be more than 0 and at most 86400 seconds".into());
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_env(text: &str) -> Result<(OsString, OsString), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.into(), value.into())),
        _ => Err(format!("`{text}` is not KEY=VALUE")),
    }
}

fn schema(profile: Profile, version: &str) -> ExitCode {
    let Some(text) = bundles::text(version, profile) else {
        eprintln!(
            "cgp: unknown protocol version `{version}`; known: {}",
            bundles::versions().join(", ")
        );
        return ExitCode::from(Exit::Trouble);
    };
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::from(Exit::Valid),
        Err(error) => {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("cgp: {error}");
            }
            ExitCode::from(Exit::Trouble)
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
