//! The protocol as a static site (`cargo xtask site` → `target/site/`).
//!
//! Everything on it is derived: the types, members and vocabularies of every
//! published version and of the working version come from their protocol
//! models; the rules and the examples from SPEC.md, through the readers the
//! gates use (the corpus reader, the rule table of §Rule ids); the changes
//! between versions from the classifier; the guides are the Markdown files
//! under `docs/`, whatever they are. The pages are plain HTML rendered with
//! minijinja (templates in `templates/site/`), one stylesheet and one script
//! of ours, and the search index as a script (browsers refuse `fetch` under
//! `file://`). Nothing is fetched from outside the site, every link is
//! relative, and the same tree gives the same bytes.

mod markdown;
mod pages;
mod search;
mod svg;
mod views;

use std::collections::BTreeMap;
use std::path::Path;

use cgp_schema::diagnostic::{Diagnostic, Diagnostics};
use cgp_schema::model::{Protocol, Reading};
use cgp_schema::{Bundle, Profile};
use minijinja::Environment;
use minijinja::value::Serde;
use serde::Serialize;

use crate::Files;
use crate::plan::{self, Generation, SPEC_FILE};

pub use markdown::SitePaths;

/// Where the site goes, relative to the repository root.
pub const SITE_DIR: &str = "target/site";

/// Where the hand-written guides are, relative to the repository root.
pub const GUIDES_DIR: &str = "docs";

/// Where the site's templates and assets live, relative to the repository root.
pub const TEMPLATE_DIR: &str = "crates/cgp-codegen/templates/site";

/// The directory of the working version's pages on the site.
pub const WORKING: &str = "working";

const TEMPLATES: [(&str, &str); 4] = [
    (
        "layout.html",
        include_str!("../../templates/site/layout.html"),
    ),
    ("page.html", include_str!("../../templates/site/page.html")),
    ("type.html", include_str!("../../templates/site/type.html")),
    ("home.html", include_str!("../../templates/site/home.html")),
];

const ASSETS: [(&str, &str); 2] = [
    (
        "assets/site.css",
        include_str!("../../templates/site/site.css"),
    ),
    (
        "assets/site.js",
        include_str!("../../templates/site/site.js"),
    ),
];

/// One version on the site.
#[derive(Debug, Clone, Serialize)]
struct VersionLink {
    /// What the switcher shows: a release's version, or `working` with the
    /// version it declares.
    label: String,
    /// Its directory under the site root: `v/<slug>/`.
    dir: String,
    /// Whether it is a published release.
    published: bool,
}

/// One rule of SPEC.md §Rule ids.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RuleRow {
    /// `B3`, `CGP-FILE-BYTES`.
    pub id: String,
    /// Its anchor in SPEC.md (`rule-b3`).
    pub anchor: String,
    /// `MUST` or `SHOULD`.
    pub level: String,
    /// The rule in one line (Markdown).
    pub line: String,
    /// Where `cgp` checks it (Markdown).
    pub checked_by: String,
}

/// One version on the site: its link, its model and its interop bundle's text.
type SiteVersion = (VersionLink, Protocol, String);

/// The hand-written guides: stem → (path, text).
type Guides = BTreeMap<String, (String, String)>;

/// Builds every file of the site: path relative to the site root → contents.
pub fn build(root: &Path, generation: &Generation) -> Result<Files, Diagnostics> {
    let spec = read(root, SPEC_FILE)?;
    let guides = read_guides(root)?;
    let versions = versions(root, generation)?;
    let rules = views::rule_table(&spec);
    let paths = Paths {
        guides: guides.keys().cloned().collect(),
    };
    let links: Vec<VersionLink> = versions.iter().map(|(link, _, _)| link.clone()).collect();
    let guide_links: Vec<(String, String)> = guides
        .iter()
        .map(|(stem, (_, text))| {
            let title = markdown::render(text, "", "", &paths)
                .title
                .unwrap_or_else(|| stem.clone());
            (format!("guides/{stem}.html"), title)
        })
        .collect();
    let site = Site {
        environment: environment()?,
        versions: links,
        guides: guide_links,
        title: "Context Graph Protocol".to_owned(),
    };

    let mut files = Files::new();
    for (path, text) in ASSETS {
        files.insert(path.to_owned(), text.to_owned());
    }
    let mut index = search::Index::default();
    let sections = views::spec_rule_sections(&spec);
    for (position, version) in versions.iter().enumerate() {
        // The working version is the last, and the only one with examples.
        let working = position + 1 == versions.len();
        let examples: &[cgp_gates::corpus::Example] =
            if working { &generation.examples } else { &[] };
        let pages = pages::version_pages(&version.1, examples, &rules, &sections, &version.0.label);
        if working {
            index.add_protocol(&pages, &version.0.dir);
        }
        files.extend(version_files(&site, version, &pages)?);
    }

    // The rules table.
    index.add_rules(&rules);
    files.insert(
        "rules.html".into(),
        site.render(
            "page.html",
            "",
            "Rules",
            None,
            &serde_json::json!({
                "heading": "Rules",
                "html": views::rules_html(&rules, "", &paths),
            }),
        )?,
    );
    files.insert("changes.html".into(), changes_page(&site, &versions)?);

    // The conversation, drawn from the working version's model.
    if let Some((link, protocol, _)) = versions.last() {
        files.insert(
            "conversation.html".into(),
            site.render(
                "page.html",
                "",
                "The conversation",
                None,
                &serde_json::json!({
                    "heading": "The conversation",
                    "html": svg::conversation_html(protocol, &link.dir),
                }),
            )?,
        );
    }
    files.extend(document_pages(&site, &spec, &guides, &paths, &mut index)?);

    files.insert("assets/search-index.js".into(), index.script());
    files.insert(
        "index.html".into(),
        site.render(
            "home.html",
            "",
            "Home",
            None,
            &serde_json::json!({
                "working": WORKING,
            }),
        )?,
    );
    // GitHub Pages runs no Jekyll over the site.
    files.insert(".nojekyll".into(), String::new());
    Ok(files)
}

