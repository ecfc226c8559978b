fn main() {
    let set = match cgp_schema::SchemaSet::load(std::path::Path::new("schema"), "schema") {
        Ok(set) => set,
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1)
        }
    };
    let profile: cgp_schema::Profile = std::env::args()
        .nth(1)
        .unwrap_or("interop".into())
        .parse()
        .unwrap();
    match set.bundle(profile) {
        Ok(b) => print!("{}", b.to_pretty_json()),
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1)
        }
    }
}
