use super::*;
use serde_json::json;

fn shape_of(schema: Value, reading: Reading) -> Shape {
    let document = json!({"$defs": {"Known": {"type": "string", "enum": ["a", "b"]}}, "oneOf": []});
    let place = |pointer: &str| Place {
        pointer: pointer.to_owned(),
        location: None,
    };
    let reader = read::Reader {
        root: &document,
        reading,
        locate: &place,
    };
    reader.shape(&schema, "")
}

fn validator(schema: Value) -> Shape {
    shape_of(schema, Reading::Validator)
}

#[test]
fn format_is_an_annotation_to_a_validator_and_a_range_to_the_rust_decoder() {
    let schema = json!({"type": "integer", "format": "uint32", "minimum": 0});
    let Shape::Integer(read) = validator(schema.clone()) else {
        panic!("integer")
    };
    assert_eq!((read.minimum, read.maximum), (Some(0), None));
    let Shape::Integer(decoded) = shape_of(schema, Reading::RustDecoder) else {
        panic!("integer")
    };
    assert_eq!(
        (decoded.minimum, decoded.maximum),
        (Some(0), Some(4_294_967_295))
    );
}

#[test]
fn integer_bounds_are_inclusive_whatever_the_spelling() {
    let Shape::Integer(range) = validator(json!({
        "type": "integer", "exclusiveMinimum": 0, "maximum": 10.5, "exclusiveMaximum": 10
    })) else {
        panic!("integer")
    };
    assert_eq!((range.minimum, range.maximum), (Some(1), Some(9)));
}

#[test]
fn nullable_spellings_read_alike() {
    let by_type = validator(json!({"type": ["string", "null"]}));
    let by_any_of = validator(json!({"anyOf": [{"type": "string"}, {"type": "null"}]}));
    assert_eq!(by_type, by_any_of);
    assert_eq!(
        by_type,
        Shape::Nullable(Box::new(Shape::String(StringShape::default())))
    );
}

#[test]
fn an_open_vocabulary_keeps_its_known_values_inline_or_behind_a_ref() {
    let behind_ref = validator(json!({"oneOf": [
        {"$ref": "#/$defs/Known"},
        {"type": "string", "not": {"enum": ["a", "b"]}}
    ]}));
    assert_eq!(
        behind_ref,
        Shape::OpenVocabulary(Vocabulary {
            known: vec!["a".into(), "b".into()],
            known_type: Some("Known".into())
        })
    );
    let Shape::OpenVocabulary(inline) = validator(json!({"type": "string", "oneOf": [
        {"type": "string", "enum": ["a", "b"]},
        {"type": "string", "not": {"enum": ["a", "b"]}}
    ]})) else {
        panic!("vocabulary")
    };
    assert_eq!(inline.known, ["a", "b"]);
    assert_eq!(inline.known_type, None);
}

#[test]
fn a_tagged_union_flattens_shared_members_into_each_branch() {
    let Shape::TaggedUnion(union) = validator(json!({
        "type": "object",
        "properties": {"frame": {"type": "string"}},
        "required": ["frame"],
        "oneOf": [
            {"type": "object", "properties": {"status": {"const": "valid"}}, "required": ["status"]},
            {"type": "object", "properties": {"status": {"const": "stale"}, "digest": {"type": "string"}}, "required": ["status"]}
        ]
    })) else {
        panic!("union")
    };
    assert_eq!(union.tag, "status");
    let stale = union.branch("stale").expect("stale");
    let names: Vec<&str> = union
        .members_of(stale)
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["frame", "digest"]);
}

#[test]
fn an_annotated_reference_in_a_one_schema_all_of_is_the_named_type() {
    assert_eq!(
        validator(json!({"description": "d", "allOf": [{"$ref": "#/$defs/FrameId"}]})),
        Shape::Named("FrameId".into())
    );
}

