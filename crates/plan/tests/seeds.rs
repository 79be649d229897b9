//! The examples inside the seed documents (read from `../shared/seeds/` at test time,
//! never copied) parse, validate and convert.

use toon_plan::{DialectId, Format, Severity};

mod exec_common;

use exec_common::{blocks_with, seed};

fn errors(loaded: &toon_plan::Loaded) -> Vec<String> {
    toon_plan::validate(loaded)
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .map(|p| p.to_string())
        .collect()
}

/// Loads, validates (no errors), and converts to every dialect and format: the report
/// is honest (reading the output back and converting again gives the same text when
/// the report is empty) and every conversion back into the source dialect is lossless
/// when the round trip's report is empty.
fn check_example(text: &str, format: Format, expect: DialectId) -> toon_plan::Loaded {
    check_example_allowing(text, format, expect, &[])
}

fn check_example_allowing(
    text: &str,
    format: Format,
    expect: DialectId,
    allowed: &[&str],
) -> toon_plan::Loaded {
    let loaded = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            format: Some(format),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(loaded.dialect, expect, "detected dialect");
    let errs = errors(&loaded);
    assert_eq!(errs, allowed, "{expect} example has errors");
    for to in DialectId::all() {
        for fmt in Format::ALL {
            if !to.dialect().supports(fmt) {
                assert!(
                    toon_plan::convert(
                        &loaded.plan,
                        to,
                        &toon_plan::ConvertOptions {
                            format: Some(fmt),
                            ..Default::default()
                        }
                    )
                    .is_err()
                );
                continue;
            }
            let conv = toon_plan::convert(
                &loaded.plan,
                to,
                &toon_plan::ConvertOptions {
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap_or_else(|e| panic!("{expect} → {to} {fmt}: {e}"));
            let back = toon_plan::read(
                &conv.text,
                &toon_plan::ReadOptions {
                    dialect: Some(to),
                    format: Some(fmt),
                    ..Default::default()
                },
            )
            .unwrap();
            let again = toon_plan::convert(
                &back.plan,
                expect,
                &toon_plan::ConvertOptions {
                    format: Some(loaded.format),
                    ..Default::default()
                },
            )
            .unwrap();
            if conv.report.is_lossless() {
                let diff = toon_plan::LossReport::between(&loaded.plan, &back.plan);
                assert!(
                    diff.is_empty(),
                    "{expect} → {to} {fmt}: empty report but plan changed: {diff}"
                );
                let direct = toon_plan::convert(
                    &loaded.plan,
                    expect,
                    &toon_plan::ConvertOptions {
                        format: Some(loaded.format),
                        ..Default::default()
                    },
                )
                .map(|c| c.text)
                .unwrap();
                assert_eq!(json_or_text(&again.text), json_or_text(&direct));
            }
        }
    }
    // The plan and its own dialect: nothing lost.
    let same = toon_plan::convert(
        &loaded.plan,
        expect,
        &toon_plan::ConvertOptions {
            format: Some(format),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        same.report.is_lossless(),
        "{expect} → {expect}: {}",
        same.report
    );
    let plan = toon_plan::convert(
        &loaded.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        plan.report.is_lossless(),
        "{expect} → plan toon: {}",
        plan.report
    );
    loaded
}

/// JSON compared as a value with numbers by value; other text as is.
fn json_or_text(text: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(v) => normalise_numbers(v).to_string(),
        Err(_) => text.to_owned(),
    }
}

fn normalise_numbers(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(normalise_numbers).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, v)| (k, normalise_numbers(v)))
                .collect(),
        ),
        other => other,
    }
}

