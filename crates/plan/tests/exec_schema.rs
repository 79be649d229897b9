//! The JSON Schemas: each is a valid draft 2020-12 schema, accepts the seed examples
//! and the project's valid test plans, and rejects what the validator rejects.

mod exec_common;

use std::path::PathBuf;

use exec_common::*;
use serde_json::{Value, json};
use toon_plan::schema::schema;
use toon_plan::{DialectId, Format};

fn check(dialect: DialectId, doc: &Value) -> Vec<String> {
    let s = schema(dialect);
    let v = jsonschema::validator_for(&s).unwrap();
    v.iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn every_schema_is_a_valid_2020_12_schema() {
    for d in DialectId::all() {
        let s = schema(d);
        assert_eq!(
            s["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{d}"
        );
        assert!(jsonschema::meta::is_valid(&s), "{d}");
        assert!(
            s["title"].is_string() && s["description"].is_string(),
            "{d}"
        );
        assert_eq!(s["type"], "object", "{d}");
        // Doc-comment line breaks are joined: descriptions are single paragraphs.
        assert!(!s.to_string().contains("refer to\\nthe"), "{d}");
    }
    let tool_dag = schema(DialectId::TOOLDAG);
    assert_eq!(
        tool_dag["description"],
        "A multi-agent tool DAG (seed 004). A query may use `{{task_id.result}}` to refer to the result of a task listed in its `dependencies`."
    );
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn the_seed_examples_validate() {
    let json_block = |prefix: &str, i: usize| -> Value {
        serde_json::from_str(&blocks_with(&seed(prefix), "json")[i]).unwrap()
    };
    assert_eq!(
        check(DialectId::PLANDAG, &json_block("000", 0)),
        Vec::<String>::new()
    );
    let yaml = &blocks_with(&seed("001"), "yaml")[1];
    let composite = toon_plan::syntax::yaml::parse(yaml).unwrap();
    assert_eq!(
        check(DialectId::COMPOSITE, &composite),
        Vec::<String>::new()
    );
    for i in 0..2 {
        assert_eq!(
            check(DialectId::WORKFLOW, &json_block("002", i)),
            Vec::<String>::new()
        );
        assert_eq!(
            check(DialectId::TOOLDAG, &json_block("004", i)),
            Vec::<String>::new()
        );
    }
    assert_eq!(
        check(DialectId::STAGED, &seed_003_json()),
        Vec::<String>::new()
    );

    // Every seed example as the plan model validates against the plan schema.
    let mut plans = vec![seed_000(), seed_001(), seed_003()];
    plans.extend(seed_002());
    plans.extend(seed_004());
    for p in &plans {
        let text = toon_plan::convert(
            p,
            DialectId::PLAN,
            &toon_plan::ConvertOptions {
                format: Some(Format::Json),
                ..Default::default()
            },
        )
        .map(|c| c.text)
        .unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(check(DialectId::PLAN, &doc), Vec::<String>::new(), "{text}");
    }
}

/// The project's valid example plans, written as JSON in their own dialect.
#[test]
fn valid_test_plans_validate_in_their_own_dialect() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans");
    let mut checked = 0;
    for d in DialectId::all() {
        let dir = root.join(d.name()).join("valid");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let path = e.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let loaded = toon_plan::read(
                &text,
                &toon_plan::ReadOptions {
                    file_name: Some(std::path::PathBuf::from(&path)),
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(loaded.dialect, d, "{}", path.display());
            let out = toon_plan::convert(
                &loaded.plan,
                d,
                &toon_plan::ConvertOptions {
                    format: Some(Format::Json),
                    ..Default::default()
                },
            )
            .map(|c| c.text)
            .unwrap();
            let doc: Value = serde_json::from_str(&out).unwrap();
            // Fields beyond the dialect's own (kept in `extra`) are allowed by both.
            assert_eq!(check(d, &doc), Vec::<String>::new(), "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} plans found");
}

/// Documents each dialect's validator rejects: the schema rejects them too.
#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn schemas_reject_what_the_validator_rejects() {
    let step = json!({"step_id": "1", "depends_on": [], "parallel_group": 1,
        "agent_type": "browser_agent", "action": "navigate", "target": "x",
        "capabilities_required": ["CAP_READ"]});
    let plandag = |step: Value| {
        json!({"plan_id": "p", "intent": "i", "success_criteria": "s", "steps": [step],
               "metadata": {"created_at": "t", "planner_model": "m", "confidence": 0.5,
                            "estimated_duration_ms": 10}})
    };
    let mut cases: Vec<(DialectId, Value)> = Vec::new();
    assert_eq!(
        check(DialectId::PLANDAG, &plandag(step.clone())),
        Vec::<String>::new()
    );
    for (k, v) in [
        ("action", json!("fly")),
        ("parallel_group", json!(0)),
        ("capabilities_required", json!(["CAP_ROOT"])),
        ("agent_type", json!("robot")),
    ] {
        let mut s = step.clone();
        s[k] = v;
        cases.push((DialectId::PLANDAG, plandag(s)));
    }
    cases.push((
        DialectId::COMPOSITE,
        json!({"tasks": [{"id": "a", "prompt": "  "}]}),
    ));
    cases.push((
        DialectId::WORKFLOW,
        json!({"metadata": {"title": "t", "objective": "o"}, "tasks": [],
               "steps": [{"id": "s", "task_id": "t", "action": "a", "step_type": "NOPE"}]}),
    ));
    cases.push((
        DialectId::WORKFLOW,
        json!({"metadata": {"title": "t"}, "tasks": [], "steps": []}),
    ));
    let mut staged = seed_003_json();
    staged["stages"][0]["mode"] = json!("both");
    cases.push((DialectId::STAGED, staged));
    let mut staged = seed_003_json();
    staged["stages"][1]["steps"][0]["executor"] = json!("robot");
    cases.push((DialectId::STAGED, staged));
    cases.push((
        DialectId::TOOLDAG,
        json!({"dag": [{"id": "a b", "tool": "t", "query": "q", "dependencies": []}]}),
    ));
    cases.push((
        DialectId::TOOLDAG,
        json!({"dag": [{"id": "a", "tool": "", "query": "q", "dependencies": []}]}),
    ));
    // An unknown status is kept with a warning; a status that is not text is an error.
    cases.push((
        DialectId::CURSOR,
        json!({"name": "n", "todos": [{"id": "a", "status": ["done"]}]}),
    ));
    cases.push((DialectId::PLAN, json!({"tasks": [{"id": "a"}]})));
    for (d, doc) in cases {
        assert!(!check(d, &doc).is_empty(), "{d} schema accepts {doc}");
        // The validator rejects the same document (the plan model is recognised by
        // its marker, so without one it is not a plan-model document at all).
        if d != DialectId::PLAN {
            let loaded = toon_plan::read(
                &doc.to_string(),
                &toon_plan::ReadOptions {
                    dialect: Some(d),
                    format: Some(Format::Json),
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(
                toon_plan::validate(&loaded).iter().any(|p| p.is_error()),
                "{d} validator accepts {doc}"
            );
        }
    }
}
