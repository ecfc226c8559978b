//! The [`ureq`] agent under [`super::HttpProvider`]: which roots it trusts,
//! the loopback-only resolver for plain `http://`, and the words for what
//! went wrong (a certificate problem named for what it is).

use super::Endpoint;
use std::error::Error as _;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use ureq::config::AutoHeaderValue;
use ureq::http::Uri;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// The certificate authorities an `https://` endpoint's certificate must
/// chain to: the webpki roots (Mozilla's), or only those of a PEM file.
#[derive(Clone, Default)]
pub struct Roots {
    private: Option<Arc<Vec<Certificate<'static>>>>,
}

impl fmt::Debug for Roots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.private {
            None => f.write_str("Roots(webpki)"),
            Some(certificates) => write!(f, "Roots({} from --ca-cert)", certificates.len()),
        }
    }
}

/// Why `--ca-cert`'s file gives no trust anchors.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RootsError {
    /// The file cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What reading it said.
        error: String,
    },
    /// The file is not PEM.
    #[error("{} is not valid PEM: {error}", path.display())]
    NotPem {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said.
        error: String,
    },
    /// The file holds no certificate.
    #[error("{} holds no PEM certificate (-----BEGIN CERTIFICATE-----)", .0.display())]
    NoCertificate(PathBuf),
}

impl Roots {
    /// Only the certificates in the PEM file at `path` (other PEM blocks,
    /// such as keys, are skipped). The error names the file and the problem.
    pub fn from_pem_file(path: &Path) -> Result<Self, RootsError> {
        let at = path.to_path_buf();
        let pem = std::fs::read(path).map_err(|error| RootsError::Unreadable {
            path: at.clone(),
            error: error.to_string(),
        })?;
        let mut certificates = Vec::new();
        for item in ureq::tls::parse_pem(&pem) {
            match item {
                Ok(PemItem::Certificate(certificate)) => certificates.push(certificate),
                Ok(_) => {}
                Err(error) => {
                    return Err(RootsError::NotPem {
                        path: at,
                        error: error.to_string(),
                    });
                }
            }
        }
        if certificates.is_empty() {
            return Err(RootsError::NoCertificate(at));
        }
        Ok(Roots {
            private: Some(Arc::new(certificates)),
        })
    }

    fn root_certs(&self) -> RootCerts {
        match &self.private {
            Some(certificates) => RootCerts::Specific(Arc::clone(certificates)),
            None => RootCerts::WebPki,
        }
    }
}

/// The agent for one endpoint: no proxy (not even one named by the
/// environment), no redirect followed, statuses returned rather than turned
/// into errors, no compression asked for, headers up to 64 KiB, no
/// connection kept, certificates verified against `roots`, and `timeout`
/// for each whole call.
pub(super) fn agent(endpoint: &Endpoint, roots: &Roots, timeout: Duration) -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .proxy(None)
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .user_agent(format!("cgp-check/{}", env!("CARGO_PKG_VERSION")))
        .accept("application/json")
        .accept_encoding(AutoHeaderValue::None)
        .timeout_global(Some(timeout))
        .max_response_header_size(64 * 1024)
        // A new connection for every request, as the hand-written client did:
        // no POST is ever retried on a connection the server closed.
        .max_idle_connections(0)
        .max_idle_connections_per_host(0)
        .tls_config(TlsConfig::builder().root_certs(roots.root_certs()).build())
        .build();
    let resolver = Addresses {
        loopback_only: !endpoint.is_tls(),
    };
    ureq::Agent::with_parts(config, DefaultConnector::default(), resolver)
}

/// The system resolver; for plain `http://`, keeping loopback addresses only,
/// so that `localhost` mapped elsewhere is not reached in clear.
#[derive(Debug)]
struct Addresses {
    loopback_only: bool,
}

