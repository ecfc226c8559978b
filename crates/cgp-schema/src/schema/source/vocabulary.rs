//! The shape of an open vocabulary (`x-cgp-vocabulary: "open"`): the known
//! values and the branch every other string takes. Checked by the loader's
//! lints ([`super::lints`]).

use serde_json::Value;

/// What is wrong with a schema that declares an open vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum VocabularyProblem {
    /// The `oneOf` is not a `$ref` to the known values beside the other strings.
    #[error(
        "an open vocabulary is `oneOf: [{{\"$ref\": \"#/$defs/Known…\"}}, {{\"type\": \"string\", \"not\": {{\"enum\": [...]}}}}]` with the known values listed in both places"
    )]
    Shape,
    /// `not.enum` lists other values than the known ones, or another order.
    #[error(
        "an open vocabulary must exclude exactly its known values in `not.enum`, in the same order"
    )]
    Excluded,
    /// The known values are empty or not all strings.
    #[error("the known values must be a non-empty list of strings")]
    KnownValues,
}

/// The known values of an open vocabulary, checking its shape: `oneOf` of a `$ref`
/// to a local closed `enum` of the known values, and `{"type": "string", "not":
/// {"enum": [the same values]}}` for every other string.
/// `root` is the document `#` pointers resolve in: the file itself for a source
/// schema, the whole bundle for a bundled one.
pub(super) fn open_vocabulary_values(
    schema: &Value,
    root: &Value,
) -> Result<Vec<String>, VocabularyProblem> {
    let shape = VocabularyProblem::Shape;
    let Some([known_branch, other]) = schema
        .get("oneOf")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    else {
        return Err(shape);
    };
    let known_ref = known_branch
        .get("$ref")
        .and_then(Value::as_str)
        .ok_or(shape)?;
    let known = known_ref
        .strip_prefix('#')
        .and_then(|pointer| root.pointer(pointer))
        .filter(|known| known.get("type").and_then(Value::as_str) == Some("string"))
        .and_then(|known| known.get("enum"))
        .ok_or(shape)?;
    if other.get("type").and_then(Value::as_str) != Some("string") {
        return Err(shape);
    }
    let excluded = other.pointer("/not/enum").ok_or(shape)?;
    if known != excluded {
        return Err(VocabularyProblem::Excluded);
    }
    known
        .as_array()
        .filter(|values| !values.is_empty())
        .and_then(|values| {
            values
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or(VocabularyProblem::KnownValues)
}
