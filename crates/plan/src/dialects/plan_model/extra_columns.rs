//! Extra fields that many tasks have (a third or more; a sixth for a flag), as columns of the tasks table rather than entries
//! of the `task_extra` map (which repeats each task's id and each key): a Task Master
//! file's `updatedAt`, `complexity`, `estimatedHours`. A column is any key the task
//! table does not name; its cell is the field's value, `null` where the task has none.
//! The reader puts a task's column values first in its extra fields, then the map's, so
//! a key becomes a column only where that keeps each task's order of extra fields.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::keys::TASK_EXTRA;
use super::table;
use crate::model::{Extra, Plan, Task};

/// Whether a value can be a cell: a string, number or boolean (`null` reads as absent).
fn is_cell(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// Whether `key` is a column the task table names (then it is not an extra field).
fn is_task_field(key: &str) -> bool {
    table::TASK.field(key).is_some()
}

/// The extra fields to write as columns, in column order: keys that at least a third of the
/// tasks have, or a sixth for a flag (a key that is `true` wherever a task has it, Kiro's
/// `optional`: its `null` cells cost less than its entries in the map), each always a
/// cell, ordered as the tasks order them (where they agree).
fn columns<'a>(tasks: &[&'a Task]) -> Vec<&'a str> {
    let n = tasks.len();
    let mut order: Vec<&str> = Vec::new();
    let mut count: Vec<usize> = Vec::new();
    let mut refused: HashSet<&str> = HashSet::new();
    let mut not_flags: HashSet<&str> = HashSet::new();
    for t in tasks {
        for (k, v) in &t.extra {
            if !is_cell(v) || is_task_field(k) {
                refused.insert(k.as_str());
            }
            if *v != Value::Bool(true) {
                not_flags.insert(k.as_str());
            }
            match order.iter().position(|o| o == k) {
                Some(i) => count[i] += 1,
                None => {
                    order.push(k.as_str());
                    count.push(1);
                }
            }
        }
    }
    let mut left: Vec<&str> = order
        .iter()
        .zip(&count)
        .filter(|(k, c)| {
            let share = if not_flags.contains(**k) { 3 } else { 6 };
            **c * share >= n && !refused.contains(**k)
        })
        .map(|(k, _)| *k)
        .collect();
    // `a` comes before `b` in some task.
    let mut before: HashSet<(&str, &str)> = HashSet::new();
    for t in tasks {
        let keys: Vec<&str> = t
            .extra
            .keys()
            .map(String::as_str)
            .filter(|k| left.contains(k))
            .collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                before.insert((a, b));
            }
        }
    }
    // The first key (in order of appearance) that no other key comes before, each time;
    // on a cycle the first key left (tasks that order them otherwise keep the map).
    let mut out = Vec::with_capacity(left.len());
    while !left.is_empty() {
        let free = left
            .iter()
            .position(|b| !left.iter().any(|a| a != b && before.contains(&(*a, *b))));
        out.push(left.remove(free.unwrap_or(0)));
    }
    out
}

/// Whether task `t`'s fields in `cols` come first among its extra fields, in column
/// order: then they are written as cells, else all its extra fields stay in the map.
fn fits(extra: &Extra, cols: &[&str]) -> bool {
    let mut last = None;
    let mut past = false;
    for k in extra.keys() {
        match cols.iter().position(|c| c == k) {
            Some(i) if !past && last.is_none_or(|l| i > l) => last = Some(i),
            Some(_) => return false,
            None => past = true,
        }
    }
    true
}

/// Moves the extra fields [`columns`] chooses from the `task_extra` map of a flat tree
/// (`out`, whose `tasks` rows are `plan`'s tasks in order) into columns of its rows.
pub(super) fn lift(plan: &Plan, out: &mut Map<String, Value>) {
    let tasks: Vec<&Task> = plan.tasks.iter().collect();
    lift_rows(&tasks, out, "tasks");
}

