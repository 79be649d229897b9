//! The plan model's flat, table-friendly form: tasks and groups as rows of their scalar
//! fields, each list-valued field as its own two-column table, per-task objects in maps
//! keyed by id ([`to_flat_tree`]); and the reader of either form ([`from_tree`]).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use super::derivable::{
    give_title_ids, leave_out_body_tasks, leave_out_task_lines, leave_out_title_ids,
    restore_task_lines, take_body_tasks,
};
use super::keys::{EVERY_TASK_HAS, GROUP_LISTS, LIST_COLUMNS, PARAMS, TASK_EXTRA, TASK_LISTS};
use super::list_cells::id_text;
use super::local_ids;
use super::{extra_columns, group_cells, group_runs, list_cells};
use super::{table, to_nested_tree};
use crate::model::{Extra, Group, Plan, Task};
use crate::table::fields::Fields;
use crate::table::{Kind, Table};

fn unique_ids<'a>(ids: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = HashSet::new();
    ids.into_iter().all(|id| !id.is_empty() && seen.insert(id))
}

/// The flat, tabular tree written in every format (nested when ids repeat).
pub fn to_flat_tree(plan: &Plan) -> Value {
    if !unique_ids(plan.tasks.iter().map(|t| t.id.as_str()))
        || !unique_ids(plan.groups.iter().map(|g| g.id.as_str()))
    {
        return to_nested_tree(plan);
    }
    let nested = to_nested_tree(plan);
    let Value::Object(mut top) = nested else {
        return nested;
    };
    let tasks: Vec<Map<String, Value>> = plan.tasks.iter().map(task_object).collect();
    let groups: Vec<Map<String, Value>> = plan.groups.iter().map(group_object).collect();
    let mut out = Map::new();
    for (k, v) in top.iter_mut() {
        if !matches!(k.as_str(), "tasks" | "groups" | "extra" | "layout") {
            out.insert(k.clone(), std::mem::take(v));
        }
    }
    flatten(
        &mut out,
        groups,
        "groups",
        "group",
        &table::GROUP,
        GROUP_LISTS,
        "group_extra",
    );
    flatten(
        &mut out,
        tasks,
        "tasks",
        "task",
        &table::TASK,
        TASK_LISTS,
        TASK_EXTRA,
    );
    if out.get("tasks").is_none() {
        out.insert("tasks".into(), Value::Array(Vec::new()));
    }
    list_cells::lift(plan, &mut out, local_ids::applies(plan));
    if let Some(extra) = top.shift_remove("extra") {
        put_extra(&mut out, extra);
    }
    if let Some(v) = top.shift_remove("layout") {
        out.insert("layout".into(), v);
    }
    leave_out_task_lines(plan, &mut out);
    leave_out_body_tasks(plan, &mut out);
    if !local_ids::split(plan, &mut out) {
        extra_columns::lift(plan, &mut out);
        group_runs::leave_out_group_column(plan, &mut out);
        leave_out_title_ids(plan, &mut out);
    }
    group_cells::lift(plan, &mut out);
    Value::Object(out)
}

/// The plan's keys the model does not name (a Cursor front matter's own keys), at the
/// top of the document as their source wrote them, where the reader keeps any key it
/// does not know; under `extra` when one of them is a key the model names.
fn put_extra(out: &mut Map<String, Value>, extra: Value) {
    match extra {
        Value::Object(keys) if keys.keys().all(|k| table::PLAN.field(k).is_none()) => {
            out.extend(keys);
        }
        other => {
            out.insert("extra".into(), other);
        }
    }
}

