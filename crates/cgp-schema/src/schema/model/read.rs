//! Reading schemas into shapes. [`Reader::shape`] turns one schema object into a
//! [`Shape`]. It reads every assertion keyword a schema of this project may
//! carry; a keyword it cannot place in a shape makes the result
//! [`Shape::Unsupported`], naming the keyword, so nothing a validator would
//! enforce is ever dropped silently. Annotations (`title`, `description`,
//! `default`, `format`, `x-cgp-*`, …) do not change what is accepted; they are
//! kept in [`Annotations`].

use super::{
    Annotations, ArrayShape, Branch, IntegerShape, Limit, Member, NumberShape, ObjectShape, Place,
    Reading, Shape, StringShape, TaggedUnion, UnknownMembers, Vocabulary,
};
use crate::json_text;
use crate::keywords;
use serde_json::{Map, Value};

/// Reads schemas of one document into shapes.
pub(super) struct Reader<'d> {
    pub(super) root: &'d Value,
    pub(super) reading: Reading,
    pub(super) locate: &'d dyn Fn(&str) -> Place,
}

/// The `$defs` name a local reference `#/$defs/<Name>` names.
pub fn definition_name(reference: &str) -> Option<String> {
    let rest = reference.strip_prefix("#/$defs/")?;
    match json_text::pointer_tokens(&format!("/{rest}")).as_slice() {
        [name] => Some(name.clone()),
        _ => None,
    }
}

/// The pointer of the member `name` of the object schema at `object`: where the
/// member is read, or would be written.
pub fn member_pointer(object: &str, name: &str) -> String {
    format!("{object}/properties/{}", json_text::escape_token(name))
}

/// The pointer of the item schema of the array schema at `array`.
pub fn items_pointer(array: &str) -> String {
    format!("{array}/items")
}

fn is_null_schema(schema: &Value) -> bool {
    schema.get("type") == Some(&Value::from("null"))
}

fn as_u64(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}

/// The range a Rust integer type decodes, named by its schemars `format`.
fn format_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// A JSON number as an exact integer when it is one, else as `f64`.
fn integer_value(value: &Value) -> Option<Result<i128, f64>> {
    value
        .as_i64()
        .map(|v| Ok(v.into()))
        .or_else(|| value.as_u64().map(|v| Ok(v.into())))
        .or_else(|| value.as_f64().map(Err))
}

