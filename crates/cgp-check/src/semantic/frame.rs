//! Per-frame rules: ids, kinds, timestamps, provenance links, the
//! representation a frame carries, and its relations.

use super::values::{budget_tokens, fingerprint_dimension, is_blank, is_protocol_timestamp};
use super::{Context, Out, Rule, SemanticViolation};
use cgp_types::{ContextFrame, Provenance, Relation, Representation};

/// The frame rules on a `ContextFrame` at `pointer` (each names its [`Rule`]).
pub fn check_frame(
    frame: &ContextFrame,
    pointer: &str,
    context: &Context,
) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    frame_rules(frame, pointer, context, &mut Out(&mut found));
    found
}

pub(super) fn frame_rules(
    frame: &ContextFrame,
    pointer: &str,
    context: &Context,
    out: &mut Out<'_>,
) {
    let honest = budget_tokens(frame.content.as_deref());
    if u64::from(frame.token_cost) != honest {
        let why = match &frame.content {
            Some(content) => format!("{} bytes of content cost {honest}", content.len()),
            None => "a frame without content costs 0".to_owned(),
        };
        out.push(
            Rule::B3,
            format!("{pointer}/token_cost"),
            format!(
                "token_cost is {}, but {why} (ceil(bytes / 4))",
                frame.token_cost
            ),
        );
    }
    if !(0.0..=1.0).contains(&frame.score) {
        out.push(
            Rule::F1,
            format!("{pointer}/score"),
            format!("score {} is outside [0, 1]", frame.score),
        );
    }
    if frame.title.is_empty() {
        out.push(
            Rule::F2,
            format!("{pointer}/title"),
            "title is empty; a host renders it with the frame".into(),
        );
    }
    match frame.citation_label.as_deref() {
        None => out.push(
            Rule::F3,
            pointer.to_owned(),
            "the frame has no citation_label; every frame must carry a non-blank one".into(),
        ),
        Some(label) if is_blank(label) => out.push(
            Rule::F3,
            format!("{pointer}/citation_label"),
            "citation_label is blank".into(),
        ),
        Some(_) => {}
    }
    for (member, value) in [
        ("valid_from", &frame.valid_from),
        ("valid_to", &frame.valid_to),
        ("recorded_at", &frame.recorded_at),
    ] {
        if value.is_some() {
            timestamp(value.as_ref(), &format!("{pointer}/{member}"), out);
        }
    }
    if let Some(digest) = &frame.content_digest {
        if !cgp_schema::digest::is_well_formed(digest) {
            out.push(
                Rule::D1,
                format!("{pointer}/content_digest"),
                format!(
                    "{} is not `sha256:` followed by 64 lowercase hex digits",
                    quoted(digest)
                ),
            );
        }
    }
    for (index, link) in frame.provenance.iter().enumerate() {
        provenance(link, &format!("{pointer}/provenance/{index}"), out);
    }
    if let Some(embedding) = &frame.embedding {
        let dimension = fingerprint_dimension(&embedding.fingerprint);
        if let (Some(vector), Some(dimension)) = (&embedding.vector, dimension) {
            if vector.len() != dimension {
                out.push(
                    Rule::FrameVector,
                    format!("{pointer}/embedding/vector"),
                    format!(
                        "the vector has {} components, but its fingerprint {} states {dimension}",
                        vector.len(),
                        quoted(&embedding.fingerprint)
                    ),
                );
            }
        }
    }
    representation(frame, pointer, out);
    for (index, relation) in frame.relations.iter().enumerate() {
        relation_rules(
            relation,
            &format!("{pointer}/relations/{index}"),
            context,
            out,
        );
    }
}

pub(super) fn quoted(text: &str) -> String {
    cgp_schema::shown::short(&serde_json::Value::String(text.to_owned()))
}

