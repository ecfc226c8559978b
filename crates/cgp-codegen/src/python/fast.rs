//! The package's two fast paths, generated per type from the same model as the
//! wire table:
//!
//! - `cgp_types/_fast.py`, the decoder behind `decode_line` when msgspec is
//!   installed: a `msgspec.Struct` mirror of every class (open vocabularies
//!   as `str`, integers with their ranges, `f32`s as doubles, optional
//!   members defaulting to what msgspec leaves out of its encoding), a
//!   converter from each mirror to its dataclass, and the checks around
//!   msgspec's reading for what it hides (duplicate and unknown members,
//!   `-0`, escapes): msgspec's re-encoding of the mirrors is the line itself,
//!   or has as many colons;
//! - `cgp_types/_writer.py`, the encoder behind `encode_line`, pure Python: a
//!   function per type writing its members in order by their emit rules.
//!
//! The hand-written Python around the generated code of each (docstrings,
//! imports, helpers, the entry points) lives in `templates/python/fast/`.
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
    /// The msgspec type of a shape in a mirror: every object is its
    /// `msgspec.Struct` mirror, an open vocabulary a `str`, a tagged union the
    /// union of its branches' mirrors.
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
                Some(Shape::Object(_)) => format!("_M_{name}"),
                _ => "typing.Any".into(),
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
                Some(Shape::OpenVocabulary(_)) => {
                    Some(format!("_OPEN_{name}.get({value}, {value})"))
                }
                Some(Shape::TaggedUnion(_)) => Some(format!("_CONVERT[type({value})]({value})")),
                Some(Shape::Object(_)) => Some(format!("_c_{name}({value})")),
                _ => None,
            },
            _ => None,
        }
    }

    /// The deepest nesting (objects and arrays) a value of `shape` decoded
    /// through the mirrors can have, or `None` when it has no bound (a cycle,
    /// or a member of any JSON value).
    fn depth(&self, package: &Package, shape: &Shape, stack: &mut Vec<String>) -> Option<usize> {
        match shape {
            Shape::Any => None,
            Shape::Nullable(inner) => self.depth(package, inner, stack),
            Shape::Array(array) => Some(1 + self.depth(package, &array.items, stack)?),
            Shape::Named(name) => {
                if stack.contains(name) {
                    return None;
                }
                let classes: Vec<&str> = match self.protocol.named(name).map(|n| &n.shape) {
                    Some(Shape::Object(_)) => vec![name.as_str()],
                    Some(Shape::TaggedUnion(_)) => package
                        .union_branches
                        .iter()
                        .filter(|(union, _)| union == name)
                        .flat_map(|(_, branches)| branches.iter().map(String::as_str))
                        .collect(),
                    _ => return Some(0),
                };
                stack.push(name.clone());
                let mut deepest = 0;
                for class in classes {
                    deepest = deepest.max(self.class_depth(package, class, stack)?);
                }
                stack.pop();
                Some(deepest)
            }
            _ => Some(0),
        }
    }

    /// [`Self::depth`] of the object `class` (a class of the package).
    fn class_depth(
        &self,
        package: &Package,
        class: &str,
        stack: &mut Vec<String>,
    ) -> Option<usize> {
        let plan = package.plans.iter().find(|plan| plan.name == class)?;
        let mut deepest = 0;
        for member in &plan.members {
            deepest = deepest.max(self.depth(package, &member.shape, stack)?);
        }
        Some(1 + deepest)
    }

    /// The fast decoder, `cgp_types/_fast.py`: a `msgspec.Struct` mirror and
    /// a converter per class.
    pub(super) fn fast_decoder(&self, package: &Package) -> Result<String, Diagnostic> {
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
            // `omit_defaults`: msgspec's encoding of a mirror writes the
            // members the line had (see `decode`).
            let mut options = String::from("kw_only=True, gc=False, omit_defaults=True");
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
            let mut assignments = Vec::new();
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
                    let emit = member.emit();
                    // A default msgspec leaves out of its encoding only where
                    // the canonical encoder leaves the member out too;
                    // otherwise `UNSET`, which is never written.
                    if default == "None" && emit == Some(Emit::OmitIfAbsent) {
                        field.push("default=None".into());
                    } else if default == "[]" && emit == Some(Emit::OmitIfEmpty) {
                        field.push("default=[]".into());
                    } else {
                        annotation.push_str(" | msgspec.UnsetType");
                        field.push("default=msgspec.UNSET".into());
                        let converted = conversion.take().unwrap_or_else(|| access.clone());
                        conversion = Some(format!(
                            "({default} if {access} is msgspec.UNSET else {converted})"
                        ));
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
                assignments.push(format!(
                    "    o.{attribute} = {}\n",
                    conversion.unwrap_or(access)
                ));
            }
            writeln!(
                out,
                "\n\ndef _c_{name}(s: _M_{name}) -> {name}:\n    o: {name} = _new({name})\n{}    return o",
                assignments.concat(),
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
        let mut deepest = Some(0);
        for variant in &package.variants {
            deepest = match (deepest, self.class_depth(package, variant, &mut Vec::new())) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
        let bounded = deepest.is_some_and(|depth| depth <= MAX_DEPTH);
        let footer = FAST_FOOTER.replace(
            "    # DEPTH GUARD\n",
            if bounded {
                DEPTH_BOUNDED
            } else {
                DEPTH_UNBOUNDED
            },
        );
        out.push_str(&footer);
        Ok(out)
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

/// The nesting the reference decoder reads (deeper lines are its to refuse).
const MAX_DEPTH: usize = 127;

/// `decode`'s depth check when the mirrors bound the depth of what they read
/// (no cycle, no member of any JSON value, nothing deeper than the
/// reference reads): none, as a line with an unknown member never passes the
/// member count.
const DEPTH_BOUNDED: &str = "";

/// `decode`'s depth check otherwise: more brackets than the reference's
/// depth sends the line to the exact path, which measures it.
const DEPTH_UNBOUNDED: &str =
    "    if line.count(b\"[\") + line.count(b\"{\") > _MAX_DEPTH:\n        return None\n";

/// The hand-written parts of the two generated modules, ordinary Python in
/// `templates/python/fast/`, copied around the generated code as they are:
/// `_fast.py`'s docstring and imports, and its helpers and `decode` (whose
/// `# DEPTH GUARD` line becomes the depth check above)…
const FAST_HEADER: &str = include_str!("../../templates/python/fast/decoder_head.py");

/// …
const FAST_FOOTER: &str = include_str!("../../templates/python/fast/decoder_tail.py");

/// …and `_writer.py`'s docstring and imports, and its helpers and `encode`.
const WRITER_HEADER: &str = include_str!("../../templates/python/fast/writer_head.py");

/// …
const WRITER_FOOTER: &str = include_str!("../../templates/python/fast/writer_tail.py");
