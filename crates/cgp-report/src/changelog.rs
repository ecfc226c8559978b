//! The changelog: a comparison of two versions written as a Markdown section,
//! its changes grouped by the bump they require, and the reading of
//! `CHANGELOG.md`'s version headings for the gate that keeps it true.

use cgp_classify::{Bump, Comparison};
use std::fmt::Write as _;

/// The file the released versions' sections are kept in, at the repository root.
pub const CHANGELOG_FILE: &str = "CHANGELOG.md";

/// The heading a version's section starts with: `## <version>`.
pub fn heading(version: &str) -> String {
    format!("## {version}")
}

/// A Markdown section titled `title` (a version, or `old → new`): the changes
/// grouped under "Major", "Minor" and "No bump", each with its rule id, the
/// type or member it touches and where it is (`file:line:col`, in the new version
/// unless it was removed), then its message.
pub fn section(title: &str, comparison: &Comparison) -> String {
    let mut out = format!("{}\n\n", heading(title));
    if comparison.changes.is_empty() {
        out.push_str("No change to the schemas.\n");
        return out;
    }
    let _ = writeln!(
        out,
        "Required bump: **{}**.",
        comparison.required_bump.as_str()
    );
    for (bump, name) in [
        (Bump::Major, "Major"),
        (Bump::Minor, "Minor"),
        (Bump::None, "No bump"),
    ] {
        let changes: Vec<_> = comparison
            .changes
            .iter()
            .filter(|change| change.required_bump == bump)
            .collect();
        if changes.is_empty() {
            continue;
        }
        let _ = write!(out, "\n### {name}\n\n");
        for change in changes {
            let at = change
                .location()
                .map(|location| format!(" ({location})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "- `{}` `{}`{at}: {}",
                change.rule.id(),
                change.pointer,
                inline(&change.message)
            );
        }
    }
    out
}

/// The section of a first release, which has nothing to compare with: the
/// envelope variants and named types it defines.
pub fn first_release(version: &str, variants: &[String], types: &[String]) -> String {
    let list = |names: &[String]| {
        names
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "{}\n\nThe first release: {} envelope variants ({}) and {} named types ({}).\n",
        heading(version),
        variants.len(),
        list(variants),
        types.len(),
        list(types),
    )
}

/// `changelog` with `section` put before the first version's section (after
/// the title and introduction, when there are any).
pub fn prepend(changelog: &str, section: &str) -> String {
    let at = changelog
        .match_indices("\n## ")
        .map(|(at, _)| at + 1)
        .next()
        .or_else(|| changelog.starts_with("## ").then_some(0));
    match at {
        Some(at) => {
            let (head, tail) = changelog.split_at(at);
            format!("{head}{section}\n{tail}")
        }
        None if changelog.is_empty() => section.to_owned(),
        None => format!("{}\n\n{section}", changelog.trim_end()),
    }
}

/// The versions `CHANGELOG.md` has a section for, in the file's order.
pub fn versions(changelog: &str) -> Vec<String> {
    changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## "))
        .map(|version| version.trim().to_owned())
        .collect()
}

/// A message on one line of Markdown.
fn inline(message: &str) -> String {
    message.replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use cgp_classify::{Change, ChangeRule, Location};

    fn change(rule: ChangeRule, pointer: &str, line: usize) -> Change {
        Change {
            rule,
            pointer: pointer.into(),
            old: None,
            new: Some(Location {
                file: "schema/types/q.schema.json".into(),
                line,
                column: 5,
            }),
            directions: Default::default(),
            required_bump: rule.bump(&Default::default()),
            message: "what changed".into(),
        }
    }

    #[test]
    fn changes_are_grouped_by_bump() {
        let comparison = Comparison {
            changes: vec![
                change(ChangeRule::FieldAddedOptional, "/Q/b", 7),
                change(ChangeRule::FieldRemoved, "/Q/a", 3),
            ],
            required_bump: Bump::Major,
        };
        let text = section("x/1.1", &comparison);
        assert_eq!(
            text,
            "## x/1.1\n\nRequired bump: **major**.\n\n### Major\n\n- `FIELD_REMOVED` `/Q/a` (schema/types/q.schema.json:3:5): what changed\n\n### Minor\n\n- `FIELD_ADDED_OPTIONAL` `/Q/b` (schema/types/q.schema.json:7:5): what changed\n"
        );
        assert_eq!(versions(&text), ["x/1.1"]);
    }

    #[test]
    fn a_new_section_goes_before_the_older_ones() {
        let file = "# Changelog\n\nIntro.\n\n## x/1.0\n\nFirst.\n";
        let updated = prepend(file, "## x/1.1\n\nSecond.\n");
        assert_eq!(
            updated,
            "# Changelog\n\nIntro.\n\n## x/1.1\n\nSecond.\n\n## x/1.0\n\nFirst.\n"
        );
        assert_eq!(versions(&updated), ["x/1.1", "x/1.0"]);
        assert_eq!(prepend("# Changelog\n", "## a\n"), "# Changelog\n\n## a\n");
    }
}