pub(super) fn timestamp(value: Option<&String>, pointer: &str, out: &mut Out<'_>) {
    let Some(text) = value else { return };
    if !is_protocol_timestamp(text) {
        out.push(
            Rule::F4,
            pointer.to_owned(),
            format!(
                "{} is not a protocol timestamp (YYYY-MM-DDTHH:MM:SS[.F]Z, UTC, a real calendar date)",
                quoted(text)
            ),
        );
    }
}

/// F5 on a `Provenance` link at `pointer`.
pub fn check_provenance(link: &Provenance, pointer: &str) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    provenance(link, pointer, &mut Out(&mut found));
    found
}

fn provenance(link: &Provenance, pointer: &str, out: &mut Out<'_>) {
    if link.kind != "file" {
        return;
    }
    match &link.digest {
        None => out.push(
            Rule::F5,
            pointer.to_owned(),
            "file provenance must carry a digest (`sha256:` + 64 lowercase hex)".into(),
        ),
        Some(digest) if !cgp_schema::digest::is_well_formed(digest) => out.push(
            Rule::F5,
            format!("{pointer}/digest"),
            format!(
                "{} is not `sha256:` followed by 64 lowercase hex digits",
                quoted(digest)
            ),
        ),
        Some(_) => {}
    }
}

fn representation(frame: &ContextFrame, pointer: &str, out: &mut Out<'_>) {
    let present = [
        ("content", frame.content.is_some()),
        ("content_digest", frame.content_digest.is_some()),
        (
            "canonical_content_hash",
            frame.canonical_content_hash.is_some(),
        ),
        ("transform", frame.transform.is_some()),
        ("content_ref", frame.content_ref.is_some()),
    ];
    let has = |name: &str| present.iter().any(|&(member, here)| member == name && here);
    let (rule, needs, forbids): (Rule, &[&str], &[&str]) = match frame.representation {
        Representation::Full => (Rule::P1, &["content"], &[]),
        Representation::Compact => (
            Rule::P2,
            &[
                "content",
                "content_digest",
                "canonical_content_hash",
                "transform",
                "content_ref",
            ],
            &[],
        ),
        Representation::Reference => (
            Rule::P3,
            &["content_ref", "canonical_content_hash"],
            &["content", "content_digest", "transform"],
        ),
    };
    let missing: Vec<&str> = needs.iter().copied().filter(|name| !has(name)).collect();
    if !missing.is_empty() {
        out.push(
            rule,
            pointer.to_owned(),
            format!(
                "a `{}` frame must carry {}; missing: {}",
                frame.representation,
                needs.join(", "),
                missing.join(", ")
            ),
        );
    }
    for name in forbids.iter().filter(|name| has(name)) {
        let even = if *name == "content" {
            " (not even \"\")"
        } else {
            ""
        };
        out.push(
            rule,
            format!("{pointer}/{name}"),
            format!(
                "a `{}` frame must not carry {name}{even}",
                frame.representation
            ),
        );
    }
}

/// G1 (for a graph provider) and G2 on a `Relation` at `pointer`.
pub fn check_relation(
    relation: &Relation,
    pointer: &str,
    context: &Context,
) -> Vec<SemanticViolation> {
    let mut found = Vec::new();
    relation_rules(relation, pointer, context, &mut Out(&mut found));
    found
}

pub(super) fn relation_rules(
    relation: &Relation,
    pointer: &str,
    context: &Context,
    out: &mut Out<'_>,
) {
    if context.graph {
        match relation.display_name.as_deref() {
            None => out.push(
                Rule::G1,
                pointer.to_owned(),
                "a graph provider's relation must carry a non-blank display_name".into(),
            ),
            Some(name) if is_blank(name) => out.push(
                Rule::G1,
                format!("{pointer}/display_name"),
                "display_name is blank".into(),
            ),
            Some(_) => {}
        }
    }
    if is_blank(&relation.target_uri) {
        out.push(
            Rule::G2,
            format!("{pointer}/target_uri"),
            "target_uri is blank; a relation must point somewhere".into(),
        );
    }
}
