//! The command line of `cgp`: its subcommands, their flags and help, and the
//! parsers of flag values. `main` dispatches on [`Cli::command`].

use crate::{bundles, diff, render, style};
use cgp_schema::Profile;
use clap::{Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "cgp",
    version,
    about = "Validate Context Graph Protocol messages and providers",
    long_about = "Validate Context Graph Protocol messages and providers, by any protocol version cgp embeds (`cgp schema --version` lists them).\n\nExit status: 0 when everything is valid, 1 when something is not, 2 on a usage or I/O error."
)]
pub(crate) struct Cli {
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set;
    /// CLICOLOR_FORCE forces it), always or never.
    #[arg(
        long,
        global = true,
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub(crate) color: style::ColorArg,
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Print only the summary (and errors that stop the run); no progress.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Print more: every line's verdict (`validate`), every line exchanged
    /// (`check`).
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,
}

/// The two published profiles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProfileArg {
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

/// How `cgp proxy` writes its findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProxyFormat {
    /// One line per finding, for people.
    Human,
    /// One JSON object per finding.
    Json,
    /// GitHub workflow commands.
    Github,
}

impl From<ProxyFormat> for cgp_proxy::Format {
    fn from(format: ProxyFormat) -> Self {
        match format {
            ProxyFormat::Human => cgp_proxy::Format::Human,
            ProxyFormat::Json => cgp_proxy::Format::Json,
            ProxyFormat::Github => cgp_proxy::Format::Github,
        }
    }
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Validate NDJSON transcripts (one envelope per line) or JSON documents.
    #[command(
        long_about = "Validate NDJSON transcripts (one envelope per line) or JSON documents.\n\nFraming (SPEC.md §Transport): a line ends at a line feed; JSON whitespace around the object is fine, so CRLF line endings are valid and blank lines are skipped. A line that starts with a byte-order mark (U+FEFF) is an error: it is not JSON whitespace and the reference host cannot decode it. A line over 16 MiB is reported and skipped without being read into memory; nesting deeper than 127 levels, raw control characters (NUL included), lone surrogate escapes and numbers beyond a double (1e400) are errors of the line. cgp never touches the network and writes nothing but its report."
    )]
    Validate(ValidateArgs),
    /// Drive a provider as a host would, judging every line both sides send:
    /// interop problems and broken MUSTs of SPEC.md are errors, strict-profile
    /// problems and broken SHOULDs warnings (rule ids and levels are the
    /// protocol's, ours start with CGP-). The provider is a stdio program
    /// started from the command after `--`, or an HTTP endpoint given with
    /// `--http`.
    Check(CheckArgs),
    /// A provider made from the schemas and the SPEC.md corpus, for host
    /// authors to develop and test against, with faults on request
    /// (`--list-behaviours`). Over stdio, or over HTTP with `--http`.
    #[command(
        long_about = "A provider made from the protocol model and the SPEC.md corpus, for host authors to develop and test against: it declares every capability it honours (correlation, verify, graph, an embeddings fingerprint, the kinds its corpus holds), answers queries with corpus frames that keep kinds, the budgets, as_of and anchors, answers verify, and sends a coded error for what it cannot serve. The same seed gives the same output.\n\nOver stdio it exits 0 on shutdown. With --http it serves one POST per envelope on loopback (unless the address names another interface), answers shutdown with 204 and keeps serving until interrupted; the URL to post to is the one line it prints on standard output.\n\n--behaviour injects a fault a host must survive; `cgp mock --list-behaviours` prints each with the rule it breaks, or `allowed`."
    )]
    Mock {
        /// Speak this protocol version.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Serve over HTTP at HOST:PORT (PORT alone: 127.0.0.1; port 0 picks one).
        #[arg(long, value_name = "HOST:PORT")]
        http: Option<String>,
        /// Inject this fault (repeatable); see --list-behaviours.
        #[arg(long = "behaviour", value_name = "NAME")]
        behaviours: Vec<String>,
        /// Withhold capabilities: correlation, verify, graph, embeddings
        /// (comma separated, repeatable).
        #[arg(long, value_name = "NAME[,NAME]")]
        without: Vec<String>,
        /// The seed of the frame order.
        #[arg(long, value_name = "N", default_value = "0")]
        seed: u64,
        /// Seconds the slow-reply behaviour waits before each reply.
        #[arg(long, value_name = "SECS", default_value = "1", value_parser = parse_timeout)]
        delay: Duration,
        /// Print the behaviours, one a line: name, the rule it breaks (or
        /// `allowed`), what it does.
        #[arg(long)]
        list_behaviours: bool,
    },
    /// Sit between a host and a provider, pass every byte both ways unchanged
    /// and judge both sides live (`cgp validate --semantic`'s checker); the
    /// findings go to standard error. Put `cgp proxy -- PROVIDER ARGS...` in
    /// place of the provider's command, or `cgp proxy --listen HOST:PORT --to
    /// URL` in place of its URL.
    #[command(
        long_about = "Sit between a host and a provider, pass every byte both ways unchanged and in order, and judge every line as it passes with the checker of `cgp validate --semantic`, for the host's rules and the provider's. Findings go to standard error (or --findings FILE); standard output carries the protocol only.\n\nStdio: `cgp proxy -- PROVIDER ARGS...` in place of the provider's command. The provider's exit status passes through (128 + N for signal N), and signals the proxy gets are forwarded to it. When the host closes its side, the provider's standard input is closed; the provider gets --grace seconds to exit before its process group is killed. The proxy never writes a message of its own.\n\nHTTP: `cgp proxy --listen HOST:PORT --to URL` listens with plain HTTP on loopback and forwards each POST with the TLS rules and credential options of `cgp check --http`; the URL to post to is the one line it prints on standard output. The record holds bodies, never headers; no credential is recorded or printed.\n\nA slow reader of the findings loses findings, never bytes."
    )]
    Proxy(ProxyArgs),
    /// Classify what changed between two schema versions (schema directories or
    /// published bundles) and the version bump it requires: `cgp diff OLD NEW`,
    /// or `cgp diff --against REF [NEW]`.
    Diff {
        /// OLD and NEW: each a schema directory or a bundle file. With
        /// `--against`, only NEW (default: ./schema).
        #[arg(value_name = "OLD NEW", num_args = 0..=2)]
        paths: Vec<PathBuf>,
        /// Compare NEW with the same path at this git ref (a branch, a tag,
        /// `HEAD~1`, a commit; read with git, nothing checked out), or with a
        /// version cgp embeds (`cgp schema --version` lists them).
        #[arg(long, value_name = "REF")]
        against: Option<String>,
        /// Output format (`markdown`: a changelog section).
        #[arg(long, value_enum, default_value = "human")]
        format: diff::Format,
        /// Exit 1 when a change requires at least this bump.
        #[arg(long, value_enum)]
        fail_on: Option<diff::FailOn>,
    },
    /// The conformance vectors (SPEC.md §Conformance vectors): run them
    /// through a harness program, list them, or export them.
    Vectors {
        #[command(subcommand)]
        command: VectorsCommand,
    },
    /// Print the shell completions for SHELL: e.g. `cgp completions bash >
    /// ~/.local/share/bash-completion/completions/cgp`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page cgp.1 (roff), as `cargo xtask dist` packs it.
    #[command(hide = true)]
    Manpage,
    /// Print an embedded schema bundle: `cgp schema > cgp.schema.json`.
    Schema {
        /// Which bundle.
        #[arg(long, value_enum, default_value = "interop")]
        profile: ProfileArg,
        /// The protocol version.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Print instead the JSON Schema of a cgp output: `validate`, `check`
        /// or `diff` (`--format json`), or `baseline` (a baseline file).
        #[arg(long, value_name = "OUTPUT", value_parser = output_parser(), conflicts_with_all = ["profile", "protocol_version"])]
        output: Option<String>,
    },
}

