//! Workflow markdown comes back byte for byte: to itself and through the plan model,
//! whatever value styles it uses, while a changed plan is written canonically.

use std::path::PathBuf;

use serde_json::{Value, json};
use toon_plan::{DialectId, Format};

mod model_json;

fn markdown_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans/workflow");
    let mut out = Vec::new();
    for dir in ["valid", "invalid"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 2, "{out:?}");
    out
}

fn load_md(text: &str) -> toon_plan::Loaded {
    toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::WORKFLOW),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap()
}

/// The plan written as workflow markdown as it is: taken as a workflow plan, nothing
/// is filled in.
fn md_of(plan: &toon_plan::Plan) -> String {
    let mut plan = plan.clone();
    plan.set_source_dialect(Some(DialectId::WORKFLOW));
    toon_plan::convert(
        &plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap()
}

const ONBOARDING: &str = include_str!("../../../testdata/plans/workflow/valid/onboarding.md");

#[test]
fn every_workflow_markdown_file_comes_back_byte_for_byte() {
    for p in markdown_files() {
        let text = std::fs::read_to_string(&p).unwrap();
        let loaded = load_md(&text);
        assert_eq!(md_of(&loaded.plan), text, "{}: md → md", p.display());
        for format in [Format::Json, Format::Toon, Format::Yaml] {
            let model = toon_plan::convert(
                &loaded.plan,
                DialectId::PLAN,
                &toon_plan::ConvertOptions {
                    format: Some(format),
                    ..Default::default()
                },
            )
            .unwrap();
            let back = toon_plan::read(
                &model.text,
                &toon_plan::ReadOptions {
                    dialect: Some(DialectId::PLAN),
                    format: Some(format),
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(
                md_of(&back.plan),
                text,
                "{}: md → plan {format} → md",
                p.display()
            );
        }
    }
}

#[test]
fn the_test_file_uses_styles_the_canonical_writer_does_not() {
    // Without its kept style the same plan is written canonically: the test above
    // would pass trivially if the file were canonical.
    let mut plan = load_md(ONBOARDING).plan;
    assert!(plan.layout.forget("workflow.md_patch"));
    let canonical = md_of(&plan);
    assert_ne!(canonical, ONBOARDING);
    assert!(ONBOARDING.contains("- **Agent**: `insight_generator`"));
    assert!(
        canonical.contains("- **Agent**: insight_generator\n"),
        "{canonical}"
    );
}

/// The plan model's JSON of a markdown text, and that JSON read back and written as
/// markdown.
fn plan_json(text: &str) -> Value {
    model_json::of(&load_md(text).plan)
}

fn md_from_json(plan: &Value) -> String {
    model_json::to_markdown(plan, DialectId::WORKFLOW)
}

#[test]
fn an_edited_plan_is_written_canonically_with_the_edit() {
    let mut plan = plan_json(ONBOARDING);
    assert_eq!(md_from_json(&plan), ONBOARDING);
    let groups = plan["groups"].as_array_mut().unwrap();
    let g = groups
        .iter_mut()
        .find(|g| g["executor"] == json!("insight_generator"))
        .expect("a group run by insight_generator");
    g["executor"] = json!("report_writer");
    let out = md_from_json(&plan);
    assert!(out.contains("- **Agent**: report_writer\n"), "{out}");
    assert!(!out.contains("insight_generator"), "{out}");
    // The edited text reads back to the edited plan.
    let again = plan_json(&out);
    assert!(
        again["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["executor"] == json!("report_writer"))
    );
}

#[test]
fn a_patch_that_does_not_fit_gives_the_canonical_text() {
    let mut plan = plan_json(ONBOARDING);
    let mut bare = plan.clone();
    bare["layout"]
        .as_object_mut()
        .unwrap()
        .shift_remove("workflow.md_patch");
    let canonical = md_from_json(&bare);
    plan["layout"]["workflow.md_patch"] = json!([{"line": 9999, "cut": 1, "text": "x\n"}]);
    assert_eq!(md_from_json(&plan), canonical);
    // A patch that fits but changes what the text says is not applied either.
    plan["layout"]["workflow.md_patch"] =
        json!([{"line": 1, "cut": 1, "text": "# Another title\n"}]);
    assert_eq!(md_from_json(&plan), canonical);
}
