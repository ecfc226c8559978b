//! How codegen and check grow with the schema: synthetic trees that hold every
//! schema file `factor` times over, renamed so that they stay distinct.

use crate::BenchError;
use crate::external::cut;
use crate::io_error;
use crate::measure::timed;
use crate::report::SchemaRun;
use cgp_check::Validator;
use cgp_schema::SchemaSet;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Times the `xtask` binary's codegen, then check, on a [`scaled_tree`] of each
/// factor under `work`: the best of `rounds` runs each.
pub fn schema_scaling(
    repo: &Path,
    work: &Path,
    xtask: &Path,
    factors: &[usize],
    rounds: usize,
) -> Result<Vec<SchemaRun>, BenchError> {
    let mut runs = Vec::new();
    for &factor in factors {
        let tree = work.join(format!("schema-x{factor}"));
        let _ = std::fs::remove_dir_all(&tree);
        let (files, bytes) = scaled_tree(repo, &tree, factor)?;
        let mut codegen = Command::new(xtask);
        codegen.arg("--root").arg(&tree).arg("codegen");
        let (codegen_seconds, output) = timed(&mut codegen, rounds)?;
        if !output.status.success() {
            return Err(BenchError::from(format!(
                "xtask codegen on the {factor}x schema failed: {}",
                cut(&String::from_utf8_lossy(&output.stderr))
            )));
        }
        let mut check = Command::new(xtask);
        check.arg("--root").arg(&tree).arg("check");
        let (check_seconds, output) = timed(&mut check, rounds)?;
        runs.push(SchemaRun {
            factor,
            files,
            bytes,
            codegen: codegen_seconds,
            check: check_seconds,
            failed_gates: failed_gates(&String::from_utf8_lossy(&output.stderr)),
        });
        let _ = std::fs::remove_dir_all(&tree);
    }
    Ok(runs)
}

/// The gates `cargo xtask check` reports failed, from its `FAIL <gate>` lines.
fn failed_gates(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|line| line.strip_prefix("FAIL "))
        .map(|gate| gate.trim().to_owned())
        .collect()
}

/// Writes a tree `xtask --root` accepts under `dest`: SPEC.md, Cargo.toml, the hand-written
/// types' sources, and `schema/` with `factor` copies of every file but the
/// envelope. Copy `k` (from 2) of `types/frame-id.schema.json` is
/// `types/frame-id-x<k>.schema.json`, titled `FrameIdX<k>`, its `$ref`s and
/// `$defs` renamed to match; copy `k` of each variant has the tag `<tag>_x<k>`
/// and is listed by the envelope, so every copy is reached and the loader's
/// lints hold. Factor 1 is a copy of every source of the real tree (not
/// `target/`), `generated/` and its release manifest among them. Returns the schema files and their size in bytes.
pub fn scaled_tree(repo: &Path, dest: &Path, factor: usize) -> Result<(usize, u64), BenchError> {
    if factor <= 1 {
        // Every source: the links gate follows the hand-written docs' links
        // anywhere in the repository.
        copy_dir(repo, dest)?;
    } else {
        copy_dir(
            &repo.join("crates/cgp-types/src"),
            &dest.join("crates/cgp-types/src"),
        )?;
        std::fs::copy(repo.join("SPEC.md"), dest.join("SPEC.md"))
            .map_err(|e| io_error(&repo.join("SPEC.md"), &e))?;
        // The workspace manifest declares the project's home, which codegen
        // derives the packages' metadata from.
        std::fs::copy(repo.join("Cargo.toml"), dest.join("Cargo.toml"))
            .map_err(|e| io_error(&repo.join("Cargo.toml"), &e))?;
        // The changelog gate holds CHANGELOG.md to the released versions.
        std::fs::copy(repo.join("CHANGELOG.md"), dest.join("CHANGELOG.md"))
            .map_err(|e| io_error(&repo.join("CHANGELOG.md"), &e))?;
        let sources = cgp_schema::source::read_schema_dir(&repo.join("schema"), "schema")
            .map_err(|problems| problems.to_string())?;
        let mut files: Vec<(String, Value)> = Vec::new();
        for (path, text) in &sources {
            let value: Value =
                serde_json::from_str(text).map_err(|error| format!("schema/{path}: {error}"))?;
            files.push((path.clone(), value));
        }
        let mut out: Vec<(String, Value)> = files.clone();
        for copy in 2..=factor {
            for (path, value) in &files {
                if path == ENVELOPE {
                    continue;
                }
                out.push((suffixed_path(path, copy), suffixed(value, copy, path)));
            }
        }
        if let Some((_, envelope)) = out.iter_mut().find(|(path, _)| path == ENVELOPE) {
            let variants: Vec<Value> = envelope
                .get("oneOf")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let mut all = variants.clone();
            for copy in 2..=factor {
                for variant in &variants {
                    let mut variant = variant.clone();
                    if let Some(Value::String(reference)) = variant.get_mut("$ref") {
                        *reference = suffixed_reference(reference, copy);
                    }
                    all.push(variant);
                }
            }
            if let Some(map) = envelope.as_object_mut() {
                map.insert("oneOf".into(), Value::Array(all));
            }
        }
        for (path, value) in &out {
            let target = dest.join("schema").join(path);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io_error(parent, &e))?;
            }
            let text = serde_json::to_string_pretty(value).unwrap_or_default() + "\n";
            std::fs::write(&target, text).map_err(|e| io_error(&target, &e))?;
        }
    }
    let written = cgp_schema::source::read_schema_dir(&dest.join("schema"), "schema")
        .map_err(|problems| problems.to_string())?;
    let bytes = written.iter().map(|(_, text)| text.len() as u64).sum();
    Ok((written.len(), bytes))
}

