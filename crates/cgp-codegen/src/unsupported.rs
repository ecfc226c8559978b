//! Why a shape of the model cannot be generated: the one typed refusal the
//! package generators return, which names the type, variant or member it is
//! about and becomes a diagnostic at that place in `schema/` (file, line,
//! column and pointer), never at a template.

use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::{Member, Place, Protocol};
use std::fmt;

/// What a generated package cannot describe; [`fmt::Display`] says it as the
/// end of a sentence ("the Go module cannot describe …").
#[derive(Debug, Clone, PartialEq)]
pub enum Unsupported {
    /// The model could not read the schema here (its own reason).
    Model(String),
    /// A shape the generator has no type for (its debug form).
    Shape(String),
    /// An array with `uniqueItems`, `minItems` or `maxItems` (Go).
    ArrayItemConstraints,
    /// `uniqueItems` (TypeScript).
    UniqueItems,
    /// `multipleOf` on an integer.
    IntegerMultipleOf,
    /// `multipleOf` on a number.
    NumberMultipleOf,
    /// An integer range with no exact native type (its description).
    IntegerRange(String),
    /// A number range the module does not check (its description).
    NumberRange(String),
    /// `pattern` on a string.
    Pattern,
    /// An `enum` with a value that is not a string, in a union of strings.
    NonStringEnum,
    /// An `enum` value that is not a string, as a Go constant.
    NonStringEnumValue,
    /// A constant that is not a string.
    NonStringConstant,
    /// A tagged union that is not a whole named type.
    UnnamedTaggedUnion,
    /// An object that rejects unknown members.
    ClosedObject,
    /// A member name with a quote, a backslash or a control character.
    NameNeedsEscaping,
    /// A default the generated code cannot write (the default, the shape).
    Default { default: String, shape: String },
    /// `omit-if-default` on a shape with no zero value to compare with.
    OmitIfDefault,
    /// A named type that is not an object, tagged union or string vocabulary
    /// (Go and Java describe those only).
    TypeKind,
    /// Inside a member: where its schema is written, its name, the package.
    Member {
        at: Place,
        name: String,
        package: &'static str,
        why: Box<Unsupported>,
    },
    /// Inside a named type.
    Type { name: String, why: Box<Unsupported> },
    /// Inside an envelope variant, by its tag.
    Variant { tag: String, why: Box<Unsupported> },
}

impl Unsupported {
    /// This refusal as one about `member`, for the named `package`.
    pub fn in_member(self, member: &Member, package: &'static str) -> Self {
        Self::Member {
            at: member.at.clone(),
            name: member.name.clone(),
            package,
            why: Box::new(self),
        }
    }

    /// This refusal as one about the named type `name`.
    pub fn in_type(self, name: &str) -> Self {
        Self::Type {
            name: name.to_owned(),
            why: Box::new(self),
        }
    }

    /// This refusal as one about the envelope variant `tag`.
    pub fn in_variant(self, tag: &str) -> Self {
        Self::Variant {
            tag: tag.to_owned(),
            why: Box::new(self),
        }
    }

    /// Where in `protocol` this refusal is about: the innermost member, type
    /// or variant it names.
    pub fn place<'p>(&'p self, protocol: &'p Protocol) -> Option<&'p Place> {
        let inner = match self {
            Self::Member { why, .. } | Self::Type { why, .. } | Self::Variant { why, .. } => {
                why.place(protocol)
            }
            _ => None,
        };
        inner.or(match self {
            Self::Member { at, .. } => Some(at),
            Self::Type { name, .. } => protocol.types.get(name).map(|named| &named.at),
            Self::Variant { tag, .. } => protocol
                .variants
                .iter()
                .find(|variant| &variant.tag == tag)
                .map(|variant| &variant.at),
            _ => None,
        })
    }

    /// The refusal of `package` ("the Go module") as a diagnostic at its
    /// place in the sources of `protocol`.
    pub fn into_diagnostics(self, protocol: &Protocol, package: &str) -> Diagnostics {
        let message = if self.names_a_member() {
            self.to_string()
        } else {
            format!("the {package} cannot describe this schema: {self}")
        };
        let diagnostic = match self.place(protocol) {
            Some(place) => place.diagnostic(message),
            None => Diagnostic::file("schema", message),
        };
        Diagnostics::one(diagnostic)
    }

    /// Whether the refusal names a member (whose text names the package).
    fn names_a_member(&self) -> bool {
        match self {
            Self::Member { .. } => true,
            Self::Type { why, .. } | Self::Variant { why, .. } => why.names_a_member(),
            _ => false,
        }
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Model(why) => write!(f, "{why}"),
            Self::Shape(shape) => write!(f, "the shape {shape} here"),
            Self::ArrayItemConstraints => write!(f, "an array with item constraints"),
            Self::UniqueItems => write!(f, "`uniqueItems`"),
            Self::IntegerMultipleOf => write!(f, "`multipleOf` on an integer"),
            Self::NumberMultipleOf => write!(f, "`multipleOf` on a number"),
            Self::IntegerRange(range) => write!(f, "the integer range {range}"),
            Self::NumberRange(range) => write!(f, "the number range {range}"),
            Self::Pattern => write!(f, "`pattern` (regular expressions differ between engines)"),
            Self::NonStringEnum => write!(f, "an `enum` with values that are not strings"),
            Self::NonStringEnumValue => write!(f, "an enum value that is not a string"),
            Self::NonStringConstant => write!(f, "a constant that is not a string"),
            Self::UnnamedTaggedUnion => write!(f, "a tagged union that is not a named type"),
            Self::ClosedObject => write!(
                f,
                "an object that rejects unknown members (the reference decoder ignores them)"
            ),
            Self::NameNeedsEscaping => write!(f, "a member name that needs escaping"),
            Self::Default { default, shape } => write!(f, "the default {default} for {shape}"),
            Self::OmitIfDefault => write!(f, "`omit-if-default` on this shape"),
            Self::TypeKind => write!(
                f,
                "a named type that is neither an object, a tagged union nor a string vocabulary"
            ),
            Self::Member {
                name, package, why, ..
            } => write!(f, "member `{name}`: the {package} cannot describe {why}"),
            Self::Type { name, why } => write!(f, "type `{name}`: {why}"),
            Self::Variant { tag, why } => write!(f, "variant `{tag}`: {why}"),
        }
    }
}

impl std::error::Error for Unsupported {}
