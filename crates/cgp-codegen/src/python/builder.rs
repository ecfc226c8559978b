//! The model read into the package's views: a class per object type, an enum
//! per closed or open vocabulary, a union per tagged union, and the wire table
//! entry of every member.

use super::*;
use cgp_schema::model::{NamedType, TaggedUnion, Vocabulary};

impl Builder<'_> {
    pub(super) fn package(&self) -> Result<Package, Diagnostic> {
        let mut package = Package::default();
        for (name, named) in &self.protocol.types {
            let description = named.annotations.description.clone().unwrap_or_default();
            match &named.shape {
                Shape::Object(object) => {
                    self.object_type(&mut package, name, &description, object)?;
                }
                Shape::TaggedUnion(union) => {
                    self.tagged_union(&mut package, name, description, union)?;
                }
                Shape::Enum(values) => {
                    enum_type(&mut package, name, description, named, values)?;
                }
                Shape::OpenVocabulary(vocabulary) => {
                    open_vocabulary(&mut package, name, description, named, vocabulary)?;
                }
                _ => {
                    return Err(refuse(
                        &named.at,
                        "a named type that is not an object, tagged union or string enumeration",
                    ));
                }
            }
        }
        self.variants(&mut package)?;
        package.names = exported_names(&package)?;
        Ok(package)
    }

    /// A class, its plan and its table entry, for a named object type.
    fn object_type(
        &self,
        package: &mut Package,
        name: &str,
        description: &str,
        object: &ObjectShape,
    ) -> Result<(), Diagnostic> {
        package
            .classes
            .push(self.class(name, description, None, object)?);
        package.plans.push(ClassPlan {
            name: name.to_owned(),
            members: object.members.clone(),
            tag: None,
        });
        package.table.push(TableEntry {
            name: name.to_owned(),
            shape: format!(
                "_w.Record(\n    {name},\n    {},\n)",
                self.member_table(&object.members, "    ")?
            ),
        });
        Ok(())
    }

    /// A class per branch, an alias for the union of them, and the union's
    /// table entry.
    fn tagged_union(
        &self,
        package: &mut Package,
        name: &str,
        description: String,
        union: &TaggedUnion,
    ) -> Result<(), Diagnostic> {
        let mut branches = Vec::new();
        let mut names = Vec::new();
        for branch in &union.branches {
            let class = crate::naming::branch_type(name, branch);
            let members = union.members_of(branch);
            let owned: Vec<Member> = members.iter().map(|m| (*m).clone()).collect();
            let object = ObjectShape {
                members: owned.clone(),
                unknown_members: branch.object.unknown_members,
            };
            let branch_description = branch.annotations.description.clone().unwrap_or_default();
            package.classes.push(self.class(
                &class,
                &branch_description,
                Some((union.tag.clone(), branch.tag.clone())),
                &object,
            )?);
            let tag_at = branch
                .object
                .members
                .iter()
                .filter(|member| union.shared.member(&member.name).is_none())
                .position(|member| member.name == union.tag)
                .map_or(0, |index| index + union.shared.members.len());
            branches.push(format!(
                "_w.Branch(\n        {},\n        {class},\n        {},\n        {tag_at},\n    )",
                literal(&branch.tag),
                self.member_table(&owned, "        ")?
            ));
            package.plans.push(ClassPlan {
                name: class.clone(),
                members: owned,
                tag: Some((union.tag.clone(), branch.tag.clone(), tag_at)),
            });
            names.push(class);
        }
        package.aliases.push(AliasView {
            name: name.to_owned(),
            description,
            target: format!("typing.Union[{}]", names.join(", ")),
        });
        package.unions.push(UnionView {
            name: name.to_owned(),
            tag: union.tag.clone(),
        });
        package
            .union_branches
            .push((name.to_owned(), names.clone()));
        package.table.push(TableEntry {
            name: name.to_owned(),
            shape: format!(
                "_w.Union(\n    {},\n    {},\n    {},\n    False,\n)",
                literal(name),
                literal(&union.tag),
                branch_tuple(&branches)
            ),
        });
        Ok(())
    }

    /// A class per envelope variant, and the envelope's table entry.
    fn variants(&self, package: &mut Package) -> Result<(), Diagnostic> {
        let mut variants = Vec::new();
        for variant in &self.protocol.variants {
            let class = variant.name();
            let members: Vec<Member> = variant
                .object
                .members
                .iter()
                .filter(|member| member.name != self.protocol.tag)
                .cloned()
                .collect();
            let tag_at = variant
                .object
                .members
                .iter()
                .position(|member| member.name == self.protocol.tag)
                .unwrap_or(0);
            let object = ObjectShape {
                members: members.clone(),
                unknown_members: variant.object.unknown_members,
            };
            let description = variant.annotations.description.clone().unwrap_or_default();
            package.classes.push(self.class(
                &class,
                &description,
                Some((self.protocol.tag.clone(), variant.tag.clone())),
                &object,
            )?);
            variants.push(format!(
                "_w.Branch(\n        {},\n        {class},\n        {},\n        {tag_at},\n    )",
                literal(&variant.tag),
                self.member_table(&members, "        ")?
            ));
            package.plans.push(ClassPlan {
                name: class.clone(),
                members,
                tag: Some((self.protocol.tag.clone(), variant.tag.clone(), tag_at)),
            });
            package.variants.push(class);
        }
        package.envelope = format!(
            "_w.Union(\n    \"Envelope\",\n    {},\n    {},\n    True,\n)",
            literal(&self.protocol.tag),
            branch_tuple(&variants)
        );
        Ok(())
    }

    fn class(
        &self,
        name: &str,
        description: &str,
        tag: Option<(String, String)>,
        object: &ObjectShape,
    ) -> Result<ClassView, Diagnostic> {
        let mut fields = Vec::new();
        for member in &object.members {
            if object.unknown_members == UnknownMembers::Rejected {
                return Err(refuse(
                    &member.at,
                    "an object that rejects unknown members (the reference ignores them)",
                ));
            }
            let (shape, nullable) = member.shape.without_null();
            let mut annotation = self.hint(shape, &member.at)?;
            if nullable {
                annotation.push_str(" | None");
            }
            if !member.required {
                annotation.push_str(" = ");
                annotation.push_str(&self.field_default(member)?);
            }
            fields.push(FieldView {
                attribute: attribute_name(&member.name),
                annotation,
                description: member.annotations.description.clone().unwrap_or_default(),
            });
        }
        Ok(ClassView {
            name: name.to_owned(),
            description: description.to_owned(),
            tag,
            fields,
        })
    }

    /// The type hint of a shape.
    fn hint(&self, shape: &Shape, at: &Place) -> Result<String, Diagnostic> {
        Ok(match shape {
            Shape::String(_) => "str".into(),
            Shape::Boolean => "bool".into(),
            Shape::Integer(_) => "int".into(),
            Shape::Number(_) => "float".into(),
            Shape::Named(name) => name.clone(),
            Shape::Array(array) => format!("list[{}]", self.hint(&array.items, at)?),
            Shape::Any => "typing.Any".into(),
            _ => {
                return Err(refuse(
                    at,
                    "a member shape other than a string, boolean, integer, number, array or named type",
                ));
            }
        })
    }

    /// The Python expression of a member's default value.
    fn default_value(
        &self,
        shape: &Shape,
        value: &Value,
        at: &Place,
    ) -> Result<String, Diagnostic> {
        let wrong = || refuse(at, &format!("the default {value} for this shape"));
        Ok(match (shape, value) {
            (Shape::Nullable(_), Value::Null) => "None".into(),
            (Shape::Nullable(inner), _) => self.default_value(inner, value, at)?,
            (Shape::Boolean, Value::Bool(flag)) => if *flag { "True" } else { "False" }.into(),
            (Shape::String(_), Value::String(text)) => literal(text),
            (Shape::Integer(_), Value::Number(number)) if number.is_i64() || number.is_u64() => {
                number.to_string()
            }
            (Shape::Array(_), Value::Array(items)) if items.is_empty() => "[]".into(),
            (Shape::Named(name), _) => {
                let named = self.protocol.named(name).ok_or_else(wrong)?;
                match (&named.shape, value) {
                    (Shape::Enum(_), Value::String(text)) => {
                        format!("{name}.{}", constant_name(text))
                    }
                    (Shape::OpenVocabulary(vocabulary), Value::String(text)) => {
                        match (&vocabulary.known_type, vocabulary.known.contains(text)) {
                            (Some(known), true) => format!("{known}.{}", constant_name(text)),
                            _ => literal(text),
                        }
                    }
                    (Shape::Object(object), Value::Object(given)) => {
                        let mut arguments = Vec::new();
                        for (key, item) in given {
                            let member = object.member(key).ok_or_else(wrong)?;
                            arguments.push(format!(
                                "{}={}",
                                attribute_name(key),
                                self.default_value(&member.shape, item, &member.at)?
                            ));
                        }
                        format!("{name}({})", arguments.join(", "))
                    }
                    _ => return Err(wrong()),
                }
            }
            _ => return Err(wrong()),
        })
    }

    /// The expression of an optional member's default: `None`, or the
    /// model's `default`.
    pub(super) fn default_expression(&self, member: &Member) -> Result<String, Diagnostic> {
        match &member.annotations.default {
            Some(value) => self.default_value(&member.shape, value, &member.at),
            None if member.nullable() => Ok("None".into()),
            None => Err(refuse(
                &member.at,
                "an optional member with neither a default nor null",
            )),
        }
    }

    /// What follows `=` in the dataclass field.
    fn field_default(&self, member: &Member) -> Result<String, Diagnostic> {
        let expression = self.default_expression(member)?;
        let mutable = expression.starts_with('[') || expression.ends_with(')');
        Ok(if mutable {
            if expression == "[]" {
                "dataclasses.field(default_factory=list)".into()
            } else {
                format!("dataclasses.field(default_factory=lambda: {expression})")
            }
        } else {
            expression
        })
    }

    /// The members' wire table: a tuple of `_w.Member`s, one a line, the
    /// closing parenthesis at `indent`.
    fn member_table(&self, members: &[Member], indent: &str) -> Result<String, Diagnostic> {
        let mut rows = Vec::new();
        for member in members {
            let (shape, nullable) = member.shape.without_null();
            let emit = match (member.required, member.emit()) {
                (true, _) | (false, Some(Emit::Always)) => "ALWAYS",
                (false, Some(Emit::OmitIfAbsent)) => "OMIT_IF_ABSENT",
                (false, Some(Emit::OmitIfEmpty)) => "OMIT_IF_EMPTY",
                (false, Some(Emit::OmitIfDefault)) => "OMIT_IF_DEFAULT",
                (false, None) => {
                    return Err(refuse(
                        &member.at,
                        "an optional member without `x-cgp-emit`",
                    ));
                }
            };
            let default = if member.required {
                "None".to_owned()
            } else {
                format!("lambda: {}", self.default_expression(member)?)
            };
            rows.push(format!(
                "_w.Member({}, {}, {}, {}, {}, _w.{emit}, {default})",
                literal(&member.name),
                literal(&attribute_name(&member.name)),
                self.shape(shape, &member.at)?,
                if member.required { "True" } else { "False" },
                if nullable { "True" } else { "False" },
            ));
        }
        if rows.is_empty() {
            return Ok("()".into());
        }
        let inner = format!("{indent}    ");
        Ok(format!(
            "(\n{inner}{},\n{indent})",
            rows.join(&format!(",\n{inner}"))
        ))
    }

    /// The wire-table expression of a member's shape.
    fn shape(&self, shape: &Shape, at: &Place) -> Result<String, Diagnostic> {
        Ok(match shape {
            Shape::String(StringShape {
                min_length: None,
                max_length: None,
                pattern: None,
                ..
            }) => "_w.STRING".into(),
            Shape::Boolean => "_w.BOOLEAN".into(),
            Shape::Integer(IntegerShape {
                minimum,
                maximum,
                multiple_of: None,
                ..
            }) => {
                let bound =
                    |limit: &Option<i128>| limit.map_or("None".to_owned(), |n| n.to_string());
                format!("_w.Integer({}, {})", bound(minimum), bound(maximum))
            }
            Shape::Number(NumberShape {
                minimum: None,
                maximum: None,
                multiple_of: None,
                format: Some(format),
            }) if format == "float" => "_w.FLOAT32".into(),
            Shape::Named(name) => format!("_named({})", literal(name)),
            Shape::Array(ArrayShape {
                items,
                min_items: None,
                max_items: None,
                unique_items: false,
                ..
            }) => format!("_w.Array({})", self.shape(items, at)?),
            _ => {
                return Err(refuse(
                    at,
                    "a constrained string, number other than an unbounded f32, or bounded array",
                ));
            }
        })
    }
}