/// [`lift`] for the rows of one table of `out` (`table`: `tasks` or `subtasks`), which
/// are `tasks` in order.
pub(super) fn lift_rows(tasks: &[&Task], out: &mut Map<String, Value>, table: &str) {
    let cols = columns(tasks);
    if cols.is_empty() {
        return;
    }
    let Some(Value::Array(rows)) = out.get_mut(table) else {
        return;
    };
    if rows.len() != tasks.len() {
        return;
    }
    let mut lifted = HashSet::new();
    for (row, t) in rows.iter_mut().zip(tasks) {
        let fits = fits(&t.extra, &cols);
        if fits && !t.extra.is_empty() {
            lifted.insert(t.id.as_str());
        }
        if let Value::Object(row) = row {
            for c in &cols {
                let cell = t.extra.get(*c).filter(|_| fits);
                row.insert((*c).to_owned(), cell.cloned().unwrap_or(Value::Null));
            }
        }
    }
    if let Some(Value::Object(map)) = out.get_mut(TASK_EXTRA) {
        for (id, x) in map.iter_mut() {
            if let Value::Object(x) = x
                && lifted.contains(id.as_str())
            {
                for c in &cols {
                    x.shift_remove(*c);
                }
            }
        }
        map.retain(|_, x| x.as_object().is_none_or(|x| !x.is_empty()));
        if map.is_empty() {
            out.shift_remove(TASK_EXTRA);
        }
    }
}

/// A task row's extra fields written as columns: its keys the task table does not name,
/// those whose value is not `null`, in column order.
pub(super) fn of_row(row: &Map<String, Value>) -> Extra {
    row.iter()
        .filter(|(k, v)| !v.is_null() && !is_task_field(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::flat::{from_tree, to_flat_tree};
    use crate::model::{Group, Plan, Task};

    fn task(id: &str, group: &str, extra: serde_json::Value) -> Task {
        Task {
            group: Some(group.into()),
            extra: extra
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            ..Task::new(id)
        }
    }

    /// Extra fields most tasks have become cells; a task that orders them otherwise, and
    /// lists, stay in the map; the groups' sizes replace the `group` column; and the
    /// plan reads back the same, each task's extra fields in their order.
    #[test]
    fn extra_fields_as_columns_and_groups_as_runs_read_back_in_order() {
        let plan = Plan {
            groups: ["a", "b"]
                .map(|id| Group {
                    id: id.into(),
                    ..Group::default()
                })
                .into(),
            tasks: vec![
                task("1", "a", json!({"hours": 2, "phase": "x", "files": ["f"]})),
                task("2", "a", json!({"phase": "y", "hours": 3})),
                task("3", "b", json!({"hours": 1, "phase": "z"})),
                task("4", "b", json!({"note": "n"})),
            ],
            ..Plan::default()
        };
        let tree = to_flat_tree(&plan);
        let rows = tree["tasks"].as_array().unwrap();
        assert_eq!(rows[0]["hours"], json!(2));
        assert_eq!(rows[0]["phase"], json!("x"));
        assert_eq!(
            rows[1]["hours"],
            json!(null),
            "task 2 orders them otherwise"
        );
        assert!(rows.iter().all(|r| r.get("group").is_none()));
        assert_eq!(tree["groups"][0]["size"], json!(2));
        assert_eq!(tree["task_extra"]["2"], json!({"phase": "y", "hours": 3}));
        assert_eq!(tree["task_extra"]["1"], json!({"files": ["f"]}));
        let back = from_tree(tree.as_object().unwrap());
        assert_eq!(back, plan);
        for (a, b) in back.tasks.iter().zip(&plan.tasks) {
            assert!(a.extra.keys().eq(b.extra.keys()), "{}", a.id);
            assert_eq!(a.group, b.group);
        }
    }

    /// A flag (`true` wherever a task has it) a sixth of the tasks have is a column, its
    /// other cells `null`; a value as rare that is no flag stays in the map.
    #[test]
    fn a_flag_a_sixth_of_the_tasks_have_is_a_column() {
        let extra = |i: usize| match i {
            0 => json!({"optional": true}),
            1 => json!({"note": "n"}),
            _ => json!({}),
        };
        let plan = Plan {
            tasks: (0..6)
                .map(|i| task(&i.to_string(), "a", extra(i)))
                .collect(),
            ..Plan::default()
        };
        let tree = to_flat_tree(&plan);
        let rows = tree["tasks"].as_array().unwrap();
        assert_eq!(rows[0]["optional"], json!(true));
        assert_eq!(rows[5]["optional"], json!(null));
        assert!(rows.iter().all(|r| r.get("note").is_none()));
        assert_eq!(tree["task_extra"], json!({"1": {"note": "n"}}));
        assert_eq!(from_tree(tree.as_object().unwrap()), plan);
    }
}
