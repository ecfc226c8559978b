//! The encode functions of `codec.ts`: a TypeScript expression, and the
//! functions it calls, writing the canonical text of each shape.

use super::super::descriptor::{BranchDescriptor, Emit};
use super::*;
use serde_json::Value;
use std::fmt::Write as _;

impl Writer {
    /// A TypeScript expression writing `input` as `shape`.
    pub(super) fn encode(&mut self, shape: &Descriptor, input: &str) -> String {
        match shape {
            Descriptor::Any => format!("encodeAny({input}, \"\")"),
            Descriptor::Ref { name } => format!("encode{}({input})", ident(name)),
            Descriptor::Null => format!("({input} === null ? \"null\" : miss())"),
            Descriptor::Boolean => format!("writeBool({input})"),
            Descriptor::Integer { min, max, big } => encode_integer(*min, *max, *big, input),
            Descriptor::Number { f32: true, .. } => format!("writeF32({input})"),
            Descriptor::Number { f32: false, .. } => format!("writeNum({input})"),
            Descriptor::String { .. } | Descriptor::Vocabulary => format!("writeStr({input})"),
            Descriptor::Enum { values } => {
                let choices = self.choices(values);
                format!("writeOneOf({input}, {choices})")
            }
            Descriptor::Const { value } if primitive(value) => {
                let text = Value::String(value.to_string()).to_string();
                format!("({input} === {} ? {text} : miss())", literal(value))
            }
            Descriptor::Const { .. } => "miss()".into(),
            Descriptor::Nullable { inner } => {
                let inner = self.encode(inner, input);
                format!("({input} === null ? \"null\" : {inner})")
            }
            Descriptor::Array { items, .. } => {
                let name = self.fresh("encodeList");
                let item = self.encode(items, "items[at]");
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(value: unknown): string {{\n  const items = writeList(value);\n  \
                     let out = \"[\";\n  for (let at = 0; at < items.length; at += 1) {{\n    \
                     if (at > 0) out += \",\";\n    out += {item};\n  }}\n  return `${{out}}]`;\n}}\n"
                );
                format!("{name}({input})")
            }
            Descriptor::Object { members, .. } => {
                let name = self.fresh("encodeObject");
                let body = self.encode_members(members, None);
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(value: unknown): string {{\n  const members = record(value);\n{body}}}\n"
                );
                format!("{name}({input})")
            }
            Descriptor::Union { tag, branches, .. } => self.encode_union(tag, branches, input),
            Descriptor::Excluding { inner, values } => self.encode_excluding(inner, values, input),
        }
    }

    /// A function writing `input` as the union on `tag` of `branches`, and
    /// the call of it.
    pub(super) fn encode_union(
        &mut self,
        tag: &str,
        branches: &[BranchDescriptor],
        input: &str,
    ) -> String {
        let name = self.fresh("encodeUnion");
        let key = Value::String(tag.to_owned()).to_string();
        let mut cases = String::new();
        for branch in branches {
            let value = branch.tag.as_str();
            let branch_name = self.fresh("encodeBranch");
            let body = self.encode_members(&branch.members, Some((tag, value)));
            let _ = write!(
                self.functions,
                "\nfunction {branch_name}(members: Record<string, unknown>): string {{\n{body}}}\n"
            );
            let _ = writeln!(
                cases,
                "    case {}:\n      return {branch_name}(members);",
                Value::String(value.to_owned())
            );
        }
        let _ = write!(
            self.functions,
            "\nfunction {name}(value: unknown): string {{\n  const members = record(value);\n  \
             switch (members[{key}]) {{\n{cases}  }}\n  throw MISS;\n}}\n"
        );
        format!("{name}({input})")
    }

    /// A function writing `input` as an `inner` value unless it is one of
    /// the excluded `values`, and the call of it.
    pub(super) fn encode_excluding(
        &mut self,
        inner: &Descriptor,
        values: &[Value],
        input: &str,
    ) -> String {
        let name = self.fresh("encodeExcluding");
        let inner = self.encode(inner, "value");
        let _ = write!(
            self.functions,
            "\nfunction {name}(value: unknown): string {{\n  \
             if (({}).some((excluded: unknown) => sameValue(value, excluded))) throw MISS;\n  \
             return {inner};\n}}\n",
            Value::Array(values.to_vec())
        );
        format!("{name}({input})")
    }

    /// The statements writing `members` of `members` (a record), returning
    /// the object's text; `tag` is a union branch's (member, value).
    pub(super) fn encode_members(
        &mut self,
        members: &[MemberDescriptor],
        tag: Option<(&str, &str)>,
    ) -> String {
        // The text so far; a comma before every member but the first (no
        // slicing at the end, which would copy the text of every level).
        let mut body = String::from("  let out = \"{\";\n  let item: unknown;\n");
        // Whether a member before this one is always written.
        let mut one_written = false;
        for (index, member) in members.iter().enumerate() {
            let comma = if index == 0 {
                ""
            } else if one_written {
                ","
            } else {
                "${out.length === 1 ? \"\" : \",\"}"
            };
            let name = member.name.as_str();
            let key = Value::String(name.to_owned()).to_string();
            // `"name":` as a template literal's text.
            let written = key
                .replace('\\', "\\\\")
                .replace('`', "\\`")
                .replace('$', "\\$");
            if let Some((tag_name, tag_value)) = tag {
                if tag_name == name {
                    let pair = format!("{written}:{}", Value::String(tag_value.to_owned()))
                        .replace('`', "\\`")
                        .replace('$', "\\$");
                    let _ = writeln!(body, "  out += `{comma}{pair}`;");
                    one_written = true;
                    continue;
                }
            }
            let default = member.default.clone().unwrap_or(Value::Null);
            // Every rule but `always` writes the member only when it is not
            // null, so a nullable shape's null case would be dead code there.
            let written_shape = match (&member.shape, member.emit) {
                (Descriptor::Nullable { inner }, Emit::Absent | Emit::Empty | Emit::Default) => {
                    inner.as_ref()
                }
                (shape, _) => shape,
            };
            let encoded = self.encode(written_shape, "item");
            let _ = writeln!(body, "  item = members[{key}];");
            let write = format!("out += `{comma}{written}:${{{encoded}}}`;");
            match member.emit {
                Emit::Absent => {
                    let _ = writeln!(body, "  if (item !== undefined && item !== null) {write}");
                }
                Emit::Empty => {
                    let _ = writeln!(
                        body,
                        "  if (item !== undefined && item !== null && !(Array.isArray(item) && item.length === 0)) {write}"
                    );
                }
                Emit::Default => {
                    let same = if primitive(&default) {
                        format!("item === {}", literal(&default))
                    } else {
                        format!("sameValue(item, {})", literal(&default))
                    };
                    let _ = writeln!(
                        body,
                        "  if (item !== undefined && item !== null && !({same})) {write}"
                    );
                }
                Emit::Always => {
                    let absent = if member.required {
                        "throw MISS;".to_owned()
                    } else {
                        format!("item = {};", literal(&default))
                    };
                    let _ = writeln!(
                        body,
                        "  if (item === undefined || item === null) {absent}\n  {write}"
                    );
                    one_written = true;
                }
            }
        }
        body.push_str("  return `${out}}`;\n");
        body
    }
}
