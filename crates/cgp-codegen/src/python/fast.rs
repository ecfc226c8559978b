//! The package's two fast paths, generated per type from the same model as the
//! wire table:
//!
//! - `cgp_types/_fast.py`, the decoder behind `decode_line` when msgspec is
//!   installed: a `msgspec.Struct` mirror of every type msgspec cannot decode
//!   into the public dataclass itself (open vocabularies, unions, integers with
//!   ranges, `f32`s, and what holds them), converters from the mirrors to the
//!   dataclasses, and the checks in front for what msgspec hides (duplicate
//!   members, `-0`, escapes, nesting);
//! - `cgp_types/_writer.py`, the encoder behind `encode_line`, pure Python: a
//!   function per type writing its members in order by their emit rules.
//!
//! Neither decides anything on its own: a line or value either fast path
//! cannot vouch for goes to the exact path (`_wire.py`), which decides
//! verdicts, messages and bytes.

use super::*;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The largest integer bound `msgspec.Meta` takes (an `int64`).
const META_MAX: i128 = i64::MAX as i128;
/// The smallest.
const META_MIN: i128 = i64::MIN as i128;

impl Builder<'_> {
    /// Whether a value of `shape` needs converting from what msgspec decodes.
    fn mirrored(&self, shape: &Shape, seen: &mut Vec<String>) -> bool {
        match shape {
            Shape::String(_) | Shape::Boolean => false,
            Shape::Integer(_) | Shape::Number(_) => true,
            Shape::Nullable(inner) => self.mirrored(inner, seen),
            Shape::Array(array) => self.mirrored(&array.items, seen),
            Shape::Named(name) => self.named_mirrored(name, seen),
            _ => true,
        }
    }

    fn named_mirrored(&self, name: &str, seen: &mut Vec<String>) -> bool {
        if seen.iter().any(|n| n == name) {
            // A cycle: mirror it rather than reason about it.
            return true;
        }
        let Some(named) = self.protocol.named(name) else {
            return true;
        };
        match &named.shape {
            Shape::Enum(_) => false,
            Shape::Object(object) => {
                seen.push(name.to_owned());
                let any = object
                    .members
                    .iter()
                    .any(|member| self.mirrored(&member.shape, seen));
                seen.pop();
                any
            }
            _ => true,
        }
    }

    /// The msgspec type of a shape.
    fn mirror_type(&self, shape: &Shape) -> String {
        match shape {
            Shape::String(_) => "str".into(),
            Shape::Boolean => "bool".into(),
            Shape::Integer(integer) => {
                let mut bounds = Vec::new();
                if let Some(minimum) = integer
                    .minimum
                    .filter(|n| (META_MIN..=META_MAX).contains(n))
                {
                    bounds.push(format!("ge={minimum}"));
                }
                if let Some(maximum) = integer
                    .maximum
                    .filter(|n| (META_MIN..=META_MAX).contains(n))
                {
                    bounds.push(format!("le={maximum}"));
                }
                if bounds.is_empty() {
                    "int".into()
                } else {
                    format!("typing.Annotated[int, msgspec.Meta({})]", bounds.join(", "))
                }
            }
            Shape::Number(_) => "float".into(),
            Shape::Nullable(inner) => format!("{} | None", self.mirror_type(inner)),
            Shape::Array(array) => format!("list[{}]", self.mirror_type(&array.items)),
            Shape::Named(name) => match self.protocol.named(name).map(|n| &n.shape) {
                Some(Shape::Enum(_)) => name.clone(),
                Some(Shape::OpenVocabulary(_)) => "str".into(),
                Some(Shape::TaggedUnion(_)) => format!("_U_{name}"),
                _ if self.named_mirrored(name, &mut Vec::new()) => format!("_M_{name}"),
                _ => name.clone(),
            },
            _ => "typing.Any".into(),
        }
    }

    /// The Python expression converting `value` (an expression) of `shape`
    /// from its mirror, or `None` when it is the same value.
    fn convert(&self, shape: &Shape, value: &str, depth: usize) -> Option<String> {
        match shape {
            Shape::Integer(integer) => {
                let outside = |limit: Option<i128>| {
                    limit.is_some_and(|n| !(META_MIN..=META_MAX).contains(&n))
                };
                (outside(integer.minimum) || outside(integer.maximum)).then(|| {
                    let bound =
                        |limit: Option<i128>| limit.map_or("None".into(), |n| n.to_string());
                    format!(
                        "_within({value}, {}, {})",
                        bound(integer.minimum),
                        bound(integer.maximum)
                    )
                })
            }
            Shape::Number(_) => Some(format!("_f32({value})")),
            Shape::Nullable(inner) => self
                .convert(inner, value, depth)
                .map(|c| format!("(None if {value} is None else {c})")),
            Shape::Array(array) => {
                if matches!(*array.items, Shape::Number(_)) {
                    return Some(format!("_f32s({value})"));
                }
                let item = format!("item{depth}");
                self.convert(&array.items, &item, depth + 1)
                    .map(|c| format!("[{c} for {item} in {value}]"))
            }
            Shape::Named(name) => match self.protocol.named(name).map(|n| &n.shape) {
                Some(Shape::Enum(_)) => None,
                Some(Shape::OpenVocabulary(_)) => {
                    Some(format!("_OPEN_{name}.get({value}, {value})"))
                }
                Some(Shape::TaggedUnion(_)) => Some(format!("_CONVERT[type({value})]({value})")),
                // A mirrored object converts itself (its `__post_init__`).
                _ => None,
            },
            _ => None,
        }
    }

    /// The fast decoder, `cgp_types/_fast.py`.
    pub(super) fn fast_decoder(&self, package: &Package) -> Result<String, Diagnostic> {
        // msgspec reads a dataclass's members by their attribute names, so a
        // member named as a Python keyword (`from` → `from_`) has no fast path.
        let renamed = package.plans.iter().find_map(|plan| {
            plan.members
                .iter()
                .find(|member| attribute_name(&member.name) != member.name)
                .map(|member| format!("{}.{}", plan.name, member.name))
        });
        if let Some(member) = renamed {
            return Ok(format!(
                "\"\"\"No fast decoder for this protocol: the member `{member}` is named as a\nPython keyword, which msgspec cannot read into the dataclass. Generated by\n`cargo xtask codegen`; do not edit.\n\"\"\"\n\nraise ImportError(\"no fast path: the member {member} is a Python keyword\")\n"
            ));
        }
        let mut out = String::from(FAST_HEADER);
        let imports = imported(package);
        writeln!(out, "from . import (\n{imports})\n").ok();
        let mut opens = BTreeMap::new();
        for (name, named) in &self.protocol.types {
            if let Shape::OpenVocabulary(vocabulary) = &named.shape {
                if let Some(known) = &vocabulary.known_type {
                    opens.insert(name.clone(), known.clone());
                }
            }
        }
        for (name, known) in &opens {
            writeln!(
                out,
                "_OPEN_{name}: dict[str, {known}] = {{member.value: member for member in {known}}}"
            )
            .ok();
        }
        let mut convert_entries = Vec::new();
        for plan in &package.plans {
            let object_like =
                plan.tag.is_some() || self.named_mirrored(&plan.name, &mut Vec::new());
            if !object_like {
                continue;
            }
            if plan.tag.is_none() {
                self.subclass_mirror(&mut out, plan);
                continue;
            }
            let mut options = String::from("kw_only=True, gc=False");
            if let Some((tag, value, _)) = &plan.tag {
                write!(
                    options,
                    ", tag_field={}, tag={}",
                    literal(tag),
                    literal(value)
                )
                .ok();
                convert_entries.push(plan.name.clone());
            }
            writeln!(
                out,
                "\n\nclass _M_{}(msgspec.Struct, {options}):",
                plan.name
            )
            .ok();
            let mut arguments = Vec::new();
            if plan.members.is_empty() {
                out.push_str("    pass\n");
            }
            for member in &plan.members {
                let attribute = attribute_name(&member.name);
                let (shape, nullable) = member.shape.without_null();
                let mut annotation = self.mirror_type(shape);
                if nullable {
                    annotation.push_str(" | None");
                }
                let access = format!("s.{attribute}");
                let mut conversion = self.convert(&member.shape, &access, 0);
                let mut field = Vec::new();
                if attribute != member.name {
                    field.push(format!("name={}", literal(&member.name)));
                }
                if !member.required {
                    let default = self.default_expression(member)?;
                    if default == "None" || default == "[]" {
                        field.push(format!("default={default}"));
                    } else if conversion.is_some() {
                        annotation.push_str(" | msgspec.UnsetType");
                        field.push("default=msgspec.UNSET".into());
                        let converted = conversion.take().unwrap_or_default();
                        conversion = Some(format!(
                            "({default} if {access} is msgspec.UNSET else {converted})"
                        ));
                    } else if default.ends_with(')') {
                        field.push(format!("default_factory=lambda: {default}"));
                    } else {
                        field.push(format!("default={default}"));
                    }
                }
                let assigned = match field.as_slice() {
                    [] => String::new(),
                    [only] if only.starts_with("default=") => {
                        format!(" = {}", &only["default=".len()..])
                    }
                    _ => format!(" = msgspec.field({})", field.join(", ")),
                };
                writeln!(out, "    {attribute}: {annotation}{assigned}").ok();
                arguments.push(format!(
                    "        {attribute}={},\n",
                    conversion.unwrap_or(access)
                ));
            }
            writeln!(
                out,
                "\n\ndef _c_{name}(s: _M_{name}) -> {name}:\n    return {name}(\n{}    )",
                arguments.concat(),
                name = plan.name
            )
            .ok();
        }
        for (union, branches) in &package.union_branches {
            let mirrors: Vec<String> = branches.iter().map(|b| format!("_M_{b}")).collect();
            writeln!(out, "\n\n_U_{union} = typing.Union[{}]", mirrors.join(", ")).ok();
        }
        out.push_str("\n\n_CONVERT: dict[type, typing.Callable[[typing.Any], typing.Any]] = {\n");
        for name in &convert_entries {
            writeln!(out, "    _M_{name}: _c_{name},").ok();
        }
        out.push_str("}\n");
        let variants: Vec<String> = package.variants.iter().map(|v| format!("_M_{v}")).collect();
        writeln!(
            out,
            "_ENVELOPE = msgspec.json.Decoder(typing.Union[{}])",
            variants.join(", ")
        )
        .ok();
        out.push_str(FAST_FOOTER);
        Ok(out)
    }

    /// An object type msgspec reads into a subclass of its dataclass: the
    /// subclass declares the members msgspec must read otherwise (an open
    /// vocabulary as `str`, a bounded integer, an `f32` as a double, a union as
    /// its `Struct` mirrors), and its `__post_init__`, which msgspec calls,
    /// converts those members and makes the object the public dataclass (the
    /// subclass adds no slots, so the layouts are the same).
    fn subclass_mirror(&self, out: &mut String, plan: &ClassPlan) {
        let mut annotations = Vec::new();
        let mut fixes = Vec::new();
        for member in &plan.members {
            if !self.mirrored(&member.shape, &mut Vec::new()) {
                continue;
            }
            let attribute = attribute_name(&member.name);
            let (shape, nullable) = member.shape.without_null();
            let mut annotation = self.mirror_type(shape);
            if nullable {
                annotation.push_str(" | None");
            }
            annotations.push(format!(
                "        {}: {},\n",
                literal(&attribute),
                literal(&annotation)
            ));
            let access = format!("record.{attribute}");
            if let Some(conversion) = self.convert(&member.shape, &access, 0) {
                fixes.push(format!("        {access} = {conversion}\n"));
            }
        }
        writeln!(
            out,
            "\n\nclass _M_{name}({name}):\n    __slots__ = ()\n    __annotations__ = {{\n{}    }}\n\n    def __post_init__(self) -> None:\n        record: typing.Any = self\n{}        record.__class__ = {name}",
            annotations.concat(),
            fixes.concat(),
            name = plan.name
        )
        .ok();
    }

    /// Whether `shape` writes as one short expression (a scalar, an enum, an
    /// array of those) rather than through a writer function.
    fn scalar(&self, shape: &Shape) -> bool {
        match shape {
            Shape::String(_) | Shape::Boolean | Shape::Integer(_) | Shape::Number(_) => true,
            Shape::Nullable(inner) => self.scalar(inner),
            Shape::Array(array) => self.scalar(&array.items),
            Shape::Named(name) => matches!(
                self.protocol.named(name).map(|n| &n.shape),
                Some(Shape::Enum(_) | Shape::OpenVocabulary(_))
            ),
            _ => false,
        }
    }

    /// The expression writing `value` of a [`Self::scalar`] shape as JSON
    /// text, raising `_Miss` (or any other exception) where the exact writer
    /// must decide.
    fn write_expression(&self, shape: &Shape, value: &str, depth: usize) -> String {
        match shape {
            Shape::String(_) => format!(
                "((_str({value}) if len({value}) < _LONG else _long({value})) if type({value}) is str else _miss())"
            ),
            Shape::Boolean => format!(
                "(\"true\" if {value} is True else \"false\" if {value} is False else _miss())"
            ),
            Shape::Integer(integer) => {
                let bound = |limit: Option<i128>| limit.map_or("None".into(), |n| n.to_string());
                format!(
                    "_int({value}, {}, {})",
                    bound(integer.minimum),
                    bound(integer.maximum)
                )
            }
            Shape::Number(_) => format!("_f32({value})"),
            Shape::Nullable(inner) => format!(
                "(\"null\" if {value} is None else {})",
                self.write_expression(inner, value, depth)
            ),
            Shape::Array(array) => {
                let item = format!("item{depth}");
                format!(
                    "(\"[\" + \",\".join([{} for {item} in {value}]) + \"]\" if type({value}) is list else _miss())",
                    self.write_expression(&array.items, &item, depth + 1)
                )
            }
            Shape::Named(name) => match self.protocol.named(name).map(|n| &n.shape) {
                Some(Shape::Enum(_)) => format!("_TEXT_{name}[{value}]"),
                Some(Shape::OpenVocabulary(vocabulary)) => match &vocabulary.known_type {
                    Some(known) => format!(
                        "(_str({value}) if type({value}) is str else _TEXT_{known}[{value}])"
                    ),
                    None => "_miss()".into(),
                },
                _ => "_miss()".into(),
            },
            _ => "_miss()".into(),
        }
    }

    /// The statements writing `value` of `shape` through `add`, one piece at
    /// a time (a long string is never copied into a larger one before the
    /// line is joined), at `indent`.
    fn write_statements(&self, shape: &Shape, value: &str, indent: &str, depth: usize) -> String {
        if self.scalar(shape) {
            return format!(
                "{indent}add({})\n",
                self.write_expression(shape, value, depth)
            );
        }
        match shape {
            Shape::Nullable(inner) => format!(
                "{indent}if {value} is None:\n{indent}    add(\"null\")\n{indent}else:\n{}",
                self.write_statements(inner, value, &format!("{indent}    "), depth)
            ),
            Shape::Array(array) => {
                let item = format!("item{depth}");
                let index = format!("index{depth}");
                format!(
                    "{indent}if type({value}) is not list:\n{indent}    _miss()\n{indent}add(\"[\")\n{indent}for {index}, {item} in enumerate({value}):\n{indent}    if {index}:\n{indent}        add(\",\")\n{}{indent}add(\"]\")\n",
                    self.write_statements(&array.items, &item, &format!("{indent}    "), depth + 1)
                )
            }
            Shape::Named(name) => format!("{indent}_write_{name}({value}, add)\n"),
            _ => format!("{indent}_miss()\n"),
        }
    }

    /// The statements writing one member, `head` (the expression of its
    /// key with the `{` or `,` before it) and its value `item`: one piece
    /// for a short scalar, the key and then the value's pieces otherwise (a
    /// string may be long: it is not copied into a larger one).
    fn member_statements(&self, shape: &Shape, head: &str, indent: &str) -> String {
        let (inner, _) = shape.without_null();
        let string_like = match inner {
            Shape::String(_) => true,
            Shape::Named(name) => matches!(
                self.protocol.named(name).map(|n| &n.shape),
                Some(Shape::OpenVocabulary(_))
            ),
            _ => false,
        };
        if self.scalar(shape) && !string_like {
            format!(
                "{indent}add({head} + {})\n",
                self.write_expression(shape, "item", 0)
            )
        } else {
            format!(
                "{indent}add({head})\n{}",
                self.write_statements(shape, "item", indent, 0)
            )
        }
    }

    /// The fast encoder, `cgp_types/_writer.py`.
    pub(super) fn fast_writer(&self, package: &Package) -> Result<String, Diagnostic> {
        let mut out = String::from(WRITER_HEADER);
        let imports = imported(package);
        writeln!(out, "from . import (\n{imports})\n").ok();
        for item in &package.enums {
            writeln!(
                out,
                "_TEXT_{name}: dict[{name}, str] = {{member: _str(member.value) for member in {name}}}",
                name = item.name
            )
            .ok();
        }
        let mut defaults = Vec::new();
        for plan in &package.plans {
            let mut body = String::new();
            writeln!(
                body,
                "\n\ndef _write_{name}(value: typing.Any, add: typing.Callable[[str], None]) -> None:\n    if type(value) is not {name}:\n        _miss()\n    item: typing.Any",
                name = plan.name
            )
            .ok();
            // Until a member is surely written, its key's prefix (`{` or `,`)
            // is the variable `sep`; afterwards it is `,`.
            let mut written = false;
            let mut dynamic = false;
            // Whether an optional member before this one may have been written.
            let mut maybe = false;
            let prefix = |written: bool, maybe: bool, dynamic: &mut bool, key: &str| -> String {
                if written {
                    literal(&format!(",{key}"))
                } else if !maybe {
                    literal(&format!("{{{key}"))
                } else {
                    *dynamic = true;
                    format!("sep + {}", literal(key))
                }
            };
            let mut lines = Vec::new();
            let mut members: Vec<Option<&Member>> = plan.members.iter().map(Some).collect();
            if let Some((_, _, tag_at)) = &plan.tag {
                members.insert((*tag_at).min(members.len()), None);
            }
            for member in members {
                let Some(member) = member else {
                    let Some((tag, tag_value, _)) = &plan.tag else {
                        continue;
                    };
                    let text = format!("{}:{}", literal(tag), literal(tag_value));
                    lines.push(format!(
                        "    add({})\n",
                        prefix(written, maybe, &mut dynamic, &text)
                    ));
                    written = true;
                    continue;
                };
                let attribute = attribute_name(&member.name);
                let key = format!("{}:", literal(&member.name));
                let emit = if member.required {
                    Emit::Always
                } else {
                    member.emit().unwrap_or(Emit::Always)
                };
                lines.push(format!("    item = value.{attribute}\n"));
                let condition = match emit {
                    Emit::Always => None,
                    Emit::OmitIfAbsent => Some("item is not None".to_owned()),
                    Emit::OmitIfEmpty => {
                        lines.push("    if type(item) is not list:\n        _miss()\n".into());
                        Some("item".to_owned())
                    }
                    Emit::OmitIfDefault => {
                        let default = self.default_expression(member)?;
                        let constant = format!("_DEFAULT_{}_{attribute}", plan.name);
                        defaults.push(format!("{constant} = {default}\n"));
                        Some(format!("item != {constant}"))
                    }
                };
                match condition {
                    None => {
                        let head = prefix(written, maybe, &mut dynamic, &key);
                        lines.push(self.member_statements(&member.shape, &head, "    "));
                        written = true;
                    }
                    Some(condition) => {
                        let head = prefix(written, maybe, &mut dynamic, &key);
                        lines.push(format!("    if {condition}:\n"));
                        lines.push(self.member_statements(&member.shape, &head, "        "));
                        if !written {
                            // From here on the next key's prefix is `sep`.
                            lines.push("        sep = \",\"\n".into());
                            dynamic = true;
                            maybe = true;
                        }
                    }
                }
            }
            if dynamic {
                body.push_str("    sep = \"{\"\n");
            }
            for line in lines {
                body.push_str(&line);
            }
            if written {
                body.push_str("    add(\"}\")\n");
            } else {
                body.push_str("    add(\"}\" if sep == \",\" else \"{}\")\n");
            }
            out.push_str(&body);
        }
        for (union, branches) in &package.union_branches {
            write_dispatch(&mut out, union, branches);
        }
        write_dispatch(&mut out, "Envelope", &package.variants);
        out.push('\n');
        for default in defaults {
            out.push_str(&default);
        }
        out.push_str(WRITER_FOOTER);
        Ok(out)
    }
}