#[derive(Subcommand)]
pub(crate) enum VectorsCommand {
    /// Drive a harness program through every case and compare its answers
    /// with the reference's: the program reads one case a line on standard
    /// input and answers each, in order, with one line (SPEC.md §Conformance
    /// vectors). Exit 0 only when every case agrees.
    Run {
        /// Run this protocol version's vectors.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "human")]
        format: render::Format,
        /// Seconds to wait for each answer (and for the exit at the end).
        #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_timeout)]
        timeout: Duration,
        /// How many disagreements to show in full.
        #[arg(long, value_name = "N", default_value = "10")]
        shown: usize,
        /// Pass KEY=VALUE to the program. Its environment is otherwise cleared
        /// but for PATH, HOME and LANG.
        #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env)]
        env: Vec<(OsString, OsString)>,
        /// The harness program's command line, after `--`.
        #[arg(last = true, required = true, value_name = "PROGRAM [ARGS]")]
        command: Vec<OsString>,
    },
    /// List the cases: id, transport, expected answer and description, tab
    /// separated; `--format json` prints the cases themselves (NDJSON).
    List {
        /// List this protocol version's vectors.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// Output format (`human` or `json`).
        #[arg(long, value_enum, default_value = "human")]
        format: render::Format,
    },
    /// Write the version's vectors folder (case files, README.md,
    /// case.schema.json) into DIR, creating it.
    Export {
        /// Export this protocol version's vectors.
        #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
        protocol_version: String,
        /// The directory to write to.
        dir: PathBuf,
    },
}

