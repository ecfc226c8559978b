//! The Go module under `generated/go/`, rendered with minijinja from the
//! protocol model of the interop bundle.
//!
//! The module holds the wire types (a sealed `Envelope` interface with one
//! struct per variant, the tagged `FrameVerdict` union the same way, open
//! vocabularies as named string types with `Known…` constants, closed ones
//! validated), a decoder and an encoder per type written from the model
//! (`types.go`, `decode.go`, `encode.go` from `templates/go/*.j2`), and a
//! runtime copied as-is from `templates/go/runtime/`: its own JSON reader with
//! the reference decoder's rules, the lossy UTF-8 of a stdio line, serde_json's
//! escapes and float layout, the entry points `Decode`, `DecodeBody` and
//! `Encode`, the conformance-vector and fuzz tests and the `cmd/cgp-harness`
//! program the spec-tests drive. Nothing here reads a schema keyword, only the
//! model; a shape the module cannot describe is refused with an
//! [`Unsupported`] naming the member.
//!
//! - `declarations`: the named types and the envelope as Go declarations.
//! - `unit`: one struct with its decoder and encoder.
//! - `shapes`: the Go type, decoder and encoder of a value shape.
//! - `names`: how Go spells the model's names and text.

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

/// Where the module goes, relative to the repository root.
pub const GO_DIR: &str = "generated/go";

/// Where its templates and runtime live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/go";

/// The package name. The module path (`go.mod`) is the project's home
/// followed by [`GO_DIR`] ([`crate::home::Home::go_module`]), one `go get`
/// fetches; a release of it is tagged `generated/go/v<version>`.
pub const PACKAGE: &str = "cgptypes";

/// Where the module's tests read the conformance vectors of the working
/// version, inside the module (a copy of `generated/vectors/<version>/`, so a
/// copy of the module alone tests itself).
pub const TESTDATA_VECTORS: &str = "generated/go/testdata/vectors";

/// The oldest Go the module needs (generics; `go` directive of `go.mod`).
pub const GO_VERSION: &str = "1.22";

/// The rendered files: (file under the module, template text).
const TEMPLATES: [(&str, &str); 5] = [
    ("go.mod", include_str!("../../templates/go/go.mod.j2")),
    ("README.md", include_str!("../../templates/go/README.md.j2")),
    ("types.go", include_str!("../../templates/go/types.go.j2")),
    ("decode.go", include_str!("../../templates/go/decode.go.j2")),
    ("encode.go", include_str!("../../templates/go/encode.go.j2")),
];

/// The runtime, copied as-is: (file under the module, contents).
const RUNTIME: [(&str, &str); 8] = [
    (
        "json.go",
        include_str!("../../templates/go/runtime/json.go"),
    ),
    (
        "lines.go",
        include_str!("../../templates/go/runtime/lines.go"),
    ),
    (
        "text.go",
        include_str!("../../templates/go/runtime/text.go"),
    ),
    (
        "runtime.go",
        include_str!("../../templates/go/runtime/runtime.go"),
    ),
    (
        "wire.go",
        include_str!("../../templates/go/runtime/wire.go"),
    ),
    (
        "wire_test.go",
        include_str!("../../templates/go/runtime/wire_test.go"),
    ),
    (
        "cmd/cgp-throughput/main.go",
        include_str!("../../templates/go/runtime/cgp-throughput.go"),
    ),
    (
        "cmd/cgp-harness/main.go",
        include_str!("../../templates/go/runtime/cgp-harness.go"),
    ),
];

/// The Go module as a package target.
pub struct GoModule;

impl crate::targets::Target for GoModule {
    fn language(&self) -> crate::targets::Language {
        crate::targets::Language::Go
    }

    fn dir(&self) -> &'static str {
        GO_DIR
    }

    fn generate(&self, input: &crate::targets::Input<'_>) -> Result<Files, Diagnostics> {
        generate(input.described()?, input.version, input.home)
    }

    fn vectors_copy(&self) -> Option<&'static str> {
        Some(TESTDATA_VECTORS)
    }

    fn install(&self, home: &Home, version: &ProtocolVersion) -> String {
        format!(
            "go get {}@v{}.{}.0",
            home.go_module(GO_DIR),
            version.major,
            version.minor
        )
    }
}

