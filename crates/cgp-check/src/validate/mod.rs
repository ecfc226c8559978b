//! Validating JSON values against a bundle, with errors a person can act on.
//!
//! A [`Validator`] dispatches on the envelope tag first and then validates
//! against that one variant, so a bad `max_tokens` is reported as
//! `/query/max_tokens: 4294967296 is greater than the maximum 4294967295`, never
//! as "not valid under any of the given schemas". Errors inside `oneOf`/`anyOf`
//! (open vocabularies, nullable members) are explained by their most specific
//! branch, and strict-profile errors say which encoder rule they enforce.

use cgp_schema::bundle::{Bundle, Origins, Profile};
use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::json_text;
use cgp_schema::model::{Protocol, Reading};
use cgp_schema::source::Target;
use jsonschema::Draft;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

mod explain;

pub use explain::describe;

/// One reason a value is invalid.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    /// Where in the instance, as a JSON pointer.
    pub instance_path: String,
    /// Which schema keyword failed, as a JSON pointer into the bundle.
    pub schema_path: String,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.instance_path.is_empty() {
            "/"
        } else {
            &self.instance_path
        };
        write!(f, "{path}: {} (schema {})", self.message, self.schema_path)
    }
}

/// A single-pass check of one message's text compiled from the same bundle
/// (the `cgp-validator` crate): the envelope tag of a valid message, `None` for
/// an invalid one. [`crate::transcript::check_verdict`] trusts it for a valid
/// message and asks `jsonschema` why an invalid one is.
pub type Precheck = fn(&str) -> Option<&'static str>;

/// How many unknown member names one message lists.
const MAX_NAMES_LISTED: usize = 10;

/// Validates envelopes (and bare type values) against one bundle.
pub struct Validator {
    profile: Profile,
    document: Value,
    /// The model of the bundle, which explanations of failed keywords read;
    /// read on the first explanation.
    protocol: OnceLock<Protocol>,
    origins: Origins,
    tags: Vec<String>,
    /// Each variant's validator, by tag.
    variants: BTreeMap<String, VariantValidator>,
    /// One validator per named type, compiled on first use: a checker of
    /// envelopes never needs them, and compiling them all would double its
    /// start-up.
    types: BTreeMap<String, OnceLock<Compiled>>,
    /// The single-pass check of this bundle, when the caller has one.
    precheck: Option<Precheck>,
    /// See [`Self::decodes_with_hand_written_types`]; read once from the
    /// bundle, as every message asks.
    hand_written_family: bool,
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validator")
            .field("profile", &self.profile)
            .field("tags", &self.tags)
            .finish_non_exhaustive()
    }
}

/// The validator of one variant: its place in the bundle's `oneOf` and the
/// compiled validator, compiled when built ([`Validator::new`]) or on first
/// use ([`Validator::deferred`]).
struct VariantValidator {
    index: usize,
    compiled: OnceLock<Compiled>,
}

/// The bundle's `$defs` (`null` when it has none, which reads as none).
fn defs_of(document: &Value) -> &Value {
    document.get("$defs").unwrap_or(&Value::Null)
}

/// A variant's schema on its own: its `oneOf` branch with the `$defs` it
/// reaches.
fn variant_schema(branch: &Value, defs: &Value) -> Value {
    let mut schema = branch.clone();
    if let Some(map) = schema.as_object_mut() {
        map.insert("$defs".into(), reachable_defs(defs, branch));
    }
    schema
}

/// A schema compiled into a validator, or why it does not compile.
type Compiled = Result<jsonschema::Validator, CompileError>;

/// Why a schema of the bundle does not compile: jsonschema's message.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CompileError(String);

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompileError {}

fn compile(schema: &Value) -> Compiled {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .build(schema)
        .map_err(|error| CompileError(error.to_string()))
}

/// Whether the version `document` declares is in the hand-written types'
/// major family (a bundle that declares none is taken to be).
fn in_hand_written_family(document: &Value) -> bool {
    let family = |version: &str| {
        version
            .parse::<cgp_schema::ProtocolVersion>()
            .ok()
            .map(|version| version.family())
    };
    match document
        .get("x-cgp-protocol-version")
        .and_then(Value::as_str)
    {
        Some(version) => {
            family(version).is_some() && family(version) == family(cgp_types::PROTOCOL_VERSION)
        }
        None => true,
    }
}

impl Validator {
    /// Compiles one validator per variant of `bundle`, and reports each that
    /// does not compile; the validator of a named type is compiled the first
    /// time a value is validated as that type.
    pub fn new(bundle: &Bundle) -> Result<Self, Diagnostics> {
        Self::read(bundle.clone(), true)
    }

