//! Cursor front matter ↔ the plan model: `name`, `overview`, `todos[id, content,
//! status, dependencies]`, other keys kept in order; the canonical rendering; and
//! where each todo sits in the file, for located problems.

use serde_json::{Map, Value};

use crate::fidelity::toon_numbers;
use crate::model::{Plan, Task};
use crate::problem::{Location, Problem};
use crate::syntax::yaml;
use crate::table::fields;

use super::{NAME, OVERVIEW, TODO, TODOS, named_key, tolerant};
use crate::table::{TaskField, To, slot};

/// Front matter as read: the mapping, and a warning when it needed tolerance.
pub struct Parsed {
    /// The keys and values.
    pub map: Map<String, Value>,
    /// Warnings (front matter that is not valid YAML, or not a mapping).
    pub warnings: Vec<Problem>,
}

/// Reads front matter YAML: strictly when it is valid, else tolerantly with a warning.
/// `first_line` is the file line the YAML starts on.
pub fn parse(yaml_text: &str, first_line: usize) -> Parsed {
    match yaml::parse(yaml_text) {
        Ok(Value::Object(map)) => Parsed {
            map,
            warnings: Vec::new(),
        },
        Ok(Value::Null) => Parsed {
            map: Map::new(),
            warnings: Vec::new(),
        },
        Ok(_) => Parsed {
            map: tolerant::parse(yaml_text),
            warnings: vec![Problem::warning(
                "front-matter",
                Location::Line(first_line),
                "front matter is not a YAML mapping; read tolerantly",
            )],
        },
        Err(e) => {
            let line = match e.location {
                Location::Line(l) => first_line + l.saturating_sub(1),
                _ => first_line,
            };
            Parsed {
                map: tolerant::parse(yaml_text),
                warnings: vec![Problem::warning(
                    "front-matter",
                    Location::Line(line),
                    format!(
                        "front matter is not valid YAML ({}); read tolerantly, text kept as written",
                        e.message.trim_start_matches("invalid YAML: ")
                    ),
                )],
            }
        }
    }
}

/// Text of a value that should be text: lists (a `name` written as a YAML list) are
/// joined with `, `; other non-strings are written as JSON.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(text_of)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        other => Some(other.to_string()),
    }
}

fn strings_of(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Null => None,
        Value::Array(items) => Some(items.iter().filter_map(text_of).collect()),
        other => text_of(other).map(|s| vec![s]),
    }
}

/// The front matter key Cursor writes beside `name`, `overview` and `todos` in the
/// plans it generates.
const CURSOR_OWN_KEY: &str = "isProject";

/// Fills a plan's title, goal, tasks and extra from front matter.
pub fn to_plan(map: &Map<String, Value>, plan: &mut Plan) {
    plan.title = map.get(NAME).and_then(text_of);
    plan.goal = map.get(OVERVIEW).and_then(text_of);
    if let Some(Value::Array(todos)) = map.get(TODOS) {
        plan.tasks = todos.iter().map(todo_to_task).collect();
    }
    for (k, v) in map {
        if !named_key(k) {
            plan.extra.insert(k.clone(), v.clone());
        }
    }
    if let Some(v) = map.get(TODOS)
        && !v.is_array()
        && !v.is_null()
    {
        plan.extra.insert(TODOS.into(), v.clone());
    }
}

fn todo_to_task(item: &Value) -> Task {
    let Some(o) = item.as_object() else {
        return fields::opaque_task(item);
    };
    let text = |f: TaskField| o.get(TODO.key_of(To::Task(f))).and_then(text_of);
    let mut t = Task {
        id: text(TaskField::Id).unwrap_or_default(),
        description: text(TaskField::Description),
        status: text(TaskField::Status),
        dependencies: o
            .get(TODO.key_of(To::Task(TaskField::Dependencies)))
            .and_then(strings_of),
        ..Task::default()
    };
    for (k, v) in o {
        if TODO.field(k).is_none() {
            t.extra.insert(k.clone(), v.clone());
        }
    }
    t
}

/// Whether a plan has anything that belongs in front matter.
pub fn needs_front_matter(plan: &Plan) -> bool {
    plan.title.is_some() || plan.goal.is_some() || !plan.tasks.is_empty() || !plan.extra.is_empty()
}

