//! `codec.ts`: the fast path of the TypeScript package, one decode and one
//! encode function per type, written from the same table of shapes the exact
//! path (`runtime/exact.ts`) walks, so the two read every shape alike.
//!
//! A read function reads a value of its type straight from the line's text
//! (the members it may hold, in any order, each once) and builds the decoded
//! value as the exact path would; an encode function writes the canonical text.
//! Where either cannot vouch for the result (a member the type does not name,
//! a number spelled otherwise than the fast path reads it, a `bigint` beyond a
//! `number`) it throws `MISS` and the exact path decides, so verdicts, errors
//! and bytes are always the exact path's. `runtime/fast.ts` holds the reader
//! the read functions share and says what it reads itself.

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The deepest nesting the reference decoder reads.
const MAX_DEPTH: usize = 127;

/// The largest integer a `number` holds exactly, as the fast path's bounds.
const SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// What `codec.ts` takes from `fast.ts`: the reader and the writers.
const FAST_HELPERS: [&str; 31] = [
    "ABSENT",
    "MISS",
    "begin",
    "bigInt",
    "bool",
    "closes",
    "exactly",
    "f32",
    "finish",
    "int",
    "isNull",
    "member",
    "miss",
    "more",
    "nul",
    "num",
    "oneOf",
    "open",
    "peekTag",
    "record",
    "release",
    "str",
    "strLength",
    "writeBigInt",
    "writeBool",
    "writeF32",
    "writeInt",
    "writeList",
    "writeNum",
    "writeOneOf",
    "writeStr",
];

/// What `codec.ts` takes from `exact.ts`.
const EXACT_HELPERS: [&str; 2] = ["encodeAny", "sameValue"];

