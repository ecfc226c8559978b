//! The three open vocabularies of the wire: [`FrameKind`], [`ErrorCode`] and
//! [`EgressScope`].
//!
//! Each one travels as a plain JSON string. The values this revision of the
//! protocol names get their own variants; any other string is kept verbatim in
//! an `Other` variant, so a host that relays a message it only half
//! understands re-emits it byte for byte (SPEC.md
//! [§Vocabularies](../../SPEC.md#vocabularies)).
//!
//! Matching is exact and case-sensitive: `"DOC"` is not `doc`, it is an
//! unknown kind. Anything that is not a JSON string (a number, `null`, an
//! object) is rejected when deserializing.
//!
//! Equality, ordering and hashing compare the wire strings, so
//! `FrameKind::Other("doc".into())` and `FrameKind::Doc` are equal even though
//! only the second is the normal form that [`FrameKind::from_wire`] returns.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Generates an open string vocabulary: the enum, its conversions, its serde
/// impls and (with the `schema` feature) its JSON Schema.
macro_rules! open_vocabulary {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(#[$ometa:meta])*
            Other(String);
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $wire:literal,
            )+
        }
        schema_description = $schema_description:literal;
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        #[non_exhaustive]
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant,
            )+
            $(#[$ometa])*
            Other(String),
        }

        impl $name {
            /// Every value this revision of the protocol names, in
            /// declaration order. This is a catalogue, not a restriction:
            /// other strings are accepted too.
            pub const KNOWN: &'static [&'static str] = &[$($wire),+];

            /// The exact string this value is written as on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Other(raw) => raw,
                }
            }

            /// Reads a wire string. A known value becomes its own variant and
            /// anything else becomes `Other`, unchanged. This never fails.
            pub fn from_wire(raw: impl Into<String> + AsRef<str>) -> Self {
                match raw.as_ref() {
                    $($wire => Self::$variant,)+
                    _ => Self::Other(raw.into()),
                }
            }

            /// Returns `true` if the value is one of [`KNOWN`](Self::KNOWN),
            /// also when it was built by hand as `Other` with a known string.
            pub fn is_known(&self) -> bool {
                Self::KNOWN.contains(&self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(raw: &str) -> Self {
                Self::from_wire(raw)
            }
        }

        impl From<String> for $name {
            fn from(raw: String) -> Self {
                Self::from_wire(raw)
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                match value {
                    $name::Other(raw) => raw,
                    known => known.as_str().to_owned(),
                }
            }
        }

        impl FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(raw: &str) -> Result<Self, Self::Err> {
                Ok(Self::from_wire(raw))
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.as_str() == other.as_str()
            }
        }

        impl Eq for $name {}

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.as_str().hash(state);
            }
        }

        impl PartialOrd for $name {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            fn cmp(&self, other: &Self) -> Ordering {
                self.as_str().cmp(other.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                String::deserialize(deserializer).map(Self::from_wire)
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(stringify!($name))
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(concat!(module_path!(), "::", stringify!($name)))
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                open_vocabulary_schema($schema_description, Self::KNOWN)
            }
        }
    };
}

/// The schema shared by the open vocabularies: any string, with the known
/// values spelled out as one branch and "anything else" as the other.
#[cfg(feature = "schema")]
fn open_vocabulary_schema(description: &str, known: &[&str]) -> schemars::Schema {
    schemars::json_schema!({
        "description": description,
        "type": "string",
        "oneOf": [
            { "type": "string", "enum": known },
            { "type": "string", "not": { "enum": known } }
        ]
    })
}

