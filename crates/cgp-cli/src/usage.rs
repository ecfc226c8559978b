//! A request `cgp` cannot act on ([`Usage`]): a flag's value that is wrong,
//! a variable it names that is not set, a provider that cannot be started.
//! `cgp` prints it after `cgp: ` and exits 2.

use std::fmt;

/// What is wrong with the request, naming the flag or input it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Usage(pub(crate) String);

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The value of the environment variable `name`, for `flag`
/// (`--bearer-env`, `--header-env`). The error names the variable, never a
/// value.
pub(crate) fn variable(flag: &str, name: &str) -> Result<String, Usage> {
    std::env::var(name).map_err(|error| {
        Usage(format!(
            "{flag} {name}: the variable is {}",
            match error {
                std::env::VarError::NotPresent => "not set",
                std::env::VarError::NotUnicode(_) => "not valid Unicode",
            }
        ))
    })
}