/// A closed vocabulary: an enum of its values and its table entry.
fn enum_type(
    package: &mut Package,
    name: &str,
    description: String,
    named: &NamedType,
    values: &[Value],
) -> Result<(), Diagnostic> {
    let mut constants = Vec::new();
    for value in values {
        let Some(text) = value.as_str() else {
            return Err(refuse(&named.at, "an enum of non-strings"));
        };
        constants.push((constant_name(text), literal(text)));
    }
    let unique: BTreeSet<&String> = constants.iter().map(|(c, _)| c).collect();
    if unique.len() != constants.len() {
        return Err(refuse(&named.at, "enum values that share a Python name"));
    }
    package.enums.push(EnumView {
        name: name.to_owned(),
        description,
        values: constants,
    });
    package.table.push(TableEntry {
        name: name.to_owned(),
        shape: format!("_w.Closed({name})"),
    });
    Ok(())
}

/// An open vocabulary: an alias for its known values or any string.
fn open_vocabulary(
    package: &mut Package,
    name: &str,
    description: String,
    named: &NamedType,
    vocabulary: &Vocabulary,
) -> Result<(), Diagnostic> {
    let Some(known) = &vocabulary.known_type else {
        return Err(refuse(
            &named.at,
            "an open vocabulary without a known-values type",
        ));
    };
    package.aliases.push(AliasView {
        name: name.to_owned(),
        description,
        target: format!("typing.Union[{known}, str]"),
    });
    package.table.push(TableEntry {
        name: name.to_owned(),
        shape: format!("_w.Open({known})"),
    });
    Ok(())
}

/// Every name the package exports, sorted; two types that would share one
/// are refused.
fn exported_names(package: &Package) -> Result<Vec<String>, Diagnostic> {
    let mut names: Vec<String> = package
        .classes
        .iter()
        .map(|class| class.name.clone())
        .chain(package.enums.iter().map(|e| e.name.clone()))
        .chain(package.aliases.iter().map(|a| a.name.clone()))
        .collect();
    names.push("Envelope".into());
    // Each variant also by its cross-language name (ARCHITECTURE.md).
    names.extend(
        package
            .variants
            .iter()
            .map(|class| format!("{class}Envelope")),
    );
    let unique: BTreeSet<&String> = names.iter().collect();
    if unique.len() != names.len() {
        let mut seen = BTreeSet::new();
        let twice: Vec<&String> = names.iter().filter(|name| !seen.insert(*name)).collect();
        return Err(Diagnostic::file(
            PYTHON_DIR,
            format!(
                "two Python types would share a name: {twice:?}; give one schema another title"
            ),
        ));
    }
    names.sort();
    Ok(names)
}