open_vocabulary! {
    /// What sort of thing a [`ContextFrame`](crate::ContextFrame) holds
    /// (SPEC.md [§Vocabularies](../../SPEC.md#vocabularies),
    /// [§FrameKind](../../SPEC.md#type-framekind)).
    ///
    /// An open vocabulary serialized as a plain string. A host must accept a
    /// frame whose kind it does not recognise; it may only decline to give it
    /// kind-specific treatment. Unrecognised kinds land in
    /// [`Other`](Self::Other) and serialize back unchanged.
    ///
    /// Note that [`QueryCapability::kinds`](crate::QueryCapability::kinds) is
    /// a list of plain strings, not of this type.
    pub enum FrameKind {
        /// Any other string, kept exactly as received (including `""` and
        /// differently cased spellings such as `"DOC"`).
        Other(String);
        /// `"snippet"`: an excerpt of a source file or other text.
        Snippet = "snippet",
        /// `"symbol"`: a code symbol such as a function or a type.
        Symbol = "symbol",
        /// `"fact"`: a single stated fact.
        Fact = "fact",
        /// `"doc"`: documentation, or a passage of it.
        Doc = "doc",
        /// `"memory"`: something an agent stored earlier.
        Memory = "memory",
        /// `"episode"`: a record of a past session or event.
        Episode = "episode",
        /// `"graph"`: a node of a knowledge graph, usually with relations.
        Graph = "graph",
    }
    schema_description = "What sort of thing a frame holds. An open vocabulary: the known kinds are listed, any other string is accepted and preserved.";
}

open_vocabulary! {
    /// The machine-readable reason carried by an `error` envelope (SPEC.md
    /// [§error](../../SPEC.md#variant-error),
    /// [§ErrorCode](../../SPEC.md#type-errorcode)).
    ///
    /// An open vocabulary serialized as a plain string. A host treats a code
    /// it does not recognise like [`Internal`](Self::Internal); the string
    /// itself is kept in [`Other`](Self::Other) and serializes back
    /// unchanged.
    pub enum ErrorCode {
        /// Any other string, kept exactly as received.
        Other(String);
        /// `"bad_request"`: the request was malformed or broke a rule.
        BadRequest = "bad_request",
        /// `"unsupported_kind"`: the query asked for kinds the provider does
        /// not serve.
        UnsupportedKind = "unsupported_kind",
        /// `"unsupported_representation"`: none of the requested
        /// representations is offered.
        UnsupportedRepresentation = "unsupported_representation",
        /// `"incompatible_version"`: the peer speaks another protocol family.
        IncompatibleVersion = "incompatible_version",
        /// `"budget_unsatisfiable"`: nothing useful fits in the budget.
        BudgetUnsatisfiable = "budget_unsatisfiable",
        /// `"unavailable"`: a backing service is down for now; a later retry
        /// may succeed.
        Unavailable = "unavailable",
        /// `"shutting_down"`: the provider is exiting.
        ShuttingDown = "shutting_down",
        /// `"internal"`: anything else that went wrong inside the provider.
        /// Also what an `error` envelope without a `code` means.
        Internal = "internal",
    }
    schema_description = "Machine-readable reason for an error envelope. An open vocabulary: the known codes are listed, any other string is accepted, preserved, and handled like `internal`.";
}

open_vocabulary! {
    /// A destination class that served content may travel to, declared in
    /// [`DataFlow::egress_scopes`](crate::DataFlow::egress_scopes) (SPEC.md
    /// [§EgressScope](../../SPEC.md#type-egressscope),
    /// [rule C5](../../SPEC.md#rule-c5)).
    ///
    /// The four base classes are kebab-case. Anything else is kept in
    /// [`Other`](Self::Other); rule C5 expects such a custom scope to be
    /// namespaced as `vendor:name`, which [`is_well_formed`](Self::is_well_formed)
    /// checks, but deserialization accepts any string.
    pub enum EgressScope {
        /// Any other string, kept exactly as received.
        Other(String);
        /// `"local-only"`: nothing leaves the machine.
        LocalOnly = "local-only",
        /// `"org-tenant"`: content stays within the organisation's own
        /// infrastructure.
        OrgTenant = "org-tenant",
        /// `"third-party-index"`: content goes to an external index or
        /// embedding service.
        ThirdPartyIndex = "third-party-index",
        /// `"third-party-model"`: content goes to an external model.
        ThirdPartyModel = "third-party-model",
    }
    schema_description = "Where served content may travel. An open vocabulary: the four kebab-case base scopes are listed; custom scopes are expected to look like `vendor:name`, but any string is accepted and preserved.";
}

impl ErrorCode {
    /// The code a host acts on: unknown strings read as
    /// [`Internal`](Self::Internal), known codes as themselves.
    pub fn effective(&self) -> ErrorCode {
        if self.is_known() {
            Self::from_wire(self.as_str())
        } else {
            Self::Internal
        }
    }
}