/// `names`, each followed by a comma, in lines of about 100 characters at
/// most, each indented by two spaces and ended by a line feed.
fn listed(names: &[&str]) -> String {
    let mut out = String::new();
    let mut line = String::from(" ");
    for name in names {
        if line.len() > 1 && line.len() + name.len() > 98 {
            out.push_str(&line);
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(name);
        line.push(',');
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// Writes `codec.ts` from the table of shapes (the named types and
/// `Envelope`). When the types nest deeper than the reference reads, or refer
/// to themselves, the fast path is left out and every line takes the exact
/// path.
pub(super) fn generate(shapes: &Map<String, Value>, header: &str) -> String {
    let mut writer = Writer {
        functions: String::new(),
        constants: String::new(),
        name_lists: Vec::new(),
        choice_lists: Vec::new(),
        next: 0,
    };
    let depth = depth_of(
        shapes,
        &Value::String("Envelope".into()),
        &mut Vec::new(),
        true,
    );
    let fast = depth.is_some_and(|depth| depth <= MAX_DEPTH);
    let mut out = String::from(header);
    let _ = write!(
        out,
        "\nimport {{\n{}}} from \"./fast.js\";\nimport {{ {} }} from \"./exact.js\";\n\n",
        listed(&FAST_HELPERS),
        EXACT_HELPERS.join(", ")
    );
    // A schema need not use every helper (and a fast path left out uses none).
    let all: Vec<&str> = FAST_HELPERS.iter().chain(&EXACT_HELPERS).copied().collect();
    let unused = format!(
        "\n// Helpers a schema need not use.\nvoid [\n{}];\n",
        listed(&all)
    );
    if !fast {
        out.push_str(
            "\n// The types nest deeper than the reference decoder reads, or refer to\n\
             // themselves: every line takes the exact path.\n\n\
             export function decodeFast(_text: string): unknown {\n  throw MISS;\n}\n\n\
             export function encodeFast(_value: unknown): string {\n  throw MISS;\n}\n",
        );
        out.push_str(&unused);
        return out;
    }
    for (name, shape) in shapes {
        let ident = ident(name);
        let decode = writer.decode(shape);
        let encode = writer.encode(shape, "value");
        let _ = write!(
            writer.functions,
            "\n/** Reads a `{name}`. */\nfunction read{ident}(): unknown {{\n  return {decode};\n}}\n\
             \n/** Writes a `{name}`. */\nfunction encode{ident}(value: unknown): string {{\n  return {encode};\n}}\n"
        );
    }
    out.push_str(&writer.constants);
    out.push_str(&writer.functions);
    out.push_str(
        "\n/** The envelope of the line `text` (its trailing whitespace gone), or\n \
         * `MISS` where the exact path must decide. */\n\
         export function decodeFast(text: string): unknown {\n  \
         begin(text);\n  try {\n    const envelope = readEnvelope();\n    finish();\n    return envelope;\n  } finally {\n    release();\n  }\n}\n\
         \n/** The canonical text of `envelope` (without the newline), or `MISS`\n \
         * where the exact path must decide. */\n\
         export function encodeFast(envelope: unknown): string {\n  return encodeEnvelope(envelope);\n}\n",
    );
    out.push_str(&unused);
    out
}

/// An expression reading exactly the string `constant`.
fn exactly(constant: &str) -> String {
    format!("exactly({})", Value::String(constant.to_owned()))
}

/// A TypeScript identifier from a type name.
fn ident(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// A value as a TypeScript literal (JSON is one).
fn literal(value: &Value) -> String {
    value.to_string()
}

/// Whether a value is a primitive `===` compares as the exact path's
/// `sameValue` does.
fn primitive(value: &Value) -> bool {
    !matches!(value, Value::Array(_) | Value::Object(_))
}

/// The deepest container nesting a value of `shape` reaches (the envelope
/// being at 1), or `None` when it is unbounded (a type that refers to
/// itself, or any JSON value).
fn depth_of(
    shapes: &Map<String, Value>,
    shape: &Value,
    visiting: &mut Vec<String>,
    named_ref: bool,
) -> Option<usize> {
    if named_ref {
        let name = shape.as_str()?;
        if visiting.iter().any(|seen| seen == name) {
            return None;
        }
        visiting.push(name.to_owned());
        let found = depth_of(shapes, shapes.get(name)?, visiting, false);
        visiting.pop();
        return found;
    }
    let members_depth = |members: &Value, visiting: &mut Vec<String>| -> Option<usize> {
        let mut deepest = 0;
        for member in members.as_array()? {
            deepest = deepest.max(depth_of(shapes, member.get("shape")?, visiting, false)?);
        }
        Some(1 + deepest)
    };
    match shape.get("kind")?.as_str()? {
        "any" => None,
        "ref" => depth_of(shapes, shape.get("name")?, visiting, true),
        "array" => Some(1 + depth_of(shapes, shape.get("items")?, visiting, false)?),
        "object" => members_depth(shape.get("members")?, visiting),
        "union" => {
            let mut deepest = 1;
            for branch in shape.get("branches")?.as_array()? {
                deepest = deepest.max(members_depth(branch.get("members")?, visiting)?);
            }
            Some(deepest)
        }
        "nullable" | "excluding" => depth_of(shapes, shape.get("inner")?, visiting, false),
        "const" => Some(const_depth(shape.get("value")?)),
        _ => Some(0),
    }
}

fn const_depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(const_depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.values().map(const_depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// A bound of an integer shape as the fast path compares it: beyond a
/// `number`'s exact integers it cannot matter (the fast path reads fewer
/// than 16 digits), so it is an infinity.
fn int_bound(bound: &Value, low: bool) -> String {
    let parsed = bound.as_str().and_then(|text| text.parse::<f64>().ok());
    match parsed {
        Some(value) if value.abs() <= SAFE_INTEGER => format!("{value}"),
        _ if low => "-Infinity".into(),
        _ => "Infinity".into(),
    }
}

/// A limit of a number shape: (bound, exclusive).
fn number_limit(limit: &Value, low: bool) -> (String, bool) {
    match limit.get("value").and_then(Value::as_f64) {
        Some(value) => (
            format!("{value:?}"),
            limit.get("exclusive").and_then(Value::as_bool) == Some(true),
        ),
        None if low => ("-Infinity".into(), false),
        None => ("Infinity".into(), false),
    }
}

fn count(value: Option<&Value>, none: &str) -> String {
    value
        .and_then(Value::as_u64)
        .map_or_else(|| none.to_owned(), |n| n.to_string())
}

struct Writer {
    functions: String,
    constants: String,
    /// The lists of member names declared so far.
    name_lists: Vec<Vec<String>>,
    /// The lists of enumerated strings declared so far.
    choice_lists: Vec<Vec<String>>,
    next: usize,
}

impl Writer {
    fn fresh(&mut self, what: &str) -> String {
        self.next += 1;
        format!("{what}{}", self.next)
    }

    /// A TypeScript expression reading a value of `shape` from the line.
    fn decode(&mut self, shape: &Value) -> String {
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
            "array" => {
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
            "excluding" => {
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
            // `any`, and whatever else: the exact path reads it.
            _ => "miss()".into(),
        }
    }

    /// The statements of a function reading an object of `members` from the
    /// line, in any order, each once, and building the decoded object with
    /// its members in their declared order; `tag` is a union branch's
    /// (member, value), which the object must hold.
    fn decode_members(&mut self, members: &Value, tag: Option<(&str, &str)>) -> String {
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
                    let _ = writeln!(build, "  out[{key}] = {value};");
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
    fn choices(&mut self, values: &[Value]) -> String {
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
    fn names(&mut self, names: &[String]) -> String {
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

    fn decode_union(&mut self, shape: &Value) -> String {
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

    /// A TypeScript expression writing `input` as `shape`.
    fn encode(&mut self, shape: &Value, input: &str) -> String {
        let kind = shape.get("kind").and_then(Value::as_str).unwrap_or("");
        match kind {
            "any" => format!("encodeAny({input}, \"\")"),
            "ref" => format!(
                "encode{}({input})",
                ident(shape.get("name").and_then(Value::as_str).unwrap_or(""))
            ),
            "null" => format!("({input} === null ? \"null\" : miss())"),
            "boolean" => format!("writeBool({input})"),
            "integer" => {
                if shape.get("big").and_then(Value::as_bool) == Some(true) {
                    let bound = |key: &str| {
                        shape
                            .get(key)
                            .and_then(Value::as_str)
                            .map(|text| format!("{text}n"))
                    };
                    match (bound("min"), bound("max")) {
                        (Some(min), Some(max)) => format!("writeBigInt({input}, {min}, {max})"),
                        _ => "miss()".into(),
                    }
                } else {
                    format!(
                        "writeInt({input}, {}, {})",
                        int_bound(&shape["min"], true),
                        int_bound(&shape["max"], false)
                    )
                }
            }
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
            "union" => {
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
            "excluding" => {
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
            _ => "miss()".into(),
        }
    }

    /// The statements writing `members` of `members` (a record), returning
    /// the object's text; `tag` is a union branch's (member, value).
    fn encode_members(&mut self, members: &Value, tag: Option<(&str, &str)>) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn envelope_of(members: Value) -> Map<String, Value> {
        let mut shapes = Map::new();
        shapes.insert(
            "Envelope".into(),
            json!({"kind": "object", "members": members}),
        );
        shapes
    }

    #[test]
    fn names_are_matched_by_their_raw_text_only_where_json_writes_them_plain() {
        let plain = generate(
            &envelope_of(json!([{"name": "goal", "shape": {"kind": "string"}, "required": true}])),
            "",
        );
        assert!(plain.contains(r#"const NAMES0: readonly string[] = ["goal"];"#));
        assert!(plain.contains("member(NAMES0, expected)"));
        // A quote, a backslash or a control character is written escaped, so
        // the text between the quotes is not the name: the exact path reads it.
        for name in ["a\"b", "a\\b", "a\u{1}b"] {
            let escaped = generate(
                &envelope_of(json!([
                    {"name": "goal", "shape": {"kind": "string"}, "required": true},
                    {"name": name, "shape": {"kind": "string"}}
                ])),
                "",
            );
            assert!(!escaped.contains("NAMES0"), "{name:?}: {escaped}");
            assert!(
                escaped.contains("(): unknown {\n  return miss();\n}"),
                "{name:?}: {escaped}"
            );
        }
    }
}