fn task_object(t: &Task) -> Map<String, Value> {
    match serde_json::to_value(t) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

fn group_object(g: &Group) -> Map<String, Value> {
    match serde_json::to_value(g) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// Writes rows of scalar columns (the text and number fields of `row_table`), one edge table per list field, and the per-row
/// objects (`params`, extra) in maps keyed by id.
#[allow(clippy::too_many_arguments)]
fn flatten(
    out: &mut Map<String, Value>,
    rows: Vec<Map<String, Value>>,
    table: &str,
    owner: &str,
    row_table: &Table,
    lists: &[(&str, &str, &str)],
    extra_key: &str,
) {
    if rows.is_empty() {
        return;
    }
    let has = |k: &str| rows.iter().any(|r| r.contains_key(k));
    let some_empty = |f: &str| {
        rows.iter().any(|r| {
            r.get(f)
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty)
        })
    };
    // A list field every task has, some of them empty (a Task Master task's
    // `dependencies`), is named once in `every_task_has`: a task without edge rows has
    // an empty list.
    let every: Vec<&str> = lists
        .iter()
        .map(|(f, _, _)| *f)
        .filter(|f| owner == "task" && some_empty(f))
        .filter(|f| rows.iter().all(|r| r.get(*f).is_some_and(Value::is_array)))
        .collect();
    // A count column keeps `[]` apart from "not given" when some row has an empty list.
    let count_cols: Vec<&str> = lists
        .iter()
        .map(|(f, _, _)| *f)
        .filter(|f| some_empty(f) && !every.contains(f))
        .collect();
    if !every.is_empty() {
        let names = every.iter().map(|f| Value::String((*f).to_owned()));
        out.insert(EVERY_TASK_HAS.into(), Value::Array(names.collect()));
    }
    let mut cols: Vec<&str> = vec!["id"];
    // The scalar columns are the row table's text and number fields, in its order.
    let scalars = row_table
        .fields
        .iter()
        .filter(|f| f.key != "id" && matches!(f.kind, Kind::Str | Kind::Id | Kind::Number))
        .map(|f| f.key);
    cols.extend(scalars.filter(|k| has(k)));
    cols.extend(count_cols.iter().copied());
    let mut table_rows = Vec::with_capacity(rows.len());
    let mut edges: Vec<Vec<Value>> = vec![Vec::new(); lists.len()];
    let mut params = Map::new();
    let mut extras = Map::new();
    for r in &rows {
        let id = r.get("id").cloned().unwrap_or(Value::String(String::new()));
        let mut row = Map::new();
        for c in &cols {
            let v = match r.get(*c) {
                Some(Value::Array(a)) if count_cols.contains(c) => Value::from(a.len()),
                Some(v) => v.clone(),
                None => Value::Null,
            };
            row.insert((*c).to_owned(), v);
        }
        table_rows.push(Value::Object(row));
        for (i, (field, _, col)) in lists.iter().enumerate() {
            for item in r
                .get(*field)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let mut e = Map::new();
                e.insert(owner.to_owned(), id.clone());
                e.insert((*col).to_owned(), item.clone());
                edges[i].push(Value::Object(e));
            }
        }
        if let Some(p) = r.get("params")
            && let Some(id) = id.as_str()
        {
            params.insert(id.to_owned(), p.clone());
        }
        if let Some(x) = r.get("extra")
            && let Some(id) = id.as_str()
        {
            extras.insert(id.to_owned(), x.clone());
        }
    }
    out.insert(table.to_owned(), Value::Array(table_rows));
    for (i, (_, name, _)) in lists.iter().enumerate() {
        if !edges[i].is_empty() {
            out.insert(
                (*name).to_owned(),
                Value::Array(std::mem::take(&mut edges[i])),
            );
        }
    }
    if !params.is_empty() {
        out.insert(PARAMS.into(), Value::Object(params));
    }
    if !extras.is_empty() {
        out.insert(extra_key.to_owned(), Value::Object(extras));
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_owned)
}

fn number(v: Option<&Value>) -> Option<Number> {
    v.and_then(Value::as_number).cloned()
}

/// A list field: a list, or a count (filled from the edge table), or absent.
pub(super) fn list(v: Option<&Value>) -> Option<Vec<String>> {
    match v? {
        Value::Array(a) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        Value::Number(_) => Some(Vec::new()),
        _ => None,
    }
}

fn extra_of(v: Option<&Value>) -> Extra {
    match v {
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Extra::new(),
    }
}

/// The list field of a task that an edge table of [`TASK_LISTS`] fills.
fn list_slot<'a>(t: &'a mut Task, field: &str) -> Option<&'a mut Option<Vec<String>>> {
    Some(match field {
        "dependencies" => &mut t.dependencies,
        "tools" => &mut t.tools,
        "capabilities" => &mut t.capabilities,
        "requirements" => &mut t.requirements,
        "outputs" => &mut t.outputs,
        _ => return None,
    })
}

