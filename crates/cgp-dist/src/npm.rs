//! The npm packages, in the pattern esbuild and biome use: a launcher
//! package whose `bin/cgp.js` runs the binary of the platform package npm
//! installed (one `optionalDependencies` entry per platform, each package
//! restricted by `os` and `cpu`, so npm fetches only the matching one), and
//! the platform package of this machine. The launcher carries the man page
//! and the completions. Each is a tarball as `npm pack` writes it
//! (`package/…`), with fixed times and owners.

use crate::Inputs;
use crate::platform::{PLATFORMS, Platform};
use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::{Map, Value, json};

/// The time npm itself gives every entry of a packed tarball (1985-10-26).
const NPM_MTIME: u64 = 499_162_500;

/// The launcher's tarball and this platform's, as (file name, bytes).
pub fn build(inputs: &Inputs) -> Result<Vec<(String, Vec<u8>)>, crate::DistError> {
    let version = &inputs.version;
    let launcher = launcher_manifest(version);
    let platform = platform_manifest(inputs.platform, version);
    let launcher_files: Vec<(&str, Vec<u8>, u32)> = vec![
        ("package.json", pretty(&launcher)?, 0o644),
        ("README.md", readme(version).into_bytes(), 0o644),
        ("bin/cgp.js", launcher_script().into_bytes(), 0o755),
        ("man/cgp.1", inputs.man.clone(), 0o644),
        ("completions/cgp.bash", inputs.bash.clone(), 0o644),
        ("completions/_cgp", inputs.zsh.clone(), 0o644),
        ("completions/cgp.fish", inputs.fish.clone(), 0o644),
    ];
    let binary = format!("bin/{}", inputs.platform.executable());
    let platform_files: Vec<(&str, Vec<u8>, u32)> = vec![
        ("package.json", pretty(&platform)?, 0o644),
        (binary.as_str(), inputs.binary.clone(), 0o755),
    ];
    Ok(vec![
        (
            format!("{}-{version}.tgz", crate::NPM_NAME),
            tarball(&launcher_files)?,
        ),
        (
            format!("{}-{version}.tgz", inputs.platform.npm_package()),
            tarball(&platform_files)?,
        ),
    ])
}

/// The launcher's `package.json`: bin `cgp`, every platform package as an
/// optional dependency of exactly this version.
pub fn launcher_manifest(version: &str) -> Value {
    let optional: Map<String, Value> = PLATFORMS
        .iter()
        .map(|platform| (platform.npm_package(), json!(version)))
        .collect();
    json!({
        "name": crate::NPM_NAME,
        "version": version,
        "description": crate::SUMMARY,
        "license": crate::LICENSE,
        "bin": {"cgp": "bin/cgp.js"},
        "man": ["man/cgp.1"],
        "files": ["bin", "man", "completions", "README.md"],
        "engines": {"node": ">=16"},
        "optionalDependencies": optional,
    })
}

/// A platform package's `package.json`: its binary, for one `os` and `cpu`.
pub fn platform_manifest(platform: &Platform, version: &str) -> Value {
    json!({
        "name": platform.npm_package(),
        "version": version,
        "description": format!("The {} {} binary of {}", platform.node_os, platform.node_cpu, crate::NPM_NAME),
        "license": crate::LICENSE,
        "os": [platform.node_os],
        "cpu": [platform.node_cpu],
        "files": ["bin"],
        "preferUnplugged": true,
    })
}

fn readme(version: &str) -> String {
    format!(
        "# {name} {version}\n\n{summary}\n\n`npm install --save-dev {name}` then `npx cgp --help`. The binary comes from the optional dependency for your platform ({platforms}); `CGP_BINARY_PATH` points the launcher at another `cgp`. Man page: `man/cgp.1`; completions for bash, zsh and fish: `completions/`.\n",
        name = crate::NPM_NAME,
        summary = crate::SUMMARY,
        platforms = PLATFORMS
            .iter()
            .map(Platform::npm_package)
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// `bin/cgp.js`: finds the platform package's binary and runs it with the
/// same arguments, standard streams and exit status.
fn launcher_script() -> String {
    let table: Vec<String> = PLATFORMS
        .iter()
        .map(|platform| {
            format!(
                "  \"{} {}\": [\"{}\", \"{}\"],",
                platform.node_os,
                platform.node_cpu,
                platform.npm_package(),
                platform.executable()
            )
        })
        .collect();
    format!(
        r#"#!/usr/bin/env node
// Runs the cgp binary of the platform package npm installed for this machine.
"use strict";
const {{ spawnSync }} = require("child_process");

const PACKAGES = {{
{table}
}};

function binary() {{
  if (process.env.CGP_BINARY_PATH) {{
    return process.env.CGP_BINARY_PATH;
  }}
  const key = `${{process.platform}} ${{process.arch}}`;
  const entry = PACKAGES[key];
  if (!entry) {{
    throw new Error(`no cgp binary is published for ${{key}}; build it with cargo install cgp-cli`);
  }}
  const [name, executable] = entry;
  try {{
    return require.resolve(`${{name}}/bin/${{executable}}`);
  }} catch (error) {{
    throw new Error(
      `the package ${{name}} is not installed; reinstall without --no-optional (or --omit=optional)`,
    );
  }}
}}

let path;
try {{
  path = binary();
}} catch (error) {{
  process.stderr.write(`cgp: ${{error.message}}\n`);
  process.exit(2);
}}
const result = spawnSync(path, process.argv.slice(2), {{ stdio: "inherit" }});
if (result.error) {{
  process.stderr.write(`cgp: cannot run ${{path}}: ${{result.error.message}}\n`);
  process.exit(2);
}}
if (result.signal) {{
  process.kill(process.pid, result.signal);
}}
process.exit(result.status === null ? 2 : result.status);
"#,
        table = table.join("\n")
    )
}

fn pretty(value: &Value) -> Result<Vec<u8>, crate::DistError> {
    let mut bytes = serde_json::to_vec_pretty(value)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// A gzipped ustar archive of `files` under `package/`, as `npm pack` makes.
fn tarball(files: &[(&str, Vec<u8>, u32)]) -> Result<Vec<u8>, crate::DistError> {
    let failed = crate::DistError::Tarball;
    let mut sorted: Vec<&(&str, Vec<u8>, u32)> = files.iter().collect();
    sorted.sort_by_key(|(path, _, _)| *path);
    let mut archive = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::best()));
    for (path, bytes, mode) in sorted {
        let mut header = tar::Header::new_ustar();
        header.set_size(bytes.len() as u64);
        header.set_mode(*mode);
        header.set_mtime(NPM_MTIME);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        archive
            .append_data(&mut header, format!("package/{path}"), bytes.as_slice())
            .map_err(failed)?;
    }
    archive
        .into_inner()
        .and_then(GzEncoder::finish)
        .map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launcher_depends_on_every_platform_package_at_its_version() {
        let manifest = launcher_manifest("9.8.7");
        assert_eq!(manifest["bin"]["cgp"], "bin/cgp.js");
        let optional = manifest["optionalDependencies"]
            .as_object()
            .expect("an object");
        assert_eq!(optional.len(), PLATFORMS.len());
        assert!(optional.values().all(|version| version == "9.8.7"));
        let script = launcher_script();
        for platform in &PLATFORMS {
            assert!(script.contains(&platform.npm_package()));
            let manifest = platform_manifest(platform, "9.8.7");
            assert_eq!(manifest["os"][0], platform.node_os);
            assert_eq!(manifest["cpu"][0], platform.node_cpu);
        }
    }
}