#[derive(clap::Args)]
pub(crate) struct ValidateArgs {
    /// The profile to validate against.
    #[arg(long, value_enum, default_value = "interop")]
    pub(crate) profile: ProfileArg,
    /// Judge by this protocol version's frozen bundles.
    #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
    pub(crate) protocol_version: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: render::Format,
    /// Also check the semantic rules a transcript can show (the list is
    /// the rule catalogue's, see `semantic_help`).
    #[arg(long, help = semantic_help())]
    pub(crate) semantic: bool,
    /// Read each input as one JSON document (pretty-printing allowed)
    /// instead of one envelope per line.
    #[arg(long)]
    pub(crate) json_document: bool,
    /// Check lines on N threads (1: on the main thread alone); the report
    /// stays in input order. Default: one per core, at most 8.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub(crate) jobs: Option<u16>,
    /// Accept the findings this baseline file lists; fail on any other,
    /// and on any entry no longer found (stale).
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub(crate) baseline: Option<PathBuf>,
    /// Write every finding to this baseline file (and exit 0 once written).
    #[arg(long, value_name = "FILE")]
    pub(crate) write_baseline: Option<PathBuf>,
    /// Files to read; `-` or none reads standard input.
    #[arg(value_name = "PATH")]
    pub(crate) paths: Vec<String>,
}

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: render::Format,
    /// Write the report as one JSON object (the same as `--format json`).
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Judge by this protocol version's frozen bundles.
    #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
    pub(crate) protocol_version: String,
    /// Seconds to wait for each reply, and for the exit after shutdown; over
    /// HTTP, for each whole request (connecting, sending, reading).
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = parse_timeout)]
    pub(crate) timeout: Duration,
    /// Seconds to wait for a reply the protocol does not require (a
    /// SHOULD): the `error` answering a line that is not JSON, or an
    /// envelope of an unknown type. Silence then is a warning (or, for the
    /// unknown type, allowed) and the check goes on. At most --timeout.
    #[arg(long, value_name = "SECS", default_value = "0.5", value_parser = parse_timeout)]
    pub(crate) should_wait: Duration,
    /// Pass KEY=VALUE to the provider. Its environment is otherwise cleared
    /// but for PATH, HOME and LANG.
    #[arg(long = "env", value_name = "KEY=VALUE", value_parser = parse_env, conflicts_with = "http")]
    pub(crate) env: Vec<(OsString, OsString)>,
    /// Check the provider at this HTTP endpoint instead: one POST per
    /// envelope. https:// to any host, its certificate verified (there is
    /// no switch to skip that); plain http:// to a loopback host only
    /// (localhost, 127.0.0.0/8 or the IPv6 loopback ::1).
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub(crate) http: Option<String>,
    /// Send the token in the environment variable NAME as `Authorization:
    /// Bearer` (an RFC 6750 token68). The token is never printed.
    #[arg(long, value_name = "NAME", requires = "http")]
    pub(crate) bearer_env: Option<String>,
    /// Send this header with every request, e.g. `--header 'X-Tenant: acme'`.
    /// For a secret value use --header-env.
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "http")]
    pub(crate) headers: Vec<String>,
    /// Send the header NAME with the value of the environment variable VAR,
    /// e.g. `--header-env X-Api-Key=PROVIDER_KEY`. The value is never
    /// printed, in any encoding an endpoint may echo it in.
    #[arg(long, value_name = "NAME=VAR", requires = "http")]
    pub(crate) header_env: Vec<String>,
    /// Trust only the certificate authorities in this PEM file for an
    /// https:// endpoint (a private CA), instead of the webpki roots.
    #[arg(long, value_name = "FILE", requires = "http")]
    pub(crate) ca_cert: Option<PathBuf>,
    /// Accept the errors this baseline file lists; fail on any other, and
    /// on any entry no longer found (stale).
    #[arg(long, value_name = "FILE", conflicts_with = "write_baseline")]
    pub(crate) baseline: Option<PathBuf>,
    /// Write every error to this baseline file (and exit 0 once written).
    #[arg(long, value_name = "FILE")]
    pub(crate) write_baseline: Option<PathBuf>,
    /// The provider's command line, after `--`.
    #[arg(
        last = true,
        required_unless_present = "http",
        value_name = "PROGRAM [ARGS]"
    )]
    pub(crate) command: Vec<OsString>,
}