/// The text of a repository file, bounded in size.
fn read(root: &Path, path: &str) -> Result<String, Diagnostics> {
    cgp_schema::source::read_text_bounded(&root.join(path))
        .map_err(|error| Diagnostics::one(Diagnostic::file(path, format!("cannot read: {error}"))))
}

/// Every Markdown file under [`GUIDES_DIR`], by stem.
fn read_guides(root: &Path) -> Result<Guides, Diagnostics> {
    let mut guides = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(root.join(GUIDES_DIR)) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".md") {
                let path = format!("{GUIDES_DIR}/{name}");
                guides.insert(stem.to_owned(), (path.clone(), read(root, &path)?));
            }
        }
    }
    Ok(guides)
}

/// The versions: every release, oldest first, then the working tree.
fn versions(root: &Path, generation: &Generation) -> Result<Vec<SiteVersion>, Diagnostics> {
    let working_version = generation.set.version.clone();
    let published = plan::published_bundles(
        root,
        &working_version,
        &generation.releases,
        &generation.files,
    );
    let mut versions: Vec<SiteVersion> = Vec::new();
    for release in generation.releases.releases() {
        let Some((_, _, text)) = published.iter().find(|(version, profile, _)| {
            *version == release.version && *profile == Profile::Interop
        }) else {
            continue;
        };
        let bundle = Bundle::from_published(text).map_err(|error| {
            Diagnostic::file(
                plan::published_path(&release.version, Profile::Interop),
                error.to_string(),
            )
        })?;
        let protocol = Protocol::read(&bundle.document, Reading::Validator, &|_| None);
        versions.push((
            VersionLink {
                label: release.version.to_string(),
                dir: format!("v/{}/", release.version.slug()),
                published: true,
            },
            protocol,
            text.clone(),
        ));
    }
    let interop = generation.bundle(Profile::Interop);
    let working_text = generation
        .files
        .get(&plan::bundle_path(&generation.set, Profile::Interop))
        .cloned()
        .unwrap_or_default();
    versions.push((
        VersionLink {
            label: format!("working ({working_version})"),
            dir: format!("v/{WORKING}/"),
            published: false,
        },
        Protocol::of_bundle(&generation.set, interop),
        working_text,
    ));
    Ok(versions)
}

/// One version's pages: a page per type and the version's index.
fn version_files(
    site: &Site,
    (link, protocol, _): &SiteVersion,
    pages: &pages::VersionPages,
) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    for page in &pages.pages {
        let path = format!("{}{}", link.dir, page.path);
        let root = "../".repeat(path.matches('/').count());
        let body = site.render(
            "type.html",
            &root,
            &page.name,
            Some(&link.label),
            &serde_json::json!({
                "page": page,
                "version": link.label,
                "types_root": format!("{root}{}types/", link.dir),
            }),
        )?;
        files.insert(path, body);
    }
    let path = format!("{}index.html", link.dir);
    let body = site.render(
        "page.html",
        "../../",
        &link.label,
        Some(&link.label),
        &serde_json::json!({
            "heading": format!("{} reference", link.label),
            "html": views::version_index_html(protocol, pages, link.published),
        }),
    )?;
    files.insert(path, body);
    Ok(files)
}

/// The changes between consecutive versions, from the classifier.
fn changes_page(site: &Site, versions: &[SiteVersion]) -> Result<String, Diagnostics> {
    let mut changes = Vec::new();
    for pair in versions.windows(2) {
        if let [(old, _, old_text), (new, _, new_text)] = pair {
            let compared = |link: &VersionLink, text: &str| {
                cgp_classify::ComparedVersion::from_bundle_text(&link.label, text)
            };
            let comparison =
                cgp_classify::classify(&compared(old, old_text)?, &compared(new, new_text)?);
            changes.push((old.label.clone(), new.label.clone(), comparison));
        }
    }
    site.render(
        "page.html",
        "",
        "Changes between versions",
        None,
        &serde_json::json!({
            "heading": "Changes between versions",
            "html": views::changes_html(&changes),
        }),
    )
}