/// The canonical front matter mapping of a plan: name, overview, todos, then the
/// other keys in order.
pub fn from_plan(plan: &Plan) -> Map<String, Value> {
    let mut m = Map::new();
    if let Some(t) = &plan.title {
        m.insert(NAME.into(), Value::String(t.clone()));
    }
    if let Some(g) = &plan.goal {
        m.insert(OVERVIEW.into(), Value::String(g.clone()));
    }
    // `todos` lists the tasks. A front matter whose tasks are the body's (the front
    // plan has none) has no `todos` line unless Cursor wrote it (`isProject`, a key of
    // Cursor's own, is there: Cursor writes `todos: []`); a plan without tasks
    // otherwise has `todos: []`; none when `extra` holds a `todos` that is not a list.
    let tasks_in_body = plan.layout.entries.get(super::BODY_TASKS) == Some(&Value::Bool(true));
    let write_todos = !plan.tasks.is_empty()
        || (plan.extra.get(TODOS).is_none()
            && (!tasks_in_body || plan.extra.contains_key(CURSOR_OWN_KEY)));
    if write_todos {
        m.insert(TODOS.into(), slot::write_tasks(&TODO, &plan.tasks));
    }
    for (k, v) in &plan.extra {
        if !m.contains_key(k) {
            m.insert(k.clone(), v.clone());
        }
    }
    m
}

/// Layout key: the front matter's keys in the order the file writes them, where that
/// is not the canonical order (`name`, `overview`, `todos`, then the other keys as
/// read): the canonical head writes them in this order, so a key written elsewhere
/// costs its name here rather than its line again in a text patch.
pub const KEY_ORDER: &str = "cursor.key_order";

/// The written order of the keys of the canonical front matter of `front`, when it is
/// not their canonical order: the keys of `written` that the canonical front matter
/// has, in their written order.
pub fn key_order(written: &[String], front: &Plan) -> Option<Value> {
    let canonical = from_plan(front);
    let order: Vec<&String> = written
        .iter()
        .filter(|k| canonical.contains_key(k.as_str()))
        .collect();
    let same = canonical
        .keys()
        .filter(|k| order.contains(k))
        .eq(order.iter().copied());
    (!same).then(|| Value::Array(order.into_iter().map(|k| Value::from(k.as_str())).collect()))
}

/// `map` with the keys `order` names first, in that order, then the others as they were.
fn in_order(mut map: Map<String, Value>, order: &[Value]) -> Map<String, Value> {
    let mut out = Map::new();
    for key in order.iter().filter_map(Value::as_str) {
        if let Some(v) = map.shift_remove(key) {
            out.insert(key.to_owned(), v);
        }
    }
    out.extend(map);
    out
}

/// The canonical head: `---`, the YAML, `---`. Numbers are written in the form
/// plan-model TOON gives them back ([`toon_numbers`]: `3.0` as `3`), so a plan has one
/// canonical head before and after a trip through TOON, and a head patch taken from it
/// holds for both.
pub fn render_head(plan: &Plan) -> String {
    if !needs_front_matter(plan) {
        return String::new();
    }
    let mut facts = from_plan(plan);
    if let Some(Value::Array(order)) = plan.layout.entries.get(KEY_ORDER) {
        facts = in_order(facts, order);
    }
    let mut facts = Value::Object(facts);
    toon_numbers::value(&mut facts);
    let mut s = String::from("---\n");
    s.push_str(&yaml::to_string(&facts));
    s.push_str("---\n");
    s
}

/// `(path, line)` for the keys and todos of front matter, for located problems.
pub fn lines(yaml_text: &str, first_line: usize) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut in_todos = false;
    let mut item_indent: Option<usize> = None;
    let mut index: Option<usize> = None;
    for (n, raw) in yaml_text.lines().enumerate() {
        let line = first_line + n;
        let text = raw.trim_end();
        if text.trim().is_empty() || text.trim_start().starts_with('#') {
            continue;
        }
        let indent = text.len() - text.trim_start().len();
        let t = text.trim_start();
        if indent == 0 && !t.starts_with('-') {
            let key = t
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\'']);
            in_todos = key == TODOS;
            item_indent = None;
            out.push((key.to_owned(), line));
            continue;
        }
        if !in_todos {
            continue;
        }
        let is_item = t == "-" || t.starts_with("- ");
        if is_item && item_indent.is_none_or(|i| i == indent) {
            item_indent = Some(indent);
            let i = index.map_or(0, |i| i + 1);
            index = Some(i);
            out.push((format!("todos[{i}]"), line));
            let after = t[1..].trim_start();
            if let Some(k) = after.split(':').next().filter(|_| after.contains(':')) {
                out.push((format!("todos[{i}].{}", k.trim()), line));
            }
        } else if let Some(i) = index
            && let Some(k) = t.split(':').next().filter(|_| t.contains(':') && !is_item)
        {
            out.push((format!("todos[{i}].{}", k.trim()), line));
        }
    }
    out
}
