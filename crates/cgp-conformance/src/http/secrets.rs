//! What `cgp check --http` sends besides the envelope: a bearer token, plain
//! headers and secret headers, and the [`Secrets`] that keep every secret out
//! of what `cgp check` prints.
//!
//! A secret is cut out of text (an error, a `Location`) and overwritten in a
//! reply not only as it was sent but in the forms an endpoint that echoes it
//! is likely to use: JSON-escaped, HTML-escaped and percent-encoded.

use std::fmt;

/// Why a credential or header is refused before anything is sent. No variant
/// holds a secret: a bearer token or a secret header's value is never
/// repeated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CredentialError {
    /// The bearer token is empty.
    #[error("the bearer token is empty")]
    EmptyBearer,
    /// The bearer token is not token68.
    #[error(
        "the bearer token is not an RFC 6750 token68 (letters, digits and -._~+/, then any =); nothing was sent"
    )]
    BearerNotToken68,
    /// A plain header's text has no colon.
    #[error("`{0}` is not `Name: value`")]
    NotNameValue(String),
    /// A header name with a character a name cannot have.
    #[error("`{0}` is not a header name (letters, digits and !#$%&'*+-.^_`|~)")]
    BadName(String),
    /// A header `cgp check` sets itself.
    #[error("cgp check sets `{0}` itself; it cannot be given as a header")]
    Reserved(String),
    /// The named header's value is empty.
    #[error("the value of `{0}` is empty")]
    EmptyValue(String),
    /// The named header's value holds a line break or a control character.
    #[error("the value of `{0}` may hold only visible ASCII, spaces and tabs (no line breaks)")]
    BadValue(String),
}

/// A bearer token, sent as `Authorization: Bearer <token>` and never shown:
/// `Debug` and `Display` print `Bearer(<redacted>)`.
#[derive(Clone, PartialEq, Eq)]
pub struct Bearer(pub(super) String);

impl Bearer {
    /// Wraps `token`, which must be an RFC 6750 `b64token` (token68): letters,
    /// digits and `-._~+/`, then any `=`. Anything else is refused, so that
    /// no character of it needs quoting in a header or escaping in an echo.
    /// The error does not repeat the token.
    pub fn new(token: String) -> Result<Self, CredentialError> {
        if token.is_empty() {
            return Err(CredentialError::EmptyBearer);
        }
        let body = token.trim_end_matches('=');
        let token68 = !body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
        if !token68 {
            return Err(CredentialError::BearerNotToken68);
        }
        Ok(Bearer(token))
    }
}

impl fmt::Debug for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bearer(<redacted>)")
    }
}

impl fmt::Display for Bearer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bearer(<redacted>)")
    }
}

/// Headers `cgp check` sets itself, or that would change how the request is
/// framed or routed: `--header` cannot set them.
const RESERVED: [&str; 7] = [
    "host",
    "content-length",
    "content-type",
    "transfer-encoding",
    "connection",
    "upgrade",
    "te",
];

/// One extra request header. A secret one (from `--header-env`) prints its
/// name only.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub(super) name: String,
    pub(super) value: String,
    secret: bool,
}

impl Header {
    /// A plain header from `Name: value`.
    pub fn plain(text: &str) -> Result<Self, CredentialError> {
        let (name, value) = text
            .split_once(':')
            .ok_or_else(|| CredentialError::NotNameValue(text.to_owned()))?;
        Header::checked(name.trim(), value.trim(), false)
    }

    /// A secret header: `name` with `value` read from the environment. The
    /// error names the header, never the value.
    pub fn secret(name: &str, value: &str) -> Result<Self, CredentialError> {
        Header::checked(name, value.trim(), true)
    }

