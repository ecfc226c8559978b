//! Full tier: every package target (the list `Language::ALL`, matched
//! exhaustively) installed the way its users install it (docs/packages.md),
//! each in a fresh environment in a temporary folder outside the repository,
//! then the conformance vectors through the installed artifact's own harness
//! with `cgp vectors run -- …`, as an implementer runs them:
//!
//! - Rust: a new crate depending on a copy of `generated/rust` by path
//!   (`cargo add --path`), built offline, decodes and re-encodes a line;
//! - Python: `pip install ./generated/python` into a new virtual environment,
//!   then `pip install "./generated/python[fast]"` (msgspec), the vectors
//!   after each; `python -m build`, `twine check` on both distributions and
//!   validate-pyproject on `pyproject.toml`;
//! - TypeScript: `npm install` and `npm pack` in a copy of the package (the
//!   `prepack` script builds `dist/`), the tarball installed into a new, empty
//!   npm project, a consumer compiled there with `tsc --strict` (module
//!   `nodenext`), then the vectors through the installed harness;
//! - Go: `go test ./...` in a copy of `generated/go` alone; the module served
//!   by a file `GOPROXY` at the tag codegen's version gives, fetched with
//!   `go get` into a new consumer module, whose build of `cmd/cgp-harness`
//!   passes the vectors;
//! - Java: `mvn install` in a copy of `generated/java` (its JUnit tests run
//!   the vectors) into a local repository in the temporary folder, then a new
//!   consumer Maven project depending on the installed artifact, whose small
//!   main decodes and encodes a line, and whose classpath runs the package's
//!   harness through the vectors.
//!
//! The only additions to the commands users type are what the test
//! environment needs: the shared caches under `target/peers`, a file `GOPROXY`
//! and `GOSUMDB=off`, and for Maven a local repository seeded with a copy of
//! `target/peers/m2` (the pinned plugins and JUnit), used offline.

use cgp_codegen::targets::Language;
use cgp_test_support::Scratch;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("{command:?} cannot run: {error}"));
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// A copy of the repository's `generated/<name>` at `scratch/generated/<name>`,
/// so each command runs as README writes it (`./generated/python`), away
/// from the repository.
fn copy_package(scratch: &Scratch, name: &str) -> PathBuf {
    let to = scratch.join("generated").join(name);
    cgp_test_support::copy_dir(&cgp_test_support::repo().join("generated").join(name), &to);
    to
}

/// `cgp vectors run --format json -- <harness…>` passes every case.
fn vectors_pass(harness: &[&str], dir: &Path, env: &[(&str, &str)]) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cgp"));
    command
        .args([
            "vectors",
            "run",
            "--format",
            "json",
            "--timeout",
            "60",
            "--",
        ])
        .args(harness)
        .current_dir(dir);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("cgp runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "{command:?}: no JSON report:\n{}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(output.status.code(), Some(0), "{command:?}: {report:#}");
    assert_eq!(report["failure"], serde_json::Value::Null, "{report:#}");
    assert_eq!(report["disagreement_count"], 0, "{report:#}");
    let cases = report["cases"].as_u64().expect("a count");
    assert!(cases > 1000, "{report:#}");
    assert_eq!(report["agreed"].as_u64(), Some(cases), "{report:#}");
}

/// The boundary of `cgp_types.read_lines`.
const PYTHON_LINES: &str = r#"
import io, cgp_types as t
limit = t.MAX_LINE_BYTES
lines = list(t.read_lines(io.BytesIO(b"a" * limit + b"\n" + b'{"type":"shutdown"}')))
shown = [str(len(lines[0])), t.decode_line(lines[1]).TYPE]
try:
    list(t.read_lines(io.BytesIO(b"b" * (limit + 1) + b"\n")))
except t.LineTooLong as refused:
    shown += ["refused", str(refused.limit)]
print(" ".join(shown))
"#;

