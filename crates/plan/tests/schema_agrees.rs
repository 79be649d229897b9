//! The JSON Schema of a dialect and `toon plan validate` agree field by field: on
//! every test plan, every seed example and mutations of each (a required key removed,
//! a value of the wrong kind, an unknown key, an unknown enum value, a value breaking
//! a field's check), the schema
//! rejects a document exactly when the validator reports an error under one of the
//! rules the field tables stand for. Rules across items (unique ids, references,
//! cycles, uniform arrays) are the validator's alone.

mod exec_common;

use std::path::{Path, PathBuf};

use exec_common::*;
use serde_json::{Value, json};
use toon_plan::schema::{fields_table, schema};
use toon_plan::table::{self, Check, Kind, Table};
use toon_plan::{DialectId, Document, Format};

/// What each side says of one document.
struct Verdict {
    schema_errors: Vec<String>,
    field_errors: Vec<String>,
}

fn verdict(dialect: DialectId, tree: &Value) -> Verdict {
    let s = schema(dialect);
    let v = jsonschema::validator_for(&s).unwrap();
    let schema_errors = v
        .iter_errors(tree)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    let rules = fields_table(dialect).map(table::rules).unwrap_or_default();
    let problems = dialect.dialect().validate(&Document::Tree(tree.clone()));
    let field_errors = problems
        .iter()
        .filter(|p| p.is_error() && (rules.contains(&p.rule) || dialect == DialectId::PLAN))
        .map(|p| format!("{}: {}", p.rule, p.message))
        .collect();
    Verdict {
        schema_errors,
        field_errors,
    }
}

fn assert_agree(dialect: DialectId, tree: &Value, what: &str) -> bool {
    let v = verdict(dialect, tree);
    assert_eq!(
        v.schema_errors.is_empty(),
        v.field_errors.is_empty(),
        "{dialect} {what}: schema says {:?}, validate says {:?}",
        v.schema_errors,
        v.field_errors
    );
    v.schema_errors.is_empty()
}

/// The tree form of a test plan file, when it has one.
fn tree_of(path: &Path) -> Option<(DialectId, Value)> {
    let text = std::fs::read_to_string(path).ok()?;
    let loaded = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(path)),
            ..Default::default()
        },
    )
    .ok()?;
    let tree = match &loaded.document {
        Document::Tree(v) => v.clone(),
        Document::Markdown(md) if loaded.dialect == DialectId::WORKFLOW => {
            toon_plan::dialects::workflow::from_markdown(md).tree
        }
        // A Cursor file as the tree its JSON form holds: front matter keys and body;
        // another markdown dialect's as its JSON form.
        Document::Markdown(_) => {
            let json = toon_plan::convert(
                &loaded.plan,
                loaded.dialect,
                &toon_plan::ConvertOptions {
                    format: Some(Format::Json),
                    ..Default::default()
                },
            )
            .map(|c| c.text)
            .ok()?;
            serde_json::from_str(&json).ok()?
        }
    };
    Some((loaded.dialect, tree))
}

