//! `cgp mock`: the front end of `cgp-mock`, over stdio or HTTP.

use crate::exit::Exit;
use cgp_mock::serve::{self, Ending};
use cgp_mock::{Behaviour, Mock, Options, Without};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

/// What `cgp mock` was asked to do.
pub struct Args {
    /// The protocol version it speaks.
    pub version: String,
    /// `--http HOST:PORT`.
    pub http: Option<String>,
    /// `--behaviour NAME`, each.
    pub behaviours: Vec<String>,
    /// `--without NAME[,NAME]`, each.
    pub without: Vec<String>,
    /// `--seed N`.
    pub seed: u64,
    /// `--delay SECS`.
    pub delay: Duration,
}

/// `cgp mock --list-behaviours`: one a line, name, rule, what it does.
pub fn list() -> ExitCode {
    let mut text = String::new();
    for behaviour in Behaviour::ALL {
        text.push_str(&format!(
            "{}\t{}\t{}\n",
            behaviour.name(),
            behaviour.rule(),
            behaviour.about()
        ));
    }
    crate::print_all(text.as_bytes())
}

/// `cgp mock`.
pub fn run(args: Args) -> ExitCode {
    let mut behaviours = Vec::new();
    for name in &args.behaviours {
        match Behaviour::from_name(name) {
            Some(behaviour) => behaviours.push(behaviour),
            None => {
                eprintln!(
                    "cgp mock: --behaviour {name}: no such behaviour (cgp mock --list-behaviours lists them)"
                );
                return ExitCode::from(Exit::Trouble);
            }
        }
    }
    let mut without = Without::default();
    for name in args.without.iter().flat_map(|list| list.split(',')) {
        if !without.add(name.trim()) {
            eprintln!(
                "cgp mock: --without {name}: not a capability it can withhold (one of {})",
                Without::NAMES.join(", ")
            );
            return ExitCode::from(Exit::Trouble);
        }
    }
    let mut mock = Mock::new(Options {
        version: args.version,
        seed: args.seed,
        behaviours,
        without,
        delay: args.delay,
    });
    let ending = match &args.http {
        None => {
            let stdin = std::io::stdin().lock();
            let mut stdout = std::io::stdout().lock();
            serve::serve_stdio(&mut mock, stdin, &mut stdout)
        }
        Some(address) => {
            let server = match serve::bind(address) {
                Ok(server) => server,
                Err(problem) => {
                    eprintln!("cgp mock: --http: {problem}");
                    return ExitCode::from(Exit::Trouble);
                }
            };
            // The one line on standard output: where to POST.
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{}", serve::url_of(&server));
            let _ = stdout.flush();
            drop(stdout);
            serve::serve_http(&mut mock, &server)
        }
    };
    match ending {
        Ok(Ending::Shutdown | Ending::Closed) => ExitCode::SUCCESS,
        Ok(Ending::Crashed) => ExitCode::from(serve::CRASH_STATUS),
        Err(error) => {
            eprintln!("cgp mock: {error}");
            ExitCode::from(Exit::Trouble)
        }
    }
}
