//! Every plan that converts to workflow JSON converts to workflow markdown too: the
//! markdown passes workflow's own validation, reads back to the plan the JSON reads
//! back to, and reports the same losses.

use std::path::PathBuf;

use toon_plan::{DialectId, Format, Plan};

mod exec_common;

/// The loss-report field of the markdown style a workflow plan keeps.
const MD_PATCH: &str = "layout.workflow.md_patch";

/// The valid example plans of every dialect in `testdata/plans`.
fn valid_examples() -> Vec<(String, DialectId, Plan)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans");
    let mut out = Vec::new();
    for d in DialectId::all() {
        let dir = root.join(d.name()).join("valid");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            let loaded = toon_plan::read(
                &text,
                &toon_plan::ReadOptions {
                    file_name: Some(std::path::PathBuf::from(&p)),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            out.push((p.display().to_string(), loaded.dialect, loaded.plan));
        }
    }
    out
}

fn read_back(text: &str, format: Format) -> Plan {
    toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::WORKFLOW),
            format: Some(format),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("workflow {format} does not read back: {e}\n{text}"))
    .plan
}

fn to_workflow(plan: &Plan, from: DialectId, format: Format) -> toon_plan::Conversion {
    toon_plan::convert(
        plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(format),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{from} → workflow {format}: {e}"))
}

/// The plan as it reads back from plan-model TOON: every number in TOON's form.
fn in_toon_form(plan: &Plan) -> Plan {
    let options = toon_plan::ConvertOptions {
        format: Some(Format::Toon),
        ..Default::default()
    };
    let toon = toon_plan::convert(plan, DialectId::PLAN, &options).unwrap();
    let back = toon_plan::read(
        &toon.text,
        &toon_plan::ReadOptions::dialect(DialectId::PLAN),
    );
    back.unwrap().plan
}

/// Converts `plan`, read from `from`, to workflow JSON and workflow markdown as
/// `toon plan convert` does and compares the two.
fn markdown_agrees_with_json(name: &str, from: DialectId, plan: &Plan) {
    let json = to_workflow(plan, from, Format::Json);
    let md = to_workflow(plan, from, Format::Md);
    assert_eq!(
        md.report.target_errors(),
        0,
        "{name} → workflow md: {:#?}\n{}",
        md.report.target_problems,
        md.text
    );
    // The markdown keeps the source markdown's style, which JSON drops.
    let mut json_losses = json.report.losses.clone();
    json_losses.retain(|l| l.field != MD_PATCH);
    assert_eq!(
        md.report.losses, json_losses,
        "{name}: the markdown's report is not the JSON's"
    );
    let mut from_md = read_back(&md.text, Format::Md);
    from_md.layout.forget(&MD_PATCH["layout.".len()..]);
    // Numbers compare by value: the markdown writes them in TOON's form (`5.0` as `5`).
    assert_eq!(
        in_toon_form(&from_md),
        in_toon_form(&read_back(&json.text, Format::Json)),
        "{name}: the markdown reads back to another plan than the JSON\n{}",
        md.text
    );
    // The JSON written by the tool converts to markdown in turn.
    let from_json = read_back(&json.text, Format::Json);
    let again = to_workflow(&from_json, DialectId::WORKFLOW, Format::Md);
    assert_eq!(
        again.report.target_errors(),
        0,
        "{name}: json → md: {:#?}",
        again.report.target_problems
    );
}

#[test]
fn every_valid_example_converts_to_valid_workflow_markdown() {
    let examples = valid_examples();
    assert!(examples.len() >= 8, "{}", examples.len());
    for (name, from, plan) in &examples {
        markdown_agrees_with_json(name, *from, plan);
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn every_seed_example_converts_to_valid_workflow_markdown() {
    for (name, plan) in exec_common::seed_plans() {
        let from = match &name[..8] {
            "seed 000" => DialectId::PLANDAG,
            "seed 001" => DialectId::COMPOSITE,
            "seed 002" => DialectId::WORKFLOW,
            "seed 003" => DialectId::STAGED,
            _ => DialectId::TOOLDAG,
        };
        markdown_agrees_with_json(&name, from, &plan);
    }
}
