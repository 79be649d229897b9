//! Writing a plan's flat tree with local ids: the tasks and subtasks tables, the
//! dependency cells and edge tables, the group rows' counts and prefixes.

use serde_json::{Map, Value};

use super::shape::Shape;
use super::{DEPS, ID_PREFIX, SUBTASK_DEPS, SUBTASKS, TASK, digits};
use crate::dialects::plan_model::extra_columns;
use crate::dialects::plan_model::group_runs::SIZE;
use crate::dialects::plan_model::list_cells::{self, DEPENDENCIES, scalar as cell};
use crate::model::{Plan, Task, child_local};

/// Whether [`split`] writes `plan` with local ids.
pub(in crate::dialects::plan_model) fn applies(plan: &Plan) -> bool {
    Shape::of(plan).is_some()
}

/// Task `i`'s dependencies as its row's cell names them, when every one reads back
/// (see [`list_cells`]): a task's by id within its group; a subtask's siblings by
/// their number (plain digits), other tasks by id within the group (not plain digits).
fn dep_items<'a>(
    plan: &'a Plan,
    shape: &Shape<'_>,
    i: usize,
    deps: &'a [String],
) -> Option<Vec<&'a str>> {
    let mut items = Vec::with_capacity(deps.len());
    for d in deps {
        let item = match shape.parent[i] {
            Some(p) => match child_local(d, &plan.tasks[p].id).filter(|l| digits(l)) {
                Some(l) => l,
                None => shape.scoped_of(i, d).filter(|s| !digits(s))?,
            },
            None => shape.scoped_of(i, d)?,
        };
        if !list_cells::fits(item) {
            return None;
        }
        items.push(item);
    }
    Some(items)
}

