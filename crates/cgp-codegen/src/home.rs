//! The project's public home: the one `repository` address in
//! `[workspace.package]` of the workspace `Cargo.toml`, and everything that
//! follows from it.
//!
//! Codegen writes what follows from it under `generated/` (the Go module path,
//! the npm package's `repository` and `homepage`, the Python package's
//! `project.urls`); the `home` gate of `cargo xtask check` verifies the
//! hand-written files that repeat it: every published crate's manifest
//! inherits it (`repository.workspace = true`), and every `uses:` line of
//! README.md that names this repository's GitHub Action names this address.
//!
//! The manifest is read line by line, not with a TOML library: one string
//! under one table is all that is read, and a line number is what a problem
//! must name.

use cgp_schema::Diagnostic;
use cgp_schema::json_text::Position;
use std::path::Path;

/// The workspace manifest, relative to the repository root.
pub const WORKSPACE_MANIFEST: &str = "Cargo.toml";
/// The table that declares the home.
const TABLE: &str = "[workspace.package]";

/// The declared home: a `https://<host>/<owner>/<repo>` address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Home {
    /// The address as declared, without a trailing `/`.
    pub url: String,
    /// `<host>/<owner>/<repo>`: the address without its scheme.
    pub path: String,
    /// `<owner>/<repo>`, as a GitHub Action's `uses:` names it.
    pub owner_repo: String,
    /// Whether the host is github.com (the only host a `uses:` line reaches).
    pub github: bool,
}

impl Home {
    /// Reads the declaration from the workspace manifest text.
    pub fn parse(manifest: &str) -> Result<Home, Diagnostic> {
        let (line, url) = declared(manifest).ok_or_else(|| {
            Diagnostic::file(
                WORKSPACE_MANIFEST,
                format!(
                    "no `repository = \"https://<host>/<owner>/<repo>\"` under {TABLE}: the project's public home is declared there once"
                ),
            )
        })?;
        let at = Position { line, column: 1 };
        let wrong = |why: &str| {
            Diagnostic::at(
                WORKSPACE_MANIFEST,
                at,
                None,
                format!("repository `{url}`: {why}; expected https://<host>/<owner>/<repo>"),
            )
        };
        let path = url
            .strip_prefix("https://")
            .ok_or_else(|| wrong("not an https:// address"))?
            .trim_end_matches('/')
            .to_owned();
        let fine = |part: &str| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        };
        let parts: Vec<&str> = path.split('/').collect();
        let [host, owner, repo] = parts.as_slice() else {
            return Err(wrong("not a host, an owner and a repository"));
        };
        if ![host, owner, repo].iter().all(|part| fine(part)) {
            return Err(wrong("not a host, an owner and a repository"));
        }
        if !host.contains('.') {
            return Err(wrong(
                "the host has no dot, so no Go module path can start with it",
            ));
        }
        Ok(Home {
            url: format!("https://{path}"),
            owner_repo: format!("{owner}/{repo}"),
            github: *host == "github.com",
            path,
        })
    }

    /// Reads the declaration from the tree at `root`.
    pub fn read(root: &Path) -> Result<Home, Diagnostic> {
        let file = root.join(WORKSPACE_MANIFEST);
        let text = std::fs::read_to_string(&file).map_err(|error| {
            Diagnostic::file(WORKSPACE_MANIFEST, format!("cannot read: {error}"))
        })?;
        Home::parse(&text)
    }

    /// The Go module path of the package under `dir` (a repository-relative
    /// directory), which `go get` fetches from the repository.
    pub fn go_module(&self, dir: &str) -> String {
        format!("{}/{dir}", self.path)
    }

    /// The Maven groupId of the packages published from the home: on GitHub
    /// `io.github.<owner>`, the namespace Maven Central verifies for a GitHub
    /// account; elsewhere the host reversed, then the owner.
    pub fn maven_group(&self) -> String {
        let mut parts = self.path.split('/');
        let host = parts.next().unwrap_or_default();
        let owner = parts.next().unwrap_or_default().to_ascii_lowercase();
        if self.github {
            return format!("io.github.{owner}");
        }
        let mut group: Vec<&str> = host.split('.').rev().collect();
        group.push(&owner);
        group.join(".")
    }
}

/// The line and value of `repository = "…"` in [`TABLE`].
fn declared(manifest: &str) -> Option<(usize, String)> {
    let mut inside = false;
    for (index, line) in manifest.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == TABLE;
            continue;
        }
        if !inside {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        if key.trim() != "repository" {
            continue;
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|rest| rest.split_once('"'))
            .map(|(inner, _)| inner.to_owned())?;
        return Some((index + 1, value));
    }
    None
}

