//! The Java package under `generated/java/`, a Maven project rendered with
//! minijinja from the protocol model of the interop bundle.
//!
//! The package holds the wire types (a sealed `Envelope` interface with one
//! record per variant, the tagged `FrameVerdict` union the same way, open
//! vocabularies as a record of the raw string with an enum of the known
//! values, closed ones as enums), a decoder and an encoder per type written
//! from the model (`Decode.java`, `Encode.java` and one file per type from
//! `templates/java/*.j2`; beside each decoder, a fast reader that reads the
//! members straight from the line's bytes and leaves any line it does not
//! expect to the decoder), and a runtime copied as-is from
//! `templates/java/runtime/`: a port of the Go module's runtime (its own JSON
//! reader with the reference decoder's rules, the lossy UTF-8 of a stdio
//! line, serde_json's escapes and float layout, the entry points
//! `Wire.decode`, `Wire.decodeBody` and `Wire.encode`, the bounded
//! `LineReader`), the `Harness` main class the spec-tests drive and the
//! JUnit tests over codegen's copy of the vectors. JDK only; the tests use
//! JUnit Jupiter. Nothing here reads a schema keyword, only the model; a shape
//! the package cannot describe is refused with an [`Unsupported`] naming the
//! member.
//!
//! - `declarations`: the named types and the envelope as Java declarations.
//! - `unit`: one record with its decoder and encoder.
//! - `shapes`: the Java type, decoder and encoder of a value shape.
//! - `names`: how Java spells the model's names and text.

mod declarations;
mod names;
mod shapes;
mod unit;

use crate::Files;
use crate::home::Home;
use crate::rust::COMMAND;
use crate::unsupported::Unsupported;
use cgp_schema::ProtocolVersion;
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::Protocol;
use minijinja::value::Serde;
use names::quote;
use serde_json::{Value, json};

/// Where the package goes, relative to the repository root.
pub const JAVA_DIR: &str = "generated/java";

/// Where its templates and runtime live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/java";

/// The Maven artifactId; the groupId is [`Home::maven_group`].
pub const ARTIFACT: &str = "cgp-types";

/// Where the package's tests read the conformance vectors of the working
/// version, inside the project (a copy of `generated/vectors/<version>/`, so
/// a copy of the project alone tests itself).
pub const TEST_VECTORS: &str = "generated/java/src/test/resources/vectors";

/// The Java release the project compiles for (`maven.compiler.release`).
pub const JAVA_RELEASE: &str = "17";

/// The JUnit Jupiter the tests run on (test scope only).
pub const JUNIT: &str = "5.14.4";

/// Every Maven plugin a build uses, pinned so builds are deterministic.
pub const PLUGINS: [(&str, &str); 7] = [
    ("maven-clean-plugin", "3.4.0"),
    ("maven-compiler-plugin", "3.13.0"),
    ("maven-dependency-plugin", "3.8.1"),
    ("maven-install-plugin", "3.1.3"),
    ("maven-jar-plugin", "3.4.2"),
    ("maven-resources-plugin", "3.3.1"),
    ("maven-surefire-plugin", "3.5.4"),
];

/// The main class of the conformance harness, under the package.
pub const HARNESS_CLASS: &str = "Harness";

/// The runtime, copied as-is: (file name, contents, whether it is a test).
const RUNTIME: [(&str, &str, bool); 15] = [
    (
        "Bytes.java",
        include_str!("../../templates/java/runtime/Bytes.java"),
        false,
    ),
    (
        "Canonical.java",
        include_str!("../../templates/java/runtime/Canonical.java"),
        false,
    ),
    (
        "Fast.java",
        include_str!("../../templates/java/runtime/Fast.java"),
        false,
    ),
    (
        "Harness.java",
        include_str!("../../templates/java/runtime/Harness.java"),
        false,
    ),
    (
        "Json.java",
        include_str!("../../templates/java/runtime/Json.java"),
        false,
    ),
    (
        "LineReader.java",
        include_str!("../../templates/java/runtime/LineReader.java"),
        false,
    ),
    (
        "LineTooLongException.java",
        include_str!("../../templates/java/runtime/LineTooLongException.java"),
        false,
    ),
    (
        "Path.java",
        include_str!("../../templates/java/runtime/Path.java"),
        false,
    ),
    (
        "Text.java",
        include_str!("../../templates/java/runtime/Text.java"),
        false,
    ),
    (
        "Values.java",
        include_str!("../../templates/java/runtime/Values.java"),
        false,
    ),
    (
        "Wire.java",
        include_str!("../../templates/java/runtime/Wire.java"),
        false,
    ),
    (
        "WireException.java",
        include_str!("../../templates/java/runtime/WireException.java"),
        false,
    ),
    (
        "VectorsTest.java",
        include_str!("../../templates/java/runtime/VectorsTest.java"),
        true,
    ),
    (
        "LineReaderTest.java",
        include_str!("../../templates/java/runtime/LineReaderTest.java"),
        true,
    ),
    (
        "WireExceptionTest.java",
        include_str!("../../templates/java/runtime/WireExceptionTest.java"),
        true,
    ),
];