#[derive(clap::Args)]
pub(crate) struct ProxyArgs {
    /// Write the conversation as a transcript `cgp validate` reads.
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<PathBuf>,
    /// Write the findings to FILE instead of standard error.
    #[arg(long, value_name = "FILE")]
    pub(crate) findings: Option<PathBuf>,
    /// How findings are written.
    #[arg(long, value_enum, default_value = "human")]
    pub(crate) format: ProxyFormat,
    /// Judge by this protocol version's frozen bundles.
    #[arg(long = "version", value_name = "VERSION", default_value = bundles::WORKING, value_parser = bundles::version_parser())]
    pub(crate) protocol_version: String,
    /// Seconds the provider has to exit after the host closes its side.
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_timeout)]
    pub(crate) grace: Duration,
    /// Listen for HTTP on HOST:PORT (loopback only; PORT alone:
    /// 127.0.0.1), forwarding to --to.
    #[arg(
        long,
        value_name = "HOST:PORT",
        requires = "to",
        conflicts_with = "command"
    )]
    pub(crate) listen: Option<String>,
    /// The provider's endpoint (https://, or http:// on loopback).
    #[arg(long, value_name = "URL", requires = "listen")]
    pub(crate) to: Option<String>,
    /// Seconds for each upstream exchange.
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_timeout, requires = "to")]
    pub(crate) timeout: Duration,
    /// Send the token in the environment variable NAME as `Authorization:
    /// Bearer` upstream. Never printed or recorded.
    #[arg(long, value_name = "NAME", requires = "to")]
    pub(crate) bearer_env: Option<String>,
    /// Send this header upstream with every request.
    #[arg(long = "header", value_name = "NAME: VALUE", requires = "to")]
    pub(crate) headers: Vec<String>,
    /// Send the header NAME with the value of the environment variable VAR
    /// upstream. Never printed or recorded.
    #[arg(long, value_name = "NAME=VAR", requires = "to")]
    pub(crate) header_env: Vec<String>,
    /// Trust only the certificate authorities in this PEM file upstream.
    #[arg(long, value_name = "FILE", requires = "to")]
    pub(crate) ca_cert: Option<PathBuf>,
    /// The provider's command line, after `--`.
    #[arg(
        last = true,
        required_unless_present = "listen",
        value_name = "PROGRAM [ARGS]"
    )]
    pub(crate) command: Vec<OsString>,
}

/// A flag value `cgp` cannot take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BadValue {
    /// Not a number of seconds.
    NotSeconds(String),
    /// A number of seconds out of range.
    SecondsOutOfRange,
    /// Not `KEY=VALUE` with a key.
    NotKeyValue(String),
}

impl fmt::Display for BadValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadValue::NotSeconds(text) => write!(f, "`{text}` is not a number of seconds"),
            BadValue::SecondsOutOfRange => {
                f.write_str("the timeout must be more than 0 and at most 86400 seconds")
            }
            BadValue::NotKeyValue(text) => write!(f, "`{text}` is not KEY=VALUE"),
        }
    }
}

impl std::error::Error for BadValue {}

fn parse_timeout(text: &str) -> Result<Duration, BadValue> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| BadValue::NotSeconds(text.to_owned()))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(BadValue::SecondsOutOfRange);
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn parse_env(text: &str) -> Result<(OsString, OsString), BadValue> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.into(), value.into())),
        _ => Err(BadValue::NotKeyValue(text.to_owned())),
    }
}

/// A clap parser that takes the name of an output with a JSON Schema.
fn output_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        cgp_report::Output::ALL.map(cgp_report::Output::as_str),
    )
}

/// The help of `cgp validate --semantic`: the ids of exactly the rules a
/// transcript can show, from the rule catalogue.
fn semantic_help() -> String {
    format!(
        "Also check the semantic rules of SPEC.md that a transcript can show ({}); each finding names its rule, a broken MUST is an error and a broken SHOULD a warning.",
        cgp_check::semantic::Rule::transcript_ids().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// `cgp validate --help` names exactly the rules `--semantic` checks.
    #[test]
    fn semantic_help_lists_the_checked_rules() {
        let mut command = Cli::command();
        let help = command
            .find_subcommand_mut("validate")
            .expect("validate")
            .render_long_help()
            .to_string();
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        let start = flat.find("a transcript can show (").expect("the rule list") + 23;
        let listed: Vec<&str> = flat[start..flat[start..].find(')').unwrap() + start]
            .split(", ")
            .collect();
        assert_eq!(listed, cgp_check::semantic::Rule::transcript_ids());
        for gone in ["H3", "P5", "Q2", "G4", "R2", "F14", "F15"] {
            assert!(!listed.contains(&gone), "{gone}: {listed:?}");
        }
        for kept in ["E1", "H4", "B1", "CGP-VERIFY-OPTIN"] {
            assert!(listed.contains(&kept), "{kept}: {listed:?}");
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