/// Renders every file of the module: (path relative to the repository root,
/// contents), sorted by path.
pub fn generate(
    protocol: &Protocol,
    version: &ProtocolVersion,
    home: &Home,
) -> Result<Files, Diagnostics> {
    let refused = |why: Unsupported| why.into_diagnostics(protocol, "Go module");
    let named = declarations::named_types(protocol).map_err(refused)?;
    let envelope = declarations::envelope(protocol).map_err(refused)?;
    let module = home.go_module(GO_DIR);
    let context = json!({
        "command": COMMAND,
        "protocol_version": version.to_string(),
        "version_quoted": quote(&version.to_string()),
        "slug_quoted": quote(&version.slug()),
        "module": module,
        "package": PACKAGE,
        "repository": home.url,
        "go_version": GO_VERSION,
        "objects": named.objects,
        "unions": named.unions,
        "envelope": envelope,
        "vocabularies": named.vocabularies,
    });
    let mut files = render(&context)?;
    for (path, text) in RUNTIME {
        // The commands import the package by the module path.
        let text = text.replace(
            &format!("\t\"{PACKAGE}\"\n"),
            &format!("\t{PACKAGE} \"{module}\"\n"),
        );
        files.insert(format!("{GO_DIR}/{path}"), text);
    }
    Ok(files)
}

/// The [`TEMPLATES`] rendered with `context`.
fn render(context: &Value) -> Result<Files, Diagnostics> {
    let environment = crate::docs::environment(TEMPLATE_DIR).map_err(Diagnostics::one)?;
    let mut files = Files::new();
    for (path, source) in TEMPLATES {
        let shown = format!("{TEMPLATE_DIR}/{path}.j2");
        let rendered = environment
            .template_from_str(source)
            .and_then(|template| template.render(Serde(context)))
            .map_err(|error| Diagnostics::one(Diagnostic::file(&shown, format!("{error:#}"))))?;
        files.insert(format!("{GO_DIR}/{path}"), rendered);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protocol(member: Value) -> Protocol {
        crate::test_model::ping_with("target_uri", member)
    }

    use crate::test_model::home;
    use crate::test_model::version;

    #[test]
    fn a_model_renders_a_sealed_envelope_with_a_pointer_for_an_optional_u64() {
        let files = generate(
            &protocol(json!({"type": "integer", "minimum": 0, "maximum": 18446744073709551615u64})),
            &version(),
            &home(),
        )
        .expect("generated");
        assert!(
            files[&format!("{GO_DIR}/go.mod")].contains("\nmodule example.org/o/r/generated/go\n"),
            "{}",
            files[&format!("{GO_DIR}/go.mod")]
        );
        assert!(
            files[&format!("{GO_DIR}/cmd/cgp-harness/main.go")]
                .contains("\tcgptypes \"example.org/o/r/generated/go\"\n"),
            "the commands import the module by its path"
        );
        let types = &files[&format!("{GO_DIR}/types.go")];
        assert!(types.contains("type PingEnvelope struct {"), "{types}");
        assert!(
            types.contains("\tTargetURI *uint64 `json:\"target_uri\"`\n"),
            "{types}"
        );
        assert!(
            types.contains("const ProtocolVersion = \"demo/1.0\""),
            "{types}"
        );
        let encode = &files[&format!("{GO_DIR}/encode.go")];
        assert!(
            encode.contains("if x.TargetURI != nil {"),
            "an absent member is left out: {encode}"
        );
        assert_eq!(
            files[&format!("{GO_DIR}/wire.go")],
            include_str!("../../templates/go/runtime/wire.go"),
            "the runtime is copied as-is"
        );
    }

    #[test]
    fn a_shape_the_module_cannot_describe_is_refused_naming_the_member() {
        let problems = generate(
            &protocol(json!({"type": "integer", "minimum": -3, "maximum": 3})),
            &version(),
            &home(),
        )
        .expect_err("refused")
        .to_string();
        assert!(
            problems.contains("member `target_uri`") && problems.contains("integer range"),
            "{problems}"
        );
        // At the member's place in the schema, not at a template.
        assert!(
            problems.starts_with("#/oneOf/0/properties/target_uri"),
            "{problems}"
        );
        assert!(!problems.contains("templates/"), "{problems}");
    }
}