#[test]
fn every_assertion_is_read_or_refused() {
    assert!(matches!(
        validator(json!({"type": "string", "minLength": 1, "pattern": "^a"})),
        Shape::String(StringShape {
            min_length: Some(1),
            pattern: Some(_),
            ..
        })
    ));
    for refused in [
        json!({"type": "object", "patternProperties": {"^x": {}}}),
        json!({"type": "array", "prefixItems": [{}]}),
        json!({"allOf": [{"type": "string"}]}),
        json!({"allOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}]}),
        json!({"type": ["string", "integer"]}),
        json!({"$ref": "other.json"}),
        json!({"type": "object", "required": ["ghost"]}),
    ] {
        assert!(
            matches!(validator(refused.clone()), Shape::Unsupported(_)),
            "{refused} was read as {:?}",
            validator(refused.clone())
        );
    }
}

#[test]
fn strict_exclusions_and_array_bounds_are_read() {
    assert_eq!(
        validator(json!({"$ref": "#/$defs/Known", "not": {"const": "a"}, "default": "a"})),
        Shape::Excluding(Box::new(Shape::Named("Known".into())), vec![json!("a")])
    );
    let Shape::Array(array) =
        validator(json!({"type": "array", "items": {"type": "boolean"}, "minItems": 1}))
    else {
        panic!("array")
    };
    assert_eq!((array.min_items, *array.items), (Some(1), Shape::Boolean));
}

#[test]
fn the_published_bundles_read_without_gaps() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
    let set = SchemaSet::load(&root, "schema").expect("schema loads");
    for profile in Profile::ALL {
        let bundle = set.bundle(profile).expect("bundles");
        let protocol = Protocol::of_bundle(&set, &bundle);
        assert_eq!(protocol.unsupported(), Vec::new(), "{profile}");
        assert_eq!(protocol.variants.len(), set.variants.len());
        assert_eq!(protocol.profile, Some(profile));
        let frame = protocol.named("ContextFrame").expect("ContextFrame");
        let Shape::Object(object) = &frame.shape else {
            panic!("object")
        };
        let token_cost = object.member("token_cost").expect("token_cost");
        let location = token_cost.at.location.as_ref().expect("located");
        assert_eq!(location.file, "schema/types/context-frame.schema.json");
        assert!(location.line > 1);
    }
}

#[test]
fn shared_types_inherit_every_direction_that_reaches_them() {
    let document = json!({
        "oneOf": [
            {"type": "object", "x-cgp-direction": "host-to-provider",
             "properties": {"type": {"const": "q"}, "a": {"$ref": "#/$defs/A"}}},
            {"type": "object", "x-cgp-direction": "provider-to-host",
             "properties": {"type": {"const": "r"}, "b": {"$ref": "#/$defs/B"}}}
        ],
        "$defs": {
            "A": {"type": "object", "properties": {"s": {"$ref": "#/$defs/Shared"}}},
            "B": {"type": "object", "properties": {"s": {"type": "array", "items": {"$ref": "#/$defs/Shared"}}}},
            "Shared": {"type": "string"},
            "Orphan": {"type": "string"}
        }
    });
    let protocol = Protocol::read(&document, Reading::Validator, &|_| None);
    assert_eq!(protocol.unsupported(), Vec::new());
    let directions = protocol.directions();
    assert_eq!(directions["A"], BTreeSet::from([Direction::HostToProvider]));
    assert_eq!(
        directions["Shared"],
        BTreeSet::from([Direction::HostToProvider, Direction::ProviderToHost])
    );
    assert!(!directions.contains_key("Orphan"));
    let used_by = protocol.used_by();
    assert_eq!(
        used_by["Shared"],
        BTreeSet::from(["A".to_owned(), "B".to_owned()])
    );
    assert_eq!(used_by["A"], BTreeSet::from(["q (envelope)".to_owned()]));
}

fn published(profile: Profile) -> Protocol {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema");
    let set = SchemaSet::load(&root, "schema").expect("schema loads");
    let bundle = set.bundle(profile).expect("bundles");
    Protocol::of_bundle(&set, &bundle)
}

#[test]
fn accepts_reads_values_as_the_shapes_say() {
    let protocol = published(Profile::Interop);
    let token_cost = |value: Value| {
        let Shape::Object(object) = &protocol.named("ContextFrame").expect("frame").shape else {
            panic!("object")
        };
        protocol.accepts(&object.member("token_cost").expect("member").shape, &value)
    };
    assert_eq!(token_cost(json!(4_294_967_295u64)), Ok(()));
    assert_eq!(
        token_cost(json!(3.0)),
        Ok(()),
        "a float-spelled integer is an integer to a validator"
    );
    assert!(
        token_cost(json!(4_294_967_296u64))
            .is_err_and(|misfit| misfit.why.contains("is above integer 0..=4294967295"))
    );
    assert!(token_cost(json!(-1)).is_err());
    assert!(token_cost(json!("1")).is_err_and(|misfit| misfit.why.contains("expected an integer")));
    let kind = Shape::Named("FrameKind".into());
    assert_eq!(protocol.accepts(&kind, &json!("any-new-kind")), Ok(()));
    assert!(protocol.accepts(&kind, &json!(7)).is_err());
    let representation = Shape::Named("Representation".into());
    assert!(
        protocol
            .accepts(&representation, &json!("nope"))
            .is_err_and(|misfit| misfit.why.contains("closed values"))
    );
}

#[test]
fn accepts_follows_unions_exclusions_and_unknown_members() {
    let protocol = published(Profile::Strict);
    let verdict = Shape::Named("FrameVerdict".into());
    let frame = json!({"provider_id": "p", "frame_id": "f"});
    assert_eq!(
        protocol.accepts(&verdict, &json!({"frame": frame, "status": "gone"})),
        Ok(())
    );
    assert!(
        protocol
            .accepts(
                &verdict,
                &json!({"frame": frame, "status": "gone", "replacement_digest": "d"})
            )
            .is_err_and(|misfit| misfit.at.is_empty()
                && misfit.to_string() == "/: unknown member \"replacement_digest\"")
    );
    assert!(
        protocol
            .accepts(&verdict, &json!({"frame": frame, "status": "lost"}))
            .is_err_and(|misfit| misfit.why.contains("no branch is tagged \"lost\""))
    );
    let excluded = Shape::Excluding(
        Box::new(Shape::Named("Representation".into())),
        vec![json!("full")],
    );
    assert!(
        protocol
            .accepts(&excluded, &json!("full"))
            .is_err_and(|misfit| misfit.why.contains("excluded"))
    );
}

#[test]
fn the_defaults_lint_names_a_default_outside_its_own_schema() {
    for profile in Profile::ALL {
        assert_eq!(published(profile).check_defaults(), Ok(()), "{profile}");
    }
    let document = json!({
        "oneOf": [{"type": "object", "properties": {
            "type": {"const": "q"},
            "n": {"type": "integer", "minimum": 1, "default": 0},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "default": []}
        }}]
    });
    let protocol = Protocol::read(&document, Reading::Validator, &|_| None);
    let problems = protocol
        .check_defaults()
        .expect_err("two bad defaults")
        .to_string();
    assert!(
        problems.contains(
            "`default` 0 of `n` does not fit the member's own schema: /: 0 is below integer 1.."
        ),
        "{problems}"
    );
    assert!(problems.contains("`default` [] of `tags` does not fit the member's own schema: /: 0 item(s), fewer than minItems 1"), "{problems}");
}

