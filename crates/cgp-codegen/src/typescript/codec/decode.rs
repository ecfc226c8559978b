//! The read functions of `codec.ts`: a TypeScript expression, and the functions
//! it calls, reading a value of each shape straight from the line.

use super::*;
use serde_json::Value;
use std::fmt::Write as _;

impl Writer {
    pub(super) fn fresh(&mut self, what: &str) -> String {
        self.next += 1;
        format!("{what}{}", self.next)
    }

    /// A TypeScript expression reading a value of `shape` from the line.
    pub(super) fn decode(&mut self, shape: &Value) -> String {
        let kind = shape.get("kind").and_then(Value::as_str).unwrap_or("");
        match kind {
            "ref" => format!(
                "read{}()",
                ident(shape.get("name").and_then(Value::as_str).unwrap_or(""))
            ),
            "null" => "nul()".into(),
            "boolean" => "bool()".into(),
            "integer" => {
                let (min, max) = (
                    int_bound(&shape["min"], true),
                    int_bound(&shape["max"], false),
                );
                let big = shape.get("big").and_then(Value::as_bool) == Some(true);
                format!("{}({min}, {max})", if big { "bigInt" } else { "int" })
            }
            "number" => {
                let (min, min_exclusive) = number_limit(&shape["min"], true);
                let (max, max_exclusive) = number_limit(&shape["max"], false);
                let f32 = shape.get("f32").and_then(Value::as_bool) == Some(true);
                format!(
                    "{}({min}, {min_exclusive}, {max}, {max_exclusive})",
                    if f32 { "f32" } else { "num" }
                )
            }
            "string" => {
                let (min, max) = (shape.get("minLength"), shape.get("maxLength"));
                if min.is_some_and(|v| !v.is_null()) || max.is_some_and(|v| !v.is_null()) {
                    format!("strLength({}, {})", count(min, "0"), count(max, "Infinity"))
                } else {
                    "str()".into()
                }
            }
            "vocabulary" => "str()".into(),
            "const" => match shape.get("value") {
                Some(Value::String(text)) => exactly(text),
                Some(Value::Null) => "nul()".into(),
                Some(Value::Bool(value)) => format!("(bool() === {value} ? {value} : miss())"),
                _ => "miss()".into(),
            },
            "enum" => {
                let values = shape
                    .get("values")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let choices = self.choices(&values);
                format!("oneOf({choices})")
            }
            "nullable" => {
                let inner = self.decode(&shape["inner"]);
                format!("(isNull() ? null : {inner})")
            }
            "array" => self.decode_array(shape),
            "object" => {
                let name = self.fresh("readObject");
                let body = self.decode_members(&shape["members"], None);
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(): unknown {{\n{body}}}\n"
                );
                format!("{name}()")
            }
            "union" => self.decode_union(shape),
            "excluding" => self.decode_excluding(shape),
            // `any`, and whatever else: the exact path reads it.
            _ => "miss()".into(),
        }
    }

    /// A function reading an array of `shape`'s items, and the call of it.
    pub(super) fn decode_array(&mut self, shape: &Value) -> String {
        let name = self.fresh("readList");
        let item = self.decode(&shape["items"]);
        let (min, max) = (
            count(shape.get("minItems"), "0"),
            count(shape.get("maxItems"), "Infinity"),
        );
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

    /// A function reading `shape`'s inner value and refusing the excluded
    /// ones, and the call of it.
    pub(super) fn decode_excluding(&mut self, shape: &Value) -> String {
        let name = self.fresh("readExcluding");
        let inner = self.decode(&shape["inner"]);
        let values = shape
            .get("values")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let check = if values.iter().all(primitive) {
            format!(
                "[{}].includes(decoded as never)",
                values.iter().map(literal).collect::<Vec<_>>().join(", ")
            )
        } else {
            format!(
                "({}).some((excluded: unknown) => sameValue(decoded, excluded))",
                Value::Array(values)
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
    pub(super) fn decode_members(&mut self, members: &Value, tag: Option<(&str, &str)>) -> String {
        let members: Vec<&Value> = members.as_array().into_iter().flatten().collect();
        // `member` (fast.ts) takes the raw text between a name's quotes for
        // the name, which holds only for a name JSON writes without an
        // escape: no member of the protocol needs one, and an object with one
        // that did is left to the exact path.
        let plain = |name: &str| !Value::String(name.to_owned()).to_string().contains('\\');
        let member_names = members
            .iter()
            .map(|member| member.get("name").and_then(Value::as_str).unwrap_or(""));
        if !member_names.chain(tag.map(|(name, _)| name)).all(plain) {
            return "  return miss();\n".into();
        }
        let mut names = Vec::new();
        let mut locals = Vec::new();
        let mut cases = String::new();
        let mut build = String::from("  const out: Record<string, unknown> = {};\n");
        let mut tag_declared = false;
        for (at, member) in members.iter().enumerate() {
            let name = member.get("name").and_then(Value::as_str).unwrap_or("");
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
            let decoded = self.decode(&member["shape"]);
            let _ = writeln!(
                cases,
                "        case {at}:\n          if ({local} !== ABSENT) throw MISS;\n          \
                 {local} = {decoded};\n          break;"
            );
            let required = member.get("required").and_then(Value::as_bool) == Some(true);
            if required {
                let _ = writeln!(
                    build,
                    "  if ({local} === ABSENT) throw MISS;\n  out[{key}] = {local};"
                );
            } else {
                // Absent: the default, if any; present as `null`: left out.
                let present = format!("if ({local} !== null) out[{key}] = {local};");
                let _ = match member.get("default") {
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
    pub(super) fn choices(&mut self, values: &[Value]) -> String {
        let strings: Vec<String> = values
            .iter()
            .filter_map(|value| value.as_str().map(str::to_owned))
            .collect();
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
                self.choice_lists.push(strings);
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

    pub(super) fn decode_union(&mut self, shape: &Value) -> String {
        let name = self.fresh("readUnion");
        let tag = shape.get("tag").and_then(Value::as_str).unwrap_or("");
        let key = Value::String(tag.to_owned()).to_string();
        let mut cases = String::new();
        for branch in shape
            .get("branches")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let value = branch.get("tag").and_then(Value::as_str).unwrap_or("");
            let branch_name = self.fresh("readBranch");
            let body = self.decode_members(&branch["members"], Some((tag, value)));
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
            "\nfunction {name}(): unknown {{\n  switch (peekTag({key})) {{\n{cases}  }}\n  throw MISS;\n}}\n"
        );
        format!("{name}()")
    }
}
