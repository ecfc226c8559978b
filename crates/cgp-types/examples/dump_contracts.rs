//! Prints the schemars contracts of the wire types as one JSON object
//! `{"deserialize": …, "serialize": …}` (used by the sync gate's tests, which
//! build mutated copies of this crate).

fn main() {
    let contracts = serde_json::json!({
        "deserialize": cgp_types::schema_support::deserialize_contract(),
        "serialize": cgp_types::schema_support::serialize_contract(),
    });
    println!("{contracts}");
}
