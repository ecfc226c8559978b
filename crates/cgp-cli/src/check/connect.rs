//! Starting the provider's program, or reaching its HTTP endpoint.

use super::*;
use crate::usage::{Usage, variable};

/// Starts the stdio provider, or sets up the HTTP one (nothing is sent yet);
/// the stdio provider's process group comes with it.
pub(super) fn connect(options: &Options) -> Result<Connected, Usage> {
    match &options.provider {
        Provider::Command { command, env } => {
            let Some((program, args)) = command.split_first() else {
                return Err(Usage(
                    "no provider command given (cgp check -- PROGRAM [ARGS...])".into(),
                ));
            };
            let shown: Vec<String> = command
                .iter()
                .map(|part| part.to_string_lossy().into_owned())
                .collect();
            let launch = Launch {
                program: program.clone(),
                args: args.to_vec(),
                env: env.clone(),
            };
            let provider = ChildProvider::spawn(&launch)
                .map_err(|error| Usage(format!("cannot start `{}`: {error}", shown.join(" "))))?;
            let checked = CheckedProvider::Command(shown);
            let group = provider.process_group();
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: Some(group),
            })
        }
        Provider::Http {
            url,
            bearer_env,
            headers,
            header_env,
            ca_cert,
        } => {
            let endpoint = Endpoint::parse(url)
                .map_err(|error| Usage(format!("--http {}: {error}", shown_url(url))))?;
            let bearer = match bearer_env {
                None => None,
                Some(name) => Some(
                    Bearer::new(variable("--bearer-env", name)?)
                        .map_err(|error| Usage(format!("--bearer-env {name}: {error}")))?,
                ),
            };
            let mut sent = Vec::new();
            for text in headers {
                let header =
                    Header::plain(text).map_err(|error| Usage(format!("--header: {error}")))?;
                sent.push(header);
            }
            for text in header_env {
                let Some((name, var)) = text.split_once('=').filter(|(_, var)| !var.is_empty())
                else {
                    return Err(Usage(format!("--header-env {text}: not Name=VAR")));
                };
                let value = variable("--header-env", var)?;
                let header = Header::secret(name.trim(), &value)
                    .map_err(|error| Usage(format!("--header-env {name}: {error}")))?;
                sent.push(header);
            }
            for (index, header) in sent.iter().enumerate() {
                let again = sent[..index]
                    .iter()
                    .any(|earlier| earlier.name().eq_ignore_ascii_case(header.name()));
                let authorization = header.name().eq_ignore_ascii_case("authorization");
                if again || (authorization && bearer.is_some()) {
                    return Err(Usage(format!(
                        "the header `{}` is given twice",
                        header.name()
                    )));
                }
            }
            let roots = match ca_cert {
                None => Roots::default(),
                Some(path) => Roots::from_pem_file(path)
                    .map_err(|error| Usage(format!("--ca-cert: {error}")))?,
            };
            if ca_cert.is_some() && !endpoint.is_tls() {
                return Err(Usage("--ca-cert needs an https:// endpoint".into()));
            }
            let endpoint_url = endpoint.url().to_owned();
            let provider = HttpProvider::new(endpoint, bearer, options.timeout)
                .with_headers(sent)
                .with_roots(&roots);
            let checked = CheckedProvider::Endpoint(endpoint_url);
            Ok(Connected {
                peer: Box::new(provider),
                checked,
                group: None,
            })
        }
    }
}
