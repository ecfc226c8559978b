//! `cgp_dist::pack` on stand-in inputs: the wheel lists every file in RECORD
//! with its true SHA-256 and size and installs the executable as a script,
//! the npm tarballs hold `package/…` with the launcher and the binary, every
//! artifact carries the version, and packing twice gives the same bytes.

use cgp_dist::platform::PLATFORMS;
use cgp_dist::{Inputs, pack};
use flate2::read::GzDecoder;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

fn inputs() -> Inputs {
    Inputs {
        version: "3.2.1".into(),
        platform: &PLATFORMS[0],
        binary: b"\x7fELF stand-in GLIBC_2.28\0".to_vec(),
        man: b".TH cgp 1 \"cgp 3.2.1\"\n".to_vec(),
        bash: b"complete -F _cgp cgp\n".to_vec(),
        zsh: b"#compdef cgp\n".to_vec(),
        fish: b"complete -c cgp\n".to_vec(),
    }
}

fn out(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pack-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn unzip(bytes: &[u8]) -> BTreeMap<String, (Vec<u8>, Option<u32>)> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    let mut files = BTreeMap::new();
    for index in 0..archive.len() {
        let mut file = archive.by_index(index).expect("an entry");
        let mut content = Vec::new();
        file.read_to_end(&mut content).expect("read");
        files.insert(file.name().to_owned(), (content, file.unix_mode()));
    }
    files
}

fn untar(bytes: &[u8]) -> BTreeMap<String, (Vec<u8>, u32)> {
    let mut archive = tar::Archive::new(GzDecoder::new(bytes));
    let mut files = BTreeMap::new();
    for entry in archive.entries().expect("a tarball") {
        let mut entry = entry.expect("an entry");
        let path = entry.path().expect("a path").display().to_string();
        let mode = entry.header().mode().expect("a mode");
        let mut content = Vec::new();
        entry.read_to_end(&mut content).expect("read");
        files.insert(path, (content, mode));
    }
    files
}

/// RECORD's hashes: RFC 4648 §5 base64 without padding.
fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn the_wheel_and_the_npm_tarballs_hold_what_they_should() {
    let dir = out("contents");
    let written = pack(&inputs(), &dir).expect("packed");
    let names: Vec<String> = written
        .iter()
        .map(|path| {
            path.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "cgp_cli-3.2.1-py3-none-manylinux_2_28_x86_64.whl",
            "cgp-cli-3.2.1.tgz",
            "cgp-cli-linux-x64-3.2.1.tgz",
        ]
    );
    let wheel = unzip(&std::fs::read(&written[0]).expect("the wheel"));
    let script = &wheel["cgp_cli-3.2.1.data/scripts/cgp"];
    assert_eq!(script.0, inputs().binary);
    assert_eq!(script.1.map(|mode| mode & 0o777), Some(0o755));
    for shared in [
        "man/man1/cgp.1",
        "bash-completion/completions/cgp",
        "zsh/site-functions/_cgp",
        "fish/vendor_completions.d/cgp.fish",
    ] {
        assert!(
            wheel.contains_key(&format!("cgp_cli-3.2.1.data/data/share/{shared}")),
            "{shared}"
        );
    }
    let info = |name: &str| {
        String::from_utf8(wheel[&format!("cgp_cli-3.2.1.dist-info/{name}")].0.clone())
            .expect("UTF-8")
    };
    assert!(info("METADATA").contains("Name: cgp-cli\nVersion: 3.2.1\n"));
    assert!(info("WHEEL").contains("Tag: py3-none-manylinux_2_28_x86_64\n"));
    let record = info("RECORD");
    let mut listed = 0;
    for line in record.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 3, "{line}");
        if fields[0].ends_with("/RECORD") {
            assert_eq!(&fields[1..], ["", ""]);
            continue;
        }
        let content = &wheel[fields[0]].0;
        assert_eq!(
            fields[1],
            format!("sha256={}", base64(&Sha256::digest(content)))
        );
        assert_eq!(fields[2], content.len().to_string());
        listed += 1;
    }
    assert_eq!(listed + 1, wheel.len(), "RECORD lists every file");

    let launcher = untar(&std::fs::read(&written[1]).expect("launcher"));
    let manifest: serde_json::Value =
        serde_json::from_slice(&launcher["package/package.json"].0).expect("JSON");
    assert_eq!(manifest["version"], "3.2.1");
    assert_eq!(
        manifest["optionalDependencies"]["cgp-cli-linux-x64"],
        "3.2.1"
    );
    assert_eq!(launcher["package/bin/cgp.js"].1 & 0o777, 0o755);
    for file in [
        "package/man/cgp.1",
        "package/completions/cgp.bash",
        "package/completions/_cgp",
        "package/completions/cgp.fish",
    ] {
        assert!(launcher.contains_key(file), "{file}");
    }
    let platform = untar(&std::fs::read(&written[2]).expect("platform"));
    assert_eq!(platform["package/bin/cgp"].0, inputs().binary);
    assert_eq!(platform["package/bin/cgp"].1 & 0o777, 0o755);
    let manifest: serde_json::Value =
        serde_json::from_slice(&platform["package/package.json"].0).expect("JSON");
    assert_eq!(
        (
            manifest["name"].as_str(),
            manifest["version"].as_str(),
            manifest["os"][0].as_str(),
            manifest["cpu"][0].as_str()
        ),
        (
            Some("cgp-cli-linux-x64"),
            Some("3.2.1"),
            Some("linux"),
            Some("x64")
        )
    );
}

#[test]
fn packing_is_deterministic() {
    let first = pack(&inputs(), &out("first")).expect("packed");
    let second = pack(&inputs(), &out("second")).expect("packed");
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            std::fs::read(a).expect("read"),
            std::fs::read(b).expect("read"),
            "{}",
            a.display()
        );
    }
}