/// Every target, one after the other (they share the machine's two cores).
#[test]
#[ignore = "full tier"]
fn every_package_installs_as_its_users_install_it() {
    for language in Language::ALL {
        match language {
            Language::Rust => the_rust_crate_is_a_path_dependency_of_a_new_crate(),
            Language::TypeScript => {
                the_typescript_tarball_installs_into_a_new_project_with_its_types_and_passes_the_vectors()
            }
            Language::Python => {
                the_python_package_installs_with_pip_and_passes_the_vectors_with_and_without_msgspec()
            }
            Language::Go => the_go_module_tests_itself_alone_and_a_consumer_fetches_it_with_go_get(),
            Language::Java => {
                the_java_package_installs_with_mvn_and_a_consumer_project_passes_the_vectors()
            }
        }
    }
}

/// The consumer of the typify crate: it decodes a line and writes it again.
const RUST_CONSUMER: &str = r##"fn main() {
    let line = r#"{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2}}"#;
    let envelope: cgp_generated::Envelope = serde_json::from_str(line).expect("decodes");
    match &envelope {
        cgp_generated::Envelope::Query { query, .. } => print!("{} ", query.goal),
        _ => panic!("not a query"),
    }
    print!("{}", serde_json::to_string(&envelope).expect("encodes"));
}
"##;