impl Resolver for Addresses {
    fn resolve(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let all = DefaultResolver::default().resolve(uri, config, timeout)?;
        if !self.loopback_only {
            return Ok(all);
        }
        let mut kept = self.empty();
        for address in all.iter().filter(|address| address.ip().is_loopback()) {
            kept.push(*address);
        }
        if kept.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(kept)
    }
}

pub(super) fn is_timeout(error: &ureq::Error) -> bool {
    match error {
        ureq::Error::Timeout(_) => true,
        ureq::Error::Io(error) => matches!(
            error.kind(),
            std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
        ),
        _ => false,
    }
}

/// What went wrong, in words: a certificate problem names itself and the
/// host, anything else says where it failed.
pub(super) fn describe(error: &ureq::Error, endpoint: &Endpoint) -> String {
    if let Some(tls) = rustls_error(error) {
        return tls_problem(tls, endpoint);
    }
    match error {
        ureq::Error::HostNotFound if endpoint.is_tls() => {
            format!("the host name `{}` resolves to no address", endpoint.host)
        }
        ureq::Error::HostNotFound => format!(
            "`{}` resolves to no loopback address; plain http:// goes to loopback only",
            endpoint.host
        ),
        ureq::Error::Io(io) => format!("cannot connect or exchange: {io}"),
        other => other.to_string(),
    }
}

/// The rustls error under `error`, if TLS is what failed.
fn rustls_error(error: &ureq::Error) -> Option<&rustls::Error> {
    if let ureq::Error::Rustls(tls) = error {
        return Some(tls);
    }
    // ureq's own error gives no source; rustls's comes inside an io::Error.
    let mut source: Option<&(dyn std::error::Error + 'static)> = match error {
        ureq::Error::Io(io) => io.get_ref().map(|inner| inner as _),
        other => other.source(),
    };
    while let Some(current) = source {
        if let Some(tls) = current.downcast_ref::<rustls::Error>() {
            return Some(tls);
        }
        source = current.source();
    }
    None
}

fn tls_problem(error: &rustls::Error, endpoint: &Endpoint) -> String {
    use rustls::CertificateError as C;
    let host = &endpoint.host;
    let problem = match error {
        rustls::Error::InvalidCertificate(certificate) => match certificate {
            C::UnknownIssuer => format!(
                "the certificate of `{host}` is not issued by a trusted certificate authority (unknown issuer); for a private CA pass its certificate with --ca-cert FILE"
            ),
            C::Expired | C::ExpiredContext { .. } => {
                format!("the certificate of `{host}` has expired")
            }
            C::NotValidYet | C::NotValidYetContext { .. } => {
                format!("the certificate of `{host}` is not valid yet")
            }
            C::NotValidForName | C::NotValidForNameContext { .. } => format!(
                "the certificate is not valid for the host name `{host}` (issued for another host)"
            ),
            C::Revoked => format!("the certificate of `{host}` is revoked"),
            C::BadSignature => format!("the certificate of `{host}` has a bad signature"),
            C::BadEncoding => format!("the certificate of `{host}` is malformed"),
            _ => format!("the certificate of `{host}` is invalid"),
        },
        _ => format!("the TLS handshake with `{host}` failed"),
    };
    format!(
        "TLS handshake failed: {problem} ({error}); cgp check never skips certificate verification"
    )
}

/// How much of a `Location` a report shows.
const SHOWN_LOCATION_CHARS: usize = 200;

/// Why a redirect is refused, with where it pointed.
pub(super) fn redirected(described: &str, response: &ureq::http::Response<ureq::Body>) -> String {
    let location = response
        .headers()
        .get("location")
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
        .map_or_else(
            || "no Location".to_owned(),
            |location| {
                let shown: String = location
                    .chars()
                    .filter(|c| !c.is_control())
                    .take(SHOWN_LOCATION_CHARS)
                    .collect();
                format!("Location {shown}")
            },
        );
    format!(
        "{described} ({location}): cgp check does not follow redirects (SPEC.md §Transport/HTTP); give --http the endpoint's final URL"
    )
}