const ENVELOPE: &str = "envelope.schema.json";
const SUFFIX: &str = ".schema.json";

fn suffixed_path(path: &str, copy: usize) -> String {
    match path.strip_suffix(SUFFIX) {
        Some(stem) => format!("{stem}-x{copy}{SUFFIX}"),
        None => path.to_owned(),
    }
}

fn suffixed_reference(reference: &str, copy: usize) -> String {
    let (file, fragment) = reference.split_once('#').unwrap_or((reference, ""));
    let file = if file.is_empty() {
        String::new()
    } else {
        suffixed_path(file, copy)
    };
    let fragment = match fragment.strip_prefix("/$defs/") {
        Some(name) => format!("#/$defs/{name}X{copy}"),
        None if reference.contains('#') => format!("#{fragment}"),
        None => String::new(),
    };
    format!("{file}{fragment}")
}

fn suffixed(value: &Value, copy: usize, path: &str) -> Value {
    let mut value = value.clone();
    rename(&mut value, copy);
    if let Some(root) = value.as_object_mut() {
        if let Some(Value::String(id)) = root.get_mut("$id") {
            if let Some(base) = id.strip_suffix(path) {
                *id = format!("{base}{}", suffixed_path(path, copy));
            }
        }
        if let Some(Value::String(title)) = root.get_mut("title") {
            title.push_str(&format!("X{copy}"));
        }
        if let Some(Value::String(tag)) = root
            .get_mut("properties")
            .and_then(|properties| properties.get_mut("type"))
            .and_then(|tag| tag.get_mut("const"))
        {
            tag.push_str(&format!("_x{copy}"));
        }
    }
    value
}

/// Renames every `$ref` and `$defs` entry of a copy.
fn rename(value: &mut Value, copy: usize) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref") {
                *reference = suffixed_reference(reference, copy);
            }
            if let Some(Value::Object(defs)) = map.get_mut("$defs") {
                let renamed = std::mem::take(defs)
                    .into_iter()
                    .map(|(name, def)| (format!("{name}X{copy}"), def))
                    .collect();
                *defs = renamed;
            }
            for member in map.values_mut() {
                rename(member, copy);
            }
        }
        Value::Array(items) => {
            for item in items {
                rename(item, copy);
            }
        }
        _ => {}
    }
}

/// Copies a directory's sources: build output (`target/`), `.git` and
/// `node_modules` are left behind.
fn copy_dir(from: &Path, to: &Path) -> Result<(), BenchError> {
    std::fs::create_dir_all(to).map_err(|e| io_error(to, &e))?;
    for entry in std::fs::read_dir(from).map_err(|e| io_error(from, &e))? {
        let entry = entry.map_err(|e| io_error(from, &e))?;
        if matches!(
            entry.file_name().to_str(),
            Some("target" | ".git" | "node_modules")
        ) {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry
            .file_type()
            .map_err(|e| io_error(&entry.path(), &e))?
            .is_dir()
        {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target).map_err(|e| io_error(&entry.path(), &e))?;
        }
    }
    Ok(())
}

/// Loads and bundles a scaled tree: what `scaled_tree` wrote must pass the
/// loader's lints. Returns the number of envelope variants.
pub fn load_scaled(tree: &Path) -> Result<usize, BenchError> {
    let set = SchemaSet::load(&tree.join("schema"), "schema").map_err(|p| p.to_string())?;
    let bundle = set
        .bundle(cgp_schema::Profile::Interop)
        .map_err(|p| p.to_string())?;
    Validator::new(&bundle).map_err(|p| p.to_string())?;
    Ok(set.variants.len())
}
