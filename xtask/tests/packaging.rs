//! The published crates package on their own: `cargo package` lists, for
//! each, the files it ships, and every file it compiles in is among them (a
//! packaged crate cannot reach outside its directory). `cargo xtask package`
//! packages and verifies exactly the crates whose manifests allow publishing, as
//! README says.

mod support;

use std::collections::BTreeSet;
use std::process::Command;

fn packaged_files(krate: &str) -> Vec<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            krate,
        ])
        .current_dir(support::repo())
        .output()
        .expect("run cargo package --list");
    assert!(
        output.status.success(),
        "cargo package --list -p {krate} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The crates published, and what `cargo package` needs of their manifests:
/// `publish` allowed and a version on every path dependency they ship with.
/// Each with the directory that holds its manifest: the validator cgp-cli
/// embeds is generated, so it lives under `generated/`.
const PUBLISHED: [(&str, &str); 11] = [
    ("cgp-types", "crates/cgp-types"),
    ("cgp-schema", "crates/cgp-schema"),
    ("cgp-check", "crates/cgp-check"),
    ("cgp-classify", "crates/cgp-classify"),
    ("cgp-conformance", "crates/cgp-conformance"),
    ("cgp-report", "crates/cgp-report"),
    ("cgp-vectors", "crates/cgp-vectors"),
    ("cgp-validator", "generated/validator"),
    ("cgp-mock", "crates/cgp-mock"),
    ("cgp-proxy", "crates/cgp-proxy"),
    ("cgp-cli", "crates/cgp-cli"),
];

#[test]
fn published_manifests_can_be_packaged() {
    for (krate, dir) in PUBLISHED {
        let path = support::repo().join(dir).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path).expect("read the manifest");
        assert!(
            manifest.lines().any(|line| line.trim() == "publish = true"),
            "{krate}: `publish = true` missing"
        );
        let mut section = "";
        for line in manifest.lines() {
            if line.starts_with('[') {
                section = line;
            } else if section == "[dependencies]" && line.contains("path =") {
                assert!(
                    line.contains("version ="),
                    "{krate}: a path dependency needs a version to package: {line}"
                );
            }
        }
    }
}

#[test]
fn each_published_crate_ships_what_it_embeds() {
    let cli = packaged_files("cgp-cli");
    assert!(cli.contains(&"bundles/index.rs".to_owned()), "{cli:?}");
    assert!(cli.contains(&"vectors/index.rs".to_owned()), "{cli:?}");
    let published = std::fs::read_dir(support::repo().join("generated/schema"))
        .expect("generated/schema")
        .filter_map(|entry| {
            let entry = entry.ok()?;
            entry.file_type().ok()?.is_dir().then(|| entry.file_name())
        })
        .map(|name| name.to_string_lossy().into_owned())
        .collect::<Vec<_>>();
    assert!(!published.is_empty());
    for slug in &published {
        for profile in ["interop", "strict"] {
            let file = format!("bundles/{slug}/{profile}.schema.json");
            assert!(cli.contains(&file), "cgp-cli does not ship {file}");
        }
        let file = format!("vectors/{slug}/corpus.ndjson");
        assert!(cli.contains(&file), "cgp-cli does not ship {file}");
    }
    let types = packaged_files("cgp-types");
    assert!(
        types.contains(&"generated/protocol_version.rs".to_owned()),
        "{types:?}"
    );
    let schema = packaged_files("cgp-schema");
    assert!(schema.contains(&"src/lib.rs".to_owned()), "{schema:?}");
}

/// `cargo xtask package` builds and verifies (offline, each against the
/// packages of the others) the published crates and no other. It builds in a
/// directory of its own under `target/`, kept between runs: the running `cargo
/// test` may hold the lock of the workspace's.
#[test]
#[ignore = "full tier"]
fn exactly_the_published_crates_package_and_verify() {
    let target = std::fs::canonicalize(support::repo().join("target"))
        .expect("target/")
        .join("packaging");
    let packages = target.join("package");
    for entry in std::fs::read_dir(&packages).into_iter().flatten().flatten() {
        if entry.path().extension().is_some_and(|ext| ext == "crate") {
            std::fs::remove_file(entry.path()).expect("remove an earlier package");
        }
    }
    let output = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["package", "--", "--offline", "--allow-dirty"])
        .env("CARGO_TARGET_DIR", &target)
        .current_dir(support::repo())
        .output()
        .expect("run cargo xtask package");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let packaged: BTreeSet<String> = std::fs::read_dir(&packages)
        .expect("target/packaging/package")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".crate"))
        .collect();
    let version = env!("CARGO_PKG_VERSION");
    let expected: BTreeSet<String> = PUBLISHED
        .iter()
        .map(|(krate, _)| format!("{krate}-{version}.crate"))
        .collect();
    assert_eq!(packaged, expected);
    for (krate, _) in PUBLISHED {
        assert!(
            stderr.contains(&format!("Verifying {krate} v{version}")),
            "{stderr}"
        );
    }
}
