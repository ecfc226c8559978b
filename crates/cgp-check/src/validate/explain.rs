//! Why a value fails: each `jsonschema` error turned into a [`Violation`] that
//! names the instance and bundle pointers and says what was expected, with the
//! model's reading of the place (a tagged union's branches, a member's emit
//! rule).

use super::{MAX_NAMES_LISTED, Validator, Violation};
use cgp_schema::bundle::Profile;
use cgp_schema::json_text;
use cgp_schema::model::{Emit, Part, Shape};
use cgp_schema::shown::{cut, short};
use jsonschema::ValidationError;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

impl Validator {
    fn bundle_path(prefix: &str, schema_path: &str) -> String {
        if schema_path.starts_with("/$defs/") || prefix.is_empty() {
            schema_path.to_owned()
        } else {
            format!("{prefix}{schema_path}")
        }
    }

    pub(super) fn explain(
        &self,
        error: &ValidationError<'_>,
        prefix: &str,
        out: &mut Vec<Violation>,
    ) {
        let context = match error.kind() {
            ValidationErrorKind::OneOfNotValid { context }
            | ValidationErrorKind::AnyOf { context } => Some(context),
            _ => None,
        };
        if let Some(branches) = context {
            let keyword_path = Self::bundle_path(prefix, error.schema_path().as_str());
            if let Some(tagged) = self.tagged_union(&keyword_path, error.instance()) {
                match tagged {
                    Ok(index) => {
                        for inner in branches.get(index).into_iter().flatten() {
                            self.explain(inner, prefix, out);
                        }
                    }
                    Err((tag, message)) => {
                        let base = error.instance_path().as_str();
                        out.push(Violation {
                            instance_path: format!("{base}/{}", json_text::escape_token(&tag)),
                            schema_path: keyword_path,
                            message,
                        });
                    }
                }
                return;
            }
            if let Some(best) = best_branch(branches) {
                for inner in best {
                    self.explain(inner, prefix, out);
                }
                return;
            }
        }
        let schema_path = Self::bundle_path(prefix, error.schema_path().as_str());
        let instance_path = error.instance_path().as_str().to_owned();
        let message = self.message(error, &schema_path);
        out.push(Violation {
            instance_path,
            schema_path,
            message,
        });
    }

    /// For a `oneOf` tagged by `x-cgp-tag` (such as FrameVerdict on `status`): the
    /// index of the branch the instance's tag selects, or the tag member and a
    /// message when no branch matches. `None` for an untagged `oneOf`.
    fn tagged_union(
        &self,
        keyword_path: &str,
        instance: &Value,
    ) -> Option<Result<usize, (String, String)>> {
        let Some(Shape::TaggedUnion(union)) = self.owner(keyword_path)?.shape() else {
            return None;
        };
        let tag = union.tag.as_str();
        let expected = union
            .branches
            .iter()
            .map(|branch| Value::from(branch.tag.as_str()).to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let found = instance.get(tag);
        let index = found
            .and_then(Value::as_str)
            .and_then(|found| union.branches.iter().position(|branch| branch.tag == found));
        Some(match (index, found) {
            (Some(index), _) => Ok(index),
            (None, None) => Err((
                tag.to_owned(),
                format!("missing the tag member \"{tag}\"; expected one of {expected}"),
            )),
            (None, Some(found)) => Err((
                tag.to_owned(),
                format!("{} is not one of {expected}", short(found)),
            )),
        })
    }

    /// What the model read for the schema that holds the keyword at
    /// `keyword_path`, an evaluation path into the bundle.
    fn owner(&self, keyword_path: &str) -> Option<Part<'_>> {
        let cut = keyword_path.rfind('/')?;
        self.protocol()
            .part_at(&self.bundle_pointer(keyword_path.get(..cut)?)?)
    }

