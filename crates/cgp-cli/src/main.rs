//! `cgp`: tells an implementer, in any language, whether what their code sends
//! is valid Context Graph Protocol, by any version it embeds (the working
//! version unless `--version` names another).
//!
//! A thin front end: the checks live in [`cgp_check`] (transcripts and the
//! semantic rules), [`cgp_conformance`] (driving a provider), [`cgp_mock`],
//! [`cgp_proxy`] and [`cgp_vectors`]; this crate parses arguments
//! ([`args`]), renders results and picks the exit code. The published bundles
//! are embedded, so `cgp` reads no files but its inputs and never touches the
//! network, but for the endpoint `cgp check --http` is given.
//!
//! Exit codes ([`exit::Exit`]): 0 all good, 1 something is invalid, 2 usage or
//! I/O error.

mod args;
mod bundles;
mod check;
mod diff;
mod exit;
mod github;
mod mock;
mod progress;
mod proxy;
mod render;
mod style;
mod usage;
mod validate;
mod vectors;

use crate::args::{CheckArgs, Cli, Command, ProxyArgs, ValidateArgs, VectorsCommand};
use crate::exit::Exit;
use cgp_check::Validator;
use cgp_schema::Profile;
use clap::{CommandFactory, Parser};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli.color.apply();
    let verbosity = match (cli.quiet, cli.verbose) {
        (true, _) => progress::Verbosity::Quiet,
        (_, true) => progress::Verbosity::Verbose,
        _ => progress::Verbosity::Normal,
    };
    match cli.command {
        Command::Validate(args) => validate(args, verbosity),
        Command::Check(args) => check(args, verbosity),
        Command::Mock {
            list_behaviours: true,
            ..
        } => mock::list(),
        Command::Mock {
            protocol_version,
            http,
            behaviours,
            without,
            seed,
            delay,
            list_behaviours: false,
        } => mock::run(mock::Args {
            version: protocol_version,
            http,
            behaviours,
            without,
            seed,
            delay,
        }),
        Command::Proxy(args) => proxy(args),
        Command::Diff {
            paths,
            against,
            format,
            fail_on,
        } => diff::run(&paths, against.as_deref(), format, fail_on),
        Command::Schema {
            output: Some(output),
            ..
        } => print_all(
            cgp_report::Output::ALL
                .into_iter()
                .find(|known| known.as_str() == output)
                .map(cgp_report::json_schema)
                .unwrap_or_default()
                .as_bytes(),
        ),
        Command::Schema {
            profile,
            protocol_version,
            output: None,
        } => schema(profile.into(), &protocol_version),
        Command::Vectors { command } => vectors(command),
        Command::Completions { shell } => {
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "cgp", &mut text);
            print_all(&text)
        }
        Command::Manpage => {
            let mut text = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut text) {
                Ok(()) => print_all(&text),
                Err(error) => {
                    eprintln!("cgp: {error}");
                    ExitCode::from(Exit::Trouble)
                }
            }
        }
    }
}

/// The validator of an embedded bundle, or the exit code when it does not compile.
fn embedded_validator(version: &str, profile: Profile) -> Result<Validator, ExitCode> {
    bundles::validator(version, profile).map_err(|problem| {
        eprintln!("cgp: the embedded bundle does not compile: {problem}");
        ExitCode::from(Exit::Trouble)
    })
}

/// `cgp validate`.
fn validate(args: ValidateArgs, verbosity: progress::Verbosity) -> ExitCode {
    let validator = match embedded_validator(&args.protocol_version, args.profile.into()) {
        Ok(validator) => validator,
        Err(code) => return code,
    };
    let options = validate::Options {
        format: args.format,
        semantic: args.semantic,
        json_document: args.json_document,
        jobs: args.jobs.map_or_else(validate::default_jobs, usize::from),
        paths: args.paths,
        baseline: args.baseline,
        write_baseline: args.write_baseline,
        verbosity,
    };
    validate::run(&options, &validator)
}

/// `cgp check`.
fn check(args: CheckArgs, verbosity: progress::Verbosity) -> ExitCode {
    let validators =
        embedded_validator(&args.protocol_version, Profile::Interop).and_then(|interop| {
            Ok((
                interop,
                embedded_validator(&args.protocol_version, Profile::Strict)?,
            ))
        });
    let (interop, strict) = match validators {
        Ok(pair) => pair,
        Err(code) => return code,
    };
    let provider = match args.http {
        Some(url) => check::Provider::Http {
            url,
            bearer_env: args.bearer_env,
            headers: args.headers,
            header_env: args.header_env,
            ca_cert: args.ca_cert,
        },
        None => check::Provider::Command {
            command: args.command,
            env: args.env,
        },
    };
    let options = check::Options {
        format: if args.json {
            render::Format::Json
        } else {
            args.format
        },
        timeout: args.timeout,
        should_wait: args.should_wait.min(args.timeout),
        provider,
        baseline: args.baseline,
        write_baseline: args.write_baseline,
        verbosity,
    };
    check::run(&options, &interop, &strict)
}

/// `cgp proxy`.
fn proxy(args: ProxyArgs) -> ExitCode {
    let validator = match embedded_validator(&args.protocol_version, Profile::Interop) {
        Ok(validator) => validator,
        Err(code) => return code,
    };
    let listen = args.listen.zip(args.to).map(|(listen, url)| {
        (
            listen,
            proxy::Upstream {
                url,
                bearer_env: args.bearer_env,
                headers: args.headers,
                header_env: args.header_env,
                ca_cert: args.ca_cert,
                timeout: args.timeout,
            },
        )
    });
    proxy::run(
        proxy::Args {
            record: args.record,
            findings: args.findings,
            format: args.format.into(),
            grace: args.grace,
            listen,
            command: args.command,
        },
        validator,
    )
}

/// `cgp vectors run|list|export`.
fn vectors(command: VectorsCommand) -> ExitCode {
    match command {
        VectorsCommand::Run {
            protocol_version,
            format,
            timeout,
            shown,
            env,
            command,
        } => vectors::run(&vectors::RunOptions {
            version: protocol_version,
            format,
            timeout,
            shown,
            env,
            command,
        }),
        VectorsCommand::List {
            protocol_version,
            format,
        } => vectors::list(&protocol_version, format),
        VectorsCommand::Export {
            protocol_version,
            dir,
        } => vectors::export(&protocol_version, &dir),
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
    print_all(text.as_bytes())
}

/// Writes `text` to standard output: 0, or 2 when it cannot (quietly for a
/// closed pipe).
fn print_all(text: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::from(Exit::Valid),
        Err(error) => {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("cgp: {error}");
            }
            ExitCode::from(Exit::Trouble)
        }
    }
}
