//! SPEC.md's rule table and the rules each of its sections cites, and the
//! small HTML fragments of the version index, rules and changes pages (the
//! type and variant pages are [`super::pages`]).

use std::collections::BTreeMap;

use cgp_classify::Comparison;
use cgp_schema::model::Protocol;

use super::RuleRow;
use super::markdown::{self, SitePaths};
use super::pages::VersionPages;

/// The rows of SPEC.md §Rule ids' table, in order.
pub(crate) fn rule_table(spec: &str) -> Vec<RuleRow> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in spec.lines() {
        if line.starts_with('#') {
            inside = line.trim_start_matches('#').trim() == "Rule ids";
            continue;
        }
        if !inside || !line.starts_with("| [") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        let [first, level, rule, checked, ..] = cells.as_slice() else {
            continue;
        };
        let Some((id, anchor)) = first
            .strip_prefix('[')
            .and_then(|rest| rest.split_once("](#"))
            .and_then(|(id, rest)| Some((id, rest.strip_suffix(')')?)))
        else {
            continue;
        };
        rows.push(RuleRow {
            id: id.to_owned(),
            anchor: anchor.to_owned(),
            level: (*level).to_owned(),
            line: (*rule).to_owned(),
            checked_by: (*checked).to_owned(),
        });
    }
    rows
}

/// For each anchored section of SPEC.md (`<a id="type-contextframe"></a>`
/// before a heading, up to the next heading as high), the rule anchors it
/// links to, in order.
pub(crate) fn spec_rule_sections(spec: &str) -> BTreeMap<String, Vec<String>> {
    let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut pending: Vec<String> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut fenced = false;
    for line in spec.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(id) = line
            .trim()
            .strip_prefix("<a id=\"")
            .and_then(|rest| rest.strip_suffix("\"></a>"))
        {
            pending.push(id.to_owned());
            continue;
        }
        if line.starts_with('#') {
            let level = line.chars().take_while(|c| *c == '#').count();
            open.retain(|(_, open_level)| *open_level < level);
            for id in pending.drain(..) {
                open.push((id, level));
            }
            continue;
        }
        pending.clear();
        let mut rest = line;
        while let Some(at) = rest.find("](#rule-") {
            let after = &rest[at + 3..];
            let end = after.find(')').unwrap_or(after.len());
            let anchor = &after[..end];
            for (id, _) in &open {
                let cited = sections.entry(id.clone()).or_default();
                if !cited.iter().any(|known| known == anchor) {
                    cited.push(anchor.to_owned());
                }
            }
            rest = &after[end..];
        }
    }
    sections
}

/// Escapes text for HTML.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A version's index: its variants and types.
pub(crate) fn version_index_html(
    protocol: &Protocol,
    pages: &VersionPages,
    published: bool,
) -> String {
    let mut html = String::new();
    if let Some(description) = &protocol.annotations.description {
        html.push_str(&format!("<p>{}</p>\n", escape(description)));
    }
    html.push_str(if published {
        "<p>A published release: its pages are read from its frozen bundle.</p>\n"
    } else {
        "<p>The working version: the schemas as they are now, with the SPEC.md examples.</p>\n"
    });
    for (heading, variants) in [("Variants", true), ("Types", false)] {
        html.push_str(&format!("<h2>{heading}</h2>\n<table>\n<thead><tr><th scope=\"col\">name</th><th scope=\"col\">kind</th><th scope=\"col\">direction</th><th scope=\"col\">since</th></tr></thead>\n<tbody>\n"));
        for page in pages
            .pages
            .iter()
            .filter(|page| (page.kind == "variant") == variants)
        {
            let label = page.tag.clone().unwrap_or_else(|| page.name.clone());
            html.push_str(&format!(
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(&page.path),
                escape(&label),
                escape(&page.kind),
                escape(&page.directions.join(", ")),
                escape(&page.since),
            ));
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html
}

/// The rules table page.
pub(crate) fn rules_html(rules: &[RuleRow], root: &str, paths: &dyn SitePaths) -> String {
    let mut html = String::from(
        "<p>Every rule <code>cgp</code> checks, from SPEC.md §Rule ids: its id, its level, the rule in one line and where it is checked. Each id leads to the rule in the specification.</p>\n<table>\n<thead><tr><th scope=\"col\">id</th><th scope=\"col\">level</th><th scope=\"col\">rule</th><th scope=\"col\">checked by</th></tr></thead>\n<tbody>\n",
    );
    for row in rules {
        html.push_str(&format!(
            "<tr id=\"{}\"><td><a href=\"{root}spec.html#{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(&row.anchor),
            escape(&row.anchor),
            escape(&row.id),
            escape(&row.level),
            markdown::inline(&row.line, "SPEC.md", root, paths),
            markdown::inline(&row.checked_by, "SPEC.md", root, paths),
        ));
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// The changes page: each release against the next, and the last release
/// against the working version, as the classifier sees them.
pub(crate) fn changes_html(changes: &[(String, String, Comparison)]) -> String {
    let mut html = String::from(
        "<p>What changed between each published version and the next, and from the last release to the working version, as <code>cgp diff</code>'s classifier reads the two models: each change with its rule, where, the directions it travels and the bump it needs.</p>\n",
    );
    if changes.is_empty() {
        html.push_str("<p>There is only one version so far.</p>\n");
    }
    for (old, new, comparison) in changes {
        html.push_str(&format!("<h2>{} → {}</h2>\n", escape(old), escape(new)));
        if comparison.changes.is_empty() {
            html.push_str("<p>No changes.</p>\n");
            continue;
        }
        html.push_str(&format!(
            "<p>Required bump: {}.</p>\n<table>\n<thead><tr><th scope=\"col\">rule</th><th scope=\"col\">where</th><th scope=\"col\">directions</th><th scope=\"col\">bump</th><th scope=\"col\">what</th></tr></thead>\n<tbody>\n",
            escape(comparison.required_bump.as_str())
        ));
        for change in &comparison.changes {
            html.push_str(&format!(
                "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(change.rule.id()),
                escape(&change.pointer),
                escape(&change.directions_text()),
                escape(change.required_bump.as_str()),
                escape(&change.message),
            ));
        }
        html.push_str("</tbody>\n</table>\n");
    }
    html
}
