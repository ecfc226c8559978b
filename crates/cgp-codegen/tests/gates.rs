//! The gates of `cargo xtask check` on a scratch copy of the repository: each
//! holds on the committed tree and fails, with the typed problem it names, when
//! the promise it guards is broken.

use cgp_codegen::gates::{self, Contracts, Gate, GateProblem};
use cgp_codegen::output::Stale;
use cgp_gates::coverage::Item;
use cgp_gates::links::Fault;
use cgp_gates::release::FrozenProblem;
use cgp_gates::sync::MismatchKind;
use cgp_schema::Profile;
use cgp_schema::model::{Location, Place, Protocol};
use serde_json::Value;

mod support;

use support::{Tree, repo};

/// The outcome of each gate but the sync gate, which reads the hand-written
/// sources and has tests of its own.
fn gates_of(tree: &Tree) -> Vec<(Gate, gates::GateResult)> {
    let generation = cgp_codegen::generate(&tree.0).unwrap_or_else(|e| panic!("{e}"));
    let nothing = Value::Null;
    let contracts = Contracts {
        deserialize: &nothing,
        serialize: &nothing,
    };
    let checked: Vec<Gate> = Gate::ALL
        .into_iter()
        .filter(|gate| *gate != Gate::Sync)
        .collect();
    gates::run(&tree.0, &generation, contracts, &checked)
}

/// The problems `gate` reports on `tree`; none when it holds.
fn problems(tree: &Tree, gate: Gate) -> Vec<GateProblem> {
    let (_, result) = gates_of(tree)
        .into_iter()
        .find(|(checked, _)| *checked == gate)
        .expect("the gate ran");
    result.err().unwrap_or_default()
}

fn released_bundle() -> (String, cgp_schema::ProtocolVersion) {
    let manifest = cgp_codegen::plan::read_manifest(&repo()).expect("manifest");
    let release = manifest.releases().first().expect("a released version");
    let path = release
        .files
        .keys()
        .next()
        .expect("a released file")
        .clone();
    (path, release.version.clone())
}

#[test]
fn every_gate_holds_on_the_committed_tree() {
    let tree = Tree::whole("current");
    for (gate, result) in gates_of(&tree) {
        assert!(result.is_ok(), "{gate}: {result:?}");
    }
}

#[test]
fn a_missing_generated_file_fails_the_generated_gate() {
    let tree = Tree::new("missing");
    let file = "generated/docs/README.md";
    std::fs::remove_file(tree.0.join(file)).expect("remove");
    assert_eq!(
        problems(&tree, Gate::Generated),
        vec![
            GateProblem::Stale(Stale::Missing(file.into())),
            GateProblem::RunCodegen { files: 1 },
        ]
    );
}

#[test]
fn a_removed_released_bundle_fails_the_releases_gate() {
    let tree = Tree::new("frozen");
    let (path, version) = released_bundle();
    std::fs::remove_file(tree.0.join(&path)).expect("remove");
    assert_eq!(
        problems(&tree, Gate::Releases),
        vec![GateProblem::Frozen(FrozenProblem::Missing {
            path,
            version
        })]
    );
}

#[test]
fn an_edited_version_constant_fails_the_version_gate() {
    let tree = Tree::new("version");
    let file = tree.0.join(cgp_codegen::embed::TYPES_VERSION_FILE);
    let text = std::fs::read_to_string(&file).expect("read");
    let declared = cgp_codegen::generate(&tree.0)
        .expect("generate")
        .set
        .version;
    let mut other = declared.clone();
    other.minor += 1;
    let declared = declared.to_string();
    assert!(text.contains(&declared), "{text}");
    std::fs::write(&file, text.replace(&declared, &other.to_string())).expect("write");
    let problems = problems(&tree, Gate::Version);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let GateProblem::Mismatch(mismatch) = &problems[0] else {
        panic!("{problems:?}");
    };
    assert_eq!(mismatch.kind, MismatchKind::Version, "{mismatch}");
}

/// The SPEC.md lines the version gate names.
fn spec_lines(tree: &Tree) -> Vec<usize> {
    problems(tree, Gate::Version)
        .iter()
        .filter_map(|problem| match problem {
            GateProblem::Diagnostic(diagnostic) if diagnostic.file == "SPEC.md" => {
                diagnostic.position.map(|position| position.line)
            }
            _ => None,
        })
        .collect()
}