impl Reader<'_> {
    /// The shape of the schema at `pointer`.
    pub(super) fn shape(&self, schema: &Value, pointer: &str) -> Shape {
        match schema {
            Value::Bool(true) => return Shape::Any,
            Value::Bool(false) => return Shape::Unsupported("`false` schema".into()),
            Value::Object(_) => {}
            _ => return Shape::Unsupported("a schema that is not an object".into()),
        }
        let Some(map) = schema.as_object() else {
            return Shape::Any;
        };
        let mut used: Vec<&str> = Vec::new();
        let shape = self.shape_of(map, pointer, &mut used);
        let unread: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|key| !used.contains(key) && !keywords::is_annotation(key))
            .collect();
        match (shape, unread.as_slice()) {
            (Shape::Unsupported(why), _) => Shape::Unsupported(why),
            (shape, []) => shape,
            (_, keys) => Shape::Unsupported(format!(
                "keyword{} {} in this position",
                if keys.len() == 1 { "" } else { "s" },
                keys.iter()
                    .map(|key| format!("`{key}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn shape_of<'m>(
        &self,
        map: &'m Map<String, Value>,
        pointer: &str,
        used: &mut Vec<&'m str>,
    ) -> Shape {
        if let Some(all) = take(map, used, "allOf") {
            // The bundler writes an annotated `$ref` as `allOf: [{"$ref": …}]`;
            // any other `allOf` is refused.
            return match all.as_array().map(Vec::as_slice) {
                Some([only])
                    if only
                        .as_object()
                        .is_some_and(|o| o.len() == 1 && o.contains_key("$ref")) =>
                {
                    let inner = self.shape(only, &format!("{pointer}/allOf/0"));
                    self.excluding(inner, map, used)
                }
                _ => Shape::Unsupported("`allOf` other than around one bare `$ref`".into()),
            };
        }
        if let Some(reference) = take(map, used, "$ref") {
            let Some(name) = reference.as_str().and_then(definition_name) else {
                return Shape::Unsupported(format!("`$ref` {reference} is not `#/$defs/<Name>`"));
            };
            return self.excluding(Shape::Named(name), map, used);
        }
        for keyword in ["oneOf", "anyOf"] {
            if let Some(branches) = map.get(keyword) {
                used.push(keyword);
                used.push("type");
                let Some(branches) = branches.as_array() else {
                    return Shape::Unsupported(format!("`{keyword}` that is not an array"));
                };
                let shape = self.alternatives(map, branches, &format!("{pointer}/{keyword}"), used);
                return self.excluding(shape, map, used);
            }
        }
        let (types, nullable) = crate::keywords::declared_types(map);
        used.push("type");
        let shape = if let Some(constant) = take(map, used, "const") {
            Shape::Const(constant.clone())
        } else if let Some(values) = take(map, used, "enum") {
            match values.as_array().map(Vec::as_slice) {
                Some([one]) => Shape::Const(one.clone()),
                Some(values) => Shape::Enum(
                    values
                        .iter()
                        .filter(|value| {
                            types.is_empty() || types.iter().any(|t| has_type(value, t))
                        })
                        .cloned()
                        .collect(),
                ),
                None => Shape::Unsupported("`enum` that is not an array".into()),
            }
        } else {
            match types.as_slice() {
                [] if nullable => return Shape::Null,
                [] => Shape::Any,
                [kind] => self.typed(kind, map, pointer, used),
                _ => Shape::Unsupported(format!(
                    "`type` naming several JSON types ({})",
                    types.join(", ")
                )),
            }
        };
        let shape = self.excluding(shape, map, used);
        if nullable {
            Shape::Nullable(Box::new(shape))
        } else {
            shape
        }
    }

    /// Applies a sibling `not: {const}` / `not: {enum}`.
    fn excluding<'m>(
        &self,
        shape: Shape,
        map: &'m Map<String, Value>,
        used: &mut Vec<&'m str>,
    ) -> Shape {
        let Some(not) = map.get("not") else {
            return shape;
        };
        used.push("not");
        let values = match (not.get("const"), not.get("enum").and_then(Value::as_array)) {
            (Some(value), None) if not.as_object().is_some_and(|m| m.len() == 1) => {
                vec![value.clone()]
            }
            (None, Some(values)) if not.as_object().is_some_and(|m| m.len() == 1) => values.clone(),
            _ => {
                return Shape::Unsupported(
                    "`not` other than `{\"const\": …}` or `{\"enum\": […]}`".into(),
                );
            }
        };
        Shape::Excluding(Box::new(shape), values)
    }

    fn typed<'m>(
        &self,
        kind: &str,
        map: &'m Map<String, Value>,
        pointer: &str,
        used: &mut Vec<&'m str>,
    ) -> Shape {
        match kind {
            "null" => Shape::Null,
            "boolean" => Shape::Boolean,
            "integer" => self.integer(map, used),
            "number" => number(map, used),
            "string" => Shape::String(StringShape {
                min_length: as_u64(take(map, used, "minLength")),
                max_length: as_u64(take(map, used, "maxLength")),
                pattern: take(map, used, "pattern")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                format: map.get("format").and_then(Value::as_str).map(str::to_owned),
            }),
            "array" => self.array(map, pointer, used),
            "object" => {
                for key in ["properties", "required", "additionalProperties"] {
                    take(map, used, key);
                }
                match self.object(map, pointer) {
                    Ok(object) => Shape::Object(object),
                    Err(why) => Shape::Unsupported(why.0),
                }
            }
            other => Shape::Unsupported(format!("unknown JSON type `{other}`")),
        }
    }

    /// `type: integer`: its bounds made inclusive, narrowed by the Rust type's
    /// range when the reading is the Rust decoder's.
    fn integer<'m>(&self, map: &'m Map<String, Value>, used: &mut Vec<&'m str>) -> Shape {
        let format = map.get("format").and_then(Value::as_str).map(str::to_owned);
        let mut shape = IntegerShape {
            multiple_of: take(map, used, "multipleOf").map(Value::to_string),
            format: format.clone(),
            ..IntegerShape::default()
        };
        let low = |value: Result<i128, f64>, exclusive: bool| match value {
            Ok(v) => v + i128::from(exclusive),
            Err(f) if exclusive => f.floor() as i128 + 1,
            Err(f) => f.ceil() as i128,
        };
        let high = |value: Result<i128, f64>, exclusive: bool| match value {
            Ok(v) => v - i128::from(exclusive),
            Err(f) if exclusive => f.ceil() as i128 - 1,
            Err(f) => f.floor() as i128,
        };
        for (key, exclusive) in [("minimum", false), ("exclusiveMinimum", true)] {
            if let Some(value) = take(map, used, key).and_then(integer_value) {
                let bound = low(value, exclusive);
                shape.minimum = Some(shape.minimum.map_or(bound, |b| b.max(bound)));
            }
        }
        for (key, exclusive) in [("maximum", false), ("exclusiveMaximum", true)] {
            if let Some(value) = take(map, used, key).and_then(integer_value) {
                let bound = high(value, exclusive);
                shape.maximum = Some(shape.maximum.map_or(bound, |b| b.min(bound)));
            }
        }
        if self.reading == Reading::RustDecoder {
            if let Some((low, high)) = format.as_deref().and_then(format_range) {
                shape.minimum = Some(shape.minimum.map_or(low, |b| b.max(low)));
                shape.maximum = Some(shape.maximum.map_or(high, |b| b.min(high)));
            }
        }
        Shape::Integer(shape)
    }

    /// `type: array`: its item schema and its counts.
    fn array<'m>(
        &self,
        map: &'m Map<String, Value>,
        pointer: &str,
        used: &mut Vec<&'m str>,
    ) -> Shape {
        Shape::Array(ArrayShape {
            items: Box::new(match take(map, used, "items") {
                Some(items) => self.shape(items, &items_pointer(pointer)),
                None => Shape::Any,
            }),
            item_annotations: map
                .get("items")
                .and_then(Value::as_object)
                .map(Annotations::of)
                .unwrap_or_default(),
            min_items: as_u64(take(map, used, "minItems")),
            max_items: as_u64(take(map, used, "maxItems")),
            unique_items: take(map, used, "uniqueItems") == Some(&Value::Bool(true)),
        })
    }

    /// The members of an object schema.
    pub(super) fn object(
        &self,
        map: &Map<String, Value>,
        pointer: &str,
    ) -> Result<ObjectShape, Unreadable> {
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let unknown_members = match map.get("additionalProperties") {
            None | Some(Value::Bool(true)) => UnknownMembers::Allowed,
            Some(Value::Bool(false)) => UnknownMembers::Rejected,
            Some(_) => return Err(Unreadable("`additionalProperties` with a schema".into())),
        };
        let mut members = Vec::new();
        for (name, schema) in map
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let at = member_pointer(pointer, name);
            members.push(Member {
                name: name.clone(),
                required: required.contains(&name.as_str()),
                shape: self.shape(schema, &at),
                annotations: schema.as_object().map(Annotations::of).unwrap_or_default(),
                at: (self.locate)(&at),
            });
        }
        for name in &required {
            if !members.iter().any(|member| member.name == *name) {
                return Err(Unreadable(format!(
                    "`required` names `{name}`, which `properties` does not define"
                )));
            }
        }
        Ok(ObjectShape {
            members,
            unknown_members,
        })
    }

    /// `oneOf`/`anyOf`: a nullable value, an open vocabulary or a tagged union.
    fn alternatives<'m>(
        &self,
        map: &'m Map<String, Value>,
        branches: &[Value],
        pointer: &str,
        used: &mut Vec<&'m str>,
    ) -> Shape {
        let (nulls, rest): (Vec<Indexed<'_>>, Vec<Indexed<'_>>) = branches
            .iter()
            .enumerate()
            .partition(|(_, branch)| is_null_schema(branch));
        if let ([_], [(index, only)]) = (nulls.as_slice(), rest.as_slice()) {
            return Shape::Nullable(Box::new(self.shape(only, &format!("{pointer}/{index}"))));
        }
        if !nulls.is_empty() {
            return Shape::Unsupported("a `null` branch beside several others".into());
        }
        if let Some(vocabulary) = self.open_vocabulary(branches) {
            return Shape::OpenVocabulary(vocabulary);
        }
        used.extend(["properties", "required", "additionalProperties"]);
        match self.tagged_union(map, branches, pointer) {
            Ok(union) => Shape::TaggedUnion(union),
            Err(why) => Shape::Unsupported(why.0),
        }
    }

    /// `[{enum: known}, {type: string, not: {enum: known}}]`, the known half inline
    /// or behind a `$ref`.
    fn open_vocabulary(&self, branches: &[Value]) -> Option<Vocabulary> {
        let [known, other] = branches else {
            return None;
        };
        let known_type = known
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(definition_name);
        let known_schema = match &known_type {
            Some(name) => self.root.get("$defs")?.get(name)?,
            None => known,
        };
        let values = known_schema.get("enum")?;
        if other.pointer("/not/enum")? != values || other.get("type")? != "string" {
            return None;
        }
        Some(Vocabulary {
            known: values
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            known_type,
        })
    }

    fn tagged_union(
        &self,
        map: &Map<String, Value>,
        branches: &[Value],
        pointer: &str,
    ) -> Result<TaggedUnion, Unreadable> {
        let outer = pointer.rsplit_once('/').map_or("", |(outer, _)| outer);
        let shared = self.object(map, outer)?;
        let mut read = Vec::new();
        for (index, branch) in branches.iter().enumerate() {
            let at = format!("{pointer}/{index}");
            let Some(branch_map) = branch.as_object() else {
                return Err(Unreadable(format!(
                    "branch {index} is not an object schema"
                )));
            };
            let Shape::Object(object) = self.shape(branch, &at) else {
                return Err(Unreadable(format!(
                    "branch {index} is not an inline object schema, so the union has no tag"
                )));
            };
            read.push((Annotations::of(branch_map), at, object));
        }
        let declared = map.get("x-cgp-tag").and_then(Value::as_str);
        let tag = match (declared, read.is_empty()) {
            // `oneOf: []` accepts nothing, as a union without branches does.
            (Some(tag), true) => Ok(tag.to_owned()),
            _ => read
                .first()
                .and_then(|(_, _, object)| {
                    object.members.iter().find(|member| {
                        declared.is_none_or(|tag| tag == member.name)
                            && matches!(&member.shape, Shape::Const(Value::String(_)))
                    })
                })
                .map(|member| member.name.clone())
                .ok_or_else(|| {
                    Unreadable(
                        "no member has a string `const` in the first branch, so the union has no tag"
                            .into(),
                    )
                }),
        }?;
        let mut union = TaggedUnion {
            tag,
            shared,
            branches: Vec::new(),
        };
        for (annotations, at, object) in read {
            let value = match object.member(&union.tag).map(|member| &member.shape) {
                Some(Shape::Const(Value::String(value))) => value.clone(),
                _ => {
                    return Err(Unreadable(format!(
                        "branch at {at} has no string `const` for the tag `{}`",
                        union.tag
                    )));
                }
            };
            if union.branch(&value).is_some() {
                return Err(Unreadable(format!("two branches are tagged \"{value}\"")));
            }
            union.branches.push(Branch {
                tag: value,
                object,
                annotations,
                at: (self.locate)(&at),
            });
        }
        Ok(union)
    }
}

