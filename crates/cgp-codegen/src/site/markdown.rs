//! Markdown (SPEC.md and the guides under `docs/`) as HTML for the site:
//! pulldown-cmark renders, every heading gets GitHub's anchor (the slug the
//! links gate checks, so a link that holds on GitHub holds here), and every
//! relative link is carried over to the page the site makes of its target.
//! A link to a repository file the site has no page for keeps its text and
//! loses its link, so nothing on the site leads nowhere.

use std::collections::BTreeMap;

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// One rendered Markdown file.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The HTML body.
    pub html: String,
    /// The first heading's text (the page title), if any.
    pub title: Option<String>,
    /// Every heading: level, text and anchor, in order.
    pub headings: Vec<(u8, String, String)>,
}

/// Where a repository path is on the site, relative to the site root.
pub trait SitePaths {
    /// The site page of the repository file `path` (e.g. `SPEC.md` →
    /// `spec.html`), if the site has one.
    fn page_of(&self, path: &str) -> Option<String>;
}

/// Renders `markdown`, read from the repository file `source`, as a page
/// `root` away from the site root (`""`, `"../"`, …). Headings are shifted so
/// that the shallowest is `<h1>`; `top` is the level of the first one.
pub fn render(markdown: &str, source: &str, root: &str, paths: &dyn SitePaths) -> Rendered {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events: Vec<Event<'_>> = Parser::new_ext(markdown, options).collect();

    let headings = heading_anchors(&events);
    let shallowest = headings
        .iter()
        .map(|(level, _, _)| *level)
        .min()
        .unwrap_or(1);
    let shift = shallowest.saturating_sub(1);

    let mut out = Vec::with_capacity(events.len());
    let mut heading_index = 0;
    // For each open link: whether it was kept.
    let mut links: Vec<bool> = Vec::new();
    for event in events {
        match event {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let anchor = headings
                    .get(heading_index)
                    .map(|(_, _, anchor)| anchor.clone())
                    .unwrap_or_default();
                out.push(Event::Start(Tag::Heading {
                    level: shifted(level, shift),
                    id: Some(CowStr::from(anchor)),
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(level)) => {
                heading_index += 1;
                out.push(Event::End(TagEnd::Heading(shifted(level, shift))));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match carry_link(&dest_url, source, root, paths) {
                Some(dest) => {
                    links.push(true);
                    out.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(dest),
                        title,
                        id,
                    }));
                }
                None => links.push(false),
            },
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(false) {
                    out.push(Event::End(TagEnd::Link));
                }
            }
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            other => out.push(other),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    let headings: Vec<(u8, String, String)> = headings
        .into_iter()
        .map(|(level, text, anchor)| (level - shift, text, anchor))
        .collect();
    Rendered {
        title: headings.first().map(|(_, text, _)| text.clone()),
        html,
        headings,
    }
}

/// Every heading of `events`: (level, text, anchor), the anchor GitHub's,
/// numbered when repeated.
fn heading_anchors(events: &[Event<'_>]) -> Vec<(u8, String, String)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut headings = Vec::new();
    let mut text: Option<String> = None;
    for event in events {
        match event {
            Event::Start(Tag::Heading { .. }) => text = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(text) = text.as_mut() {
                    text.push_str(t);
                }
            }
            Event::End(TagEnd::Heading(level)) => {
                let heading = text.take().unwrap_or_default();
                let base = cgp_gates::links::slug(&heading);
                let count = seen.entry(base.clone()).or_insert(0);
                let anchor = if *count == 0 {
                    base.clone()
                } else {
                    format!("{base}-{count}")
                };
                *count += 1;
                headings.push((level_number(*level), heading, anchor));
            }
            _ => {}
        }
    }
    headings
}

/// Renders one line of inline Markdown (a table cell) without a paragraph.
pub fn inline(markdown: &str, source: &str, root: &str, paths: &dyn SitePaths) -> String {
    let html = render(markdown, source, root, paths).html;
    let trimmed = html.trim();
    trimmed
        .strip_prefix("<p>")
        .and_then(|rest| rest.strip_suffix("</p>"))
        .unwrap_or(trimmed)
        .to_owned()
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

fn shifted(level: HeadingLevel, shift: u8) -> HeadingLevel {
    match level_number(level).saturating_sub(shift) {
        0 | 1 => HeadingLevel::H1,
        2 => HeadingLevel::H2,
        3 => HeadingLevel::H3,
        4 => HeadingLevel::H4,
        5 => HeadingLevel::H5,
        _ => HeadingLevel::H6,
    }
}

/// Where a link of the repository file `source` leads on the site: external
/// links and same-page anchors as they are, a repository file to its page,
/// `None` for a repository file the site does not hold.
fn carry_link(dest: &str, source: &str, root: &str, paths: &dyn SitePaths) -> Option<String> {
    if dest.starts_with('#') || dest.contains("://") || dest.starts_with("mailto:") {
        return Some(dest.to_owned());
    }
    let (path, fragment) = match dest.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (dest, None),
    };
    let resolved = resolve(source, path)?;
    let page = if resolved == source {
        String::new()
    } else {
        format!("{root}{}", paths.page_of(&resolved)?)
    };
    Some(match fragment {
        Some(fragment) => format!("{page}#{fragment}"),
        None if page.is_empty() => "#".to_owned(),
        None => page,
    })
}

/// `target` relative to the directory of `source`, both repository paths;
/// `None` when it climbs out of the repository.
pub fn resolve(source: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = source.split('/').collect();
    parts.pop();
    for part in target.split('/') {
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

#[cfg(test)]
mod tests {
    use super::*;

    struct Paths;
    impl SitePaths for Paths {
        fn page_of(&self, path: &str) -> Option<String> {
            (path == "SPEC.md").then(|| "spec.html".to_owned())
        }
    }

    #[test]
    fn links_are_carried_over_or_dropped_and_headings_get_github_anchors() {
        let rendered = render(
            "## Set up\n\nSee [rules](../SPEC.md#rule-b3), [x](../Cargo.toml) and [y](#set-up).\n\n## Set up\n",
            "docs/guide.md",
            "../",
            &Paths,
        );
        assert!(
            rendered.html.contains(r#"<h1 id="set-up">Set up</h1>"#),
            "{}",
            rendered.html
        );
        assert!(
            rendered.html.contains(r#"<h1 id="set-up-1">"#),
            "{}",
            rendered.html
        );
        assert!(
            rendered
                .html
                .contains(r#"<a href="../spec.html#rule-b3">rules</a>"#)
        );
        assert!(rendered.html.contains(" x and "), "{}", rendered.html);
        assert!(rendered.html.contains(r##"<a href="#set-up">y</a>"##));
        assert_eq!(rendered.title.as_deref(), Some("Set up"));
    }
}
