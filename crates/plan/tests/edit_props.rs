//! Editing a plan through the plan model: every Cursor test plan whose tasks are its
//! body's task list, written as the plan model, one task changed, added, deleted or
//! two swapped in its `tasks` table, and written back as Cursor markdown, keeps every
//! task in the body's list (none moves to front-matter `todos`), every other line of
//! the body as it was, and every task it did not touch in the same order and form.

use std::path::PathBuf;

use proptest::prelude::*;
use serde_json::{Value, json};
use toon_plan::{DialectId, Format, Plan};

fn body_task_plans() -> Vec<(String, String, Plan)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans/cursor");
    let mut out = Vec::new();
    for dir in ["valid", "messy"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            let loaded = toon_plan::read(&text, &toon_plan::ReadOptions::default()).unwrap();
            let listed = text.lines().any(is_task_line);
            // Plans whose tasks the model's table holds (a body that says its tasks in
            // lines of its own style keeps them, and has no table to edit).
            let tabled = model_tree(&loaded.plan).get("tasks").is_some();
            if loaded.plan.layout.contains("cursor.body_tasks") && listed && tabled {
                out.push((p.display().to_string(), text, loaded.plan));
            }
        }
    }
    out
}

fn model_tree(plan: &Plan) -> Value {
    let model = toon_plan::convert(
        plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .unwrap();
    serde_json::from_str(&model.text).unwrap()
}

/// The Cursor markdown of a plan-model tree.
fn to_cursor(tree: &Value) -> String {
    let edited = toon_plan::read(
        &tree.to_string(),
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::PLAN),
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .unwrap()
    .plan;
    toon_plan::convert(
        &edited,
        DialectId::CURSOR,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap()
    .text
}

/// The task lines of each `##` section of a markdown text, by section heading.
fn sections(md: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            out.push((h.to_owned(), Vec::new()));
        } else if is_task_line(line)
            && let Some((_, lines)) = out.last_mut()
        {
            lines.push(line.to_owned());
        }
    }
    out
}

const PHASED: &str = "../../testdata/plans/cursor/valid/phased-checklist.plan.md";

/// A plan whose task lists sit in three sections, between headings and text (the
/// layout's task-line runs): deleting, adding or renaming a task in the table leaves
/// every other task in its section, and a nested task renamed through its title stays
/// nested.
#[test]
fn edits_to_interleaved_task_lists_keep_each_task_in_its_section() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(PHASED);
    let text = std::fs::read_to_string(path).unwrap();
    let plan = toon_plan::read(&text, &toon_plan::ReadOptions::default())
        .unwrap()
        .plan;
    let tree = model_tree(&plan);
    assert!(tree["layout"].get("cursor.task_lines").is_some(), "{tree}");
    assert_eq!(to_cursor(&tree), text);
    let before = sections(&text);
    let title_at = |tree: &Value, k: usize| tree["tasks"][k]["title"].as_str().unwrap().to_owned();
    for k in 0..plan.tasks.len() {
        // Deleted: the others keep their sections.
        let mut t = tree.clone();
        let gone = title_at(&t, k);
        t["tasks"].as_array_mut().unwrap().remove(k);
        let md = to_cursor(&t);
        let want: Vec<(String, Vec<String>)> = before
            .iter()
            .map(|(h, lines)| {
                let kept = lines.iter().filter(|l| !l.contains(&gone)).cloned();
                (h.clone(), kept.collect())
            })
            .collect();
        assert_eq!(sections(&md), want, "deleted {gone}:\n{md}");
        // Renamed through its title: same line, same indentation, new title.
        let mut t = tree.clone();
        let was = title_at(&t, k);
        t["tasks"][k]["title"] = json!("Renamed task");
        let md = to_cursor(&t);
        let want: Vec<(String, Vec<String>)> = before
            .iter()
            .map(|(h, lines)| {
                let renamed = lines.iter().map(|l| l.replace(&was, "Renamed task"));
                (h.clone(), renamed.collect())
            })
            .collect();
        assert_eq!(sections(&md), want, "renamed {was}:\n{md}");
    }
    // Added after the first task of the second section: it joins that section.
    let mut t = tree.clone();
    let mut row = t["tasks"][3].clone();
    row["title"] = json!("Added task");
    row["description"] = Value::Null;
    t["tasks"].as_array_mut().unwrap().insert(4, row);
    let md = to_cursor(&t);
    let mut want = before.clone();
    want[1].1.insert(1, "- [ ] Added task".to_owned());
    assert_eq!(sections(&md), want, "{md}");
}