    fn checked(name: &str, value: &str, secret: bool) -> Result<Self, CredentialError> {
        let tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        if name.is_empty() || !name.bytes().all(tchar) {
            return Err(CredentialError::BadName(name.to_owned()));
        }
        if RESERVED
            .iter()
            .any(|reserved| name.eq_ignore_ascii_case(reserved))
        {
            return Err(CredentialError::Reserved(name.to_owned()));
        }
        if value.is_empty() {
            return Err(CredentialError::EmptyValue(name.to_owned()));
        }
        if !value
            .bytes()
            .all(|b| b == b' ' || b == b'\t' || b.is_ascii_graphic())
        {
            return Err(CredentialError::BadValue(name.to_owned()));
        }
        Ok(Header {
            name: name.to_owned(),
            value: value.to_owned(),
            secret,
        })
    }

    /// The header's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the value came from the environment and is never shown.
    pub fn is_secret(&self) -> bool {
        self.secret
    }
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.secret {
            write!(f, "Header({}: <redacted>)", self.name)
        } else {
            write!(f, "Header({}: {})", self.name, self.value)
        }
    }
}

/// Every form of every secret that may come back from the endpoint, longest
/// first so that a longer form is cut before a shorter one inside it.
#[derive(Debug, Clone, Default)]
pub(super) struct Secrets {
    forms: Vec<Vec<u8>>,
}

impl Secrets {
    pub(super) fn new<'a>(secrets: impl IntoIterator<Item = &'a str>) -> Self {
        let mut forms: Vec<Vec<u8>> = secrets
            .into_iter()
            .filter(|secret| !secret.is_empty())
            .flat_map(encodings)
            .map(String::into_bytes)
            .collect();
        forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        Secrets { forms }
    }

    /// `text` with every form of every secret replaced by `<redacted>`.
    pub(super) fn redact(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for form in &self.forms {
            if let Ok(form) = std::str::from_utf8(form) {
                text = text.replace(form, "<redacted>");
            }
        }
        text
    }

    /// Overwrites every form of every secret in a reply with as many `*`,
    /// so that the line keeps its length and positions (and stays JSON: every
    /// form sits inside a string) when it is judged and shown.
    pub(super) fn mask(&self, bytes: &mut [u8]) {
        for form in &self.forms {
            let mut start = 0;
            while let Some(found) = bytes
                .get(start..)
                .and_then(|rest| rest.windows(form.len()).position(|window| window == form))
            {
                let at = start + found;
                if let Some(occurrence) = bytes.get_mut(at..at + form.len()) {
                    occurrence.fill(b'*');
                }
                start = at + form.len();
            }
        }
    }
}

