//! The fast encoder, `cgp_types/_writer.py`, pure Python: the enums' texts, a
//! writer function per class putting its members in order by their emit
//! rules, a dispatch per tagged union and for the envelope, the constants of
//! the defaults the writers compare with, and the hand-written `encode`.

use super::*;
use std::fmt::Write as _;

impl Builder<'_> {
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
    pub(in crate::python) fn fast_writer(&self, package: &Package) -> Result<String, Diagnostic> {
        let mut out = String::from(WRITER_HEADER);
        let imports = imported(package);
        writeln!(out, "from . import (\n{imports})\n").ok();
        write_enum_texts(&mut out, package);
        let mut defaults = Vec::new();
        for plan in &package.plans {
            out.push_str(&self.class_writer(plan, &mut defaults)?);
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

    /// `_write_<name>`, the class's writer function: its members (and tag)
    /// in writing order between the braces; the constants of the defaults it
    /// compares with go to `defaults`.
    fn class_writer(
        &self,
        plan: &ClassPlan,
        defaults: &mut Vec<String>,
    ) -> Result<String, Diagnostic> {
        let mut keys = Keys::default();
        let mut lines = String::new();
        let mut members: Vec<Option<&Member>> = plan.members.iter().map(Some).collect();
        if let Some((_, _, tag_at)) = &plan.tag {
            members.insert((*tag_at).min(members.len()), None);
        }
        for member in members {
            match member {
                None => lines.push_str(&tag_statement(plan, &mut keys)),
                Some(member) => {
                    lines.push_str(&self.member_writer(plan, member, &mut keys, defaults)?)
                }
            }
        }
        let mut body = String::new();
        writeln!(
            body,
            "\n\ndef _write_{name}(value: typing.Any, add: typing.Callable[[str], None]) -> None:\n    if type(value) is not {name}:\n        _miss()\n    item: typing.Any",
            name = plan.name
        )
        .ok();
        if keys.dynamic {
            body.push_str("    sep = \"{\"\n");
        }
        body.push_str(&lines);
        if keys.written {
            body.push_str("    add(\"}\")\n");
        } else {
            body.push_str("    add(\"}\" if sep == \",\" else \"{}\")\n");
        }
        Ok(body)
    }

    /// The statements writing one member of `plan`'s writer function: read,
    /// checked and written if its emit rule says so.
    fn member_writer(
        &self,
        plan: &ClassPlan,
        member: &Member,
        keys: &mut Keys,
        defaults: &mut Vec<String>,
    ) -> Result<String, Diagnostic> {
        let attribute = attribute_name(&member.name);
        let key = format!("{}:", literal(&member.name));
        let mut lines = format!("    item = value.{attribute}\n");
        let condition = self.emit_condition(plan, member, &attribute, &mut lines, defaults)?;
        let head = keys.head(&key);
        match condition {
            None => {
                lines.push_str(&self.member_statements(&member.shape, &head, "    "));
                keys.written = true;
            }
            Some(condition) => {
                writeln!(lines, "    if {condition}:").ok();
                lines.push_str(&self.member_statements(&member.shape, &head, "        "));
                if !keys.written {
                    // From here on the next key's prefix is `sep`.
                    lines.push_str("        sep = \",\"\n");
                    keys.dynamic = true;
                    keys.maybe = true;
                }
            }
        }
        Ok(lines)
    }

    /// The condition under which `member` is written (`None`: always), after
    /// pushing to `lines` the check it needs first; an omitted-if-default
    /// member's default becomes a constant in `defaults`.
    fn emit_condition(
        &self,
        plan: &ClassPlan,
        member: &Member,
        attribute: &str,
        lines: &mut String,
        defaults: &mut Vec<String>,
    ) -> Result<Option<String>, Diagnostic> {
        let emit = if member.required {
            Emit::Always
        } else {
            member.emit().unwrap_or(Emit::Always)
        };
        Ok(match emit {
            Emit::Always => None,
            Emit::OmitIfAbsent => Some("item is not None".to_owned()),
            Emit::OmitIfEmpty => {
                lines.push_str("    if type(item) is not list:\n        _miss()\n");
                Some("item".to_owned())
            }
            Emit::OmitIfDefault => {
                let default = self.default_expression(member)?;
                let constant = format!("_DEFAULT_{}_{attribute}", plan.name);
                defaults.push(format!("{constant} = {default}\n"));
                Some(format!("item != {constant}"))
            }
        })
    }
}

/// Where a writer function is among its keys: whether a member is surely
/// written (the next key's prefix is then `,`), whether an optional one may
/// have been (then it is the variable `sep`), and whether `sep` is used.
#[derive(Default)]
struct Keys {
    written: bool,
    maybe: bool,
    dynamic: bool,
}

impl Keys {
    /// The expression of `key` with the `{` or `,` before it.
    fn head(&mut self, key: &str) -> String {
        if self.written {
            literal(&format!(",{key}"))
        } else if !self.maybe {
            literal(&format!("{{{key}"))
        } else {
            self.dynamic = true;
            format!("sep + {}", literal(key))
        }
    }
}

/// The statement writing `plan`'s tag member, always written.
fn tag_statement(plan: &ClassPlan, keys: &mut Keys) -> String {
    let Some((tag, tag_value, _)) = &plan.tag else {
        return String::new();
    };
    let text = format!("{}:{}", literal(tag), literal(tag_value));
    let statement = format!("    add({})\n", keys.head(&text));
    keys.written = true;
    statement
}

/// `_TEXT_<name>`, per enum: each member's JSON text.
fn write_enum_texts(out: &mut String, package: &Package) {
    for item in &package.enums {
        writeln!(
            out,
            "_TEXT_{name}: dict[{name}, str] = {{member: _str(member.value) for member in {name}}}",
            name = item.name
        )
        .ok();
    }
}

/// `_WRITERS_<name>` and `_write_<name>`, for a tagged union or the
/// envelope: the writer of each branch class, chosen by the value's type.
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

/// The hand-written parts of `_writer.py`, ordinary Python in
/// `templates/python/fast/`, copied around the generated code as they are:
/// its docstring and imports…
const WRITER_HEADER: &str = include_str!("../../../templates/python/fast/writer_head.py");

/// …and its helpers and `encode`.
const WRITER_FOOTER: &str = include_str!("../../../templates/python/fast/writer_tail.py");
