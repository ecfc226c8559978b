//! The measures a maintainer holds the hand-written Rust to (ARCHITECTURE.md
//! §Rules the code keeps): no function over 100 lines, no file over 600 lines,
//! and few `Result<_, String>`, in `crates/*/src` and `xtask/src`. Test modules
//! (`#[cfg(test)]`) are exempt, and so is code that codegen writes.
//!
//! Functions are found with `syn`, so a brace inside a string or a macro body
//! never cuts one short; lines come from proc-macro2's span locations.

use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

const MAX_FUNCTION_LINES: usize = 100;
const MAX_FILE_LINES: usize = 600;
const MAX_STRING_ERRORS: usize = 5;

/// Every hand-written `.rs` file under `crates/*/src` and `xtask/src`.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut roots = vec![root.join("xtask/src")];
    for crate_dir in std::fs::read_dir(root.join("crates")).expect("crates/") {
        roots.push(crate_dir.expect("a crate").path().join("src"));
    }
    let mut files = Vec::new();
    while let Some(dir) = roots.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                roots.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

/// Walks one file: the length of every function, and the lines test modules take.
#[derive(Default)]
struct Measure {
    functions: Vec<(String, usize, usize)>,
    test_lines: usize,
}

impl Measure {
    fn function(&mut self, name: &syn::Ident, whole: proc_macro2::Span) {
        let first = name.span().start().line;
        let last = whole.end().line;
        self.functions
            .push((name.to_string(), first, last.saturating_sub(first) + 1));
    }
}

impl<'ast> Visit<'ast> for Measure {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if is_test_only(&item.attrs) {
            let span = item.span();
            self.test_lines += span.end().line - span.start().line + 1;
            return;
        }
        syn::visit::visit_item_mod(self, item);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if is_test_only(&item.attrs) {
            return;
        }
        self.function(&item.sig.ident, item.span());
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.function(&item.sig.ident, item.span());
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if item.default.is_some() {
            self.function(&item.sig.ident, item.span());
        }
        syn::visit::visit_trait_item_fn(self, item);
    }
}

/// Whether a type is `String`.
fn is_string(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path) if path.qself.is_none() && path.path.is_ident("String"))
}

/// The line of every `Result<_, String>` in a file, read as types, so a
/// `Result<BTreeMap<String, String>, E>` is not one.
#[derive(Default)]
struct StringErrors(Vec<usize>);

impl<'ast> Visit<'ast> for StringErrors {
    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if !is_test_only(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }

    fn visit_type_path(&mut self, path: &'ast syn::TypePath) {
        if let Some(last) = path.path.segments.last()
            && last.ident == "Result"
            && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        {
            let types: Vec<&syn::Type> = args
                .args
                .iter()
                .filter_map(|arg| match arg {
                    syn::GenericArgument::Type(ty) => Some(ty),
                    _ => None,
                })
                .collect();
            if types.len() == 2 && is_string(types[1]) {
                self.0.push(last.ident.span().start().line);
            }
        }
        syn::visit::visit_type_path(self, path);
    }
}

fn string_errors(file: &syn::File) -> Vec<usize> {
    let mut found = StringErrors::default();
    found.visit_file(file);
    found.0
}

#[test]
fn hand_written_rust_keeps_its_measures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace");
    let mut problems = Vec::new();
    let mut string_error_sites = Vec::new();
    for path in sources(root) {
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&path).expect("a readable source");
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{shown}: {e}"));
        let mut measure = Measure::default();
        measure.visit_file(&file);
        let lines = text.lines().count() - measure.test_lines;
        if lines > MAX_FILE_LINES {
            problems.push(format!(
                "{shown}: {lines} lines outside test modules (at most {MAX_FILE_LINES}); split it by job"
            ));
        }
        for (name, line, length) in measure.functions {
            if length > MAX_FUNCTION_LINES {
                problems.push(format!(
                    "{shown}:{line}: fn {name} has {length} lines (at most {MAX_FUNCTION_LINES})"
                ));
            }
        }
        for line in string_errors(&file) {
            string_error_sites.push(format!("{shown}:{line}"));
        }
    }
    if string_error_sites.len() > MAX_STRING_ERRORS {
        problems.push(format!(
            "{} `Result<_, String>` (at most {MAX_STRING_ERRORS}); give the errors a type:\n    {}",
            string_error_sites.len(),
            string_error_sites.join("\n    ")
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_measure_sees_a_long_function_and_a_string_error() {
    let body = "    let x = 1;\n".repeat(MAX_FUNCTION_LINES);
    let text = format!("fn long() {{\n{body}}}\n#[cfg(test)]\nmod tests {{ fn t() {{}} }}\n");
    let file = syn::parse_file(&text).expect("parses");
    let mut measure = Measure::default();
    measure.visit_file(&file);
    assert_eq!(
        measure.functions.len(),
        1,
        "the test module's function is exempt"
    );
    assert_eq!(measure.functions[0].2, MAX_FUNCTION_LINES + 2);
    assert_eq!(measure.test_lines, 2);
    let file = syn::parse_file(
        "fn f() -> Result<u8, String> { todo!() }\n// Result<u8, String>\n\
         fn g() -> Result<BTreeMap<String, String>, E> { todo!() }\n\
         fn h() -> std::result::Result<(), String> { todo!() }\n",
    )
    .expect("parses");
    assert_eq!(string_errors(&file), [1, 4]);
}
