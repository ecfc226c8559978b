//! The fast decoder, `cgp_types/_fast.py`: the open vocabularies' lookup
//! tables, a `msgspec.Struct` mirror and a converter per class, the unions of
//! the mirrors, the converter table, the envelope decoder, and the
//! hand-written `decode` with the depth check the mirrors call for.

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
                Some(Shape::TaggedUnion(_)) => {
                    Some(format!("_CONVERT[type({value})]({value}, held)"))
                }
                Some(Shape::Object(_)) => Some(format!("_c_{name}({value}, held)")),
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
    pub(in crate::python) fn fast_decoder(&self, package: &Package) -> Result<String, Diagnostic> {
        let mut out = String::from(FAST_HEADER);
        let imports = imported(package);
        writeln!(out, "from . import (\n{imports})\n").ok();
        self.write_open_tables(&mut out);
        for plan in &package.plans {
            self.write_mirror(&mut out, plan, tag_required(package, &plan.name))?;
        }
        write_mirror_unions(&mut out, package);
        write_convert_table(&mut out, package);
        write_envelope_decoder(&mut out, package);
        out.push_str(&self.decoder_footer(package));
        Ok(out)
    }

    /// `_OPEN_<name>`, per open vocabulary with known values: each known
    /// value's text to its enum member.
    fn write_open_tables(&self, out: &mut String) {
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
    }

    /// `class _M_<name>`, the class's `msgspec.Struct` mirror, and
    /// `_c_<name>`, its converter to the dataclass, which also appends to
    /// `held` how many members the mirror holds (its tag among them when
    /// `tag_counted`: msgspec read it from the line).
    fn write_mirror(
        &self,
        out: &mut String,
        plan: &ClassPlan,
        tag_counted: bool,
    ) -> Result<(), Diagnostic> {
        // Every optional field defaults to `UNSET`, which msgspec never
        // writes: a mirror holds, and its encoding writes, the members the
        // line had (see `decode`).
        let mut options = String::from("kw_only=True, gc=False");
        let mut required = 0;
        if let Some((tag, value, _)) = &plan.tag {
            write!(
                options,
                ", tag_field={}, tag={}",
                literal(tag),
                literal(value)
            )
            .ok();
            required += usize::from(tag_counted);
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
            let (field, assignment) = self.mirror_member(member)?;
            out.push_str(&field);
            assignments.push(assignment);
            required += usize::from(member.required);
        }
        // `n` counts the optional members the mirror holds.
        let body = if plan.members.iter().all(|member| member.required) {
            format!("{}    held.append({required})\n", assignments.concat())
        } else {
            format!(
                "    n = {required}\n{}    held.append(n)\n",
                assignments.concat()
            )
        };
        writeln!(
            out,
            "\n\ndef _c_{name}(s: _M_{name}, held: list[int]) -> {name}:\n    o: {name} = _new({name})\n{body}    return o",
            name = plan.name
        )
        .ok();
        Ok(())
    }

    /// One member of a mirror: its field line in the class and its lines in
    /// the converter (`o.<attribute> = <converted>`; for an optional member,
    /// its default when `UNSET`, else the value, counted in `n`).
    fn mirror_member(&self, member: &Member) -> Result<(String, String), Diagnostic> {
        let attribute = attribute_name(&member.name);
        let (shape, nullable) = member.shape.without_null();
        let mut annotation = self.mirror_type(shape);
        if nullable {
            annotation.push_str(" | None");
        }
        let mut field = Vec::new();
        if attribute != member.name {
            field.push(format!("name={}", literal(&member.name)));
        }
        let assignment = if member.required {
            let access = format!("s.{attribute}");
            let converted = self.convert(&member.shape, &access, 0).unwrap_or(access);
            format!("    o.{attribute} = {converted}\n")
        } else {
            // `UNSET`, never written, when the line leaves the member out: the
            // re-encoding writes the members the line had, an empty list or a
            // `null` among them.
            let default = self.default_expression(member)?;
            annotation.push_str(" | msgspec.UnsetType");
            field.push("default=msgspec.UNSET".into());
            // A name per member, so that each keeps its type.
            let local = format!("v_{attribute}");
            let converted = self
                .convert(&member.shape, &local, 0)
                .unwrap_or(local.clone());
            format!(
                "    {local} = s.{attribute}\n    if {local} is _UNSET:\n        o.{attribute} = {default}\n    else:\n        o.{attribute} = {converted}\n        n += 1\n"
            )
        };
        let assigned = field_assignment(&field);
        Ok((
            format!("    {attribute}: {annotation}{assigned}\n"),
            assignment,
        ))
    }

    /// The hand-written tail of `_fast.py`, its `# DEPTH GUARD` line replaced
    /// by the depth check the variants' mirrors call for.
    fn decoder_footer(&self, package: &Package) -> String {
        let mut deepest = Some(0);
        for variant in &package.variants {
            deepest = match (deepest, self.class_depth(package, variant, &mut Vec::new())) {
                (Some(a), Some(b)) => Some(a.max(b)),
                _ => None,
            };
        }
        let bounded = deepest.is_some_and(|depth| depth <= MAX_DEPTH);
        // How the canonical encoder starts every line: the variants' tag
        // first (nothing is, without a tag).
        let tag = package
            .plans
            .iter()
            .filter(|plan| package.variants.contains(&plan.name))
            .find_map(|plan| plan.tag.as_ref());
        let start = tag.map_or(String::new(), |(tag, _, _)| {
            format!("{{{}:\"", literal(tag))
        });
        FAST_FOOTER
            .replace(
                "    # DEPTH GUARD\n",
                if bounded {
                    DEPTH_BOUNDED
                } else {
                    DEPTH_UNBOUNDED
                },
            )
            .replace(
                "# CANONICAL START\n",
                &format!("_CANONICAL_START = {}.encode()\n", literal(&start)),
            )
    }
}