/// The package the runtime files are written in; codegen writes them in
/// [`java_package`]'s.
const RUNTIME_PACKAGE: &str = "io.github.cgpschema.cgptypes";

/// The Java package: the Maven group and artifact as identifiers
/// (`io.github.cgp-schema` and `cgp-types` make `io.github.cgpschema.cgptypes`).
pub fn java_package(home: &Home) -> String {
    let identifier = |part: &str| -> String {
        part.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase()
    };
    home.maven_group()
        .split('.')
        .chain([ARTIFACT])
        .map(identifier)
        .collect::<Vec<_>>()
        .join(".")
}

/// The Maven version of a protocol version: `<major>.<minor>.0`, as the Go
/// module's release tag.
pub fn maven_version(version: &ProtocolVersion) -> String {
    format!("{}.{}.0", version.major, version.minor)
}

/// The Maven project as a package target.
pub struct JavaPackage;

impl crate::targets::Target for JavaPackage {
    fn language(&self) -> crate::targets::Language {
        crate::targets::Language::Java
    }

    fn dir(&self) -> &'static str {
        JAVA_DIR
    }

    fn generate(&self, input: &crate::targets::Input<'_>) -> Result<Files, Diagnostics> {
        generate(input.described()?, input.version, input.home)
    }

    fn vectors_copy(&self) -> Option<&'static str> {
        Some(TEST_VECTORS)
    }

    fn install(&self, _home: &Home, _version: &ProtocolVersion) -> String {
        // Into the local repository, as io.github.<owner>:cgp-types:<version>.
        format!("mvn -f {JAVA_DIR} install")
    }
}

/// Renders every file of the package: (path relative to the repository root,
/// contents), sorted by path.
pub fn generate(
    protocol: &Protocol,
    version: &ProtocolVersion,
    home: &Home,
) -> Result<Files, Diagnostics> {
    let refused = |why: Unsupported| why.into_diagnostics(protocol, "Java package");
    let named = declarations::named_types(protocol).map_err(refused)?;
    let envelope = declarations::envelope(protocol).map_err(refused)?;
    let package = java_package(home);
    let sources = format!("{JAVA_DIR}/src/main/java/{}", package.replace('.', "/"));
    let tests = format!("{JAVA_DIR}/src/test/java/{}", package.replace('.', "/"));
    let renderer = Renderer {
        environment: crate::docs::environment(TEMPLATE_DIR).map_err(Diagnostics::one)?,
        context: json!({
            "command": COMMAND,
            "protocol_version": version.to_string(),
            "version_quoted": quote(&version.to_string()),
            "package": package,
            "group": home.maven_group(),
            "artifact": ARTIFACT,
            "version": maven_version(version),
            "repository": home.url,
            "java_release": JAVA_RELEASE,
            "junit": JUNIT,
            "plugins": PLUGINS,
            "harness": format!("{package}.{HARNESS_CLASS}"),
            "objects": named.objects,
            "unions": named.unions,
            "envelope": envelope,
            "vocabularies": named.vocabularies,
        }),
    };
    let mut files = Files::new();
    for (path, template) in [("pom.xml", POM), ("README.md", README)] {
        files.insert(
            format!("{JAVA_DIR}/{path}"),
            renderer.render(template, json!({}))?,
        );
    }
    for (name, template) in [("Decode", DECODE), ("Encode", ENCODE)] {
        let text = renderer.render(template, json!({}))?;
        files.insert(format!("{sources}/{name}.java"), text);
    }
    files.extend(type_files(&renderer, &named, &envelope, &sources)?);
    for (name, text, test) in RUNTIME {
        let text = text.replace(
            &format!("package {RUNTIME_PACKAGE};"),
            &format!("package {package};"),
        );
        let dir = if test { &tests } else { &sources };
        files.insert(format!("{dir}/{name}"), text);
    }
    Ok(files)
}

/// A template: its file name under [`TEMPLATE_DIR`] and its text.
type Template = (&'static str, &'static str);