fn test_plans() -> Vec<(String, DialectId, Value)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Some((d, tree)) = tree_of(&path) {
                out.push((path.display().to_string(), d, tree));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// A value of a kind the field does not take (`None` when it takes any value).
fn wrong_value(kind: &Kind) -> Option<Value> {
    match kind {
        Kind::Str
        | Kind::Strings
        | Kind::StringsOrCount
        | Kind::StringsCountOrCell
        | Kind::Lines
        | Kind::Number
        | Kind::Integer
        | Kind::Id
        | Kind::Ids
        | Kind::Items(_) => Some(json!({"not": "this"})),
        Kind::Bool | Kind::Object | Kind::Nested(_) => Some(json!([1])),
        Kind::Any => None,
    }
}

/// Mutations of the object at `at` (a JSON pointer) described by `table`, and of the
/// first item of each of its lists: each with whether the schema must accept it.
fn mutations(tree: &Value, at: &str, table: &Table, out: &mut Vec<(String, Value, bool)>) {
    if !tree.pointer(at).is_some_and(Value::is_object) {
        return;
    }
    let mut with = |what: String, change: &dyn Fn(&mut serde_json::Map<String, Value>), ok| {
        let mut t = tree.clone();
        if let Some(o) = t.pointer_mut(at).and_then(Value::as_object_mut) {
            change(o);
            out.push((what, t, ok));
        }
    };
    with(
        format!("{at} with an unknown key"),
        &|o| {
            o.insert("x_unknown_key".into(), json!({"kept": true}));
        },
        true,
    );
    for f in table.fields {
        let key = f.key;
        if f.required {
            with(
                format!("{at} without `{key}`"),
                &|o| {
                    o.shift_remove(key);
                },
                false,
            );
        }
        if let Some(bad) = wrong_value(&f.kind) {
            with(
                format!("{at}/{key} of the wrong kind"),
                &|o| {
                    o.insert(key.into(), bad.clone());
                },
                false,
            );
        }
        let breaks_check = match f.check {
            Check::NonBlank => Some(json!("  ")),
            Check::Slug => Some(json!("a b")),
            Check::Positive => Some(json!(0)),
            Check::NotNegative => Some(json!(-1)),
            Check::OneOf(_) | Check::Known(_) | Check::None => None,
        };
        if let Some(bad) = breaks_check {
            with(
                format!("{at}/{key} breaking its check"),
                &|o| {
                    o.insert(key.into(), bad.clone());
                },
                false,
            );
        }
        if !f.choices().is_empty() {
            let bad = match f.kind {
                Kind::Strings => json!(["no-such-value"]),
                _ => json!("no-such-value"),
            };
            // An open vocabulary keeps an unknown value (a warning, not an error).
            with(
                format!("{at}/{key} with an unknown value"),
                &|o| {
                    o.insert(key.into(), bad.clone());
                },
                matches!(f.check, Check::Known(_)),
            );
        }
    }
    for f in table.fields {
        let child = format!("{at}/{}", f.key);
        match f.kind {
            Kind::Nested(inner) => mutations(tree, &child, inner, out),
            Kind::Items(inner) => mutations(tree, &format!("{child}/0"), inner, out),
            _ => {}
        }
    }
}

/// Checks a document and its mutations; returns how many documents were checked.
fn check_with_mutations(dialect: DialectId, tree: &Value, name: &str) -> usize {
    if !assert_agree(dialect, tree, name) {
        return 1;
    }
    let table = fields_table(dialect).expect("every dialect has a field table");
    let mut muts = Vec::new();
    match tree.as_object() {
        // A tagged Task Master file: each tag is a task list.
        Some(tags) if dialect == DialectId::TASKMASTER && !tags.contains_key("tasks") => {
            for tag in tags.keys() {
                mutations(
                    tree,
                    &format!("/{}", tag.replace('~', "~0").replace('/', "~1")),
                    table,
                    &mut muts,
                );
            }
        }
        _ => mutations(tree, "", table, &mut muts),
    }
    assert!(!muts.is_empty(), "{name}: no mutations");
    for (what, t, ok) in &muts {
        let accepted = assert_agree(dialect, t, &format!("{name}: {what}"));
        assert_eq!(accepted, *ok, "{name}: {what}");
    }
    1 + muts.len()
}

#[test]
fn schema_and_validate_agree_on_every_test_plan_and_its_mutations() {
    let plans = test_plans();
    assert!(plans.len() > 40, "only {} test plans", plans.len());
    let mut checked = 0;
    let mut rejected = 0;
    for (name, d, tree) in &plans {
        if !assert_agree(*d, tree, name) {
            rejected += 1;
        }
        checked += check_with_mutations(*d, tree, name);
    }
    // Some invalid examples break field rules (unknown values, empty prompts), so the
    // schema rejects them too.
    assert!(
        rejected >= 5,
        "the schemas rejected only {rejected} test plans"
    );
    assert!(checked > 200, "only {checked} documents checked");
}

#[test]
#[ignore = "needs the seed documents in ../shared/seeds: run with --include-ignored (.ci/run does)"]
fn schema_and_validate_agree_on_every_seed_example_and_its_mutations() {
    let json_blocks = |prefix: &str| -> Vec<Value> {
        blocks_with(&seed(prefix), "json")
            .iter()
            .filter_map(|b| serde_json::from_str(b).ok())
            .collect()
    };
    let mut docs: Vec<(DialectId, Value)> = Vec::new();
    docs.extend(
        json_blocks("000")
            .into_iter()
            .take(1)
            .map(|v| (DialectId::PLANDAG, v)),
    );
    let yaml = &blocks_with(&seed("001"), "yaml")[1];
    docs.push((
        DialectId::COMPOSITE,
        toon_plan::syntax::yaml::parse(yaml).unwrap(),
    ));
    docs.extend(
        json_blocks("002")
            .into_iter()
            .take(2)
            .map(|v| (DialectId::WORKFLOW, v)),
    );
    docs.push((DialectId::STAGED, seed_003_json()));
    docs.extend(
        json_blocks("004")
            .into_iter()
            .take(2)
            .map(|v| (DialectId::TOOLDAG, v)),
    );
    let mut checked = 0;
    for (i, (d, tree)) in docs.iter().enumerate() {
        assert!(assert_agree(*d, tree, &format!("seed example {i}")), "{d}");
        checked += check_with_mutations(*d, tree, &format!("seed example {i}"));
    }
    assert!(checked > 100, "only {checked} documents checked");
}

/// Every test plan converted to the plan model: the schema and `validate` agree on it,
/// and on the ways a tasks table's ids can go wrong. A Cursor body's task list is
/// written without an `id` column (its ids are the ones the titles give).
#[test]
fn schema_and_validate_agree_on_the_plan_model_of_every_test_plan() {
    let mut without_ids = 0;
    let mut checked = 0;
    // Invalid plans break rules across tasks (cycles, unknown references), which are
    // the validator's alone.
    for (name, d, tree) in test_plans()
        .into_iter()
        .filter(|p| !p.0.contains("invalid"))
    {
        let loaded = toon_plan::read(
            &tree.to_string(),
            &toon_plan::ReadOptions {
                dialect: Some(d),
                format: Some(Format::Json),
                ..Default::default()
            },
        );
        let Ok(loaded) = loaded else { continue };
        if loaded.plan.tasks.is_empty() {
            continue;
        }
        let Ok(text) = toon_plan::convert(
            &loaded.plan,
            DialectId::PLAN,
            &toon_plan::ConvertOptions {
                format: Some(Format::Json),
                ..Default::default()
            },
        )
        .map(|c| c.text) else {
            continue;
        };
        let model: Value = serde_json::from_str(&text).unwrap();
        let valid = assert_agree(DialectId::PLAN, &model, &name);
        if valid {
            checked += check_with_mutations(DialectId::PLAN, &model, &name);
        }
        let Some(rows) = model["tasks"].as_array().filter(|r| r[0].is_object()) else {
            continue;
        };
        if !valid {
            continue;
        }
        let mut mixed = model.clone();
        let first = mixed["tasks"][0].as_object_mut().unwrap();
        if rows[0].get("id").is_some() {
            first.shift_remove("id");
            if rows.len() > 1 {
                assert!(!assert_agree(
                    DialectId::PLAN,
                    &mixed,
                    &format!("{name}: one id removed")
                ));
            }
        } else {
            without_ids += 1;
            first.insert("id".into(), json!("given"));
            if rows.len() > 1 {
                assert!(!assert_agree(
                    DialectId::PLAN,
                    &mixed,
                    &format!("{name}: one id added")
                ));
            }
            let mut untitled = model.clone();
            untitled["tasks"][0]
                .as_object_mut()
                .unwrap()
                .shift_remove("title");
            assert!(!assert_agree(
                DialectId::PLAN,
                &untitled,
                &format!("{name}: a title removed")
            ));
        }
    }
    assert!(
        without_ids >= 2,
        "only {without_ids} plans without an id column"
    );
    assert!(checked > 500, "only {checked} plan-model documents checked");
}

/// The plan model's test plan in both forms: the flat form as written, and the nested
/// form (each task's lists and objects in its own row, as a plan whose ids repeat is
/// written).
fn plan_model_forms() -> [(&'static str, Value); 2] {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans/plan/valid/release.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let flat: Value = serde_json::from_str(&text).unwrap();
    let plan = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(&path)),
            ..Default::default()
        },
    )
    .unwrap()
    .plan;
    let nested = toon_plan::dialects::plan_model::to_nested_tree(&plan);
    assert!(nested["tasks"][2]["dependencies"].is_array(), "{nested}");
    assert!(nested.get("deps").is_none(), "{nested}");
    [("flat", flat), ("nested", nested)]
}