/// Whether msgspec reads the tag of the tagged class `class` from every line
/// it takes: when it reads the class only as a branch of a union of two or
/// more (a tagged `Struct` read on its own takes a line without its tag, and
/// the count of its members is then one short, which sends every line to
/// the colon check).
fn tag_required(package: &Package, class: &str) -> bool {
    let branch = |branches: &[String]| branches.len() >= 2 && branches.iter().any(|b| b == class);
    let mut referenced = Vec::new();
    for plan in &package.plans {
        for member in &plan.members {
            member.shape.references(&mut referenced);
        }
    }
    (branch(&package.variants)
        || package
            .union_branches
            .iter()
            .any(|(_, branches)| branch(branches)))
        && !referenced.iter().any(|name| name == class)
}

/// The ` = …` after a mirror field's annotation, from its `msgspec.field`
/// arguments: nothing, a bare default, or the `msgspec.field(…)` call.
fn field_assignment(field: &[String]) -> String {
    match field {
        [] => String::new(),
        [only] if only.starts_with("default=") => {
            format!(" = {}", &only["default=".len()..])
        }
        _ => format!(" = msgspec.field({})", field.join(", ")),
    }
}

/// `_U_<union>`, per tagged union: the union of its branches' mirrors.
fn write_mirror_unions(out: &mut String, package: &Package) {
    for (union, branches) in &package.union_branches {
        let mirrors: Vec<String> = branches.iter().map(|b| format!("_M_{b}")).collect();
        writeln!(out, "\n\n_U_{union} = typing.Union[{}]", mirrors.join(", ")).ok();
    }
}

/// `_CONVERT`: each tagged class's mirror to its converter.
fn write_convert_table(out: &mut String, package: &Package) {
    out.push_str(
        "\n\n_CONVERT: dict[type, typing.Callable[[typing.Any, list[int]], typing.Any]] = {\n",
    );
    for plan in package.plans.iter().filter(|plan| plan.tag.is_some()) {
        writeln!(out, "    _M_{name}: _c_{name},", name = plan.name).ok();
    }
    out.push_str("}\n");
}

/// `_ENVELOPE`: msgspec's decoder of the union of the variants' mirrors.
fn write_envelope_decoder(out: &mut String, package: &Package) {
    let variants: Vec<String> = package.variants.iter().map(|v| format!("_M_{v}")).collect();
    writeln!(
        out,
        "_ENVELOPE = msgspec.json.Decoder(typing.Union[{}])",
        variants.join(", ")
    )
    .ok();
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

/// The hand-written parts of `_fast.py`, ordinary Python in
/// `templates/python/fast/`, copied around the generated code as they are:
/// its docstring and imports…
const FAST_HEADER: &str = include_str!("../../../templates/python/fast/decoder_head.py");

/// …and its helpers and `decode` (whose `# DEPTH GUARD` line becomes the
/// depth check above).
const FAST_FOOTER: &str = include_str!("../../../templates/python/fast/decoder_tail.py");