/// SPEC.md and the guides as pages, their headings added to the search index.
fn document_pages(
    site: &Site,
    spec: &str,
    guides: &Guides,
    paths: &Paths,
    index: &mut search::Index,
) -> Result<Files, Diagnostics> {
    let mut files = Files::new();
    let rendered = markdown::render(spec, SPEC_FILE, "", paths);
    index.add_headings(&rendered.headings, "spec.html", "SPEC.md");
    files.insert(
        "spec.html".into(),
        site.render(
            "page.html",
            "",
            "Specification",
            None,
            &serde_json::json!({
                "html": rendered.html,
            }),
        )?,
    );
    for (stem, (path, text)) in guides {
        let rendered = markdown::render(text, path, "../", paths);
        let page = format!("guides/{stem}.html");
        index.add_headings(&rendered.headings, &page, stem);
        let title = rendered.title.clone().unwrap_or_else(|| stem.clone());
        files.insert(
            page,
            site.render(
                "page.html",
                "../",
                &title,
                None,
                &serde_json::json!({
                    "html": rendered.html,
                }),
            )?,
        );
    }
    Ok(files)
}

/// Writes the site to `dir`, replacing what was there: the files go to a
/// scratch directory beside it, which is renamed into place once complete.
pub fn write(dir: &Path, files: &Files) -> Result<(), Diagnostic> {
    let shown = dir.display().to_string();
    let scratch = dir.with_extension(format!("new-{}", std::process::id()));
    let failed = |what: &str, error: std::io::Error| {
        Diagnostic::file(
            &shown,
            format!("cannot {what}: {error}; the site was not changed"),
        )
    };
    let _ = std::fs::remove_dir_all(&scratch);
    for (path, contents) in files {
        let target = scratch.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|error| failed("create a directory", error))?;
        }
        std::fs::write(&target, contents).map_err(|error| failed("write", error))?;
    }
    let old = dir.with_extension(format!("old-{}", std::process::id()));
    if dir.exists() {
        std::fs::rename(dir, &old).map_err(|error| failed("move the old site aside", error))?;
    }
    std::fs::rename(&scratch, dir)
        .map_err(|error| failed("move the new site into place", error))?;
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}

/// Where repository files are on the site.
struct Paths {
    guides: Vec<String>,
}

impl SitePaths for Paths {
    fn page_of(&self, path: &str) -> Option<String> {
        if path == SPEC_FILE {
            return Some("spec.html".into());
        }
        if path == "README.md" {
            return Some("index.html".into());
        }
        if let Some(stem) = path
            .strip_prefix(&format!("{GUIDES_DIR}/"))
            .and_then(|name| name.strip_suffix(".md"))
        {
            return self
                .guides
                .iter()
                .any(|guide| guide == stem)
                .then(|| format!("guides/{stem}.html"));
        }
        // The Markdown reference pages have their counterparts here.
        let page = path.strip_prefix(&format!("{}/", crate::docs::DOCS_DIR))?;
        let page = page.strip_suffix(".md")?;
        if page == "README" {
            return Some(format!("v/{WORKING}/index.html"));
        }
        Some(format!("v/{WORKING}/{page}.html"))
    }
}

struct Site {
    environment: Environment<'static>,
    versions: Vec<VersionLink>,
    guides: Vec<(String, String)>,
    title: String,
}

impl Site {
    fn render(
        &self,
        template: &str,
        root: &str,
        title: &str,
        version: Option<&str>,
        context: &serde_json::Value,
    ) -> Result<String, Diagnostics> {
        let failed = |error: minijinja::Error| {
            Diagnostics::one(Diagnostic::file(
                format!("{TEMPLATE_DIR}/{template}"),
                format!("rendering {title}: {error:#}"),
            ))
        };
        let template_ref = self.environment.get_template(template).map_err(failed)?;
        template_ref
            .render(minijinja::context! {
                root => root,
                title => title,
                site_title => self.title.clone(),
                version => version,
                versions => Serde(&self.versions),
                guides => Serde(&self.guides),
                page_context => Serde(context),
            })
            .map_err(failed)
    }
}

fn environment() -> Result<Environment<'static>, Diagnostics> {
    let mut environment = crate::docs::environment(TEMPLATE_DIR).map_err(Diagnostics::one)?;
    environment.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    for (name, text) in TEMPLATES {
        environment.add_template(name, text).map_err(|error| {
            Diagnostics::one(Diagnostic::file(
                format!("{TEMPLATE_DIR}/{name}"),
                format!("{error:#}"),
            ))
        })?;
    }
    Ok(environment)
}
