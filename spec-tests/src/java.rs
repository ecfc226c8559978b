//! The generated Java package (`generated/java`): its jar built with Maven
//! (`mvn -B -q package`, once per content of the package, in a copy under
//! `target/java-package/`, Maven's downloads in `target/peers/m2`), then its
//! `Harness` main class fed any number of messages through one `java`
//! process, speaking the harness protocol: one JSON case per line in, one
//! answer per line out.

use crate::Outcome;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The local Maven repository every Java test shares, under `target/`.
pub fn maven_repository() -> PathBuf {
    crate::peers::dir().join("m2")
}

/// `mvn -B -q` with the shared local repository: nothing written outside
/// `target/`.
pub fn mvn_command() -> Command {
    let mut command = Command::new("mvn");
    command.arg("-B").arg("-q").arg(format!(
        "-Dmaven.repo.local={}",
        maven_repository().display()
    ));
    command
}

fn home() -> cgp_codegen::home::Home {
    cgp_codegen::home::Home::read(&cgp_test_support::repo()).expect("the home")
}

/// The Maven groupId the package is published under.
pub fn maven_group() -> String {
    home().maven_group()
}

/// The Java package of the generated sources.
pub fn java_package() -> String {
    cgp_codegen::java::java_package(&home())
}

/// The harness's main class.
pub fn harness_class() -> String {
    format!("{}.{}", java_package(), cgp_codegen::java::HARNESS_CLASS)
}

/// The built jar, built on first use.
pub fn jar() -> Result<&'static Path, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(build)
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

/// Every file of the project but a build's `target/`, sorted, relative to
/// `dir`.
pub fn project_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|error| format!("{}: {error}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            if entry == root.join("target") {
                continue;
            }
            project_files(root, &entry, out)?;
        } else if let Ok(relative) = entry.strip_prefix(root) {
            out.push(relative.to_owned());
        }
    }
    Ok(())
}

/// Copies the project `from` (without a build's `target/`) to `to`.
pub fn copy_project(from: &Path, to: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    project_files(from, from, &mut files)?;
    for file in files {
        let target = to.join(&file);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|error| format!("{}: {error}", parent.display()))?;
        }
        std::fs::copy(from.join(&file), &target)
            .map_err(|error| format!("{}: {error}", target.display()))?;
    }
    Ok(())
}