/// Rewrites the flat tree `out` (whose `tasks` rows are `plan`'s tasks in order, extra
/// columns not yet lifted) with local ids, when the plan has subtasks named after their
/// task or groups that prefix their ids; then lifts extra columns per table. False (and
/// `out` untouched) otherwise.
pub(in crate::dialects::plan_model) fn split(plan: &Plan, out: &mut Map<String, Value>) -> bool {
    let Some(shape) = Shape::of(plan) else {
        return false;
    };
    let Some(Value::Array(rows)) = out.get_mut("tasks") else {
        return false;
    };
    if rows.len() != plan.tasks.len()
        || rows
            .iter()
            .any(|r| r.as_object().is_none_or(|r| !r.contains_key("id")))
    {
        return false;
    }
    // Each task's dependency cell; a task whose dependencies a cell cannot say has a
    // `null` cell and its rows in the edge tables.
    let items: Vec<Option<Option<Vec<&str>>>> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| Some(dep_items(plan, &shape, i, t.dependencies.as_deref()?)))
        .collect();
    let lists: Vec<Option<&[&str]>> = items
        .iter()
        .map(|l| l.as_ref().map(|l| l.as_deref().unwrap_or_default()))
        .collect();
    let cells = list_cells::some_item(&lists);
    let edge_row: Vec<bool> = items
        .iter()
        .map(|l| !cells || matches!(l, Some(None)))
        .collect();
    if cells {
        let numbers = list_cells::some_number(&lists);
        let mut c = list_cells::cells(&lists, numbers);
        for (cell, edges) in c.iter_mut().zip(&edge_row) {
            if *edges {
                *cell = Value::Null;
            }
        }
        list_cells::put(out, "tasks", DEPENDENCIES, c);
        if numbers {
            list_cells::declare(out, DEPENDENCIES);
        }
    }
    let Some(Value::Array(rows)) = out.get_mut("tasks") else {
        return false;
    };
    let rows = std::mem::take(rows);
    let keep_group = shape.run_of.is_none();
    let scoped = |i: usize| shape.scoped_of(i, &plan.tasks[i].id).unwrap_or_default();
    let mut top = Vec::new();
    let mut subs = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        let Value::Object(mut row) = row else {
            continue;
        };
        row.shift_remove("parent");
        if !keep_group || shape.parent[i].is_some() {
            row.shift_remove("group");
        }
        match shape.parent[i] {
            None => {
                row.insert("id".into(), cell(scoped(i)));
                top.push(Value::Object(row));
            }
            Some(p) => {
                let mut sub = Map::new();
                sub.insert(TASK.into(), cell(scoped(p)));
                sub.insert("id".into(), list_cells::decimal_scalar(shape.local[i]));
                row.shift_remove("id");
                sub.extend(row);
                subs.push(Value::Object(sub));
            }
        }
    }
    let (mut deps, mut sub_deps) = (Vec::new(), Vec::new());
    let mut counts = vec![[0usize; 4]; plan.groups.len()];
    for (i, t) in plan.tasks.iter().enumerate() {
        let group = shape.run_of.as_ref().map(|r| r[i]);
        let mut n_deps = 0;
        for d in t.dependencies.iter().flatten().filter(|_| edge_row[i]) {
            let on = shape.scoped_of(i, d).unwrap_or_default();
            let mut e = Map::new();
            match shape.parent[i] {
                None => {
                    e.insert(TASK.into(), cell(scoped(i)));
                    e.insert("on".into(), cell(on));
                    deps.push(Value::Object(e));
                    n_deps += 1;
                }
                Some(p) => {
                    let sibling = child_local(d, &plan.tasks[p].id)
                        .map(cell)
                        .filter(Value::is_number);
                    e.insert(TASK.into(), cell(scoped(p)));
                    e.insert("id".into(), list_cells::decimal_scalar(shape.local[i]));
                    e.insert("on".into(), sibling.unwrap_or_else(|| on.into()));
                    sub_deps.push(Value::Object(e));
                }
            }
        }
        if let Some(g) = group {
            let c = &mut counts[g];
            if shape.parent[i].is_none() {
                c[0] += 1;
                c[2] += n_deps;
            } else {
                c[1] += 1;
                c[3] += t
                    .dependencies
                    .as_ref()
                    .filter(|_| edge_row[i])
                    .map_or(0, Vec::len);
            }
        }
    }
    let edge_tables = !cells || !deps.is_empty() || !sub_deps.is_empty();
    // The tables where the flat form has its tasks and its deps.
    for (k, v) in std::mem::take(out) {
        match k.as_str() {
            "tasks" => {
                out.insert(k, Value::Array(std::mem::take(&mut top)));
                if !subs.is_empty() {
                    out.insert(SUBTASKS.into(), Value::Array(std::mem::take(&mut subs)));
                }
            }
            DEPS => {
                if !deps.is_empty() {
                    out.insert(k, Value::Array(std::mem::take(&mut deps)));
                }
                if !sub_deps.is_empty() {
                    out.insert(
                        SUBTASK_DEPS.into(),
                        Value::Array(std::mem::take(&mut sub_deps)),
                    );
                }
            }
            _ => {
                out.insert(k, v);
            }
        }
    }
    if shape.run_of.is_some()
        && let Some(Value::Array(groups)) = out.get_mut("groups")
    {
        let prefixed = shape.prefix.iter().any(Option::is_some);
        for (g, row) in groups.iter_mut().enumerate() {
            let Some(row) = row.as_object_mut() else {
                continue;
            };
            row.insert(SIZE.into(), Value::from(counts[g][0]));
            if prefixed {
                let tables = if edge_tables { 3 } else { 1 };
                let keys = [SUBTASKS, DEPS, SUBTASK_DEPS].into_iter().take(tables);
                for (k, n) in keys.zip(&counts[g][1..]) {
                    row.insert(k.into(), Value::from(*n));
                }
                let p = shape.prefix[g].clone().map_or(Value::Null, Value::String);
                row.insert(ID_PREFIX.into(), p);
            }
        }
    }
    let tops: Vec<&Task> = (0..plan.tasks.len())
        .filter(|&i| shape.parent[i].is_none())
        .map(|i| &plan.tasks[i])
        .collect();
    let kids: Vec<&Task> = (0..plan.tasks.len())
        .filter(|&i| shape.parent[i].is_some())
        .map(|i| &plan.tasks[i])
        .collect();
    let lists = extra_columns::list_keys(&plan.tasks);
    extra_columns::lift_rows(&tops, out, "tasks", &lists);
    extra_columns::lift_rows(&kids, out, SUBTASKS, &lists);
    for table in ["tasks", SUBTASKS] {
        drop_empty_columns(out, table);
    }
    true
}

/// Leaves out of table `table` the columns that are `null` in every row (a subtask's
/// `priority`): a missing cell reads as `null`.
fn drop_empty_columns(out: &mut Map<String, Value>, table: &str) {
    let Some(Value::Array(rows)) = out.get_mut(table) else {
        return;
    };
    let Some(first) = rows.first().and_then(Value::as_object) else {
        return;
    };
    let empty: Vec<String> = first
        .keys()
        .filter(|k| !matches!(k.as_str(), "id" | TASK))
        .filter(|k| {
            rows.iter()
                .all(|r| r.get(k.as_str()).is_none_or(Value::is_null))
        })
        .cloned()
        .collect();
    for row in rows.iter_mut().filter_map(Value::as_object_mut) {
        for k in &empty {
            row.shift_remove(k);
        }
    }
}