const POM: Template = (
    "pom.xml.j2",
    include_str!("../../templates/java/pom.xml.j2"),
);
const README: Template = (
    "README.md.j2",
    include_str!("../../templates/java/README.md.j2"),
);
const DECODE: Template = (
    "Decode.java.j2",
    include_str!("../../templates/java/Decode.java.j2"),
);
const ENCODE: Template = (
    "Encode.java.j2",
    include_str!("../../templates/java/Encode.java.j2"),
);
const RECORD: Template = (
    "record.java.j2",
    include_str!("../../templates/java/record.java.j2"),
);
const UNION: Template = (
    "union.java.j2",
    include_str!("../../templates/java/union.java.j2"),
);
const VOCABULARY: Template = (
    "vocabulary.java.j2",
    include_str!("../../templates/java/vocabulary.java.j2"),
);

/// The templates' environment and the context every file shares.
struct Renderer {
    environment: minijinja::Environment<'static>,
    context: Value,
}

impl Renderer {
    /// `template` rendered with the shared context and `extra` on top.
    fn render(&self, (name, source): Template, extra: Value) -> Result<String, Diagnostics> {
        let mut context = self.context.clone();
        if let (Some(context), Value::Object(extra)) = (context.as_object_mut(), extra) {
            context.extend(extra);
        }
        let shown = format!("{TEMPLATE_DIR}/{name}");
        self.environment
            .template_from_str(source)
            .and_then(|template| template.render(Serde(&context)))
            .map_err(|error| Diagnostics::one(Diagnostic::file(&shown, format!("{error:#}"))))
    }
}

/// One file per public type, under `sources`: each union (the envelope
/// among them) and its branch records, each named record, each vocabulary.
fn type_files(
    renderer: &Renderer,
    named: &declarations::NamedTypes,
    envelope: &declarations::Union,
    sources: &str,
) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    for union in named.unions.iter().chain([envelope]) {
        let text = renderer.render(UNION, json!({ "union": union }))?;
        files.insert(format!("{sources}/{}.java", union.name), text);
        for unit in &union.branches {
            let extra = json!({
                "unit": unit,
                "implements": union.name,
                "is_variant": union.name == envelope.name,
            });
            let text = renderer.render(RECORD, extra)?;
            files.insert(format!("{sources}/{}.java", unit.name), text);
        }
    }
    for unit in &named.objects {
        let text = renderer.render(RECORD, json!({ "unit": unit }))?;
        files.insert(format!("{sources}/{}.java", unit.name), text);
    }
    for vocabulary in &named.vocabularies {
        let text = renderer.render(VOCABULARY, json!({ "vocabulary": vocabulary }))?;
        files.insert(format!("{sources}/{}.java", vocabulary.name), text);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_model::{home, version};

    fn protocol(member: Value) -> Protocol {
        crate::test_model::ping_with("target_uri", member)
    }

    #[test]
    fn a_model_renders_a_sealed_envelope_with_a_boxed_optional_u64() {
        let files = generate(
            &protocol(json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64})),
            &version(),
            &home(),
        )
        .expect("generated");
        let sources = format!("{JAVA_DIR}/src/main/java/org/example/o/cgptypes");
        let pom = &files[&format!("{JAVA_DIR}/pom.xml")];
        assert!(pom.contains("<groupId>org.example.o</groupId>"), "{pom}");
        assert!(pom.contains("<version>1.0.0</version>"), "{pom}");
        let envelope = &files[&format!("{sources}/Envelope.java")];
        assert!(
            envelope.contains("public sealed interface Envelope\n        permits PingEnvelope {"),
            "{envelope}"
        );
        let record = &files[&format!("{sources}/PingEnvelope.java")];
        assert!(record.contains("        Long targetUri\n"), "{record}");
        let encode = &files[&format!("{sources}/Encode.java")];
        assert!(
            encode.contains("if (x.targetUri() != null) {"),
            "an absent member is left out: {encode}"
        );
        assert_eq!(
            files[&format!("{sources}/Bytes.java")],
            include_str!("../../templates/java/runtime/Bytes.java")
                .replace(RUNTIME_PACKAGE, "org.example.o.cgptypes"),
            "the runtime is copied as-is, in the package"
        );
    }

    #[test]
    fn a_shape_the_package_cannot_describe_is_refused_naming_the_member() {
        let problems = generate(
            &protocol(json!({"type": "integer", "minimum": -3, "maximum": 3})),
            &version(),
            &home(),
        )
        .expect_err("refused")
        .to_string();
        assert!(
            problems.contains("member `target_uri`")
                && problems.contains("Java package")
                && problems.contains("integer range"),
            "{problems}"
        );
    }
}
