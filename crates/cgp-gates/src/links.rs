//! Relative links and anchors in Markdown, checked offline.
//!
//! [`links`] lists a document's relative links (pulldown-cmark parses the
//! Markdown, so links inside code are not links), each with its line;
//! [`anchors`] lists the fragments a document answers to the way GitHub
//! renders it: one slug per heading (lower case, punctuation dropped, spaces
//! to hyphens, `-1`, `-2`, … for repeats) and every HTML `id=` or `name=`.
//! A [`Resolver`] judges links against the files a [`Tree`] holds.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// One relative link in a Markdown document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The 1-based line it starts on.
    pub line: usize,
    /// The destination as written, e.g. `../SPEC.md#envelope`.
    pub target: String,
}

/// Why a link leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The path climbs above the repository root.
    OutsideRepository,
    /// No such file or directory (repository-relative path).
    NoFile(String),
    /// The Markdown file exists but has no such heading or `id`.
    NoAnchor {
        /// The repository-relative file.
        file: String,
        /// The fragment, without `#`.
        anchor: String,
    },
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::OutsideRepository => f.write_str("the path leaves the repository"),
            Fault::NoFile(path) => write!(f, "there is no file or directory {path}"),
            Fault::NoAnchor { file, anchor } => {
                write!(
                    f,
                    "{file} has no heading or id that makes the anchor #{anchor}"
                )
            }
        }
    }
}

/// The repository's files as a link checker sees them: which paths exist, and
/// the text of the Markdown ones, so that their anchors can be read.
pub trait Tree {
    /// Whether the repository-relative `path` is a file or directory.
    fn exists(&self, path: &str) -> bool;
    /// The text of the repository-relative Markdown file `path`, if it exists.
    fn markdown(&self, path: &str) -> Option<String>;
}

/// A link is relative when it has no scheme (`https:`, `mailto:`) and does not
/// start at a host or the site root.
fn is_relative(target: &str) -> bool {
    if target.starts_with("//") || target.starts_with('/') {
        return false;
    }
    let scheme_end = target.find(':');
    let path_end = target.find(['/', '#', '?']).unwrap_or(target.len());
    !matches!(scheme_end, Some(colon) if colon < path_end)
}

/// The relative links of `markdown`, in document order (images included).
pub fn links(markdown: &str) -> Vec<Link> {
    let starts = line_starts(markdown);
    let mut found = Vec::new();
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        let target = match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => dest_url,
            _ => continue,
        };
        if target.is_empty() || !is_relative(&target) {
            continue;
        }
        found.push(Link {
            line: line_of(&starts, range.start),
            target: target.to_string(),
        });
    }
    found
}

/// The fragments `markdown` answers to on GitHub: heading slugs and HTML ids.
pub fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                if let Some(id) = id {
                    found.insert(id.to_string());
                }
                heading = Some(String::new());
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some(text) = heading.take() {
                    let base = slug(&text);
                    let repeats = seen.entry(base.clone()).or_insert(0);
                    let anchor = if *repeats == 0 {
                        base
                    } else {
                        format!("{base}-{repeats}")
                    };
                    *repeats += 1;
                    found.insert(anchor);
                }
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some(heading) = heading.as_mut() {
                    heading.push_str(&text);
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => html_ids(&html, &mut found),
            _ => {}
        }
    }
    found
}

/// GitHub's heading slug: lower case; letters, digits, `-` and `_` kept,
/// spaces made hyphens, everything else dropped.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every `id="…"` and `name="…"` attribute in an HTML fragment.
fn html_ids(html: &str, out: &mut BTreeSet<String>) {
    for attribute in ["id=", "name="] {
        let mut rest = html;
        while let Some(at) = rest.find(attribute) {
            let preceded = rest[..at]
                .chars()
                .next_back()
                .is_none_or(char::is_whitespace);
            rest = &rest[at + attribute.len()..];
            let Some(quote) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                continue;
            };
            let value = &rest[1..];
            if let Some(end) = value.find(quote) {
                if preceded {
                    out.insert(value[..end].to_owned());
                }
                rest = &value[end..];
            }
        }
    }
}

/// Judges relative links against a [`Tree`], reading each Markdown file's
/// anchors once however many links lead into it.
pub struct Resolver<'t> {
    tree: &'t dyn Tree,
    /// The anchors of each Markdown file read so far (`None`: no such file).
    anchors: BTreeMap<String, Option<BTreeSet<String>>>,
}