/// The hand-written files that must agree with `home`: each disagreement at
/// its file and line. `manifests` are the crate manifests (repository-relative
/// path and text); `guides` are the Markdown files a user copies `uses:` lines
/// from (README.md and the guides under `docs/`), with their paths.
pub fn disagreements(
    home: &Home,
    manifests: &[(String, String)],
    guides: &[(String, String)],
) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for (path, text) in manifests {
        let mut in_package = false;
        let mut published = None;
        let mut inherits = false;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('[') {
                in_package = line == "[package]";
                continue;
            }
            if !in_package {
                continue;
            }
            let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            if compact == "publish=true" {
                published = Some(index + 1);
            }
            if compact == "repository.workspace=true" {
                inherits = true;
            } else if compact.starts_with("repository=") {
                problems.push(Diagnostic::at(
                    path,
                    Position {
                        line: index + 1,
                        column: 1,
                    },
                    None,
                    format!(
                        "`{line}`: a crate's repository is the workspace's ({}); write `repository.workspace = true`",
                        home.url
                    ),
                ));
                inherits = true;
            }
        }
        if let (Some(line), false) = (published, inherits) {
            problems.push(Diagnostic::at(
                path,
                Position { line, column: 1 },
                None,
                format!(
                    "a published crate names no repository; add `repository.workspace = true` ({})",
                    home.url
                ),
            ));
        }
    }
    let name = home
        .owner_repo
        .rsplit_once('/')
        .map_or(home.owner_repo.as_str(), |(_, repo)| repo);
    for (path, text) in guides {
        for (index, line) in text.lines().enumerate() {
            let Some(rest) = line
                .trim_start()
                .trim_start_matches("- ")
                .strip_prefix("uses:")
            else {
                continue;
            };
            let target = rest.split_whitespace().next().unwrap_or("");
            let action = target.split('@').next().unwrap_or("");
            // This repository's Action: any `uses:` whose repository part is ours.
            let ours = action
                .rsplit_once('/')
                .is_some_and(|(_, repo)| repo == name);
            if ours && (action != home.owner_repo || !home.github) {
                problems.push(Diagnostic::at(
                path,
                Position {
                    line: index + 1,
                    column: 1,
                },
                None,
                format!(
                    "`uses: {target}` names the Action at `{action}`, but the project's home is {} (`uses: {}@<tag>`)",
                    home.url, home.owner_repo
                ),
            ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = "[workspace]\nmembers = []\n\n[workspace.package]\nedition = \"2024\"\nrepository = \"https://github.com/cgp-schema/cgp-schema\"\n";

    #[test]
    fn the_maven_group_is_github_s_verified_namespace_or_the_host_reversed() {
        let home = Home::parse(MANIFEST).expect("declared");
        assert_eq!(home.maven_group(), "io.github.cgp-schema");
        let elsewhere =
            Home::parse("[workspace.package]\nrepository = \"https://example.org/Owner/r\"\n")
                .expect("declared");
        assert_eq!(elsewhere.maven_group(), "org.example.owner");
    }

    #[test]
    fn the_declaration_gives_the_go_module_and_the_action() {
        let home = Home::parse(MANIFEST).expect("declared");
        assert_eq!(home.url, "https://github.com/cgp-schema/cgp-schema");
        assert_eq!(
            home.go_module("generated/go"),
            "github.com/cgp-schema/cgp-schema/generated/go"
        );
        assert_eq!(home.owner_repo, "cgp-schema/cgp-schema");
        assert!(home.github);
    }

    #[test]
    fn a_missing_or_unfetchable_declaration_is_refused_at_its_line() {
        let missing = Home::parse("[workspace.package]\nedition = \"2024\"\n").unwrap_err();
        assert!(missing.message.contains("no `repository"), "{missing}");
        let other_table =
            Home::parse("[package]\nrepository = \"https://github.com/a/b\"\n").unwrap_err();
        assert!(other_table.message.contains("no `repository"));
        let no_dot =
            Home::parse("[workspace.package]\nrepository = \"https://local/a/b\"\n").unwrap_err();
        assert_eq!(no_dot.to_string().split(':').nth(1), Some("2"), "{no_dot}");
        assert!(no_dot.message.contains("no dot"), "{no_dot}");
        let plain = Home::parse("[workspace.package]\nrepository = \"http://github.com/a/b\"\n")
            .unwrap_err();
        assert!(plain.message.contains("https://"), "{plain}");
    }

    #[test]
    fn a_published_crate_without_the_workspace_repository_is_named_at_its_line() {
        let home = Home::parse(MANIFEST).expect("declared");
        let manifests = vec![
            (
                "crates/a/Cargo.toml".to_owned(),
                "[package]\nname = \"a\"\npublish = true\nrepository.workspace = true\n".to_owned(),
            ),
            (
                "crates/b/Cargo.toml".to_owned(),
                "[package]\nname = \"b\"\npublish = true\n".to_owned(),
            ),
            (
                "crates/c/Cargo.toml".to_owned(),
                "[package]\nname = \"c\"\npublish = false\n".to_owned(),
            ),
            (
                "crates/d/Cargo.toml".to_owned(),
                "[package]\nname = \"d\"\nrepository = \"https://example.org/x/y\"\n".to_owned(),
            ),
        ];
        let readme = "steps:\n  - uses: actions/checkout@v4\n  - uses: OWNER/cgp-schema@v0.1.0\n  - uses: cgp-schema/cgp-schema@v0.1.0\n";
        let guides = [("README.md".to_owned(), readme.to_owned())];
        let shown: Vec<String> = disagreements(&home, &manifests, &guides)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(shown.len(), 3, "{shown:#?}");
        assert!(shown[0].starts_with("crates/b/Cargo.toml:3:"), "{shown:#?}");
        assert!(shown[1].starts_with("crates/d/Cargo.toml:3:"), "{shown:#?}");
        assert!(shown[2].starts_with("README.md:3:"), "{shown:#?}");
        assert!(shown[2].contains("OWNER/cgp-schema"), "{shown:#?}");
    }
}
