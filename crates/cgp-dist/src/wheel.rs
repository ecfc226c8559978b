//! The Python wheel (PEP 427, binary distribution format 1.0): the
//! executable under `NAME-VERSION.data/scripts/`, which pip installs into the
//! environment's `bin` (as maturin's `bin` bindings do); the man page and
//! completions under `.data/data/share/`, which pip installs under the
//! environment's prefix; and the `.dist-info` metadata, with a RECORD of
//! every file's SHA-256 and size.

use crate::Inputs;
use sha2::{Digest, Sha256};
use std::io::{Cursor, Write};
use zip::result::ZipError;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

/// The wheel's file name and bytes.
pub fn build(inputs: &Inputs) -> Result<(String, Vec<u8>), crate::DistError> {
    let distribution = crate::PYTHON_NAME.replace('-', "_");
    let version = &inputs.version;
    let tag = format!("py3-none-{}", inputs.platform.wheel_tag(&inputs.binary));
    let data = format!("{distribution}-{version}.data");
    let info = format!("{distribution}-{version}.dist-info");
    let metadata = format!(
        "Metadata-Version: 2.1\nName: {}\nVersion: {version}\nSummary: {}\nLicense: {}\nKeywords: contextgraph,cgp,validator,conformance\n\n{}\n",
        crate::PYTHON_NAME,
        crate::SUMMARY,
        crate::LICENSE,
        "Installs the `cgp` executable: validate Context Graph Protocol transcripts (`cgp validate`) and check live providers over stdio or HTTP(S) (`cgp check`)."
    );
    let wheel = format!(
        "Wheel-Version: 1.0\nGenerator: cgp-dist {}\nRoot-Is-Purelib: false\nTag: {tag}\n",
        env!("CARGO_PKG_VERSION")
    );
    let files: Vec<(String, &[u8], u32)> = vec![
        (
            format!("{data}/scripts/{}", inputs.platform.executable()),
            &inputs.binary,
            0o755,
        ),
        (
            format!("{data}/data/share/man/man1/cgp.1"),
            &inputs.man,
            0o644,
        ),
        (
            format!("{data}/data/share/bash-completion/completions/cgp"),
            &inputs.bash,
            0o644,
        ),
        (
            format!("{data}/data/share/zsh/site-functions/_cgp"),
            &inputs.zsh,
            0o644,
        ),
        (
            format!("{data}/data/share/fish/vendor_completions.d/cgp.fish"),
            &inputs.fish,
            0o644,
        ),
        (format!("{info}/METADATA"), metadata.as_bytes(), 0o644),
        (format!("{info}/WHEEL"), wheel.as_bytes(), 0o644),
    ];
    let mut record = String::new();
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (path, bytes, mode) in &files {
        record.push_str(&format!(
            "{path},sha256={},{}\n",
            urlsafe_base64(&Sha256::digest(bytes)),
            bytes.len()
        ));
        zip.start_file(path.as_str(), options(*mode))?;
        zip.write_all(bytes).map_err(ZipError::from)?;
    }
    let record_path = format!("{info}/RECORD");
    record.push_str(&format!("{record_path},,\n"));
    zip.start_file(record_path.as_str(), options(0o644))?;
    zip.write_all(record.as_bytes()).map_err(ZipError::from)?;
    let bytes = zip.finish()?.into_inner();
    Ok((format!("{distribution}-{version}-{tag}.whl"), bytes))
}

/// Deflated, at the zip epoch (1980-01-01), with a Unix mode.
fn options(mode: u32) -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::default())
        .unix_permissions(mode)
}

/// RFC 4648 §5 base64 without padding, as RECORD wants hashes.
fn urlsafe_base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_is_urlsafe_and_unpadded() {
        assert_eq!(urlsafe_base64(b""), "");
        assert_eq!(urlsafe_base64(b"f"), "Zg");
        assert_eq!(urlsafe_base64(b"fo"), "Zm8");
        assert_eq!(urlsafe_base64(b"foo"), "Zm9v");
        assert_eq!(urlsafe_base64(&[0xfb, 0xff]), "-_8");
    }
}