impl<'t> Resolver<'t> {
    /// A resolver over `tree` that has read nothing yet.
    pub fn new(tree: &'t dyn Tree) -> Self {
        Resolver {
            tree,
            anchors: BTreeMap::new(),
        }
    }

    /// Judges `target`, written in the repository-relative file `from`.
    pub fn resolve(&mut self, from: &str, target: &str) -> Result<(), Fault> {
        let (path, anchor) = match target.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (target, None),
        };
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        let file = if path.is_empty() {
            from.to_owned()
        } else {
            let base = from.rsplit_once('/').map_or("", |(dir, _)| dir);
            join(base, path).ok_or(Fault::OutsideRepository)?
        };
        if !file.is_empty() && !self.tree.exists(&file) {
            return Err(Fault::NoFile(file));
        }
        let Some(anchor) = anchor.filter(|anchor| !anchor.is_empty()) else {
            return Ok(());
        };
        if !file.ends_with(".md") {
            return Ok(());
        }
        let tree = self.tree;
        let known = self
            .anchors
            .entry(file.clone())
            .or_insert_with(|| tree.markdown(&file).map(|text| anchors(&text)));
        match known {
            None => Err(Fault::NoFile(file)),
            Some(known) if known.contains(anchor) => Ok(()),
            Some(_) => Err(Fault::NoAnchor {
                file,
                anchor: anchor.to_owned(),
            }),
        }
    }
}

/// `base/path` with `.` and `..` resolved; `None` above the root.
fn join(base: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .collect()
}

fn line_of(starts: &[usize], offset: usize) -> usize {
    starts.partition_point(|start| *start <= offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Files(BTreeMap<&'static str, &'static str>);

    impl Tree for Files {
        fn exists(&self, path: &str) -> bool {
            self.0
                .keys()
                .any(|file| *file == path || file.starts_with(&format!("{path}/")))
        }
        fn markdown(&self, path: &str) -> Option<String> {
            self.0.get(path).map(|text| text.to_string())
        }
    }

    #[test]
    fn slugs_follow_github() {
        assert_eq!(
            slug("Context Graph Protocol — wire specification"),
            "context-graph-protocol--wire-specification"
        );
        assert_eq!(
            slug("`strict` — the authoring lint"),
            "strict--the-authoring-lint"
        );
        assert_eq!(slug("Version rule (H3)"), "version-rule-h3");
        assert_eq!(
            slug("stdio (newline-delimited JSON)"),
            "stdio-newline-delimited-json"
        );
    }

    #[test]
    fn anchors_are_headings_repeats_and_ids() {
        let text = "# Top\n\n## `query`\n\n## `query`\n\n<a id=\"variant-query\"></a>\n\ntext <span name='x'>y</span> data-id=\"no\"\n";
        let found: Vec<String> = anchors(text).into_iter().collect();
        assert_eq!(found, ["query", "query-1", "top", "variant-query", "x"]);
    }

    #[test]
    fn links_skip_code_and_urls_and_keep_lines() {
        let text = "one [a](b.md)\n\n```\n[c](d.md)\n```\n| x | [e](#f) |\n|---|---|\n| [g](https://h) | [i](mailto:j) |\n\n![k](l.png)\n";
        assert_eq!(
            links(text),
            vec![
                Link {
                    line: 1,
                    target: "b.md".into()
                },
                Link {
                    line: 6,
                    target: "#f".into()
                },
                Link {
                    line: 10,
                    target: "l.png".into()
                },
            ]
        );
    }

    #[test]
    fn resolve_names_the_fault() {
        let tree = Files(BTreeMap::from([
            ("SPEC.md", "# Spec\n<a id=\"envelope\"></a>\n"),
            ("generated/docs/README.md", "# Index\n"),
            ("schema/envelope.schema.json", "{}"),
        ]));
        let from = "generated/docs/README.md";
        let mut resolver = Resolver::new(&tree);
        assert_eq!(resolver.resolve(from, "../../SPEC.md#envelope"), Ok(()));
        assert_eq!(resolver.resolve(from, "../../schema/"), Ok(()));
        assert_eq!(resolver.resolve(from, "#index"), Ok(()));
        assert_eq!(
            resolver.resolve(from, "../../SPEC.md#variant-ping"),
            Err(Fault::NoAnchor {
                file: "SPEC.md".into(),
                anchor: "variant-ping".into()
            })
        );
        assert_eq!(
            resolver.resolve(from, "../SPEC.md"),
            Err(Fault::NoFile("generated/SPEC.md".into()))
        );
        assert_eq!(
            resolver.resolve(from, "../../../SPEC.md"),
            Err(Fault::OutsideRepository)
        );
    }
}
