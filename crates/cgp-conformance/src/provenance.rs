//! Re-reading the local files a provider's `file` provenance points at, to
//! check that each declared digest is the sha256 of the bytes it addresses
//! (SPEC.md CGP-FILE-BYTES).
//!
//! Only what this machine can read is checked: a `file://` URI with no host
//! (or `localhost`) naming a regular file of at most [`MAX_REREAD_BYTES`]. A
//! link that addresses anything else is [`Reread::Unchecked`], never a
//! failure: the provider's files need not be on the host's machine.

use cgp_types::Provenance;
use std::path::PathBuf;

/// The largest file re-read; a bigger one is left unchecked.
pub const MAX_REREAD_BYTES: u64 = 16 * 1024 * 1024;

/// What re-reading a provenance link found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reread {
    /// The bytes hash to the declared digest.
    Matches,
    /// The bytes hash to `actual`, not to the declared digest.
    Differs {
        /// `sha256:` and the hex digest of the addressed bytes.
        actual: String,
    },
    /// The link could not be checked here, and why.
    Unchecked(String),
}

/// Why the bytes a link addresses cannot be re-read here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Unreadable {
    #[error("`{0}` is not a file:// URI")]
    NotFileUri(String),
    #[error("`{0}` names another host")]
    OtherHost(String),
    #[error("`{0}` has a bad percent escape")]
    BadEscape(String),
    #[error("`{0}` is not UTF-8")]
    NotUtf8(String),
    #[error("{path}: {error}")]
    Read { path: String, error: String },
    #[error("range `{0}` is not L<first> or L<first>-<last>")]
    RangeSyntax(String),
    #[error("range `{0}` is empty")]
    RangeEmpty(String),
    #[error("range `{range}` starts past the end of the file ({lines} line(s))")]
    RangePastEnd { range: String, lines: usize },
}

/// Re-reads the bytes `link` addresses and compares their digest with the
/// declared one.
pub fn reread(link: &Provenance) -> Reread {
    let (Some(uri), Some(declared)) = (link.uri.as_deref(), link.digest.as_deref()) else {
        return Reread::Unchecked("the link has no uri or no digest".into());
    };
    let path = match local_path(uri) {
        Ok(path) => path,
        Err(reason) => return Reread::Unchecked(reason.to_string()),
    };
    let bytes = match read_bounded(&path) {
        Ok(bytes) => bytes,
        Err(reason) => return Reread::Unchecked(reason.to_string()),
    };
    let addressed = match link.range.as_deref() {
        None => bytes.as_slice(),
        Some(range) => match line_range(&bytes, range) {
            Ok(addressed) => addressed,
            Err(reason) => return Reread::Unchecked(reason.to_string()),
        },
    };
    let actual = cgp_schema::digest::of(addressed);
    if actual == declared {
        Reread::Matches
    } else {
        Reread::Differs { actual }
    }
}

/// The local path of a `file:///path` or `file://localhost/path` URI, with
/// percent escapes decoded.
fn local_path(uri: &str) -> Result<PathBuf, Unreadable> {
    let rest = uri
        .strip_prefix("file://")
        .ok_or_else(|| Unreadable::NotFileUri(uri.to_owned()))?;
    let path = rest
        .strip_prefix("localhost")
        .unwrap_or(rest)
        .strip_prefix('/')
        .ok_or_else(|| Unreadable::OtherHost(uri.to_owned()))?;
    // percent-encoding leaves a malformed escape as it is; a URI with one is
    // refused instead, as naming no file for sure.
    let escapes_well_formed = path.split('%').skip(1).all(|after| {
        after.len() >= 2 && after.bytes().take(2).all(|byte| byte.is_ascii_hexdigit())
    });
    if !escapes_well_formed {
        return Err(Unreadable::BadEscape(uri.to_owned()));
    }
    let text = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .map_err(|_| Unreadable::NotUtf8(uri.to_owned()))?;
    let text = format!("/{text}");
    Ok(PathBuf::from(text))
}

/// The file's bytes, when it is a regular file of at most [`MAX_REREAD_BYTES`].
fn read_bounded(path: &std::path::Path) -> Result<Vec<u8>, Unreadable> {
    cgp_schema::source::read_regular_file(path, MAX_REREAD_BYTES, "a re-read file").map_err(
        |error| Unreadable::Read {
            path: path.display().to_string(),
            error: error.to_string(),
        },
    )
}

