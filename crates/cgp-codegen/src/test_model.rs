//! A one-variant protocol model for the generators' unit tests: a `ping`
//! variant with one optional member of a given shape.

use cgp_schema::ProtocolVersion;
use cgp_schema::model::{Protocol, Reading};
use serde_json::{Value, json};

/// The model of an envelope whose only variant, `ping`, has the optional
/// member `name` with the schema `member`.
pub fn ping_with(name: &str, member: Value) -> Protocol {
    let document = json!({
        "x-cgp-tag": "type",
        "oneOf": [{
            "title": "Ping",
            "type": "object",
            "properties": {"type": {"const": "ping"}, name: member},
            "required": ["type"]
        }],
        "$defs": {}
    });
    Protocol::read(&document, Reading::Validator, &|_| None)
}

/// The version the test models speak.
pub fn version() -> ProtocolVersion {
    "demo/1.0".parse().expect("a version")
}

/// A project home for the generators' tests.
pub fn home() -> crate::home::Home {
    crate::home::Home::parse("[workspace.package]\nrepository = \"https://example.org/o/r\"\n")
        .expect("a home")
}