/// A SPEC.md that `set-version` did not move (its header line and a valid
/// acknowledgement still speak the older family) fails the version gate at
/// each line; once set-version moved it, the gate holds.
#[test]
fn a_spec_left_at_the_older_family_fails_the_version_gate() {
    let tree = Tree::new("spec-version");
    let declared = cgp_codegen::generate(&tree.0)
        .expect("generate")
        .set
        .version;
    let next = declared.with_number(declared.major + 1, 0);
    let spec_path = tree.0.join("SPEC.md");
    let before = std::fs::read_to_string(&spec_path).expect("read");
    cgp_codegen::gates::release::set_version(&tree.0, &next).expect("set-version");
    let moved = std::fs::read_to_string(&spec_path).expect("read");
    assert!(moved.contains(&cgp_gates::release::header_line(&next)));
    // (codegen has not run, so only the constants disagree.)
    assert_eq!(spec_lines(&tree), Vec::<usize>::new());
    std::fs::write(&spec_path, &before).expect("write");
    let header = line_of(&before, "Protocol version: ");
    let ack = before
        .find("name=handshake_ack.minimal-canonical ")
        .expect("the canonical acknowledgement");
    // The fence's line, then the member's line counted from it.
    let ack_line = before[..ack].lines().count() - 1
        + line_of(
            &before[ack..],
            &format!("\"protocol_version\": \"{declared}\""),
        );
    let lines = spec_lines(&tree);
    assert!(lines.contains(&header), "{lines:?}");
    assert!(lines.contains(&ack_line), "{lines:?}");
}

/// The 1-based line of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|line| line.contains(needle))
        .unwrap_or_else(|| panic!("no line contains {needle}"))
        + 1
}

/// The working version's model of `tree`, with places in its sources.
fn model(tree: &Tree) -> Protocol {
    let generation = cgp_codegen::generate(&tree.0).unwrap_or_else(|e| panic!("{e}"));
    Protocol::of_bundle(&generation.set, generation.bundle(Profile::Interop))
}

#[test]
fn a_spec_anchor_that_does_not_exist_fails_the_links_gate_twice() {
    // The annotation names an anchor SPEC.md lacks, and the generated page
    // links to it.
    let tree = Tree::whole("spec-anchor");
    let schema = "schema/variants/query.schema.json";
    let text = tree.read(schema);
    let written = "\"x-cgp-spec\": \"SPEC.md#variant-query\"";
    assert!(text.contains(written), "{text}");
    // An anchor SPEC.md does not have: derived, so that the protocol may grow.
    let spec = tree.read("SPEC.md");
    let anchor = (0..)
        .map(|n| format!("variant-nowhere{n}"))
        .find(|anchor| !spec.contains(anchor.as_str()))
        .expect("a free anchor");
    tree.write(
        schema,
        &text.replace(written, &format!("\"x-cgp-spec\": \"SPEC.md#{anchor}\"")),
    );
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let page = "generated/docs/variants/query.md";
    let link = format!("../../../SPEC.md#{anchor}");
    let link = link.as_str();
    let missing = Fault::NoAnchor {
        file: "SPEC.md".into(),
        anchor: anchor.clone(),
    };
    let text = tree.read(schema);
    let line = line_of(&text, &anchor);
    let column = text
        .lines()
        .nth(line - 1)
        .expect("line")
        .find("\"SPEC")
        .expect("value")
        + 1;
    let found = problems(&tree, Gate::Links);
    assert_eq!(
        found,
        vec![
            GateProblem::SpecReference {
                at: Location {
                    file: schema.into(),
                    line,
                    column,
                },
                reference: format!("SPEC.md#{anchor}"),
                fault: missing.clone(),
            },
            GateProblem::BrokenLink {
                file: page.into(),
                line: line_of(&generation.files[page], link),
                link: link.into(),
                fault: missing,
            },
        ]
    );
    assert_eq!(
        found[0].to_string(),
        format!(
            "{schema}:{line}:{column}: x-cgp-spec `SPEC.md#{anchor}` leads nowhere: SPEC.md has no heading or id that makes the anchor #{anchor}"
        )
    );
}