/// The bytes of lines `L<first>` or `L<first>-<last>` (1-based, inclusive, each
/// with its line feed; a last line past the end stops at the end).
fn line_range<'b>(bytes: &'b [u8], range: &str) -> Result<&'b [u8], Unreadable> {
    let unsupported = || Unreadable::RangeSyntax(range.to_owned());
    let numbers = range.strip_prefix('L').ok_or_else(unsupported)?;
    let (first, last) = numbers.split_once('-').unwrap_or((numbers, numbers));
    let number = |text: &str| -> Result<usize, Unreadable> {
        if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(unsupported());
        }
        text.parse().map_err(|_| unsupported())
    };
    let (first, last) = (number(first)?, number(last)?);
    if first == 0 || last < first {
        return Err(Unreadable::RangeEmpty(range.to_owned()));
    }
    // Byte offsets of the start of every line, and the end.
    let mut starts = vec![0];
    starts.extend(
        bytes
            .iter()
            .enumerate()
            .filter(|(_, byte)| **byte == b'\n')
            .map(|(index, _)| index + 1)
            .filter(|&start| start < bytes.len()),
    );
    let lines = starts.len();
    if bytes.is_empty() || first > lines {
        return Err(Unreadable::RangePastEnd {
            range: range.to_owned(),
            lines,
        });
    }
    let from = starts.get(first - 1).copied().unwrap_or(bytes.len());
    let to = starts.get(last).copied().unwrap_or(bytes.len());
    bytes.get(from..to).ok_or_else(unsupported)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(uri: &str, range: Option<&str>, digest: &str) -> Provenance {
        Provenance {
            kind: "file".into(),
            uri: Some(uri.into()),
            range: range.map(str::to_owned),
            digest: Some(digest.into()),
            method: None,
            by: None,
        }
    }

    #[test]
    fn ranges_address_whole_lines() {
        let text = b"one\ntwo\nthree\n";
        assert_eq!(line_range(text, "L2").unwrap(), b"two\n");
        assert_eq!(line_range(text, "L2-3").unwrap(), b"two\nthree\n");
        assert_eq!(line_range(text, "L1-40").unwrap(), text);
        assert_eq!(line_range(b"a\nb", "L2").unwrap(), b"b");
        assert!(line_range(text, "L4").is_err());
        assert!(line_range(text, "L0").is_err());
        assert!(line_range(text, "L3-2").is_err());
        assert!(line_range(text, "lines 1-2").is_err());
        assert!(line_range(text, "L1-").is_err());
    }

    #[test]
    fn file_uris_decode_percent_escapes_and_refuse_bad_ones() {
        assert_eq!(
            local_path("file:///tmp/a%20b%C3%A9.md"),
            Ok(PathBuf::from("/tmp/a bé.md"))
        );
        assert_eq!(local_path("file://localhost/x"), Ok(PathBuf::from("/x")));
        for bad in ["file:///a%2", "file:///a%zz", "file:///%"] {
            assert_eq!(
                local_path(bad).map_err(|e| e.to_string()),
                Err(format!("`{bad}` has a bad percent escape"))
            );
        }
        assert_eq!(
            local_path("file:///a%FF").map_err(|e| e.to_string()),
            Err("`file:///a%FF` is not UTF-8".to_owned())
        );
        assert!(local_path("file://elsewhere/x").is_err());
        assert!(local_path("https://x/y").is_err());
    }

    #[test]
    fn a_local_file_is_rehashed() {
        let dir_scratch = cgp_test_support::Scratch::new("reread");
        let dir = dir_scratch.path().to_path_buf();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a b.md");
        std::fs::write(&path, "one\ntwo\n").unwrap();
        let uri = format!("file://{}", dir.join("a%20b.md").display());
        let whole = cgp_schema::digest::of(b"one\ntwo\n");
        assert_eq!(reread(&link(&uri, None, &whole)), Reread::Matches);
        let second = cgp_schema::digest::of(b"two\n");
        assert_eq!(reread(&link(&uri, Some("L2"), &second)), Reread::Matches);
        assert_eq!(
            reread(&link(&uri, Some("L1"), &second)),
            Reread::Differs {
                actual: cgp_schema::digest::of(b"one\n")
            }
        );
        let localhost = uri.replacen("file://", "file://localhost", 1);
        assert_eq!(reread(&link(&localhost, None, &whole)), Reread::Matches);
        for unchecked in [
            format!("file://{}", dir.join("missing.md").display()),
            format!("file://{}", dir.display()),
            "file://example.com/etc/hosts".to_owned(),
            "https://example.com/a.md".to_owned(),
            "file:///dev/zero".to_owned(),
            "file:///dev/stdin".to_owned(),
        ] {
            assert!(
                matches!(
                    reread(&link(&unchecked, None, &whole)),
                    Reread::Unchecked(_)
                ),
                "{unchecked}"
            );
        }
        // A named pipe is not opened (that would wait for a writer).
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let uri = format!("file://{}", fifo.display());
            assert!(matches!(
                reread(&link(&uri, None, &whole)),
                Reread::Unchecked(_)
            ));
        }
    }
}