fn the_rust_crate_is_a_path_dependency_of_a_new_crate() {
    let scratch = Scratch::new("rust-install");
    let package = copy_package(&scratch, "rust");
    let consumer = scratch.join("consumer");
    let cargo = || {
        let mut command = Command::new(env!("CARGO"));
        command
            .current_dir(&consumer)
            // Shared with later runs: the dependencies build once.
            .env(
                "CARGO_TARGET_DIR",
                spec_tests::peers::dir().join("rust-consumer"),
            )
            .env("CARGO_NET_OFFLINE", "true");
        command
    };
    std::fs::create_dir_all(&consumer).expect("consumer");
    std::fs::write(
        consumer.join("Cargo.toml"),
        "[package]\nname = \"consumer\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )
    .expect("Cargo.toml");
    std::fs::create_dir_all(consumer.join("src")).expect("src");
    std::fs::write(consumer.join("src/main.rs"), RUST_CONSUMER).expect("main.rs");
    run(cargo()
        .args(["add", "--quiet", "cgp-generated", "--path"])
        .arg(&package));
    run(cargo().args(["add", "--quiet", "serde_json@1"]));
    let printed = run(cargo().args(["run", "--quiet"]));
    assert_eq!(
        stdout(&printed),
        r#"g {"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2}}"#
    );
}

fn the_python_package_installs_with_pip_and_passes_the_vectors_with_and_without_msgspec() {
    let scratch = Scratch::new("python-install");
    let package = copy_package(&scratch, "python");
    let venv = scratch.join("venv");
    run(Command::new("python3").arg("-m").arg("venv").arg(&venv));
    let python = venv.join("bin/python");
    let python_text = python.to_string_lossy().into_owned();
    let pip = |requirement: &str| {
        run(Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(requirement)
            .current_dir(scratch.path()));
    };
    let fast_path = || {
        stdout(&run(Command::new(&python)
            .args(["-c", "import cgp_types; print(cgp_types.FAST_PATH)"])
            .current_dir(scratch.path())))
    };
    pip("./generated/python");
    assert_eq!(fast_path(), "False", "no msgspec yet");
    let environment = [("PYTHONDONTWRITEBYTECODE", "1")];
    vectors_pass(
        &[&python_text, "-m", "cgp_types.harness"],
        scratch.path(),
        &environment,
    );
    // The bounded reader of the installed package: exactly 16 MiB is read,
    // one byte more refused with its own error.
    let boundary = run(Command::new(&python)
        .args(["-c", PYTHON_LINES])
        .current_dir(scratch.path()));
    assert_eq!(stdout(&boundary), "16777216 shutdown refused 16777216");
    pip("./generated/python[fast]");
    assert_eq!(fast_path(), "True", "msgspec is installed by the extra");
    vectors_pass(
        &[&python_text, "-m", "cgp_types.harness"],
        scratch.path(),
        &environment,
    );

    // The distributions: built, judged by twine, and the metadata validated.
    let tools =
        spec_tests::peers::ensure_packaging_tools().unwrap_or_else(|problem| panic!("{problem}"));
    run(Command::new(&tools)
        .args(["-m", "validate_pyproject"])
        .arg(package.join("pyproject.toml")));
    let dist = scratch.join("dist");
    run(Command::new(&tools)
        .args(["-m", "build", "--outdir"])
        .arg(&dist)
        .arg(&package));
    let mut built: Vec<String> = std::fs::read_dir(&dist)
        .expect("dist/")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    built.sort();
    assert_eq!(built.len(), 2, "an sdist and a wheel: {built:?}");
    assert!(
        built.iter().any(|name| name.ends_with("-py3-none-any.whl")),
        "{built:?}"
    );
    assert!(
        built.iter().any(|name| name.ends_with(".tar.gz")),
        "{built:?}"
    );
    let checked = run(Command::new(&tools)
        .args(["-m", "twine", "check", "--strict"])
        .args(built.iter().map(|name| dist.join(name))));
    let text = stdout(&checked);
    assert_eq!(text.matches("PASSED").count(), 2, "{text}");
    // The wheel's metadata carries the project's home.
    let metadata = run(Command::new(&python)
        .args([
            "-c",
            "import importlib.metadata as m; print('\\n'.join(m.metadata('cgp-types').get_all('Project-URL')))",
        ])
        .current_dir(scratch.path()));
    assert!(
        stdout(&metadata).contains("https://github.com/cgp-schema/cgp-schema"),
        "{}",
        stdout(&metadata)
    );
}

/// The consumer of the npm package: narrowing on `type` must type-check, and
/// a member of another variant must not (the `@ts-expect-error` fails the
/// build if the types were `any`).
const CONSUMER_TS: &str = r#"import { decodeEnvelope, encodeEnvelope, WireError, type Envelope } from "cgp-types";

function describe(envelope: Envelope): string {
  switch (envelope.type) {
    case "query":
      return `query ${envelope.query.goal} ${envelope.query.max_tokens}`;
    case "handshake":
      // @ts-expect-error a handshake has no query
      return envelope.query;
    default:
      return envelope.type;
  }
}

const envelope = decodeEnvelope('{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2}}');
let refused = false;
try {
  decodeEnvelope('{"type":"query"}');
} catch (error) {
  refused = error instanceof WireError;
}
console.log(`${describe(envelope)} ${encodeEnvelope(envelope).trim()} ${refused}`);
"#;

/// The boundary of `readLines`, over chunks that split the long line.
const TYPESCRIPT_LINES: &str = r#"import { decodeEnvelope, LineTooLongError, MAX_LINE_BYTES, readLines } from "cgp-types";
async function* chunks(...parts) { for (const part of parts) yield part; }
const fits = new Uint8Array(MAX_LINE_BYTES).fill(97);
const lines = [];
const tail = new TextEncoder().encode('\n{"type":"shutdown"}');
for await (const line of readLines(chunks(fits.subarray(0, 1000), fits.subarray(1000), tail))) lines.push(line);
const shown = [lines[0].length, decodeEnvelope(lines[1]).type];
try {
  for await (const _ of readLines(chunks(new Uint8Array(MAX_LINE_BYTES + 1).fill(98), new Uint8Array([10])))) {}
} catch (error) {
  if (error instanceof LineTooLongError) shown.push("refused", error.limit);
}
console.log(shown.join(" "));
"#;

fn the_typescript_tarball_installs_into_a_new_project_with_its_types_and_passes_the_vectors() {
    let compiler =
        spec_tests::peers::ensure_typescript().unwrap_or_else(|problem| panic!("{problem}"));
    let scratch = Scratch::new("typescript-install");
    let package = copy_package(&scratch, "typescript");
    // As the implementer does in the repository: install, then pack (the
    // prepack script builds dist/).
    run(Command::new("npm")
        .args([
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--silent",
        ])
        .current_dir(&package));
    let packed = run(Command::new("npm")
        .args(["pack", "--json", "--pack-destination"])
        .arg(scratch.path())
        .current_dir(&package));
    let listing: serde_json::Value = serde_json::from_slice(&packed.stdout).unwrap_or_else(|_| {
        panic!(
            "npm pack --json: {}",
            String::from_utf8_lossy(&packed.stdout)
        )
    });
    let files: Vec<&str> = listing[0]["files"]
        .as_array()
        .expect("the files of the tarball")
        .iter()
        .filter_map(|file| file["path"].as_str())
        .collect();
    for wanted in [
        "dist/index.js",
        "dist/index.d.ts",
        "dist/wire.js",
        "dist/wire.d.ts",
        "test/harness.mjs",
    ] {
        assert!(
            files.contains(&wanted),
            "{wanted} is not in the tarball: {files:?}"
        );
    }
    let tarball = scratch.join(listing[0]["filename"].as_str().expect("the tarball's name"));

    // A new, empty project: the tarball, nothing from the registry.
    let project = scratch.join("consumer");
    std::fs::create_dir_all(&project).expect("project");
    std::fs::write(
        project.join("package.json"),
        r#"{"name": "consumer", "version": "1.0.0", "private": true, "type": "module"}"#,
    )
    .expect("package.json");
    run(Command::new("npm")
        .args([
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--silent",
        ])
        .arg(&tarball)
        .current_dir(&project));
    std::fs::write(project.join("consumer.ts"), CONSUMER_TS).expect("consumer.ts");
    run(Command::new("node")
        .arg(compiler.join("typescript/bin/tsc"))
        .args([
            "--strict",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
            "--types",
            "",
            "consumer.ts",
        ])
        .current_dir(&project));
    let printed = run(Command::new("node")
        .arg("consumer.js")
        .current_dir(&project));
    assert_eq!(
        stdout(&printed),
        r#"query g 2 {"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2}} true"#
    );
    // The bounded reader of the installed package: exactly 16 MiB is read,
    // one byte more refused with its own error.
    std::fs::write(project.join("lines.mjs"), TYPESCRIPT_LINES).expect("lines.mjs");
    let boundary = run(Command::new("node").arg("lines.mjs").current_dir(&project));
    assert_eq!(stdout(&boundary), "16777216 shutdown refused 16777216");
    vectors_pass(
        &["node", "node_modules/cgp-types/test/harness.mjs"],
        &project,
        &[],
    );
}

/// The Go environment of a fresh user: its own module cache in the scratch
/// folder (writable, so it can be removed), the build cache shared under
/// `target/peers/go`.
fn go(scratch: &Scratch, dir: &Path) -> Command {
    let mut command = Command::new("go");
    command
        .current_dir(dir)
        .env("GOPATH", scratch.join("gopath"))
        .env("GOMODCACHE", scratch.join("gomodcache"))
        .env("GOCACHE", spec_tests::peers::dir().join("go/cache"))
        .env("GOTOOLCHAIN", "local")
        .env("GOFLAGS", "-modcacherw")
        .env("CGO_ENABLED", "0")
        .env("GOSUMDB", "off");
    command
}

/// Files of `dir`, relative, sorted.
fn files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let relative = format!("{prefix}{name}");
        if path.is_dir() {
            files_under(&path, &format!("{relative}/"), out);
        } else {
            out.push((relative, path));
        }
    }
}