fn write_dispatch(out: &mut String, name: &str, branches: &[String]) {
    writeln!(
        out,
        "\n\n_WRITERS_{name}: dict[type, typing.Callable[[typing.Any, typing.Callable[[str], None]], None]] = {{"
    )
    .ok();
    for branch in branches {
        writeln!(out, "    {branch}: _write_{branch},").ok();
    }
    writeln!(
        out,
        "}}\n\n\ndef _write_{name}(value: typing.Any, add: typing.Callable[[str], None]) -> None:\n    _WRITERS_{name}[type(value)](value, add)"
    )
    .ok();
}

/// The public names the fast modules use, one a line, sorted.
fn imported(package: &Package) -> String {
    let mut names: Vec<&String> = package
        .classes
        .iter()
        .map(|class| &class.name)
        .chain(package.enums.iter().map(|item| &item.name))
        .collect();
    names.sort();
    names.dedup();
    names.iter().map(|name| format!("    {name},\n")).collect()
}

const FAST_HEADER: &str = r#"r"""The fast decoder behind `decode_line`, used when msgspec is installed.

Generated by `cargo xtask codegen` (crates/cgp-codegen/src/python/fast.rs);
do not edit. msgspec's C decoder reads the line into the `msgspec.Struct`
mirrors below (or straight into the public dataclasses, where msgspec reads
them as the reference would), and the converters build the dataclasses. The
checks in `decode` send everything msgspec hides or reads differently to the
exact path (`_wire.py`): duplicate members (counted: every member has one
colon outside strings, so the colons of the line equal those of msgspec's
re-encoding of the same value only when no member was lost), `-0`, `\u`
escapes (lone surrogates), nesting deeper than the reference allows,
integers beyond `int64` bounds, `f32`s from integers beyond 2**53. (More than
127 brackets in a line sends it to the exact path, which measures the depth.)
Any line
this path cannot vouch for returns None and is read by the exact path.
"""

from __future__ import annotations

import array
import re
import struct
import typing

import msgspec

"#;

const FAST_FOOTER: &str = r#"

class _Miss(Exception):
    """This value is for the exact path to read."""


# Beyond this an integer's f32 may round differently through a double.
_BIG = 9007199254740992.0
_pack = struct.Struct("<f").pack
_unpack = struct.Struct("<f").unpack


def _f32(value: float) -> float:
    if -_BIG < value < _BIG:
        single: float = _unpack(_pack(value))[0]
        return single
    raise _Miss


def _f32s(values: list[float]) -> list[float]:
    if values and (max(values) >= _BIG or min(values) <= -_BIG):
        raise _Miss
    return array.array("f", values).tolist()


def _within(value: int, minimum: int | None, maximum: int | None) -> int:
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise _Miss
    return value


_VALUE = msgspec.json.Decoder()
_encode = msgspec.json.encode
# `-0`, which msgspec reads as the integer 0 and the reference as a float;
# `\u`, an escape that may spell a lone surrogate or hide a colon from the
# count. (A regular expression finds a literal faster than `in` here.)
# A number starts after `:`, `,`, `[` or whitespace (`q1-0` in a string is
# no number); the lookbehind comes last so the search still starts from `-0`.
_NEGATIVE_ZERO_TEXT = re.compile(r"-0(?![.\deE])(?<![^:,\[ \t\r\n]-0)")
_NEGATIVE_ZERO_BYTES = re.compile(rb"-0(?![.\deE])(?<![^:,\[ \t\r\n]-0)")
_ESCAPE_TEXT = re.compile(r"\\u")
_ESCAPE_BYTES = re.compile(rb"\\u")
_MAX_DEPTH = 127


# What `decode` counts in one pass: the colons, and the brackets that bound the
# nesting depth (all other bytes are dropped).
_DROP = bytes(byte for byte in range(256) if byte not in b":[{")


def decode(line: object) -> typing.Any:
    """The envelope of `line` when this path can vouch for it, else None."""
    if type(line) is bytes:
        if _ESCAPE_BYTES.search(line) or _NEGATIVE_ZERO_BYTES.search(line):
            return None
        marks = line.translate(None, _DROP)
    elif type(line) is str:
        if _ESCAPE_TEXT.search(line) or _NEGATIVE_ZERO_TEXT.search(line):
            return None
        try:
            marks = line.encode().translate(None, _DROP)
        except UnicodeEncodeError:
            return None
    else:
        return None
    colons = marks.count(b":")
    if len(marks) - colons > _MAX_DEPTH:
        return None
    try:
        value = _ENVELOPE.decode(line)
        if _encode(_VALUE.decode(line)).count(b":") != colons:
            return None
        return _CONVERT[type(value)](value)
    except Exception:
        return None
"#;

const WRITER_HEADER: &str = r#""""The fast encoder behind `encode_line`: a function per type, pure Python.