#[test]
fn hand_written_links_that_lead_nowhere_fail_the_links_gate() {
    let tree = Tree::whole("links");
    let readme = tree.read("README.md");
    let lines = readme.lines().count();
    tree.write(
        "README.md",
        &format!(
            "{readme}\nSee [the guide](docs/guide.md), [a rule](SPEC.md#rule-zz9) and [the map](ARCHITECTURE.md#recipes).\n"
        ),
    );
    let architecture = tree.read("ARCHITECTURE.md");
    tree.write(
        "ARCHITECTURE.md",
        &architecture.replacen(
            "# Architecture\n",
            "# Architecture\n\n[Up](../README.md) and [here](#nowhere).\n",
            1,
        ),
    );
    let found = problems(&tree, Gate::Links);
    assert_eq!(
        found,
        vec![
            GateProblem::BrokenLink {
                file: "README.md".into(),
                line: lines + 2,
                link: "docs/guide.md".into(),
                fault: Fault::NoFile("docs/guide.md".into()),
            },
            GateProblem::BrokenLink {
                file: "README.md".into(),
                line: lines + 2,
                link: "SPEC.md#rule-zz9".into(),
                fault: Fault::NoAnchor {
                    file: "SPEC.md".into(),
                    anchor: "rule-zz9".into()
                },
            },
            GateProblem::BrokenLink {
                file: "ARCHITECTURE.md".into(),
                line: 3,
                link: "../README.md".into(),
                fault: Fault::OutsideRepository,
            },
            GateProblem::BrokenLink {
                file: "ARCHITECTURE.md".into(),
                line: 3,
                link: "#nowhere".into(),
                fault: Fault::NoAnchor {
                    file: "ARCHITECTURE.md".into(),
                    anchor: "nowhere".into()
                },
            },
        ]
    );
    assert_eq!(
        found[0].to_string(),
        format!(
            "README.md:{}: link `docs/guide.md` leads nowhere: there is no file or directory docs/guide.md",
            lines + 2
        )
    );
}

#[test]
fn a_variant_without_a_valid_example_fails_the_coverage_gate() {
    // Drop the valid examples of `shutdown`: the variant and each of its
    // members are reported at their schema positions, with the recipe step.
    let tree = Tree::whole("coverage-variant");
    let tag = "shutdown";
    let spec = tree.read("SPEC.md");
    let mut kept = Vec::new();
    let mut dropping = false;
    for line in spec.split_inclusive('\n') {
        if line.starts_with(&format!("```json cgp-example name={tag}."))
            && line.contains("expect=valid")
        {
            dropping = true;
        }
        if !dropping {
            kept.push(line);
        } else if line.trim_end() == "```" {
            dropping = false;
        }
    }
    assert!(kept.len() < spec.split_inclusive('\n').count());
    tree.write("SPEC.md", &kept.concat());
    let protocol = model(&tree);
    let variant = protocol.variant(tag).expect("the variant");
    let mut expected = vec![GateProblem::Uncovered {
        item: Item::Variant(tag.into()),
        at: variant.at.clone(),
    }];
    expected.extend(
        variant
            .object
            .members
            .iter()
            .map(|member| GateProblem::Uncovered {
                item: Item::Member {
                    owner: tag.into(),
                    name: member.name.clone(),
                },
                at: member.at.clone(),
            }),
    );
    let found = problems(&tree, Gate::Coverage);
    assert_eq!(found, expected);
    let location = variant.at.location.clone().expect("a source position");
    assert_eq!(
        found[0].to_string(),
        format!(
            "{location}: variant `{tag}` appears in no valid SPEC.md example; add one (ARCHITECTURE.md, recipe \"Add an envelope variant\": the corpus example step)"
        )
    );
    assert!(location.file.starts_with("schema/variants/"), "{location}");
}