impl EgressScope {
    /// Returns `true` for every scope except [`LocalOnly`](Self::LocalOnly),
    /// custom scopes included: an unknown destination is assumed to leave
    /// the machine.
    pub fn is_off_machine(&self) -> bool {
        self.as_str() != "local-only"
    }

    /// Checks the shape rule C5 sets for scopes (SPEC.md
    /// [rule C5](../../SPEC.md#rule-c5)): a base scope is always
    /// well formed; any other scope must contain a `:` with a non-empty part
    /// on each side of the first one. This is not checked when decoding.
    pub fn is_well_formed(&self) -> bool {
        if self.is_known() {
            return true;
        }
        match self.as_str().split_once(':') {
            Some((namespace, name)) => !namespace.is_empty() && !name.is_empty(),
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_strings_map_to_their_variants() {
        for raw in FrameKind::KNOWN {
            let kind = FrameKind::from_wire(*raw);
            assert!(!matches!(kind, FrameKind::Other(_)), "{raw}");
            assert_eq!(kind.as_str(), *raw);
        }
        for raw in ErrorCode::KNOWN {
            assert!(!matches!(ErrorCode::from(*raw), ErrorCode::Other(_)));
        }
        for raw in EgressScope::KNOWN {
            assert!(!matches!(EgressScope::from(*raw), EgressScope::Other(_)));
        }
    }

    /// Each open vocabulary knows exactly the values its schema's `Known…`
    /// list names, in order: read from `schema/vocab/`, so that a vocabulary
    /// may grow (ARCHITECTURE.md, recipe "Add a vocabulary value").
    #[test]
    fn known_values_are_the_schemas() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/vocab");
        for (file, known) in [
            ("frame-kind", FrameKind::KNOWN),
            ("error-code", ErrorCode::KNOWN),
            ("egress-scope", EgressScope::KNOWN),
        ] {
            let path = dir.join(format!("{file}.schema.json"));
            let text = std::fs::read_to_string(&path).expect("read");
            let schema: serde_json::Value = serde_json::from_str(&text).expect("json");
            let title = schema["title"].as_str().expect("title");
            let listed: Vec<&str> = schema["$defs"][format!("Known{title}")]["enum"]
                .as_array()
                .expect("the Known list")
                .iter()
                .filter_map(serde_json::Value::as_str)
                .collect();
            assert_eq!(known, listed.as_slice(), "{}", path.display());
        }
    }

    #[test]
    fn matching_is_case_sensitive() {
        assert_eq!(FrameKind::from("DOC"), FrameKind::Other("DOC".into()));
        assert!(!FrameKind::from("DOC").is_known());
        assert_eq!(
            EgressScope::from("local_only"),
            EgressScope::Other("local_only".into())
        );
    }

    #[test]
    fn equality_and_order_follow_the_wire_string() {
        assert_eq!(FrameKind::Other("doc".into()), FrameKind::Doc);
        assert!(FrameKind::Other("doc".into()).is_known());
        assert!(FrameKind::Doc < FrameKind::Graph);
        assert!(FrameKind::Other("a".into()) < FrameKind::Doc);
        assert_eq!(FrameKind::Doc, "doc");
        let set: std::collections::HashSet<_> =
            [FrameKind::Doc, FrameKind::Other("doc".into())].into();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn unknown_error_codes_act_as_internal() {
        assert_eq!(ErrorCode::from("quota").effective(), ErrorCode::Internal);
        assert_eq!(
            ErrorCode::from("unavailable").effective(),
            ErrorCode::Unavailable
        );
        assert_eq!(String::from(ErrorCode::from("quota")), "quota");
        assert_eq!(ErrorCode::BadRequest.to_string(), "bad_request");
    }

    #[test]
    fn egress_scope_shape_rule() {
        assert!(EgressScope::LocalOnly.is_well_formed());
        assert!(EgressScope::from("acme:vectors").is_well_formed());
        assert!(!EgressScope::from("acme:").is_well_formed());
        assert!(!EgressScope::from(":x").is_well_formed());
        assert!(!EgressScope::from("notnamespaced").is_well_formed());
        assert!(!EgressScope::LocalOnly.is_off_machine());
        assert!(EgressScope::from("acme:vectors").is_off_machine());
        assert!(EgressScope::OrgTenant.is_off_machine());
    }
}
