//! The package's two fast paths, generated per type from the same model as the
//! wire table:
//!
//! - `cgp_types/_fast.py` ([`decoder`]), the decoder behind `decode_line` when
//!   msgspec is installed: a `msgspec.Struct` mirror of every class (open
//!   vocabularies as `str`, integers with their ranges, `f32`s as doubles,
//!   optional members defaulting to what msgspec leaves out of its encoding),
//!   a converter from each mirror to its dataclass, and the checks around
//!   msgspec's reading for what it hides (duplicate and unknown members,
//!   `-0`, escapes): msgspec's re-encoding of the mirrors is the line itself,
//!   or has as many colons;
//! - `cgp_types/_writer.py` ([`writer`]), the encoder behind `encode_line`,
//!   pure Python: a function per type writing its members in order by their
//!   emit rules.
//!
//! The hand-written Python around the generated code of each (docstrings,
//! imports, helpers, the entry points) lives in `templates/python/fast/`.
//!
//! Neither decides anything on its own: a line or value either fast path
//! cannot vouch for goes to the exact path (`_wire.py`), which decides
//! verdicts, messages and bytes.

use super::*;

mod decoder;
mod writer;

/// The public names the fast modules use, one a line, sorted.
fn imported(package: &Package) -> String {
    let mut names: Vec<&String> = package
        .classes
        .iter()
        .map(|class| &class.name)
        .chain(package.enums.iter().map(|item| &item.name))
        .collect();
    names.sort();
    names.dedup();
    names.iter().map(|name| format!("    {name},\n")).collect()
}
