//! Tasks that come in runs, one per group in the groups table's order (a Task Master
//! file's tags): each group row gives the number of its tasks (`size`) and the tasks
//! table leaves out its `group` column, which would repeat the group on every row.

use serde_json::{Map, Value};

use super::list_cells::id_text;
use crate::model::{Plan, Task};

/// The column of a group row that holds the number of its tasks.
pub(super) const SIZE: &str = "size";

/// The number of tasks of each group, when every task belongs to one of the plan's
/// groups and the tasks come in one run per group, in the groups' order.
fn sizes(plan: &Plan) -> Option<Vec<usize>> {
    let mut sizes = vec![0usize; plan.groups.len()];
    let mut at = 0;
    for t in &plan.tasks {
        let g = t.group.as_deref()?;
        while plan.groups.get(at)?.id != g {
            at += 1;
        }
        sizes[at] += 1;
    }
    Some(sizes)
}

/// Writes the group of each task as the size of its group's run, when the tasks come in
/// runs ([`sizes`]) and the flat tree `out` has a row for each group and each task.
pub(super) fn leave_out_group_column(plan: &Plan, out: &mut Map<String, Value>) {
    let Some(sizes) = sizes(plan).filter(|_| !plan.tasks.is_empty()) else {
        return;
    };
    let rows_of = |out: &Map<String, Value>, key: &str| match out.get(key) {
        Some(Value::Array(rows)) => rows.len(),
        _ => 0,
    };
    if rows_of(out, "groups") != sizes.len() || rows_of(out, "tasks") != plan.tasks.len() {
        return;
    }
    if let Some(Value::Array(rows)) = out.get_mut("groups") {
        for (row, n) in rows.iter_mut().zip(&sizes) {
            if let Value::Object(row) = row {
                row.insert(SIZE.into(), Value::from(*n));
            }
        }
    }
    if let Some(Value::Array(rows)) = out.get_mut("tasks") {
        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
            row.shift_remove("group");
        }
    }
}

/// The inverse of [`leave_out_group_column`]: when no task has a group and the group
/// rows' sizes add up to the number of tasks, each run of tasks gets its group.
pub(super) fn give_groups(group_rows: &[Value], tasks: &mut [Task]) {
    if tasks.iter().any(|t| t.group.is_some()) {
        return;
    }
    let runs: Option<Vec<(String, usize)>> = group_rows
        .iter()
        .map(|g| {
            let id = id_text(g.get("id"))?;
            let n = usize::try_from(g.get(SIZE)?.as_u64()?).ok()?;
            Some((id, n))
        })
        .collect();
    let Some(runs) = runs.filter(|r| !r.is_empty()) else {
        return;
    };
    if runs.iter().try_fold(0usize, |s, (_, n)| s.checked_add(*n)) != Some(tasks.len()) {
        return;
    }
    let mut rest = tasks.iter_mut();
    for (id, n) in runs {
        for t in rest.by_ref().take(n) {
            t.group = Some(id.clone());
        }
    }
}
