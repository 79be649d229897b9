//! Reading a flat tree written with local ids back as the flat tree with whole ids.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{DEPS, ID_PREFIX, SUBTASK_DEPS, SUBTASKS, TASK, dfs_order, digits};
use crate::dialects::plan_model::group_runs::SIZE;
use crate::dialects::plan_model::list_cells::{self, DEPENDENCIES, id_text};
use crate::model::child_id;

/// One group's runs: its id, the prefix of its ids, and the number of its rows in the
/// tasks, subtasks, deps and subtask deps tables.
struct Run {
    id: String,
    prefix: String,
    counts: [Option<usize>; 4],
}

/// The group (index into `runs`) of each of `n` rows of the table whose counts are
/// `runs[_].counts[k]`, when they add up to `n`.
fn rows_groups(runs: &[Run], k: usize, n: usize) -> Option<Vec<usize>> {
    let mut out = Vec::with_capacity(n);
    for (g, r) in runs.iter().enumerate() {
        let c = r.counts[k]?;
        if c > n - out.len() {
            return None;
        }
        out.extend(std::iter::repeat_n(g, c));
    }
    (out.len() == n).then_some(out)
}

/// The inverse of [`split`](super::split): a flat tree with a subtasks table or id prefixes as the
/// flat tree with whole ids (tasks in one table with their `parent` and `group`, one
/// `deps` table), which the reader reads; `None` when `obj` has neither.
pub(in crate::dialects::plan_model) fn join(
    obj: &Map<String, Value>,
) -> Option<Map<String, Value>> {
    let group_rows: Vec<&Map<String, Value>> = match obj.get("groups") {
        Some(Value::Array(g)) => g.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    let local = obj.contains_key(SUBTASKS)
        || obj.contains_key(SUBTASK_DEPS)
        || group_rows.iter().any(|g| g.contains_key(ID_PREFIX));
    if !local {
        return None;
    }
    let declared = list_cells::declared(obj, DEPENDENCIES);
    let count = |g: &Map<String, Value>, k: &str| {
        g.get(k)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    let runs: Vec<Run> = group_rows
        .iter()
        .map(|g| Run {
            id: id_text(g.get("id")).unwrap_or_default(),
            prefix: g
                .get(ID_PREFIX)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            counts: [SIZE, SUBTASKS, DEPS, SUBTASK_DEPS].map(|k| count(g, k)),
        })
        .collect();
    let table = |k: &str| -> Vec<&Map<String, Value>> {
        match obj.get(k) {
            Some(Value::Array(rows)) => rows.iter().filter_map(Value::as_object).collect(),
            _ => Vec::new(),
        }
    };
    let (top, subs, deps, sub_deps) = (
        table("tasks"),
        table(SUBTASKS),
        table(DEPS),
        table(SUBTASK_DEPS),
    );
    let groups_of = |k: usize, n: usize| rows_groups(&runs, k, n);
    let top_groups = groups_of(0, top.len());
    let prefix = |groups: &Option<Vec<usize>>, i: usize| {
        groups.as_ref().map_or("", |g| runs[g[i]].prefix.as_str())
    };
    let text = |v: Option<&Value>| id_text(v).unwrap_or_default();
    // Each row with its whole id, group and parent; subtasks after their task.
    let mut rows: Vec<Map<String, Value>> = Vec::new();
    let mut group: Vec<Option<String>> = Vec::new();
    for (i, r) in top.iter().enumerate() {
        let mut row = (*r).clone();
        let p = prefix(&top_groups, i);
        if let Some(on) = cell_ids(r, declared, |item| format!("{p}{item}")) {
            row.insert(DEPENDENCIES.into(), on);
        }
        let id = format!("{p}{}", text(r.get("id")));
        row.insert("id".into(), Value::String(id));
        let g = match &top_groups {
            Some(g) => Some(runs[g[i]].id.clone()),
            None => id_text(r.get("group")),
        };
        if let Some(g) = &g {
            row.insert("group".into(), Value::String(g.clone()));
        }
        rows.push(row);
        group.push(g);
    }
    let sub_groups = groups_of(1, subs.len());
    let first_sub = rows.len();
    let mut parent_of = Vec::with_capacity(subs.len());
    for (i, r) in subs.iter().enumerate() {
        let parent = format!("{}{}", prefix(&sub_groups, i), text(r.get(TASK)));
        let mut row = Map::new();
        row.insert(
            "id".into(),
            Value::String(child_id(&parent, &text(r.get("id")))),
        );
        row.extend(
            r.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "id" | TASK))
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        let p = prefix(&sub_groups, i);
        let on = |item: &str| match digits(item) {
            true => child_id(&parent, item),
            false => format!("{p}{item}"),
        };
        if let Some(on) = cell_ids(r, declared, on) {
            row.insert(DEPENDENCIES.into(), on);
        }
        row.insert("parent".into(), Value::String(parent.clone()));
        rows.push(row);
        group.push(sub_groups.as_ref().map(|g| runs[g[i]].id.clone()));
        parent_of.push(parent);
    }
    // Task order: each task, then its subtasks depth first; the rest after.
    let index: HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(i, r)| Some((r.get("id")?.as_str()?.to_owned(), i)))
        .collect();
    let mut parent: Vec<Option<usize>> = vec![None; rows.len()];
    for (k, p) in parent_of.iter().enumerate() {
        let i = first_sub + k;
        parent[i] = index.get(p).copied().filter(|&j| j != i);
    }
    let mut order = dfs_order(&parent);
    if order.len() < rows.len() {
        let mut seen = vec![false; rows.len()];
        for &i in &order {
            seen[i] = true;
        }
        order.extend((0..rows.len()).filter(|&i| !seen[i]));
    }
    for &i in &order {
        if group[i].is_none()
            && let Some(p) = parent[i]
        {
            group[i] = group[p].clone();
        }
    }
    let tasks: Vec<Value> = order
        .iter()
        .map(|&i| {
            let mut row = rows[i].clone();
            if let Some(g) = &group[i] {
                row.insert("group".into(), Value::String(g.clone()));
            }
            Value::Object(row)
        })
        .collect();
    let mut edges = Vec::with_capacity(deps.len() + sub_deps.len());
    let dep_groups = groups_of(2, deps.len());
    for (i, e) in deps.iter().enumerate() {
        let p = prefix(&dep_groups, i);
        edges.push(edge(
            format!("{p}{}", text(e.get(TASK))),
            format!("{p}{}", text(e.get("on"))),
        ));
    }
    let sub_dep_groups = groups_of(3, sub_deps.len());
    for (i, e) in sub_deps.iter().enumerate() {
        let p = prefix(&sub_dep_groups, i);
        let task = format!("{p}{}", text(e.get(TASK)));
        let on = match e.get("on") {
            Some(Value::Number(n)) => child_id(&task, &n.to_string()),
            v => format!("{p}{}", text(v)),
        };
        edges.push(edge(child_id(&task, &text(e.get("id"))), on));
    }
    let mut out = Map::new();
    for (k, v) in obj {
        match k.as_str() {
            "tasks" => {
                out.insert(k.clone(), Value::Array(tasks.clone()));
            }
            SUBTASKS | SUBTASK_DEPS => {}
            DEPS => {
                out.insert(k.clone(), Value::Array(std::mem::take(&mut edges)));
            }
            "groups" => {
                let plain = group_rows.iter().map(|g| {
                    let mut g = (*g).clone();
                    for key in [SIZE, SUBTASKS, DEPS, SUBTASK_DEPS, ID_PREFIX] {
                        g.shift_remove(key);
                    }
                    Value::Object(g)
                });
                out.insert(k.clone(), Value::Array(plain.collect()));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    if !edges.is_empty() {
        out.insert(DEPS.into(), Value::Array(edges));
    }
    Some(out)
}

/// A row's dependency cell as the list of whole ids `whole` makes of its items.
/// (A number is a cell only where the document declares the column a list; else it is
/// a count of edge rows.)
fn cell_ids(
    row: &Map<String, Value>,
    declared: bool,
    whole: impl Fn(&str) -> String,
) -> Option<Value> {
    let cell = row.get(DEPENDENCIES)?;
    if !(cell.is_string() || declared && cell.is_number()) {
        return None;
    }
    let items = list_cells::read(Some(cell), declared)?;
    Some(items.iter().map(|i| Value::String(whole(i))).collect())
}

/// A `deps` row: task `task` waits for `on`.
fn edge(task: String, on: String) -> Value {
    let mut e = Map::new();
    e.insert(TASK.into(), Value::String(task));
    e.insert("on".into(), Value::String(on));
    Value::Object(e)
}