/// The forms of `secret` an echo is likely to take: as sent; JSON-escaped
/// (the short escapes, with `/` escaped or not, and `\u00XX` for every
/// punctuation character); HTML-escaped (named and numeric references); and
/// percent-encoded (upper- and lower-case hex, with `+` for a space or not).
fn encodings(secret: &str) -> Vec<String> {
    let json = serde_json::to_string(secret).unwrap_or_default();
    let json = json
        .strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or(secret)
        .to_owned();
    let punctuation = |c: char| c.is_ascii() && !c.is_ascii_alphanumeric();
    let each = |escape: &dyn Fn(char) -> String| -> String {
        secret
            .chars()
            .map(|c| {
                if punctuation(c) {
                    escape(c)
                } else {
                    c.to_string()
                }
            })
            .collect()
    };
    let html = |quote: &str, apostrophe: &str| -> String {
        secret
            .chars()
            .map(|c| match c {
                '&' => "&amp;".to_owned(),
                '<' => "&lt;".to_owned(),
                '>' => "&gt;".to_owned(),
                '"' => quote.to_owned(),
                '\'' => apostrophe.to_owned(),
                other => other.to_string(),
            })
            .collect()
    };
    let unreserved = |c: char| c.is_ascii_alphanumeric() || "-._~".contains(c);
    let percent = |upper: bool, plus: bool| -> String {
        secret
            .chars()
            .map(|c| match c {
                c if unreserved(c) => c.to_string(),
                ' ' if plus => "+".to_owned(),
                c if c.is_ascii() && upper => format!("%{:02X}", c as u32),
                c if c.is_ascii() => format!("%{:02x}", c as u32),
                other => other.to_string(),
            })
            .collect()
    };
    vec![
        secret.to_owned(),
        json.replace('/', "\\/"),
        json,
        each(&|c| format!("\\u{:04x}", c as u32)),
        each(&|c| format!("\\u{:04X}", c as u32)),
        html("&quot;", "&#39;"),
        html("&quot;", "&#x27;"),
        html("&#34;", "&#39;"),
        html("&quot;", "&apos;"),
        each(&|c| format!("&#{};", c as u32)),
        each(&|c| format!("&#x{:x};", c as u32)),
        each(&|c| format!("&#x{:X};", c as u32)),
        percent(true, false),
        percent(false, false),
        percent(true, true),
        percent(false, true),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_token68_and_never_rendered() {
        let bearer = Bearer::new("s3cret-token".into()).expect("a token");
        assert_eq!(
            format!("{bearer} {bearer:?}"),
            "Bearer(<redacted>) Bearer(<redacted>)"
        );
        for good in ["abc", "a.b-c_d~e+f/g==", "A1="] {
            assert!(Bearer::new(good.into()).is_ok(), "{good}");
        }
        for bad in ["", "=", "a\"b", "a\\b", "a b", "two\r\nlines", "a=b", "é"] {
            let error = Bearer::new(bad.into()).expect_err(bad);
            assert!(bad.len() < 3 || !error.to_string().contains(bad), "{error}");
        }
    }

    #[test]
    fn headers_are_checked_and_secret_ones_not_rendered() {
        let header = Header::plain("X-Tenant:  acme ").expect("a header");
        assert_eq!((header.name(), header.value.as_str()), ("X-Tenant", "acme"));
        let secret = Header::secret("X-Api-Key", "k3y").expect("a header");
        assert_eq!(format!("{secret:?}"), "Header(X-Api-Key: <redacted>)");
        for bad in [
            "no colon",
            ": v",
            "Bad Name: v",
            "Host: x",
            "content-length: 1",
            "X: ",
        ] {
            assert!(Header::plain(bad).is_err(), "{bad}");
        }
        let error = Header::secret("X-Key", "s3cret\nvalue").expect_err("refused");
        assert_eq!(error, CredentialError::BadValue("X-Key".into()));
        assert!(!format!("{error} {error:?}").contains("s3cret"), "{error}");
    }

    #[test]
    fn every_echoed_form_of_a_secret_is_cut_out() {
        let secret = r#"k"e\y/<&>' x+="#;
        let secrets = Secrets::new([secret, "tok/en+="]);
        let echoes = [
            secret.to_owned(),
            r#"k\"e\\y/<&>' x+="#.to_owned(),
            r#"k\"e\\y\/<&>' x+="#.to_owned(),
            r"k\u0022e\u005cy\u002f\u003c\u0026\u003e\u0027\u0020x\u002b\u003d".to_owned(),
            "k&quot;e\\y/&lt;&amp;&gt;&#39; x+=".to_owned(),
            "k&#34;e&#92;y&#47;&#60;&#38;&#62;&#39;&#32;x&#43;&#61;".to_owned(),
            "k%22e%5Cy%2F%3C%26%3E%27%20x%2B%3D".to_owned(),
            "k%22e%5cy%2f%3c%26%3e%27+x%2b%3d".to_owned(),
            "tok%2Fen%2B%3D".to_owned(),
            r"tok\/en+=".to_owned(),
        ];
        for echo in echoes {
            let text = format!("you sent [{echo}]");
            let redacted = secrets.redact(&text);
            assert_eq!(redacted, "you sent [<redacted>]", "{echo}");
            let mut bytes = text.clone().into_bytes();
            secrets.mask(&mut bytes);
            let masked = String::from_utf8(bytes).expect("UTF-8");
            assert_eq!(
                masked,
                format!("you sent [{}]", "*".repeat(echo.len())),
                "{echo}"
            );
        }
    }
}
