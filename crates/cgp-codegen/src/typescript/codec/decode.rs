//! The read functions of `codec.ts`: a TypeScript expression, and the functions
//! it calls, reading a value of each shape straight from the line.

use super::super::descriptor::BranchDescriptor;
use super::*;
use serde_json::Value;
use std::fmt::Write as _;

impl Writer {
    pub(super) fn fresh(&mut self, what: &str) -> String {
        self.next += 1;
        format!("{what}{}", self.next)
    }

    /// A TypeScript expression reading a value of `shape` from the line.
    pub(super) fn decode(&mut self, shape: &Descriptor) -> String {
        match shape {
            // The exact path reads any JSON value.
            Descriptor::Any => "miss()".into(),
            Descriptor::Ref { name } => format!("read{}()", ident(name)),
            Descriptor::Null => "nul()".into(),
            Descriptor::Boolean => "bool()".into(),
            Descriptor::Integer { min, max, big } => {
                let (min, max) = (int_bound(*min, true), int_bound(*max, false));
                format!("{}({min}, {max})", if *big { "bigInt" } else { "int" })
            }
            Descriptor::Number { f32, min, max } => {
                let (min, min_exclusive) = number_limit(min.as_ref(), true);
                let (max, max_exclusive) = number_limit(max.as_ref(), false);
                format!(
                    "{}({min}, {min_exclusive}, {max}, {max_exclusive})",
                    if *f32 { "f32" } else { "num" }
                )
            }
            Descriptor::String {
                min_length,
                max_length,
            } => {
                if min_length.is_some() || max_length.is_some() {
                    format!(
                        "strLength({}, {})",
                        count(*min_length, "0"),
                        count(*max_length, "Infinity")
                    )
                } else {
                    "str()".into()
                }
            }
            Descriptor::Vocabulary => "str()".into(),
            Descriptor::Const { value } => match value {
                Value::String(text) => exactly(text),
                Value::Null => "nul()".into(),
                Value::Bool(value) => format!("(bool() === {value} ? {value} : miss())"),
                Value::Number(_) | Value::Array(_) | Value::Object(_) => "miss()".into(),
            },
            Descriptor::Enum { values } => {
                let choices = self.choices(values);
                format!("oneOf({choices})")
            }
            Descriptor::Nullable { inner } => {
                let inner = self.decode(inner);
                format!("(isNull() ? null : {inner})")
            }
            Descriptor::Array {
                items,
                min_items,
                max_items,
            } => self.decode_array(items, *min_items, *max_items),
            Descriptor::Object { members, .. } => {
                let name = self.fresh("readObject");
                let body = self.decode_members(members, None);
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(): unknown {{\n{body}}}\n"
                );
                format!("{name}()")
            }
            Descriptor::Union { tag, branches, .. } => self.decode_union(tag, branches),
            Descriptor::Excluding { inner, values } => self.decode_excluding(inner, values),
        }
    }

    /// A function reading an array of `shape`'s items, and the call of it.
    pub(super) fn decode_array(
        &mut self,
        items: &Descriptor,
        min_items: Option<u64>,
        max_items: Option<u64>,
    ) -> String {
        let name = self.fresh("readList");
        let item = self.decode(items);
        let (min, max) = (count(min_items, "0"), count(max_items, "Infinity"));
        let mut checks = Vec::new();
        if min != "0" {
            checks.push(format!("out.length < {min}"));
        }
        if max != "Infinity" {
            checks.push(format!("out.length > {max}"));
        }
        let check = if checks.is_empty() {
            String::new()
        } else {
            format!("  if ({}) throw MISS;\n", checks.join(" || "))
        };
        let _ = write!(
            self.functions,
            "\nfunction {name}(): unknown[] {{\n  open(0x5b);\n  const out: unknown[] = [];\n  \
             if (!closes(0x5d)) {{\n    do out.push({item});\n    while (more(0x5d));\n  }}\n\
             {check}  return out;\n}}\n"
        );
        format!("{name}()")
    }

    /// A function reading an `inner` value and refusing the excluded
    /// `values`, and the call of it.
    pub(super) fn decode_excluding(&mut self, inner: &Descriptor, values: &[Value]) -> String {
        let name = self.fresh("readExcluding");
        let inner = self.decode(inner);
        let check = if values.iter().all(primitive) {
            format!(
                "[{}].includes(decoded as never)",
                values.iter().map(literal).collect::<Vec<_>>().join(", ")
            )
        } else {
            format!(
                "({}).some((excluded: unknown) => sameValue(decoded, excluded))",
                Value::Array(values.to_vec())
            )
        };
        let _ = write!(
            self.functions,
            "\nfunction {name}(): unknown {{\n  const decoded = {inner};\n  \
             if ({check}) throw MISS;\n  return decoded;\n}}\n"
        );
        format!("{name}()")
    }

    /// The statements of a function reading an object of `members` from the
    /// line, in any order, each once, and building the decoded object with
    /// its members in their declared order; `tag` is a union branch's
    /// (member, value), which the object must hold.
    pub(super) fn decode_members(
        &mut self,
        members: &[MemberDescriptor],
        tag: Option<(&str, &str)>,
    ) -> String {
        // `member` (fast.ts) takes the raw text between a name's quotes for
        // the name, which holds only for a name JSON writes without an
        // escape: no member of the protocol needs one, and an object with one
        // that did is left to the exact path.
        let plain = |name: &str| !Value::String(name.to_owned()).to_string().contains('\\');
        let member_names = members.iter().map(|member| member.name.as_str());
        if !member_names.chain(tag.map(|(name, _)| name)).all(plain) {
            return "  return miss();\n".into();
        }
        let mut names = Vec::new();
        let mut locals = Vec::new();
        let mut cases = String::new();
        let mut build = String::from("  const out: Record<string, unknown> = {};\n");
        let mut tag_declared = false;
        for (at, member) in members.iter().enumerate() {
            let name = member.name.as_str();
            let key = Value::String(name.to_owned()).to_string();
            names.push(key.clone());
            let local = format!("v{at}");
            locals.push(format!("{local}: unknown = ABSENT"));
            if let Some((tag_name, tag_value)) = tag {
                if tag_name == name {
                    let value = Value::String(tag_value.to_owned()).to_string();
                    tag_declared = true;
                    let _ = writeln!(
                        cases,
                        "        case {at}:\n          if ({local} !== ABSENT) throw MISS;\n          \
                         {local} = {};\n          break;",
                        exactly(tag_value)
                    );
                    // Present: `peekTag` only guesses the branch.
                    let _ = writeln!(
                        build,
                        "  if ({local} === ABSENT) throw MISS;\n  out[{key}] = {value};"
                    );
                    continue;
                }
            }
            let decoded = self.decode(&member.shape);
            let _ = writeln!(
                cases,
                "        case {at}:\n          if ({local} !== ABSENT) throw MISS;\n          \
                 {local} = {decoded};\n          break;"
            );
            if member.required {
                let _ = writeln!(
                    build,
                    "  if ({local} === ABSENT) throw MISS;\n  out[{key}] = {local};"
                );
            } else {
                // Absent: the default, if any; present as `null`: left out.
                let present = format!("if ({local} !== null) out[{key}] = {local};");
                let _ = match &member.default {
                    Some(default) if !default.is_null() => writeln!(
                        build,
                        "  if ({local} === ABSENT) out[{key}] = {};\n  else {present}",
                        literal(default)
                    ),
                    _ => writeln!(build, "  if ({local} !== ABSENT) {present}"),
                };
            }
        }
        if let Some((tag_name, tag_value)) = tag.filter(|_| !tag_declared) {
            // The tag is read, once, though the branch does not keep it.
            let at = names.len();
            let key = Value::String(tag_name.to_owned()).to_string();
            names.push(key);
            locals.push("tag: unknown = ABSENT".to_owned());
            let _ = writeln!(
                cases,
                "        case {at}:\n          if (tag !== ABSENT) throw MISS;\n          \
                 tag = {};\n          break;",
                exactly(tag_value)
            );
        }
        if tag.is_some() && !tag_declared {
            build.push_str("  if (tag === ABSENT) throw MISS;\n");
        }
        let list = self.names(&names);
        let declared = if locals.is_empty() {
            String::new()
        } else {
            format!("  let {};\n", locals.join(", "))
        };
        format!(
            "  open(0x7b);\n{declared}  if (!closes(0x7d)) {{\n    let expected = 0;\n    do {{\n      \
             const found = member({list}, expected);\n      switch (found) {{\n{cases}        \
             default:\n          throw MISS;\n      }}\n      expected = found + 1;\n    }} while (more(0x7d));\n  }}\n\
             {build}  return out;\n"
        )
    }

    /// The constant list of the strings `values`, declared once.
    pub(super) fn choices(&mut self, strings: &[String]) -> String {
        let at = match self.choice_lists.iter().position(|known| *known == strings) {
            Some(at) => at,
            None => {
                let at = self.choice_lists.len();
                let listed: Vec<String> = strings
                    .iter()
                    .map(|s| Value::String(s.clone()).to_string())
                    .collect();
                let _ = writeln!(
                    self.constants,
                    "const VALUES{at}: readonly string[] = [{}];",
                    listed.join(", ")
                );
                self.choice_lists.push(strings.to_vec());
                at
            }
        };
        format!("VALUES{at}")
    }

    /// The constant list of member names `names` (as JSON strings), declared
    /// once.
    pub(super) fn names(&mut self, names: &[String]) -> String {
        let at = match self.name_lists.iter().position(|known| known == names) {
            Some(at) => at,
            None => {
                let at = self.name_lists.len();
                let _ = writeln!(
                    self.constants,
                    "const NAMES{at}: readonly string[] = [{}];",
                    names.join(", ")
                );
                self.name_lists.push(names.to_vec());
                at
            }
        };
        format!("NAMES{at}")
    }

    pub(super) fn decode_union(&mut self, tag: &str, branches: &[BranchDescriptor]) -> String {
        let name = self.fresh("readUnion");
        let key = Value::String(tag.to_owned()).to_string();
        let mut cases = String::new();
        let tags: Vec<String> = branches.iter().map(|branch| branch.tag.clone()).collect();
        let tags = self.choices(&tags);
        for branch in branches {
            let value = branch.tag.as_str();
            let branch_name = self.fresh("readBranch");
            let body = self.decode_members(&branch.members, Some((tag, value)));
            let _ = write!(
                self.functions,
                "\nfunction {branch_name}(): unknown {{\n{body}}}\n"
            );
            let _ = writeln!(
                cases,
                "    case {}:\n      return {branch_name}();",
                Value::String(value.to_owned())
            );
        }
        // A tag given by its index is left to the exact path (`peekTag` reads
        // strings only).
        let _ = write!(
            self.functions,
            "\nfunction {name}(): unknown {{\n  switch (peekTag({key}, {tags})) {{\n{cases}  }}\n  throw MISS;\n}}\n"
        );
        format!("{name}()")
    }
}
