//! Shared by the seed and execution-view tests: the seed examples (read from
//! `../shared/seeds/` at test time, never copied) and plan
//! builders.

#![allow(dead_code)]

use std::path::PathBuf;

use toon_plan::{DialectId, Format, Plan};

pub fn seeds_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/seeds");
    assert!(
        dir.is_dir(),
        "seed documents not found at {} (the project's shared/ folder beside the checkout)",
        dir.display()
    );
    dir
}

pub fn seed(prefix: &str) -> String {
    let dir = seeds_dir();
    let entry = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("no seed {prefix}_*.txt"));
    std::fs::read_to_string(entry.path()).unwrap()
}

/// Fenced code blocks with this info string.
pub fn blocks_with(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in text.lines() {
        match current.as_mut() {
            None => {
                if let Some(info) = line.trim_start().strip_prefix("```") {
                    current = Some((info.trim().to_owned(), String::new()));
                }
            }
            Some((_, body)) => {
                if line.trim_start().starts_with("```") {
                    let (info, body) = current.take().unwrap();
                    if info == lang {
                        out.push(body);
                    }
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

pub fn load(text: &str, format: Format) -> toon_plan::Loaded {
    toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            format: Some(format),
            ..Default::default()
        },
    )
    .unwrap()
}

/// Seed 000's PlanDAG example.
pub fn seed_000() -> Plan {
    load(&blocks_with(&seed("000"), "json")[0], Format::Json).plan
}

/// Seed 001's CompositeTask example (the second yaml block; the first is the template).
pub fn seed_001() -> Plan {
    let loaded = load(&blocks_with(&seed("001"), "yaml")[1], Format::Yaml);
    assert_eq!(loaded.dialect, DialectId::COMPOSITE);
    loaded.plan
}

/// Seed 002's workflow examples (the JSON blocks).
pub fn seed_002() -> Vec<Plan> {
    blocks_with(&seed("002"), "json")
        .iter()
        .map(|b| load(b, Format::Json).plan)
        .collect()
}

/// Seed 003's example plan (given in prose: two stages) as a staged plan.
pub fn seed_003_json() -> serde_json::Value {
    serde_json::json!({
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
    })
}

pub fn seed_003() -> Plan {
    let loaded = load(&seed_003_json().to_string(), Format::Json);
    assert_eq!(loaded.dialect, DialectId::STAGED);
    loaded.plan
}

/// Seed 004's tool DAG examples.
pub fn seed_004() -> Vec<Plan> {
    blocks_with(&seed("004"), "json")
        .iter()
        .map(|b| load(b, Format::Json).plan)
        .collect()
}

/// Every seed example as a plan, with a name.
pub fn seed_plans() -> Vec<(String, Plan)> {
    let mut out = vec![
        ("seed 000".to_owned(), seed_000()),
        ("seed 001".to_owned(), seed_001()),
        ("seed 003".to_owned(), seed_003()),
    ];
    for (i, p) in seed_002().into_iter().enumerate() {
        out.push((format!("seed 002, block {i}"), p));
    }
    for (i, p) in seed_004().into_iter().enumerate() {
        out.push((format!("seed 004, block {i}"), p));
    }
    out
}

/// The plan converted to every dialect as TOON decodes — with any conformant decoder,
/// here ours — to exactly the same conversion's JSON, byte for byte once both are
/// written as compact JSON.
pub fn assert_plain_toon(plan: &Plan, name: &str) {
    for to in DialectId::all() {
        let json = toon_plan::convert(
            plan,
            to,
            &toon_plan::ConvertOptions {
                format: Some(Format::Json),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name} → {to} json: {e}"));
        let toon = toon_plan::convert(
            plan,
            to,
            &toon_plan::ConvertOptions {
                format: Some(Format::Toon),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name} → {to} toon: {e}"));
        let from_toon = toon::decode_value(&toon.text)
            .unwrap_or_else(|e| panic!("{name} → {to}: TOON does not decode: {e}"));
        let from_json = toon::value::from_json_str(&json.text, 1000).unwrap();
        assert_eq!(
            toon::value::to_json_string(&from_toon, 0),
            toon::value::to_json_string(&from_json, 0),
            "{name} → {to}: the TOON means something else than the JSON\n{}",
            toon.text
        );
    }
}

/// A valid value for each field a conversion may need from `--set`.
pub fn example_setting(field: &str) -> toon_plan::Setting {
    let value = match field {
        "tool" => "web_search",
        "action" => "extract",
        "agent_type" => "api_agent",
        "executor" => "writer",
        _ => "do the step",
    };
    format!("{field}={value}").parse().unwrap()
}

/// Converts with `--set` values for whatever the target still lacks; returns the
/// conversion and the fields that needed them.
pub fn convert_filling(
    plan: &Plan,
    from: DialectId,
    to: DialectId,
) -> (toon_plan::Conversion, Vec<&'static str>) {
    let mut plan = plan.clone();
    plan.set_source_dialect(Some(from));
    let plan = &plan;
    let first = toon_plan::convert(plan, to, &toon_plan::ConvertOptions::default()).unwrap();
    let mut needed: Vec<&'static str> = first
        .report
        .target_problems
        .iter()
        .filter(|p| p.is_error())
        .filter_map(|p| match &p.location {
            toon_plan::Location::Path(path) => toon_plan::conversion::derive::settable_field(path),
            _ => None,
        })
        .collect();
    needed.sort_unstable();
    needed.dedup();
    if needed.is_empty() {
        return (first, needed);
    }
    let sets: Vec<_> = needed.iter().map(|f| example_setting(f)).collect();
    (
        toon_plan::convert(
            plan,
            to,
            &toon_plan::ConvertOptions {
                set: sets.to_vec(),
                ..Default::default()
            },
        )
        .unwrap(),
        needed,
    )
}

/// The plan converts to every other dialect and back, each output valid in its target;
/// only the fields the mapping table says have no sensible value need `--set`.
pub fn assert_converts_everywhere_and_back(plan: &Plan, from: DialectId, name: &str) {
    const NEED_A_VALUE: &[&str] = &["tool", "action", "agent_type", "executor", "prompt"];
    for to in DialectId::all().filter(|&d| d != from) {
        let (there, needed) = convert_filling(plan, from, to);
        assert!(
            needed.iter().all(|f| NEED_A_VALUE.contains(f)),
            "{name} → {to} needs {needed:?}"
        );
        assert_eq!(
            there.report.target_errors(),
            0,
            "{name} → {to} with {needed:?} set: {:#?}",
            there.report.target_problems
        );
        let loaded = toon_plan::read(
            &there.text,
            &toon_plan::ReadOptions {
                dialect: Some(to),
                format: Some(there.report.format),
                ..Default::default()
            },
        )
        .unwrap();
        let (back, needed_back) = convert_filling(&loaded.plan, to, from);
        assert!(
            needed_back.iter().all(|f| NEED_A_VALUE.contains(f)),
            "{name} → {to} → back needs {needed_back:?}"
        );
        assert_eq!(
            back.report.target_errors(),
            0,
            "{name} → {to} → {from}: {:#?}",
            back.report.target_problems
        );
    }
}

/// A plan from `(id, dependencies)` pairs.
pub fn plan(tasks: &[(&str, &[&str])]) -> Plan {
    Plan {
        tasks: tasks
            .iter()
            .map(|(id, deps)| toon_plan::Task {
                id: (*id).to_owned(),
                dependencies: Some(deps.iter().map(|d| (*d).to_owned()).collect()),
                ..toon_plan::Task::default()
            })
            .collect(),
        ..Plan::default()
    }
}