#[test]
fn documentation_keywords_are_kept_in_the_order_of_the_shared_list() {
    let schema = json!({"examples": ["x"], "type": "string", "title": "T", "$comment": "c"});
    let annotations = schema.as_object().map(Annotations::of).unwrap_or_default();
    assert_eq!(
        annotations.documentation,
        vec![
            ("title", json!("T")),
            ("examples", json!(["x"])),
            ("$comment", json!("c"))
        ]
    );
    assert_eq!(annotations.documentation("examples"), Some(&json!(["x"])));
    assert_eq!(annotations.documentation("description"), None);
}

#[test]
fn a_declared_union_without_branches_accepts_nothing() {
    let Shape::TaggedUnion(union) = validator(json!({"x-cgp-tag": "k", "oneOf": []})) else {
        panic!("a tagged union")
    };
    assert_eq!((union.tag.as_str(), union.branches.len()), ("k", 0));
    let protocol = Protocol::read(&json!({"oneOf": []}), Reading::Validator, &|_| None);
    let shape = Shape::TaggedUnion(union);
    assert!(protocol.accepts(&shape, &json!({"k": "a"})).is_err());
    assert!(matches!(
        validator(json!({"oneOf": []})),
        Shape::Unsupported(_)
    ));
}

#[test]
fn items_keep_their_annotations_and_pointers_name_where_members_are_read() {
    let Shape::Array(array) = validator(json!({
        "type": "array", "items": {"type": "string", "description": "One name."}
    })) else {
        panic!("an array")
    };
    assert_eq!(
        array.item_annotations.description.as_deref(),
        Some("One name.")
    );
    assert_eq!(*array.items, Shape::String(StringShape::default()));
    assert_eq!(
        member_pointer("/$defs/A", "a/b"),
        "/$defs/A/properties/a~1b"
    );
    assert_eq!(items_pointer("/$defs/A"), "/$defs/A/items");
    let document = json!({"oneOf": [{"type": "object", "properties": {
        "type": {"const": "a"}, "list": {"type": "array", "items": {"type": "string"}}
    }}]});
    let protocol = Protocol::read(&document, Reading::Validator, &|_| None);
    let list = protocol
        .variant("a")
        .and_then(|variant| variant.object.member("list"))
        .expect("the member");
    assert_eq!(list.at.pointer, member_pointer("/oneOf/0", "list"));
}