fn json_value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_000_plandag_example() {
    let text = seed("000");
    let json = blocks_with(&text, "json");
    assert_eq!(json.len(), 1);
    let loaded = check_example(&json[0], Format::Json, DialectId::PLANDAG);
    assert_eq!(loaded.plan.tasks.len(), 6);
    assert_eq!(
        loaded.plan.tasks[1].dependencies.as_deref(),
        Some(&["1".to_owned()][..])
    );
    // Writing it back gives the same JSON value.
    let out = toon_plan::convert(
        &loaded.plan,
        DialectId::PLANDAG,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap();
    assert_eq!(json_value(&out), json_value(&json[0]));
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_000_schema_fields_are_the_dialects() {
    let text = seed("000");
    let ts = blocks_with(&text, "typescript");
    let step = ts[0].split("interface PlanStep").nth(1).unwrap();
    let step = step.split('}').next().unwrap();
    let fields: Vec<&str> = step
        .lines()
        .filter_map(|l| l.trim().split(['?', ':']).next())
        .filter(|f| !f.is_empty() && !f.starts_with("//") && *f != "{")
        .collect();
    assert_eq!(fields.len(), 10, "{fields:?}");
    // Every schema field is written when the model has the matching value.
    let loaded = toon_plan::read(
        &blocks_with(&text, "json")[0],
        &toon_plan::ReadOptions::default(),
    )
    .unwrap();
    let mut plan = loaded.plan.clone();
    plan.tasks[0].params = Some(serde_json::json!({}));
    let out = json_value(
        &toon_plan::convert(
            &plan,
            DialectId::PLANDAG,
            &toon_plan::ConvertOptions {
                ..Default::default()
            },
        )
        .map(|c| c.text)
        .unwrap(),
    );
    for f in fields {
        assert!(out["steps"][0].get(f).is_some(), "field {f} not written");
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_001_composite_example() {
    let text = seed("001");
    let yaml = blocks_with(&text, "yaml");
    assert_eq!(yaml.len(), 2);
    let loaded = check_example(&yaml[1], Format::Yaml, DialectId::COMPOSITE);
    assert_eq!(loaded.plan.tasks.len(), 6);
    let tests = loaded.plan.task("tests").unwrap();
    assert_eq!(
        tests.dependencies.as_deref(),
        Some(&["auth-api".to_owned(), "auth-middleware".to_owned()][..])
    );
    // The structure block is a template: it parses, and its `dependsOn: string[]` is
    // reported, not accepted.
    let template = toon_plan::read(
        &yaml[0],
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::COMPOSITE),
            format: Some(Format::Yaml),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(errors(&template).iter().any(|e| e.contains("dependsOn")));
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_002_workflow_examples() {
    let text = seed("002");
    let json = blocks_with(&text, "json");
    assert_eq!(json.len(), 2);
    for j in &json {
        let loaded = check_example(j, Format::Json, DialectId::WORKFLOW);
        let out = toon_plan::convert(
            &loaded.plan,
            DialectId::WORKFLOW,
            &toon_plan::ConvertOptions {
                format: Some(Format::Json),
                ..Default::default()
            },
        )
        .map(|c| c.text)
        .unwrap();
        assert_eq!(json_value(&out), json_value(j));
    }
    // Its TOON is plain TOON of its JSON form: the list-valued columns the seed's own
    // TOON example drops are kept, and any TOON decoder reads the JSON back.
    let loaded = toon_plan::read(&json[1], &toon_plan::ReadOptions::default()).unwrap();
    let toon_text = toon_plan::convert(
        &loaded.plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap();
    let json_text = toon_plan::convert(
        &loaded.plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap();
    let plain = toon::encode_value(&toon::value::from_json_str(&json_text, 100).unwrap());
    assert_eq!(toon_text, format!("{plain}\n"));
    assert!(
        toon_text.contains("tools_required[2]: "),
        "list-valued fields are kept:\n{toon_text}"
    );
    let back = toon_plan::read(
        &toon_text,
        &toon_plan::ReadOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(back.dialect, DialectId::WORKFLOW);
    let again = toon_plan::convert(
        &back.plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap();
    assert!(toon_plan::conversion::loss::same_value(
        &json_value(&again),
        &json_value(&json[1])
    ));
    // The seed's TOON example (fenced as yaml) decodes as a workflow plan. In TOON,
    // `shared_inputs: {}` is the string "{}" (an empty object is `shared_inputs:`),
    // and validation says so.
    let toon_example = &blocks_with(&text, "yaml")[0];
    let loaded = check_example_allowing(
        toon_example,
        Format::Toon,
        DialectId::WORKFLOW,
        &["shared_inputs (line 11, column 1): error: `shared_inputs` must be an object [schema]"],
    );
    assert_eq!(loaded.plan.title.as_deref(), Some("Plan Title"));
    assert_eq!(
        loaded.plan.tasks[0]
            .timeout_ms
            .as_ref()
            .and_then(|n| n.as_i64()),
        Some(30_000)
    );
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_002_markdown_layout() {
    let text = seed("002");
    let md = &blocks_with(&text, "markdown")[0];
    let loaded = toon_plan::read(
        md,
        &toon_plan::ReadOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(loaded.dialect, DialectId::WORKFLOW);
    assert!(errors(&loaded).is_empty(), "{:?}", errors(&loaded));
    let plan = &loaded.plan;
    assert_eq!(plan.title.as_deref(), Some("Plan Title"));
    assert_eq!(plan.goal.as_deref(), Some("Clear plan objective"));
    assert_eq!(plan.groups.len(), 1);
    assert_eq!(plan.groups[0].name.as_deref(), Some("Task Name"));
    assert_eq!(plan.groups[0].executor.as_deref(), Some("model_engine"));
    let step = &plan.tasks[0];
    assert_eq!(step.action.as_deref(), Some("run_prediction"));
    assert_eq!(step.kind.as_deref(), Some("AGENT_EXECUTION"));
    assert_eq!(
        step.timeout_ms.as_ref().and_then(|n| n.as_i64()),
        Some(30_000)
    );
    assert_eq!(step.title.as_deref(), Some("Action Name"));
    assert_eq!(plan.execution.as_ref().unwrap()["max_retries"], 3);
    // The markdown written back is the seed's, byte for byte, and reads back to the
    // same plan.
    let out = toon_plan::convert(
        plan,
        DialectId::WORKFLOW,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap();
    assert_eq!(out, *md);
    let again = toon_plan::read(
        &out,
        &toon_plan::ReadOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(again.plan, *plan, "{out}");
    assert_eq!(
        toon_plan::convert(
            &again.plan,
            DialectId::WORKFLOW,
            &toon_plan::ConvertOptions {
                format: Some(Format::Md),
                ..Default::default()
            }
        )
        .map(|c| c.text)
        .unwrap(),
        out
    );
    for heading in [
        "# Plan Title",
        "## Objective",
        "## Tasks",
        "### Task 1: Task Name",
        "- **ID**: task_1",
        "## Steps",
        "## Workflow Config",
        "- Max Retries: 3",
    ] {
        assert!(out.contains(heading), "missing {heading:?} in\n{out}");
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_003_staged_fields_match_the_types() {
    let text = seed("003");
    let ts = blocks_with(&text, "ts");
    let step = ts[0].split("type PlanStep").nth(1).unwrap();
    let step = step.split("};").next().unwrap();
    let fields: Vec<&str> = step
        .lines()
        .filter_map(|l| l.trim().split(['?', ':']).next())
        .filter(|f| !f.is_empty() && !f.starts_with('{') && !f.starts_with('='))
        .collect();
    assert_eq!(
        fields,
        [
            "id", "title", "intent", "executor", "tools", "inputs", "outputs"
        ]
    );
    // The seed's example plan (two stages, in prose) as a staged plan.
    let plan = serde_json::json!({
        "id": "plan-1", "goal": "Write a spec",
        "stages": [
            {"id": "s1", "name": "Research", "mode": "parallel", "steps": [
                {"id": "trends", "title": "Research market trends", "intent": "research", "executor": "research"},
                {"id": "competitors", "title": "Research competitors", "intent": "research", "executor": "research"},
                {"id": "interviews", "title": "Review user interviews", "intent": "review", "executor": "research"}]},
            {"id": "s2", "name": "Synthesis", "mode": "sequence", "steps": [
                {"id": "summary", "title": "Draft findings summary", "intent": "draft", "executor": "writer",
                 "inputs": ["trends", "competitors", "interviews"]},
                {"id": "spec", "title": "Draft spec", "intent": "draft", "executor": "writer", "inputs": ["summary"]},
                {"id": "edit", "title": "Edit spec", "intent": "edit", "executor": "editor", "inputs": ["spec"]}]}
        ]
    });
    let loaded = check_example(&plan.to_string(), Format::Json, DialectId::STAGED);
    for (i, f) in fields.iter().enumerate().take(4) {
        let written = json_value(
            &toon_plan::convert(
                &loaded.plan,
                DialectId::STAGED,
                &toon_plan::ConvertOptions {
                    ..Default::default()
                },
            )
            .map(|c| c.text)
            .unwrap(),
        );
        assert!(
            written["stages"][1]["steps"][0].get(f).is_some(),
            "field {i} {f}"
        );
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_004_tooldag_examples() {
    let text = seed("004");
    let json = blocks_with(&text, "json");
    assert_eq!(json.len(), 2);
    for j in &json {
        let loaded = check_example(j, Format::Json, DialectId::TOOLDAG);
        let out = toon_plan::convert(
            &loaded.plan,
            DialectId::TOOLDAG,
            &toon_plan::ConvertOptions {
                ..Default::default()
            },
        )
        .map(|c| c.text)
        .unwrap();
        assert_eq!(json_value(&out), json_value(j));
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_examples_as_toon_are_plain_toon_in_every_dialect() {
    for (name, plan) in exec_common::seed_plans() {
        exec_common::assert_plain_toon(&plan, &name);
    }
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn seed_examples_convert_to_every_dialect_and_back() {
    use toon_plan::DialectId;
    let dialects = [DialectId::PLANDAG, DialectId::COMPOSITE, DialectId::STAGED];
    for ((name, plan), from) in exec_common::seed_plans().into_iter().zip(dialects) {
        exec_common::assert_converts_everywhere_and_back(&plan, from, &name);
    }
    for (name, plan) in exec_common::seed_plans().into_iter().skip(3) {
        let from = if name.starts_with("seed 002") {
            DialectId::WORKFLOW
        } else {
            DialectId::TOOLDAG
        };
        exec_common::assert_converts_everywhere_and_back(&plan, from, &name);
    }
}
