//! The encode functions of `codec.ts`: a TypeScript expression, and the
//! functions it calls, writing the canonical text of each shape.

use super::*;
use serde_json::Value;
use std::fmt::Write as _;

impl Writer {
    /// A TypeScript expression writing `input` as `shape`.
    pub(super) fn encode(&mut self, shape: &Value, input: &str) -> String {
        let kind = shape.get("kind").and_then(Value::as_str).unwrap_or("");
        match kind {
            "any" => format!("encodeAny({input}, \"\")"),
            "ref" => format!(
                "encode{}({input})",
                ident(shape.get("name").and_then(Value::as_str).unwrap_or(""))
            ),
            "null" => format!("({input} === null ? \"null\" : miss())"),
            "boolean" => format!("writeBool({input})"),
            "integer" => encode_integer(shape, input),
            "number" => {
                if shape.get("f32").and_then(Value::as_bool) == Some(true) {
                    format!("writeF32({input})")
                } else {
                    format!("writeNum({input})")
                }
            }
            "string" | "vocabulary" => format!("writeStr({input})"),
            "enum" => {
                let values = shape
                    .get("values")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                let choices = self.choices(&values);
                format!("writeOneOf({input}, {choices})")
            }
            "const" => match shape.get("value") {
                Some(value) if primitive(value) => {
                    let text = Value::String(value.to_string()).to_string();
                    format!("({input} === {} ? {text} : miss())", literal(value))
                }
                _ => "miss()".into(),
            },
            "nullable" => {
                let inner = self.encode(&shape["inner"], input);
                format!("({input} === null ? \"null\" : {inner})")
            }
            "array" => {
                let name = self.fresh("encodeList");
                let item = self.encode(&shape["items"], "items[at]");
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(value: unknown): string {{\n  const items = writeList(value);\n  \
                     let out = \"[\";\n  for (let at = 0; at < items.length; at += 1) {{\n    \
                     if (at > 0) out += \",\";\n    out += {item};\n  }}\n  return `${{out}}]`;\n}}\n"
                );
                format!("{name}({input})")
            }
            "object" => {
                let name = self.fresh("encodeObject");
                let body = self.encode_members(&shape["members"], None);
                let _ = write!(
                    self.functions,
                    "\nfunction {name}(value: unknown): string {{\n  const members = record(value);\n{body}}}\n"
                );
                format!("{name}({input})")
            }
            "union" => self.encode_union(shape, input),
            "excluding" => self.encode_excluding(shape, input),
            _ => "miss()".into(),
        }
    }

    /// A function writing `input` as the tagged union `shape`, and the call of it.
    pub(super) fn encode_union(&mut self, shape: &Value, input: &str) -> String {
        let name = self.fresh("encodeUnion");
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
            let branch_name = self.fresh("encodeBranch");
            let body = self.encode_members(&branch["members"], Some((tag, value)));
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

    /// A function writing `input` as `shape`'s inner value unless it is an
    /// excluded one, and the call of it.
    pub(super) fn encode_excluding(&mut self, shape: &Value, input: &str) -> String {
        let name = self.fresh("encodeExcluding");
        let inner = self.encode(&shape["inner"], "value");
        let values = shape
            .get("values")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let _ = write!(
            self.functions,
            "\nfunction {name}(value: unknown): string {{\n  \
             if (({}).some((excluded: unknown) => sameValue(value, excluded))) throw MISS;\n  \
             return {inner};\n}}\n",
            Value::Array(values)
        );
        format!("{name}({input})")
    }

    /// The statements writing `members` of `members` (a record), returning
    /// the object's text; `tag` is a union branch's (member, value).
    pub(super) fn encode_members(&mut self, members: &Value, tag: Option<(&str, &str)>) -> String {
        // The text so far; a comma before every member but the first (no
        // slicing at the end, which would copy the text of every level).
        let mut body = String::from("  let out = \"{\";\n  let item: unknown;\n");
        // Whether a member before this one is always written.
        let mut one_written = false;
        for (index, member) in members.as_array().into_iter().flatten().enumerate() {
            let comma = if index == 0 {
                ""
            } else if one_written {
                ","
            } else {
                "${out.length === 1 ? \"\" : \",\"}"
            };
            let name = member.get("name").and_then(Value::as_str).unwrap_or("");
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
            let required = member.get("required").and_then(Value::as_bool) == Some(true);
            let default = member.get("default").cloned().unwrap_or(Value::Null);
            let emit = member
                .get("emit")
                .and_then(Value::as_str)
                .unwrap_or("always");
            // Every rule but `always` writes the member only when it is not
            // null, so a nullable shape's null case would be dead code there.
            let shape = &member["shape"];
            let written_shape = match shape.get("kind").and_then(Value::as_str) {
                Some("nullable") if emit != "always" => &shape["inner"],
                _ => shape,
            };
            let encoded = self.encode(written_shape, "item");
            let _ = writeln!(body, "  item = members[{key}];");
            let write = format!("out += `{comma}{written}:${{{encoded}}}`;");
            match emit {
                "absent" => {
                    let _ = writeln!(body, "  if (item !== undefined && item !== null) {write}");
                }
                "empty" => {
                    let _ = writeln!(
                        body,
                        "  if (item !== undefined && item !== null && !(Array.isArray(item) && item.length === 0)) {write}"
                    );
                }
                "default" => {
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
                _ => {
                    let absent = if required {
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