#[test]
fn part_at_finds_variants_branches_members_and_items_by_pointer() {
    let document = json!({
        "oneOf": [{
            "type": "object",
            "properties": {
                "type": {"const": "query"},
                "kinds": {"type": "array", "items": {"type": "string", "description": "a kind"}, "x-cgp-emit": "omit-if-empty"}
            },
            "required": ["type"]
        }],
        "x-cgp-tag": "type",
        "$defs": {
            "Verdict": {
                "type": "object",
                "x-cgp-tag": "status",
                "oneOf": [
                    {"type": "object", "properties": {"status": {"const": "valid"}}, "required": ["status"]},
                    {"type": "object", "properties": {"status": {"const": "gone"}, "at": {"type": "string"}}, "required": ["status", "at"]}
                ]
            }
        }
    });
    let protocol = Protocol::read(&document, Reading::Validator, &|_| None);
    let variant = protocol.part_at("/oneOf/0").expect("the variant");
    assert!(variant.object().and_then(|o| o.member("kinds")).is_some());
    let kinds = protocol
        .part_at("/oneOf/0/properties/kinds")
        .expect("the member");
    assert_eq!(kinds.annotations().emit, Some(Emit::OmitIfEmpty));
    let items = protocol
        .part_at("/oneOf/0/properties/kinds/items")
        .expect("the items");
    assert_eq!(items.annotations().description.as_deref(), Some("a kind"));
    let Some(Shape::TaggedUnion(union)) =
        protocol.part_at("/$defs/Verdict").and_then(|p| p.shape())
    else {
        panic!("the union: {:?}", protocol.part_at("/$defs/Verdict"));
    };
    assert_eq!(union.tag, "status");
    let gone = protocol
        .part_at("/$defs/Verdict/oneOf/1")
        .expect("a branch");
    assert!(
        gone.object()
            .and_then(|o| o.member("at"))
            .is_some_and(|m| m.required)
    );
    assert!(
        protocol
            .part_at("/$defs/Verdict/oneOf/1/properties/at")
            .is_some()
    );
    assert_eq!(protocol.part_at("/$defs/Nope"), None);
    assert_eq!(protocol.part_at("/oneOf/0/properties/absent"), None);
}