    /// A validator that compiles each variant's validator the first time a
    /// message of that variant needs it, for a bundle already known to compile:
    /// a published one, which codegen's gates compiled. With a single-pass check
    /// ([`Self::with_precheck`]) a valid message never needs one, so a stream of
    /// valid messages starts without compiling any. A variant that turns out not
    /// to compile gets a violation saying so.
    /// It keeps `bundle` as it is, without a copy: nothing but reading it
    /// happens before the first message.
    pub fn deferred(bundle: Bundle) -> Result<Self, Diagnostics> {
        Self::read(bundle, false)
    }

    fn read(bundle: Bundle, compile_now: bool) -> Result<Self, Diagnostics> {
        let document = &bundle.document;
        let defs = defs_of(document);
        let mut problems = Vec::new();
        let mut variants = BTreeMap::new();
        let mut tags = Vec::new();
        let branches = document.get("oneOf").and_then(Value::as_array);
        for (index, branch) in branches.into_iter().flatten().enumerate() {
            let Some(tag) = branch
                .pointer("/properties/type/const")
                .and_then(Value::as_str)
            else {
                problems.push(Diagnostic::file(
                    "bundle",
                    format!("/oneOf/{index} has no `type` const; cannot dispatch on it"),
                ));
                continue;
            };
            let compiled = OnceLock::new();
            if compile_now {
                match compile(&variant_schema(branch, defs)) {
                    Ok(validator) => {
                        let _ = compiled.set(Ok(validator));
                    }
                    Err(message) => {
                        problems.push(Diagnostic::file(
                            "bundle",
                            format!("/oneOf/{index}: {message}"),
                        ));
                        continue;
                    }
                }
            }
            tags.push(tag.to_owned());
            variants.insert(tag.to_owned(), VariantValidator { index, compiled });
        }
        // Every named type a variant reaches compiled with it; one that fails to
        // compile later is reported by `validate`.
        let types = defs
            .as_object()
            .map(|names| {
                names
                    .keys()
                    .map(|name| (name.clone(), OnceLock::new()))
                    .collect()
            })
            .unwrap_or_default();
        if !problems.is_empty() {
            return Err(Diagnostics(problems));
        }
        Ok(Self {
            hand_written_family: in_hand_written_family(document),
            profile: bundle.profile,
            document: bundle.document,
            protocol: OnceLock::new(),
            origins: bundle.origins,
            tags,
            variants,
            types,
            precheck: None,
        })
    }

    /// This validator with `precheck`, the single-pass check generated from the
    /// same bundle, as its fast path. Only the caller knows that the two come
    /// from the same bundle (`cgp` embeds both from `generated/`).
    pub fn with_precheck(self, precheck: Precheck) -> Self {
        Validator {
            precheck: Some(precheck),
            ..self
        }
    }

    /// The model of the bundle, read the first time it is needed.
    fn protocol(&self) -> &Protocol {
        self.protocol
            .get_or_init(|| Protocol::read(&self.document, Reading::Validator, &|_| None))
    }

