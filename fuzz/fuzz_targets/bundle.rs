#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| cgp_fuzz::bundle(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")), data));