Generated by `cargo xtask codegen` (crates/cgp-codegen/src/python/fast.rs);
do not edit. Each function writes its type's members in schema order by
their emit rules, with serde_json's spellings (the same string escaper and
f32 spelling as `_wire.py`); a value it does not expect (a wrong type, an
integer out of range, a non-finite or integral f32, a tuple for a list)
raises, and `encode_line` hands the envelope to the exact writer, which
writes it or says why not.
"""

from __future__ import annotations

import json.encoder
import math
import typing

from . import _wire as _w

_str = json.encoder.encode_basestring

# A long string is escaped by msgspec's encoder when msgspec is installed (the
# same bytes as `_str`, about three times as fast on long text; a lone
# surrogate raises, and the exact writer decides).
_LONG = 256
try:
    from msgspec.json import encode as _encode_json
except ImportError:  # pure Python: `_str` for every string
    _long = _str
else:

    def _long(text: str) -> str:
        return _encode_json(text).decode()


"#;

const WRITER_FOOTER: &str = r#"

class _Miss(Exception):
    """This value is for the exact writer."""


def _miss() -> typing.NoReturn:
    raise _Miss


def _int(value: typing.Any, minimum: int | None, maximum: int | None) -> str:
    if type(value) is not int:
        _miss()
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        _miss()
    return str(value)


# The spelling of each f32 written lately (a few thousand; cleared when full).
_SPELLED: dict[float, str] = {}


def _f32(value: typing.Any) -> str:
    if type(value) is not float or value == 0.0:
        _miss()
    text = _SPELLED.get(value)
    if text is None:
        number = _w.to_f32(value)
        if not math.isfinite(number):
            _miss()
        text = _w.format_f32(number)
        if len(_SPELLED) >= 4096:
            _SPELLED.clear()
        _SPELLED[value] = text
    return text


def encode(envelope: typing.Any) -> str:
    """The canonical line of `envelope`, or an exception for the exact writer."""
    parts: list[str] = []
    _write_Envelope(envelope, parts.append)
    parts.append("\n")
    return "".join(parts)
"#;