#[test]
fn a_new_vocabulary_value_without_an_example_fails_the_coverage_gate() {
    let tree = Tree::whole("coverage-value");
    let schema = "schema/vocab/frame-kind.schema.json";
    let text = tree.read(schema);
    // A name no vocabulary has: derived, so that the schema may grow.
    let value = (0..)
        .map(|n| format!("kind{n}"))
        .find(|value| !text.contains(value.as_str()))
        .expect("a free name");
    // The closed list of known values, and the list the `Other` branch
    // excludes: the value goes after the last known one, whichever that is.
    let schema_value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let last = schema_value["$defs"]["KnownFrameKind"]["enum"]
        .as_array()
        .and_then(|values| values.last())
        .and_then(serde_json::Value::as_str)
        .expect("a last known kind");
    let edited = text.replace(
        &format!("\"{last}\"\n"),
        &format!("\"{last}\",\n        \"{value}\"\n"),
    );
    assert_eq!(edited.matches(value.as_str()).count(), 2, "{edited}");
    tree.write(schema, &edited);
    let protocol = model(&tree);
    let known = protocol.named("KnownFrameKind").expect("known kinds");
    let cgp_schema::model::Shape::Enum(values) = &known.shape else {
        panic!("{:?}", known.shape);
    };
    let index = values.len() - 1;
    let line = edited
        .lines()
        .enumerate()
        .filter(|(_, text)| text.contains(value.as_str()))
        .map(|(n, _)| n + 1)
        .nth(1)
        .expect("the enum's line");
    assert_eq!(
        problems(&tree, Gate::Coverage),
        vec![GateProblem::Uncovered {
            item: Item::Value {
                vocabulary: "KnownFrameKind".into(),
                value: format!("\"{value}\""),
            },
            at: Place {
                pointer: format!("{}/enum/{index}", known.at.pointer),
                location: Some(Location {
                    file: schema.into(),
                    line,
                    column: 9,
                }),
            },
        }]
    );
}

#[test]
fn an_older_versions_docs_link_from_their_own_directory() {
    // After a bump, the released version's pages move one directory deeper
    // (`generated/docs/<version>/`); their links to SPEC.md and the bundles
    // must still arrive.
    let tree = Tree::whole("older-docs");
    let before = cgp_codegen::generate(&tree.0).expect("generate");
    let released = before
        .releases
        .releases()
        .last()
        .expect("a released version")
        .version
        .clone();
    let mut next = before.set.version.clone();
    next.minor += 1;
    cgp_codegen::gates::release::set_version(&tree.0, &next).expect("set-version");
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let older = format!("generated/docs/{}/", released.slug());
    let index = &generation.files[&format!("{older}README.md")];
    assert!(index.contains("(../../../SPEC.md)"), "{index}");
    assert_eq!(problems(&tree, Gate::Links), vec![]);
}

#[test]
fn a_changelog_out_of_step_with_the_releases_fails_the_changelog_gate() {
    let tree = Tree::new("changelog");
    let (_, version) = released_bundle();
    let heading = format!("## {version}");
    let text = tree.read("CHANGELOG.md");
    assert!(text.contains(&heading), "{text}");
    // The released version's section gone.
    tree.write("CHANGELOG.md", &text.replace(&heading, "## notes"));
    let missing = problems(&tree, Gate::Changelog);
    assert_eq!(missing.len(), 2, "{missing:?}");
    assert!(
        missing[0]
            .to_string()
            .contains(&format!("no section for the released version {version}")),
        "{}",
        missing[0]
    );
    assert!(
        missing[1]
            .to_string()
            .contains("a section for notes, which is not released")
    );
    // A section for a version that is not released: the one after the
    // working version.
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let mut next = generation.set.version.clone();
    next.minor += 1;
    tree.write("CHANGELOG.md", &format!("## {next}\n\nNot yet.\n\n{text}"));
    let unreleased = problems(&tree, Gate::Changelog);
    assert_eq!(
        unreleased
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [format!(
            "CHANGELOG.md has a section for {next}, which is not released"
        )]
    );
    // No file at all, with a version released.
    std::fs::remove_file(tree.0.join("CHANGELOG.md")).expect("remove");
    assert!(matches!(
        problems(&tree, Gate::Changelog).as_slice(),
        [GateProblem::Unreadable { .. }]
    ));
    // The section `cargo xtask release` writes is the committed one.
    tree.write("CHANGELOG.md", &text);
    let generation = cgp_codegen::generate(&tree.0).expect("generate");
    let section = cgp_codegen::gates::changelog::section(&tree.0, &generation).expect("section");
    let added =
        cgp_codegen::gates::changelog::with_working_section(&tree.0, &generation).expect("read");
    let manifest = cgp_codegen::plan::read_manifest(&tree.0).expect("manifest");
    if manifest.release(&generation.set.version).is_some() {
        assert!(text.contains(&section), "{section}");
        assert_eq!(added, None, "nothing to add");
    } else {
        // Between a bump and its release, the release adds the working
        // version's section.
        let added = added.expect("the working version's section to add");
        assert!(added.contains(&section), "{added}");
    }
}