/// Values of the wrong kind in the plan model, each with the path `validate` reports it
/// at: the schema rejects each, and `validate` reports a `[schema]` error there.
#[test]
fn plan_model_values_of_the_wrong_kind_are_schema_errors_in_both_forms() {
    let mut checked = 0;
    for (form, doc) in plan_model_forms() {
        assert!(assert_agree(DialectId::PLAN, &doc, form), "{form}");
        checked += check_with_mutations(DialectId::PLAN, &doc, form);
        let mut cases: Vec<(&str, &str, Value)> = vec![
            ("/tasks/0/status", "tasks[0].status", json!(["done"])),
            ("/tasks/0/timeout_ms", "tasks[0].timeout_ms", json!("30 s")),
            ("/tasks/1/title", "tasks[1].title", json!(5)),
            ("/constraints", "constraints", json!("x")),
            ("/schema", "schema", json!("x")),
            (
                "/tasks/2/dependencies",
                "tasks[2].dependencies",
                json!(true),
            ),
            ("/tasks/2/dependencies", "tasks[2].dependencies", json!(-1)),
        ];
        if form == "flat" {
            // An id cell is a number or a string.
            cases.push(("/capabilities/0/task", "capabilities[0].task", json!(true)));
            cases.push(("/groups/0/id", "groups[0].id", json!(true)));
        } else {
            cases.push(("/tasks/2/dependencies/0", "tasks[2].dependencies", json!(5)));
            cases.push(("/tasks/2/extra", "tasks[2].extra", json!("x")));
        }
        for (pointer, path, bad) in cases {
            let mut t = doc.clone();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            match t.pointer_mut(parent) {
                Some(Value::Object(o)) => {
                    o.insert(key.into(), bad.clone());
                }
                Some(Value::Array(a)) => a[key.parse::<usize>().unwrap()] = bad.clone(),
                _ => panic!("{form}: no {parent}"),
            }
            let what = format!("{form}: {pointer} = {bad}");
            assert!(!assert_agree(DialectId::PLAN, &t, &what), "{what}");
            let problems = DialectId::PLAN
                .dialect()
                .validate(&Document::Tree(t.clone()));
            assert!(
                problems.iter().any(|p| p.is_error()
                    && p.rule == "schema"
                    && p.location.to_string().starts_with(path)),
                "{what}: {problems:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} documents checked");
}