fn is_task_line(line: &str) -> bool {
    let l = line.trim_start();
    l.starts_with("- [ ]") || l.starts_with("- [x]") || l.starts_with("- [X]")
}

#[derive(Clone, Debug)]
enum Edit {
    Change(usize),
    Add(usize),
    Delete(usize),
    Swap(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Change),
        any::<usize>().prop_map(Edit::Add),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
    ]
}

/// Applies the edit to the rows of the model's `tasks` table; returns the titles of
/// the rows it touched.
fn apply(rows: &mut Vec<Value>, edit: &Edit) -> Vec<String> {
    let n = rows.len();
    let title = |r: &Value| r["title"].as_str().unwrap_or("").to_owned();
    match *edit {
        Edit::Change(k) => {
            let r = &mut rows[k % n];
            let was = title(r);
            r["title"] = json!("Edited task");
            vec![was, "Edited task".into()]
        }
        Edit::Add(k) => {
            let mut row = rows[0].clone();
            for v in row.as_object_mut().unwrap().values_mut() {
                *v = Value::Null;
            }
            row["title"] = json!("Added task");
            row["status"] = json!("pending");
            if row.get("id").is_some() {
                row["id"] = json!("added-task");
            }
            rows.insert(k % (n + 1), row);
            vec!["Added task".into()]
        }
        Edit::Delete(k) => vec![title(&rows.remove(k % n))],
        Edit::Swap(a, b) => {
            let (a, b) = (a % n, b % n);
            rows.swap(a, b);
            vec![title(&rows[a]), title(&rows[b])]
        }
    }
}

fn task_titles(plan: &Plan) -> Vec<String> {
    plan.tasks
        .iter()
        .map(|t| t.title.clone().unwrap_or_default())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn an_edited_task_table_keeps_the_other_tasks_where_they_were(pick in any::<usize>(), e in edit()) {
        let plans = body_task_plans();
        prop_assert!(plans.len() >= 2, "test plans with body task lists");
        let (name, text, plan) = &plans[pick % plans.len()];
        let model = toon_plan::convert(plan, DialectId::PLAN, &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        }).unwrap();
        let mut tree: Value = serde_json::from_str(&model.text).unwrap();
        let touched = apply(tree["tasks"].as_array_mut().unwrap(), &e);
        let edited = toon_plan::read(&tree.to_string(), &toon_plan::ReadOptions {
            dialect: Some(DialectId::PLAN),
            format: Some(Format::Json),
            ..Default::default()
        }).unwrap().plan;
        let md = toon_plan::convert(&edited, DialectId::CURSOR, &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        }).unwrap().text;
        // Every task is in the body's list, in the table's order; none in `todos`.
        let back = toon_plan::read(&md, &toon_plan::ReadOptions::default()).unwrap().plan;
        prop_assert!(!back.extra.contains_key("todos") && back.layout.contains("cursor.body_tasks"),
            "{name} {e:?}: tasks left the body:\n{md}");
        prop_assert_eq!(task_titles(&back), task_titles(&edited), "{} {:?}:\n{}", name, e, md);
        // The lines that are not tasks are the source's, in order.
        let others = |t: &str| t.lines().filter(|l| !is_task_line(l)).map(str::to_owned).collect::<Vec<_>>();
        prop_assert_eq!(others(&md), others(text), "{} {:?}", name, e);
        // The tasks it did not touch keep their lines, in order.
        let untouched = |t: &str| t.lines().filter(|l| is_task_line(l)
            && !touched.iter().any(|w| !w.is_empty() && l.contains(w.as_str())))
            .map(str::to_owned).collect::<Vec<_>>();
        prop_assert_eq!(untouched(&md), untouched(text), "{} {:?}:\n{}", name, e, md);
    }
}