    /// The validator of `variant`, compiled the first time it is needed.
    fn compiled<'v>(&self, variant: &'v VariantValidator) -> &'v Compiled {
        variant.compiled.get_or_init(|| {
            let branch = self
                .document
                .get("oneOf")
                .and_then(|branches| branches.get(variant.index))
                .unwrap_or(&Value::Null);
            compile(&variant_schema(branch, defs_of(&self.document)))
        })
    }

    /// The single-pass check, when one was given.
    pub fn precheck(&self) -> Option<Precheck> {
        self.precheck
    }

    /// The profile this validator applies.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The protocol version the bundle declares (`x-cgp-protocol-version`).
    pub fn protocol_version(&self) -> Option<&str> {
        self.document
            .get("x-cgp-protocol-version")
            .and_then(Value::as_str)
    }

    /// Whether the hand-written types (`cgp_types`) describe this bundle's
    /// wire: its version is in their major family. Within a family versions
    /// only add, so the hand-written types decode every message an older minor
    /// accepts; an older family may hold variants and members they no longer
    /// have, so its messages are judged by its own schema (and the wire's rule
    /// for integer literals) without them.
    pub fn decodes_with_hand_written_types(&self) -> bool {
        self.hand_written_family
    }

    /// The envelope tags, in bundle order.
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// The named types a bare value may be validated as.
    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.types.keys().map(String::as_str)
    }

    /// The source file and pointer behind a bundle schema pointer.
    pub fn source_of(&self, schema_path: &str) -> Option<Target> {
        self.origins.locate(schema_path)
    }

    /// The variant tag of an envelope, or the violation that stops dispatch.
    pub fn dispatch<'v>(&self, envelope: &'v Value) -> Result<&'v str, Violation> {
        let tag_error = |message: String| Violation {
            instance_path: "/type".into(),
            schema_path: "/discriminator".into(),
            message,
        };
        let Value::Object(members) = envelope else {
            return Err(Violation {
                instance_path: String::new(),
                schema_path: "/type".into(),
                message: format!("expected an envelope object, found {}", describe(envelope)),
            });
        };
        let expected = self.tags.join(", ");
        match members.get("type") {
            None => Err(tag_error(format!(
                "missing the envelope tag `type`; expected one of {expected}"
            ))),
            Some(Value::String(tag)) if self.variants.contains_key(tag) => Ok(tag.as_str()),
            Some(Value::String(tag)) => {
                let hint = self
                    .tags
                    .iter()
                    .find(|known| known.eq_ignore_ascii_case(tag.trim()))
                    .map(|known| {
                        format!(" (tags are exact and case-sensitive; did you mean \"{known}\"?)")
                    })
                    .unwrap_or_default();
                Err(tag_error(format!(
                    "unknown envelope type {}; expected one of {expected}{hint}",
                    Value::String(tag.clone())
                )))
            }
            Some(other) => Err(tag_error(format!(
                "the envelope tag must be a string, found {}",
                describe(other)
            ))),
        }
    }

    /// Whether `envelope` is valid. Faster than [`Self::validate_envelope`] when the
    /// reasons are not needed.
    pub fn is_valid_envelope(&self, envelope: &Value) -> bool {
        match self.dispatch(envelope) {
            Ok(tag) => self.variants.get(tag).is_some_and(|variant| {
                self.compiled(variant)
                    .as_ref()
                    .is_ok_and(|validator| validator.is_valid(envelope))
            }),
            Err(_) => false,
        }
    }

    /// Every violation in `envelope`, sorted by instance path.
    pub fn validate_envelope(&self, envelope: &Value) -> Vec<Violation> {
        let tag = match self.dispatch(envelope) {
            Ok(tag) => tag,
            Err(violation) => return vec![violation],
        };
        let Some(variant) = self.variants.get(tag) else {
            return Vec::new();
        };
        let prefix = format!("/oneOf/{}", variant.index);
        match self.compiled(variant) {
            Ok(validator) => self.collect(validator, envelope, &prefix),
            Err(message) => vec![Violation {
                instance_path: String::new(),
                schema_path: prefix,
                message: format!(
                    "the bundle's schema of variant `{tag}` does not compile: {message}"
                ),
            }],
        }
    }

    /// Every violation in a bare value of the named type (`Envelope` dispatches on
    /// the tag). `None` when no such type exists.
    pub fn validate(&self, target: &str, value: &Value) -> Option<Vec<Violation>> {
        if target == "Envelope" {
            return Some(self.validate_envelope(value));
        }
        let compiled = self.types.get(target)?.get_or_init(|| {
            let reference = format!("#/$defs/{}", json_text::escape_token(target));
            let defs = reachable_defs(defs_of(&self.document), &json!({"$ref": reference}));
            compile(&json!({"$ref": reference, "$defs": defs}))
        });
        Some(match compiled {
            Ok(validator) => self.collect(validator, value, ""),
            Err(message) => vec![Violation {
                instance_path: String::new(),
                schema_path: format!("/$defs/{}", json_text::escape_token(target)),
                message: format!("the bundle's schema of {target} does not compile: {message}"),
            }],
        })
    }

    fn collect(
        &self,
        validator: &jsonschema::Validator,
        value: &Value,
        prefix: &str,
    ) -> Vec<Violation> {
        let mut found = Vec::new();
        for error in validator.iter_errors(value) {
            self.explain(&error, prefix, &mut found);
        }
        found.sort();
        found.dedup();
        found
    }
}

/// The entries of the bundle's `$defs` that `schema` reaches through `$ref`s,
/// directly or not, in bundle order. A validator compiled with only these does
/// what it would with all of them, and compiling every variant costs what the
/// variants reach instead of the whole bundle each (quadratic in its size).
fn reachable_defs(defs: &Value, schema: &Value) -> Value {
    let Some(all) = defs.as_object() else {
        return json!({});
    };
    let mut reached = std::collections::BTreeSet::new();
    let mut pending = vec![schema];
    while let Some(current) = pending.pop() {
        match current {
            Value::Object(map) => {
                if let Some(name) = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|reference| reference.strip_prefix("#/$defs/"))
                {
                    let name = json_text::pointer_tokens(&format!("/{name}"))
                        .into_iter()
                        .next()
                        .unwrap_or_default();
                    if let Some(def) = all.get(&name) {
                        if reached.insert(name) {
                            pending.push(def);
                        }
                    }
                }
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    Value::Object(
        all.iter()
            .filter(|(name, _)| reached.contains(*name))
            .map(|(name, def)| (name.clone(), def.clone()))
            .collect(),
    )
}