/// Fills the shared local repository with every plugin (and plugin
/// dependency) a user's build of the package and of a consumer uses:
/// `package` (compiler, resources, surefire with JUnit, jar), `install` and
/// `dependency:build-classpath`, so a copy of it serves an offline build.
/// Done once per set of pinned versions (a marker file in the repository).
pub fn fetch_plugins() -> Result<(), String> {
    let pins = format!(
        "{:?} {}",
        cgp_codegen::java::PLUGINS,
        cgp_codegen::java::JUNIT
    );
    let digest = cgp_schema::digest::of(pins.as_bytes());
    let marker = maven_repository().join(format!(
        ".cgp-plugins-{}",
        digest
            .trim_start_matches("sha256:")
            .get(..16)
            .unwrap_or("pins")
    ));
    if marker.is_file() {
        return Ok(());
    }
    let project = cgp_test_support::repo().join(cgp_codegen::java::JAVA_DIR);
    let scratch = cgp_test_support::repo()
        .join("target/java-package")
        .join(format!("plugins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    copy_project(&project, &scratch)?;
    let output = mvn_command()
        .current_dir(&scratch)
        .args([
            "package",
            "install:help",
            "dependency:build-classpath",
            "-Dmdep.outputFile=target/classpath.txt",
        ])
        .output()
        .map_err(|error| format!("cannot run mvn ({error})"))?;
    let _ = std::fs::remove_dir_all(&scratch);
    if !output.status.success() {
        return Err(format!(
            "fetching the Maven plugins failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    std::fs::write(&marker, pins).map_err(|error| format!("{}: {error}", marker.display()))
}

/// Builds the jar into `target/java-package/<digest>/cgp-types.jar`, unless a
/// build of exactly these files is there; Maven builds (and tests) a copy,
/// so `generated/java` never holds a `target/`.
fn build() -> Result<PathBuf, String> {
    let project = cgp_test_support::repo().join(cgp_codegen::java::JAVA_DIR);
    let mut files = Vec::new();
    project_files(&project, &project, &mut files)?;
    let mut contents = Vec::new();
    for file in &files {
        contents.extend(file.display().to_string().into_bytes());
        let path = project.join(file);
        contents
            .extend(std::fs::read(&path).map_err(|error| format!("{}: {error}", path.display()))?);
    }
    let digest = cgp_schema::digest::of(&contents);
    let builds = cgp_test_support::repo().join("target/java-package");
    let out = builds.join(
        digest
            .trim_start_matches("sha256:")
            .get(..16)
            .unwrap_or("build"),
    );
    let jar = out.join("cgp-types.jar");
    if jar.is_file() {
        return Ok(jar);
    }
    let scratch = builds.join(format!("building-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    copy_project(&project, &scratch)?;
    let output = mvn_command()
        .current_dir(&scratch)
        .arg("package")
        .output()
        .map_err(|error| {
            format!("cannot run mvn ({error}); install Maven and a JDK 17 or later to test the Java package")
        })?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(format!(
            "mvn package rejects generated/java:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let built = std::fs::read_dir(scratch.join("target"))
        .map_err(|error| format!("{}: {error}", scratch.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .find(|path| path.extension().is_some_and(|ext| ext == "jar"))
        .ok_or("mvn package wrote no jar")?;
    std::fs::create_dir_all(&out).map_err(|error| format!("{}: {error}", out.display()))?;
    if std::fs::rename(&built, &jar).is_err() && !jar.is_file() {
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(format!("cannot move the jar into {}", out.display()));
    }
    let _ = std::fs::remove_dir_all(&scratch);
    Ok(jar)
}

/// `java` running the package's harness from the built jar.
fn harness_command() -> Result<Command, String> {
    let mut command = Command::new("java");
    command.arg("-cp").arg(jar()?).arg(harness_class());
    Ok(command)
}

/// Each message decoded (as a stdio line, or as an HTTP body when `http`) and
/// re-encoded by the Java package, through its harness ([`crate::harness`]).
pub fn decode(messages: &[String], http: bool) -> Result<Vec<Outcome>, String> {
    crate::harness::decode(harness_command()?, messages, http)
}

/// As [`decode`], for messages of any bytes (sent as `input_base64`).
pub fn decode_bytes(messages: &[Vec<u8>], http: bool) -> Result<Vec<Outcome>, String> {
    crate::harness::decode_bytes(harness_command()?, messages, http)
}

/// `java` ready to run the bench's `cgpbench.CgpThroughput`
/// (`spec-tests/peers/java/`): compiled once per content against the
/// package's jar and Jackson databind, whose jars `mvn
/// dependency:build-classpath` resolves into the shared repository. The
/// caller adds the transcript and the number of rounds.
pub fn throughput() -> Result<Command, String> {
    static BUILT: OnceLock<Result<String, String>> = OnceLock::new();
    let classpath = BUILT.get_or_init(build_throughput).clone()?;
    let mut command = Command::new("java");
    command
        .arg("-cp")
        .arg(classpath)
        .arg("cgpbench.CgpThroughput");
    Ok(command)
}

/// The classpath of the bench program, built under
/// `target/java-bench/<digest>/` unless a build of exactly these sources and
/// this jar is there.
fn build_throughput() -> Result<String, String> {
    let jar = jar()?;
    let sources = cgp_test_support::repo().join("spec-tests/peers/java");
    let names = ["pom.xml", "BenchTypes.java", "CgpThroughput.java"];
    let mut contents = jar.display().to_string().into_bytes();
    for name in names {
        let path = sources.join(name);
        contents
            .extend(std::fs::read(&path).map_err(|error| format!("{}: {error}", path.display()))?);
    }
    let digest = cgp_schema::digest::of(&contents);
    let out = cgp_test_support::repo().join("target/java-bench").join(
        digest
            .trim_start_matches("sha256:")
            .get(..16)
            .unwrap_or("build"),
    );
    let dependencies = out.join("classpath.txt");
    let classes = out.join("classes");
    if !classes.join("cgpbench/CgpThroughput.class").is_file() {
        std::fs::create_dir_all(&out).map_err(|error| format!("{}: {error}", out.display()))?;
        std::fs::copy(sources.join("pom.xml"), out.join("pom.xml"))
            .map_err(|error| format!("{}: {error}", out.display()))?;
        let resolved = mvn_command()
            .current_dir(&out)
            .arg("dependency:build-classpath")
            .arg(format!("-Dmdep.outputFile={}", dependencies.display()))
            .output()
            .map_err(|error| format!("cannot run mvn ({error})"))?;
        if !resolved.status.success() {
            return Err(format!(
                "resolving Jackson databind failed:\n{}{}",
                String::from_utf8_lossy(&resolved.stdout),
                String::from_utf8_lossy(&resolved.stderr)
            ));
        }
        let databind = std::fs::read_to_string(&dependencies)
            .map_err(|error| format!("{}: {error}", dependencies.display()))?;
        let compiled = Command::new("javac")
            .arg("-d")
            .arg(&classes)
            .arg("-cp")
            .arg(format!("{}:{}", jar.display(), databind.trim()))
            .arg(sources.join("BenchTypes.java"))
            .arg(sources.join("CgpThroughput.java"))
            .output()
            .map_err(|error| format!("cannot run javac ({error})"))?;
        if !compiled.status.success() {
            let _ = std::fs::remove_dir_all(&classes);
            return Err(format!(
                "javac rejects the Java bench:\n{}",
                String::from_utf8_lossy(&compiled.stderr)
            ));
        }
    }
    let databind = std::fs::read_to_string(&dependencies)
        .map_err(|error| format!("{}: {error}", dependencies.display()))?;
    Ok(format!(
        "{}:{}:{}",
        jar.display(),
        databind.trim(),
        classes.display()
    ))
}
