//! `cgp proxy`: the front end of `cgp-proxy`, over stdio or HTTP.

use crate::exit::Exit;
use crate::usage::{Usage, variable};
use cgp_check::Validator;
use cgp_conformance::http::{Bearer, Endpoint, Header, HttpProvider, Roots, shown_url};
use cgp_proxy::stdio::Record;
use cgp_proxy::{Format, Judge};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The upstream of `cgp proxy --to`, with `cgp check --http`'s options.
pub struct Upstream {
    /// The endpoint URL.
    pub url: String,
    /// `--bearer-env NAME`.
    pub bearer_env: Option<String>,
    /// `--header 'Name: value'`, each.
    pub headers: Vec<String>,
    /// `--header-env Name=VAR`, each.
    pub header_env: Vec<String>,
    /// `--ca-cert FILE`.
    pub ca_cert: Option<PathBuf>,
    /// Seconds per exchange.
    pub timeout: Duration,
}

/// What `cgp proxy` was asked to do.
pub struct Args {
    /// `--record FILE`.
    pub record: Option<PathBuf>,
    /// `--findings FILE` (standard error otherwise).
    pub findings: Option<PathBuf>,
    /// `--format`.
    pub format: Format,
    /// `--grace SECS`.
    pub grace: Duration,
    /// `--listen HOST:PORT` and the upstream, or the provider's command.
    pub listen: Option<(String, Upstream)>,
    /// The provider's command line.
    pub command: Vec<OsString>,
}

fn trouble(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("cgp proxy: {message}");
    ExitCode::from(Exit::Trouble)
}

/// `cgp proxy`.
pub fn run(args: Args, validator: Validator) -> ExitCode {
    let record: Option<Record> = match &args.record {
        None => None,
        Some(path) => match File::create(path) {
            Ok(file) => Some(Arc::new(Mutex::new(BufWriter::new(file)))),
            Err(error) => return trouble(format!("--record {}: {error}", path.display())),
        },
    };
    let sink: Box<dyn Write + Send> = match &args.findings {
        None => Box::new(std::io::stderr()),
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(file),
            Err(error) => return trouble(format!("--findings {}: {error}", path.display())),
        },
    };
    let (judge, judged) = Judge::start(validator, args.format, sink);
    match args.listen {
        Some((listen, upstream)) => {
            let upstream = match http_provider(&upstream) {
                Ok(upstream) => upstream,
                Err(problem) => return trouble(&problem),
            };
            let server = match cgp_mock::serve::bind(&listen) {
                Ok(server) => server,
                Err(problem) => return trouble(format!("--listen: {problem}")),
            };
            let loopback = match server.server_addr() {
                tiny_http::ListenAddr::IP(address) => address.ip().is_loopback(),
                #[cfg(unix)]
                tiny_http::ListenAddr::Unix(_) => false,
            };
            if !loopback {
                return trouble(format!(
                    "--listen {listen}: the proxy listens with plain HTTP on a loopback address only (127.0.0.0/8 or [::1])"
                ));
            }
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{}", cgp_mock::serve::url_of(&server));
            let _ = stdout.flush();
            drop(stdout);
            match cgp_proxy::http::serve(&server, &upstream, &judge, record.as_ref()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => trouble(error),
            }
        }
        None => {
            let ending = cgp_proxy::stdio::run(
                &args.command,
                std::io::stdin(),
                std::io::stdout(),
                &judge,
                record,
                args.grace,
            );
            let lost = judge.lost();
            if lost > 0 {
                judge.note(format!(
                    "{lost} line(s) went unjudged: the reader of the findings was too slow (every byte was passed on)"
                ));
            }
            drop(judge);
            let _ = judged.join();
            match ending {
                Ok(ending) => ExitCode::from(u8::try_from(ending.status & 0xff).unwrap_or(1)),
                Err(error) => {
                    let shown: Vec<String> = args
                        .command
                        .iter()
                        .map(|part| part.to_string_lossy().into_owned())
                        .collect();
                    trouble(format!("cannot start `{}`: {error}", shown.join(" ")))
                }
            }
        }
    }
}

/// The upstream provider, with the credentials, headers and roots of `cgp
/// check --http` (the same library types: the secret is masked in every form
/// it may be echoed in).
fn http_provider(upstream: &Upstream) -> Result<HttpProvider, Usage> {
    let endpoint = Endpoint::parse(&upstream.url)
        .map_err(|error| Usage(format!("--to {}: {error}", shown_url(&upstream.url))))?;
    let bearer = match &upstream.bearer_env {
        None => None,
        Some(name) => Some(
            Bearer::new(variable("--bearer-env", name)?)
                .map_err(|error| Usage(format!("--bearer-env {name}: {error}")))?,
        ),
    };
    let mut sent = Vec::new();
    for text in &upstream.headers {
        sent.push(Header::plain(text).map_err(|error| Usage(format!("--header: {error}")))?);
    }
    for text in &upstream.header_env {
        let Some((name, var)) = text.split_once('=').filter(|(_, var)| !var.is_empty()) else {
            return Err(Usage(format!("--header-env {text}: not Name=VAR")));
        };
        let value = variable("--header-env", var)?;
        sent.push(
            Header::secret(name.trim(), &value)
                .map_err(|error| Usage(format!("--header-env {name}: {error}")))?,
        );
    }
    let roots = match &upstream.ca_cert {
        None => Roots::default(),
        Some(path) => {
            Roots::from_pem_file(path).map_err(|error| Usage(format!("--ca-cert: {error}")))?
        }
    };
    Ok(HttpProvider::new(endpoint, bearer, upstream.timeout)
        .with_headers(sent)
        .with_roots(&roots))
}