    /// The bundle pointer an evaluation path ends at: each `$ref` segment is
    /// replaced by the pointer the reference names.
    fn bundle_pointer(&self, path: &str) -> Option<String> {
        let mut pointer = String::new();
        let mut current = &self.document;
        for token in json_text::pointer_tokens(path) {
            if token == "$ref" {
                let reference = current.get("$ref")?.as_str()?.strip_prefix('#')?;
                current = self.document.pointer(reference)?;
                pointer = reference.to_owned();
                continue;
            }
            current = match current {
                Value::Object(map) => map.get(&token)?,
                Value::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
            pointer.push('/');
            pointer.push_str(&json_text::escape_token(&token));
        }
        Some(pointer)
    }

    fn member_rule(&self, object_keyword_path: &str, member: &str) -> Option<Emit> {
        self.owner(object_keyword_path)?
            .object()?
            .member(member)?
            .emit()
    }

    fn message(&self, error: &ValidationError<'_>, schema_path: &str) -> String {
        let instance = error.instance();
        let strict = self.profile == Profile::Strict;
        match error.kind() {
            ValidationErrorKind::Type { kind } => {
                let expected = match kind {
                    TypeKind::Single(single) => single.to_string(),
                    TypeKind::Multiple(set) => set
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" or "),
                };
                let note = if strict && instance.is_null() {
                    " (the strict profile wants an absent member, not null)"
                } else {
                    ""
                };
                format!("expected {expected}, found {}{note}", describe(instance))
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or_default();
                let rule = self.member_rule(schema_path, name);
                if strict && rule == Some(Emit::Always) {
                    format!(
                        "missing member \"{name}\": the canonical encoder always writes it (strict profile)"
                    )
                } else {
                    format!("missing required member \"{name}\"")
                }
            }
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                // A hostile message may carry a million members: name a few.
                let mut names = unexpected
                    .iter()
                    .take(MAX_NAMES_LISTED)
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ");
                let more = unexpected.len().saturating_sub(MAX_NAMES_LISTED);
                if more > 0 {
                    names.push_str(&format!(" and {more} more"));
                }
                let noun = if unexpected.len() == 1 {
                    "member"
                } else {
                    "members"
                };
                format!(
                    "unknown {noun} {names} (the strict profile allows only the members the schema names; interop receivers ignore them)"
                )
            }
            ValidationErrorKind::Maximum { limit } => {
                format!("{} is greater than the maximum {limit}", short(instance))
            }
            ValidationErrorKind::Minimum { limit } => {
                format!("{} is less than the minimum {limit}", short(instance))
            }
            ValidationErrorKind::Enum { options } => {
                let choices = options
                    .as_array()
                    .map(|values| values.iter().map(short).collect::<Vec<_>>().join(", "))
                    .unwrap_or_default();
                format!("{} is not one of {choices}", short(instance))
            }
            ValidationErrorKind::Constant { expected_value } => {
                format!("expected {expected_value}, found {}", short(instance))
            }
            ValidationErrorKind::MinItems { limit } => {
                let owner_rule = self
                    .owner(schema_path)
                    .and_then(|owner| owner.annotations().emit);
                if owner_rule == Some(Emit::OmitIfEmpty) {
                    "an empty array: the canonical encoder omits this member when it is empty (strict profile)".into()
                } else {
                    format!(
                        "expected at least {limit} item(s), found {}",
                        describe(instance)
                    )
                }
            }
            ValidationErrorKind::Not { schema } => match schema.get("const") {
                Some(default) => format!(
                    "{} is the default: the canonical encoder omits this member when it holds its default (strict profile)",
                    short(default)
                ),
                None => format!("{} must not match {}", short(instance), short(schema)),
            },
            _ => cut(&error.to_string(), 300),
        }
    }
}

/// Picks the branch whose errors are the most specific: deepest instance path
/// first, then fewest type mismatches, then fewest errors.
fn best_branch<'e>(
    branches: &'e [Vec<ValidationError<'static>>],
) -> Option<&'e Vec<ValidationError<'static>>> {
    branches
        .iter()
        .filter(|errors| !errors.is_empty())
        .max_by_key(|errors| {
            let depth = errors
                .iter()
                .map(|e| e.instance_path().as_str().matches('/').count())
                .max()
                .unwrap_or(0);
            let type_errors = errors
                .iter()
                .filter(|e| matches!(e.kind(), ValidationErrorKind::Type { .. }))
                .count();
            let null_branch = errors.iter().all(|e| {
                matches!(e.kind(), ValidationErrorKind::Type { kind: TypeKind::Single(t) } if t.to_string() == "null")
            });
            (depth, !null_branch, usize::MAX - type_errors, usize::MAX - errors.len())
        })
}

/// A short description of a JSON value's type and, for scalars, its value.
pub fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean {b}"),
        Value::Number(n) => format!("number {n}"),
        Value::String(_) => format!("string {}", short(value)),
        Value::Array(items) => format!("an array of {} item(s)", items.len()),
        Value::Object(_) => "an object".into(),
    }
}
