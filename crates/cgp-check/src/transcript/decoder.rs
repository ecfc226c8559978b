//! Why the reference decoder rejects a schema-valid message: an integer member
//! with a float spelling, found by trying each integral float as an integer.

use super::finding::{Finding, Layer, token_at};
use cgp_schema::json_text::{self, Position};
use cgp_types::Envelope;
use serde::Deserialize;
use serde_json::{Number, Value};

/// The reason the decoder rejected a schema-valid value. The only known cause is
/// an integer member written with a float spelling, which a parsed value shows
/// as a float with an integral value: each such number is tried as an integer,
/// and the ones that change the decoder's verdict are reported.
pub(super) fn decoder_findings(
    text: &str,
    value: &Value,
    error: &serde_json::Error,
) -> Vec<Finding> {
    let original = error.to_string();
    let mut findings = float_spelled_integers(text, value, |pointer| {
        let mut repaired = value.clone();
        let Some(slot) = repaired.pointer_mut(pointer) else {
            return false;
        };
        let Some(integer) = slot.as_f64().and_then(as_integer) else {
            return false;
        };
        *slot = Value::Number(integer);
        let verdict = Envelope::deserialize(&repaired)
            .err()
            .map(|e| e.to_string());
        verdict.as_deref() != Some(original.as_str())
    });
    if findings.is_empty() {
        let position = serde_json::from_str::<Envelope>(text)
            .err()
            .filter(|e| e.line() > 0)
            .map(|e| Position {
                line: e.line(),
                column: e.column().max(1),
            });
        findings.push(Finding {
            layer: Layer::Decoder,
            rule: None,
            instance_path: String::new(),
            schema_path: None,
            message: format!("the reference decoder rejects this message: {original}"),
            position,
        });
    }
    findings
}

/// The same rule for a version the hand-written types do not decode (another
/// family): an integral float is an integer member's when the version's schema
/// refuses a fraction in its place (a `type` violation there).
pub(super) fn schema_integer_findings(
    text: &str,
    value: &Value,
    validator: &crate::validate::Validator,
) -> Vec<Finding> {
    float_spelled_integers(text, value, |pointer| {
        let mut probe = value.clone();
        let Some(slot) = probe.pointer_mut(pointer) else {
            return false;
        };
        let Some(fraction) = slot.as_f64().map(|float| float + 0.5) else {
            return false;
        };
        let Some(fraction) = Number::from_f64(fraction) else {
            return false;
        };
        *slot = Value::Number(fraction);
        validator.validate_envelope(&probe).iter().any(|violation| {
            violation.instance_path == pointer && violation.schema_path.ends_with("/type")
        })
    })
}

/// A finding for each integral float of `value` that `is_integer_member`
/// (given its pointer) says stands where an integer must.
fn float_spelled_integers(
    text: &str,
    value: &Value,
    is_integer_member: impl Fn(&str) -> bool,
) -> Vec<Finding> {
    let mut candidates = Vec::new();
    integral_floats(value, &mut String::new(), &mut candidates);
    let mut document = None;
    let mut findings = Vec::new();
    for pointer in candidates {
        if !is_integer_member(&pointer) {
            continue;
        }
        let document = document.get_or_insert_with(|| json_text::parse(text).ok());
        let position = document.as_ref().and_then(|d| d.position(&pointer));
        let literal = position
            .map(|position| token_at(text, position))
            .filter(|literal| !literal.is_empty())
            .unwrap_or_else(|| {
                value
                    .pointer(&pointer)
                    .map(Value::to_string)
                    .unwrap_or_default()
            });
        let message = if literal.contains(['.', 'e', 'E']) {
            format!(
                "{literal} is spelled as a float; an integer member must be an integer literal, with no fraction or exponent (the reference decoder rejects it)"
            )
        } else if literal == "-0" {
            "-0 is read as a floating-point negative zero; write the integer 0 (the reference decoder rejects -0 here)".to_owned()
        } else {
            format!("{literal} is beyond the integer range the reference decoder reads")
        };
        findings.push(Finding::text(pointer, message, position));
    }
    findings
}

fn as_integer(float: f64) -> Option<Number> {
    if float.fract() != 0.0 || !float.is_finite() {
        return None;
    }
    if float >= 0.0 {
        // Saturates at u64::MAX, which still reads as an integer.
        Some(Number::from(float as u64))
    } else {
        Some(Number::from(float as i64))
    }
}

fn integral_floats(value: &Value, pointer: &mut String, out: &mut Vec<String>) {
    match value {
        Value::Number(number)
            if number.is_f64() && number.as_f64().and_then(as_integer).is_some() =>
        {
            out.push(pointer.clone());
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let base = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                integral_floats(item, pointer, out);
                pointer.truncate(base);
            }
        }
        Value::Object(members) => {
            for (name, member) in members {
                let base = pointer.len();
                pointer.push('/');
                pointer.push_str(&json_text::escape_token(name));
                integral_floats(member, pointer, out);
                pointer.truncate(base);
            }
        }
        _ => {}
    }
}
