//! typify run on a bundle, its panics caught, and a failure narrowed down to
//! the one definition and member that cause it.

use cgp_schema::diagnostic::Diagnostic;
use proc_macro2::TokenStream;
use serde_json::{Map, Value};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Why typify made no code of a bundle.
#[derive(Debug)]
pub(super) enum Failure {
    /// The bundle does not read as a schemars schema.
    Unreadable(serde_json::Error),
    /// typify returned an error.
    Refused(::typify::Error),
    /// typify panicked, with its message when it had one.
    Panicked(Option<String>),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable(error) => {
                write!(f, "the bundle is not a schema typify can read: {error}")
            }
            Self::Refused(error) => write!(f, "{error}"),
            Self::Panicked(Some(text)) => write!(f, "typify panicked: {text}"),
            Self::Panicked(None) => write!(f, "typify panicked"),
        }
    }
}

impl std::error::Error for Failure {}

/// typify's token stream of the types of `document`.
pub(super) fn run(document: &Value) -> Result<TokenStream, Failure> {
    let root: schemars08::schema::RootSchema =
        serde_json::from_value(document.clone()).map_err(Failure::Unreadable)?;
    // typify reports some schemas it cannot read by panicking; the panic is
    // caught and becomes an error at the bundle. The process-wide panic hook is
    // left alone (swapping it would hide other threads' panics), so the
    // default hook's line may precede the error on standard error.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let mut settings = ::typify::TypeSpaceSettings::default();
        settings.with_struct_builder(false);
        settings.with_derive("PartialEq".to_owned());
        let mut space = ::typify::TypeSpace::new(&settings);
        space.add_root_schema(root).map_err(Failure::Refused)?;
        Ok(space.to_stream())
    }));
    match outcome {
        Ok(result) => result,
        Err(payload) => Err(Failure::Panicked(panic_message(payload.as_ref()))),
    }
}

/// The text a panic carried, if any.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> Option<String> {
    if let Some(text) = payload.downcast_ref::<&str>() {
        Some((*text).to_owned())
    } else {
        payload.downcast_ref::<String>().cloned()
    }
}

/// Narrows a typify failure down to one definition (or variant) and one member,
/// by regenerating with everything else replaced by a permissive `{}`.
pub(super) fn find_culprit(
    document: &Value,
    message: &Failure,
    locate: &dyn Fn(&str) -> Diagnostic,
) -> Diagnostic {
    let mut candidates = Vec::new();
    if let Some(defs) = document.get("$defs").and_then(Value::as_object) {
        for name in defs.keys() {
            candidates.push(format!(
                "/$defs/{}",
                cgp_schema::json_text::escape_token(name)
            ));
        }
    }
    if let Some(branches) = document.get("oneOf").and_then(Value::as_array) {
        candidates.extend((0..branches.len()).map(|index| format!("/oneOf/{index}")));
    }
    let isolate = |keep: &str| -> Value {
        let mut probe = document.clone();
        if let Some(defs) = probe.get_mut("$defs").and_then(Value::as_object_mut) {
            for (name, schema) in defs.iter_mut() {
                if keep != format!("/$defs/{}", cgp_schema::json_text::escape_token(name)) {
                    *schema = Value::Object(Map::new());
                }
            }
        }
        if let Some(branches) = probe.get_mut("oneOf").and_then(Value::as_array_mut) {
            for (index, branch) in branches.iter_mut().enumerate() {
                if keep != format!("/oneOf/{index}") {
                    let tag = branch
                        .pointer("/properties/type")
                        .cloned()
                        .unwrap_or(Value::Null);
                    *branch = serde_json::json!({"type": "object", "properties": {"type": tag}, "required": ["type"]});
                }
            }
        }
        probe
    };
    for candidate in candidates {
        let probe = isolate(&candidate);
        if run(&probe).is_ok() {
            continue;
        }
        let mut pointer = candidate.clone();
        let members: Vec<String> = probe
            .pointer(&format!("{candidate}/properties"))
            .and_then(Value::as_object)
            .map(|props| props.keys().cloned().collect())
            .unwrap_or_default();
        for member in members {
            let mut narrowed = probe.clone();
            if let Some(props) = narrowed
                .pointer_mut(&format!("{candidate}/properties"))
                .and_then(Value::as_object_mut)
            {
                for (name, schema) in props.iter_mut() {
                    if *name != member && name != "type" {
                        *schema = Value::Object(Map::new());
                    }
                }
            }
            if run(&narrowed).is_err() {
                pointer = format!(
                    "{candidate}/properties/{}",
                    cgp_schema::json_text::escape_token(&member)
                );
                break;
            }
        }
        let mut diagnostic = locate(&pointer);
        diagnostic.message =
            format!("typify cannot generate this schema (bundle {pointer}): {message}");
        return diagnostic;
    }
    Diagnostic::file(
        "bundle",
        format!("typify failed and no single definition explains it: {message}"),
    )
}