/// `type: number`: the tighter of each pair of inclusive and exclusive bounds.
fn number<'m>(map: &'m Map<String, Value>, used: &mut Vec<&'m str>) -> Shape {
    let mut shape = NumberShape {
        multiple_of: take(map, used, "multipleOf").map(Value::to_string),
        format: map.get("format").and_then(Value::as_str).map(str::to_owned),
        ..NumberShape::default()
    };
    let limit = |key: &str, exclusive: bool| {
        map.get(key)
            .and_then(Value::as_f64)
            .map(|value| Limit { value, exclusive })
    };
    let tighter_low = |a: Option<Limit>, b: Option<Limit>| match (a, b) {
        (Some(a), Some(b)) => Some(if b.value >= a.value { b } else { a }),
        (a, b) => a.or(b),
    };
    let tighter_high = |a: Option<Limit>, b: Option<Limit>| match (a, b) {
        (Some(a), Some(b)) => Some(if b.value <= a.value { b } else { a }),
        (a, b) => a.or(b),
    };
    for key in ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"] {
        take(map, used, key);
    }
    shape.minimum = tighter_low(limit("minimum", false), limit("exclusiveMinimum", true));
    shape.maximum = tighter_high(limit("maximum", false), limit("exclusiveMaximum", true));
    Shape::Number(shape)
}

/// Why a schema cannot be read into a shape: the reason
/// [`Shape::Unsupported`] then carries.
#[derive(Debug)]
pub(super) struct Unreadable(pub(super) String);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unreadable {}

/// A branch and its index.
type Indexed<'v> = (usize, &'v Value);

/// `map[key]`, noting that `key` was read.
fn take<'m>(
    map: &'m Map<String, Value>,
    used: &mut Vec<&'m str>,
    key: &'static str,
) -> Option<&'m Value> {
    used.push(key);
    map.get(key)
}

fn has_type(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => {
            value.is_i64() || value.is_u64() || value.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}