/// Reads either form (nested or flat) back into the model.
pub fn from_tree(obj: &Map<String, Value>) -> Plan {
    let joined = local_ids::join(obj);
    let obj = joined.as_ref().unwrap_or(obj);
    let mut f = Fields::new(obj);
    let _ = f.str("schema");
    let has_tasks = obj.contains_key("tasks");
    let mut plan = Plan {
        id: f.str("id"),
        title: f.str("title"),
        goal: f.str("goal"),
        success_criteria: f.str("success_criteria"),
        rollback: f.str("rollback"),
        constraints: f.strings("constraints"),
        metadata: f.object("metadata"),
        shared_inputs: f.value("shared_inputs"),
        execution: f.object("execution"),
        body: f.text("body"),
        ..Plan::default()
    };
    let edge_table = |f: &mut Fields<'_>, name: &'static str| f.array(name).cloned();
    let mut tables: HashMap<&str, Vec<Value>> = HashMap::new();
    for (_, name, _) in TASK_LISTS.iter().chain(GROUP_LISTS) {
        if let Some(rows) = edge_table(&mut f, name) {
            tables.insert(name, rows);
        }
    }
    let every_task_has = f.strings(EVERY_TASK_HAS).unwrap_or_default();
    let list_columns = f.strings(LIST_COLUMNS).unwrap_or_default();
    let declared = |k: &str| list_cells::declared(obj, k);
    let params = f.object(PARAMS).unwrap_or_default();
    let task_extra = f.object(TASK_EXTRA).unwrap_or_default();
    let group_extra = f.object("group_extra").unwrap_or_default();
    if let Some(groups) = f.array("groups") {
        plan.groups = groups
            .iter()
            .filter_map(Value::as_object)
            .map(|g| Group {
                id: id_text(g.get("id")).unwrap_or_default(),
                name: text(g.get("name")),
                description: text(g.get("description")),
                mode: text(g.get("mode")),
                dependencies: list_cells::read(g.get("dependencies"), declared("dependencies")),
                executor: text(g.get("executor")),
                tools: list(g.get("tools")),
                extra: extra_of(g.get("extra")),
            })
            .collect();
    }
    if let Some(tasks) = f.array("tasks") {
        plan.tasks = tasks
            .iter()
            .filter_map(Value::as_object)
            .map(|t| Task {
                id: id_text(t.get("id")).unwrap_or_default(),
                title: text(t.get("title")),
                description: text(t.get("description")),
                status: text(t.get("status")),
                dependencies: list_cells::read(t.get("dependencies"), declared("dependencies")),
                executor: text(t.get("executor")),
                tool: text(t.get("tool")),
                tools: list(t.get("tools")),
                action: text(t.get("action")),
                target: text(t.get("target")),
                params: t.get("params").filter(|v| !v.is_null()).cloned(),
                capabilities: list(t.get("capabilities")),
                kind: text(t.get("kind")),
                timeout_ms: number(t.get("timeout_ms")),
                retries: number(t.get("retries")),
                outputs: list(t.get("outputs")),
                expected_outcome: text(t.get("expected_outcome")),
                parallel_group: number(t.get("parallel_group")),
                group: id_text(t.get("group")),
                branch: text(t.get("branch")),
                parent: text(t.get("parent")),
                priority: text(t.get("priority")),
                details: text(t.get("details")),
                test_strategy: text(t.get("test_strategy")),
                requirements: list_cells::read(t.get("requirements"), declared("requirements")),
                extra: extra_columns::of_row(t, &list_columns)
                    .into_iter()
                    .chain(extra_of(t.get("extra")))
                    .collect(),
            })
            .collect();
        give_title_ids(tasks, &mut plan.tasks);
        if let Some(groups) = f.array("groups") {
            group_runs::give_groups(groups, &mut plan.tasks);
        }
    }
    // Flat form: fill lists from the edge tables and objects from the id maps.
    let task_index: HashMap<String, usize> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();
    for (field, name, col) in TASK_LISTS {
        for e in tables.get(name).into_iter().flatten() {
            let item = if *field == "dependencies" {
                id_text(e.get(*col))
            } else {
                text(e.get(*col))
            };
            let (Some(owner), Some(item)) = (id_text(e.get("task")), item) else {
                continue;
            };
            if let Some(&i) = task_index.get(&owner)
                && let Some(slot) = list_slot(&mut plan.tasks[i], field)
            {
                slot.get_or_insert_with(Vec::new).push(item);
            }
        }
    }
    for t in &mut plan.tasks {
        for field in &every_task_has {
            if let Some(slot) = list_slot(t, field) {
                slot.get_or_insert_with(Vec::new);
            }
        }
    }
    let group_index: HashMap<String, usize> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id.clone(), i))
        .collect();
    for (field, name, col) in GROUP_LISTS {
        for e in tables.get(name).into_iter().flatten() {
            let item = if *field == "dependencies" {
                id_text(e.get(*col))
            } else {
                text(e.get(*col))
            };
            let (Some(owner), Some(item)) = (id_text(e.get("group")), item) else {
                continue;
            };
            if let Some(&i) = group_index.get(&owner) {
                let g = &mut plan.groups[i];
                let slot = if *field == "dependencies" {
                    &mut g.dependencies
                } else {
                    &mut g.tools
                };
                slot.get_or_insert_with(Vec::new).push(item);
            }
        }
    }
    for (id, p) in params {
        if let Some(&i) = task_index.get(&id) {
            plan.tasks[i].params = Some(p);
        }
    }
    for (id, x) in task_extra {
        if let Some(&i) = task_index.get(&id) {
            // After the fields written as columns of its row.
            let extra = &mut plan.tasks[i].extra;
            for (k, v) in extra_of(Some(&x)) {
                extra.entry(k).or_insert(v);
            }
        }
    }
    for (id, x) in group_extra {
        if let Some(&i) = group_index.get(&id) {
            plan.groups[i].extra = extra_of(Some(&x));
        }
    }
    plan.extra = f.object("extra").unwrap_or_default();
    plan.layout.entries = f.object("layout").unwrap_or_default();
    // Keys the model does not know are kept rather than dropped.
    for (k, v) in f.extra() {
        plan.extra.entry(k).or_insert(v);
    }
    restore_task_lines(&mut plan);
    if !has_tasks {
        take_body_tasks(&mut plan);
    }
    plan
}