/// A file `GOPROXY` serving the module at `version`, as the module proxy
/// protocol lays it out: `<module>/@v/list`, `.info`, `.mod` and `.zip`
/// (every file under `<module>@<version>/`).
fn file_proxy(proxy: &Path, module: &str, version: &str, source: &Path) {
    let at = proxy.join(module).join("@v");
    std::fs::create_dir_all(&at).expect("the proxy");
    std::fs::write(at.join("list"), format!("{version}\n")).expect("list");
    std::fs::write(
        at.join(format!("{version}.info")),
        format!(r#"{{"Version":"{version}","Time":"2026-01-01T00:00:00Z"}}"#),
    )
    .expect("info");
    std::fs::copy(source.join("go.mod"), at.join(format!("{version}.mod"))).expect("mod");
    let archive = std::fs::File::create(at.join(format!("{version}.zip"))).expect("zip");
    let mut zip = zip::ZipWriter::new(archive);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut files = Vec::new();
    files_under(source, "", &mut files);
    for (relative, path) in files {
        zip.start_file(format!("{module}@{version}/{relative}"), options)
            .expect("an entry");
        zip.write_all(&std::fs::read(&path).expect("a file"))
            .expect("written");
    }
    zip.finish().expect("the archive");
}

fn the_go_module_tests_itself_alone_and_a_consumer_fetches_it_with_go_get() {
    let scratch = Scratch::new("go-install");
    let module_dir = copy_package(&scratch, "go");
    // `go test ./...` in the copy alone: its data is inside the module.
    let tested = run(go(&scratch, &module_dir).args(["test", "-count=1", "./..."]));
    assert!(stdout(&tested).starts_with("ok "), "{}", stdout(&tested));

    let go_mod = std::fs::read_to_string(module_dir.join("go.mod")).expect("go.mod");
    let module = go_mod
        .lines()
        .find_map(|line| line.strip_prefix("module "))
        .expect("a module line")
        .trim()
        .to_owned();
    assert_eq!(module, "github.com/cgp-schema/cgp-schema/generated/go");
    let protocol: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("the version");
    // The tag `generated/go/v<major>.<minor>.0` is version v<major>.<minor>.0
    // of the module in that subdirectory.
    let version = format!("v{}.{}.0", protocol.major, protocol.minor);
    let proxy = scratch.join("proxy");
    file_proxy(&proxy, &module, &version, &module_dir);
    let proxy_url = format!("file://{}", proxy.display());

    let consumer = scratch.join("consumer");
    std::fs::create_dir_all(&consumer).expect("consumer");
    run(go(&scratch, &consumer).args(["mod", "init", "example.com/consumer"]));
    run(go(&scratch, &consumer)
        .args(["get", &format!("{module}@{version}")])
        .env("GOPROXY", &proxy_url));
    std::fs::write(
        consumer.join("main.go"),
        format!(
            "package main\n\nimport (\n\t\"fmt\"\n\n\tcgptypes \"{module}\"\n)\n\nfunc main() {{\n\tenvelope, err := cgptypes.Decode([]byte(`{{\"type\":\"shutdown\"}}`))\n\tif err != nil {{\n\t\tpanic(err)\n\t}}\n\tline, _ := cgptypes.Encode(envelope)\n\tfmt.Print(string(line))\n}}\n"
        ),
    )
    .expect("main.go");
    let printed = run(go(&scratch, &consumer)
        .args(["run", "."])
        .env("GOPROXY", &proxy_url));
    assert_eq!(stdout(&printed), r#"{"type":"shutdown"}"#);
    run(go(&scratch, &consumer)
        .args([
            "build",
            "-o",
            "cgp-harness",
            &format!("{module}/cmd/cgp-harness"),
        ])
        .env("GOPROXY", &proxy_url));
    vectors_pass(&["./cgp-harness"], &consumer, &[]);
}

/// `mvn -B -q -o` with the local repository `repository`: offline, so
/// nothing but what the copy of `target/peers/m2` holds and what the test
/// installs is used.
fn mvn(repository: &Path, dir: &Path) -> Command {
    let mut command = Command::new("mvn");
    command
        .current_dir(dir)
        .args(["-B", "-q", "-o"])
        .arg(format!("-Dmaven.repo.local={}", repository.display()));
    command
}

/// The consumer's main: a line decoded and encoded again.
const JAVA_CONSUMER: &str = r#"package example;

import java.nio.charset.StandardCharsets;
import PACKAGE.Envelope;
import PACKAGE.ShutdownEnvelope;
import PACKAGE.Wire;

public final class Consumer {
    public static void main(String[] args) throws Exception {
        Envelope envelope = Wire.decode("{\"type\":\"shutdown\"}".getBytes(StandardCharsets.UTF_8));
        if (!(envelope instanceof ShutdownEnvelope)) {
            throw new AssertionError(envelope);
        }
        System.out.print(new String(Wire.encode(envelope), StandardCharsets.UTF_8));
    }
}
"#;

fn the_java_package_installs_with_mvn_and_a_consumer_project_passes_the_vectors() {
    // The one step that may download: every pinned plugin into
    // target/peers/m2, which the offline builds below use a copy of.
    spec_tests::java::fetch_plugins().unwrap_or_else(|problem| panic!("{problem}"));
    let scratch = Scratch::new("java-install");
    let project = copy_package(&scratch, "java");
    let repository = scratch.join("m2");
    cgp_test_support::copy_dir(&spec_tests::java::maven_repository(), &repository);
    let group = spec_tests::java::maven_group();
    assert_eq!(group, "io.github.cgp-schema");
    let _ = std::fs::remove_dir_all(repository.join(group.replace('.', "/")));
    run(mvn(&repository, &project).arg("install"));
    let protocol: cgp_schema::ProtocolVersion =
        cgp_types::PROTOCOL_VERSION.parse().expect("the version");
    let version = format!("{}.{}.0", protocol.major, protocol.minor);
    let installed = repository
        .join(group.replace('.', "/"))
        .join("cgp-types")
        .join(&version);
    assert!(
        installed.join(format!("cgp-types-{version}.jar")).is_file(),
        "{}",
        installed.display()
    );

    // A new project that depends on the installed artifact, with the
    // package's own pinned plugins.
    let pom = std::fs::read_to_string(project.join("pom.xml")).expect("pom.xml");
    let build =
        &pom[pom.find("<build>").expect("a build")..=pom.find("</build>").expect("its end") + 7];
    let consumer = scratch.join("consumer");
    let sources = consumer.join("src/main/java/example");
    std::fs::create_dir_all(&sources).expect("consumer");
    std::fs::write(
        consumer.join("pom.xml"),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>example</groupId>\n  <artifactId>consumer</artifactId>\n  <version>1</version>\n  <properties>\n    <maven.compiler.release>17</maven.compiler.release>\n    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>\n  </properties>\n  <dependencies>\n    <dependency>\n      <groupId>{group}</groupId>\n      <artifactId>cgp-types</artifactId>\n      <version>{version}</version>\n    </dependency>\n  </dependencies>\n  {build}\n</project>\n"
        ),
    )
    .expect("the consumer's pom.xml");
    let package = spec_tests::java::java_package();
    std::fs::write(
        sources.join("Consumer.java"),
        JAVA_CONSUMER.replace("PACKAGE", &package),
    )
    .expect("Consumer.java");
    run(mvn(&repository, &consumer).args([
        "package",
        "dependency:build-classpath",
        "-Dmdep.outputFile=classpath.txt",
    ]));
    let dependencies = std::fs::read_to_string(consumer.join("classpath.txt")).expect("classpath");
    assert!(
        dependencies.contains(&format!("cgp-types-{version}.jar")),
        "{dependencies}"
    );
    let classpath = format!("target/classes:{}", dependencies.trim());
    let printed = run(Command::new("java").current_dir(&consumer).args([
        "-cp",
        &classpath,
        "example.Consumer",
    ]));
    assert_eq!(stdout(&printed), r#"{"type":"shutdown"}"#);
    let harness = spec_tests::java::harness_class();
    vectors_pass(&["java", "-cp", &classpath, &harness], &consumer, &[]);
}
