//! What the flat form leaves out because it can be derived back: the `id` column of a
//! tasks table whose ids are the ones their titles give, the task lines of a Cursor
//! body that the tasks table writes back exactly, and the tasks table itself when the
//! body gives every task as it is (task lines written in their own style, numbered
//! headings).

use serde_json::{Map, Value};

use super::keys::{PARAMS, TASK_EXTRA, TASK_LISTS};
use crate::model::{Plan, Task, ids_from_titles};
use crate::syntax::body_tasks::{self, BODY_TASKS};

/// Whether `out` writes a table or map that names tasks by id (an edge table of
/// [`TASK_LISTS`], [`PARAMS`], [`TASK_EXTRA`]): then the tasks table keeps its `id`
/// column, so a reader sees the ids they refer to.
pub(super) fn names_tasks_by_id(out: &Map<String, Value>) -> bool {
    TASK_LISTS
        .iter()
        .map(|(_, table, _)| *table)
        .chain([PARAMS, TASK_EXTRA])
        .any(|k| out.contains_key(k))
}

/// A tasks table whose ids are exactly the ones their titles give
/// ([`ids_from_titles`]), and that nothing else refers to, is written without its `id`
/// column: [`from_tree`] gives them back.
pub(super) fn leave_out_title_ids(plan: &Plan, out: &mut Map<String, Value>) {
    if plan.tasks.is_empty()
        || names_tasks_by_id(out)
        || plan.tasks.iter().any(|t| t.title.is_none())
        || ids_from_titles(plan.tasks.iter().map(|t| t.title.as_deref()))
            .iter()
            .zip(&plan.tasks)
            .any(|(id, t)| *id != t.id)
    {
        return;
    }
    if let Some(Value::Array(rows)) = out.get_mut("tasks") {
        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
            row.shift_remove("id");
        }
    }
}

/// A Cursor body whose task list is the plan's tasks, every line of which its task
/// gives back exactly, leaves those lines out: the tasks table holds them, so nothing is
/// stored twice.
pub(super) fn leave_out_task_lines(plan: &Plan, out: &mut Map<String, Value>) {
    let in_body = plan.layout.entries.get(BODY_TASKS) == Some(&Value::Bool(true));
    let Some(body) = plan.body.as_deref().filter(|_| in_body) else {
        return;
    };
    // Only when every task line is left out: a line kept as written would hold the task
    // a second time, and then the body alone says them more cheaply
    // ([`leave_out_body_tasks`]).
    if let Some((kept, entries)) = body_tasks::compact(body, &plan.tasks)
        && body_tasks::leaves_out_every_line(&entries)
        && let Some(Value::Object(layout)) = out.get_mut("layout")
    {
        // The entries say the tasks are the body's task list: the marker would repeat it.
        layout.shift_remove(BODY_TASKS);
        layout.extend(entries.into_iter().map(|(k, v)| (k.to_owned(), v)));
        out.insert("body".into(), Value::String(kept));
    }
}

/// A plan whose tasks are exactly the ones its body gives ([`body_tasks::tasks`]; none
/// for a plan without a body) and marked as the body's, whose body still holds them
/// (no task line was left out, [`leave_out_task_lines`]), is written without its tasks
/// table and without the marker: the body says them once, and [`take_body_tasks`]
/// reads them from it again. A plan without tasks and without the marker is written
/// with `tasks: []`.
pub(super) fn leave_out_body_tasks(plan: &Plan, out: &mut Map<String, Value>) {
    let Some(Value::Object(layout)) = out.get_mut("layout") else {
        return;
    };
    if layout.get(BODY_TASKS) != Some(&Value::Bool(true))
        || body_tasks::LAYOUT_KEYS
            .iter()
            .any(|k| layout.contains_key(*k))
        || plan
            .body
            .as_deref()
            .map(body_tasks::tasks)
            .unwrap_or_default()
            != plan.tasks
    {
        return;
    }
    layout.shift_remove(BODY_TASKS);
    if layout.is_empty() {
        out.shift_remove("layout");
    }
    out.shift_remove("tasks");
}

/// The inverse of [`leave_out_body_tasks`]: a document without a `tasks` key takes the
/// tasks its body gives, marked as the body's.
pub(super) fn take_body_tasks(plan: &mut Plan) {
    plan.tasks = plan
        .body
        .as_deref()
        .map(body_tasks::tasks)
        .unwrap_or_default();
    plan.layout
        .entries
        .shift_insert(0, BODY_TASKS.into(), Value::Bool(true));
}

/// The inverse of [`leave_out_task_lines`]: the task lines go back into the body. Entries
/// that do not fit (a hand-edited file) stay in the layout, where `validate` reports them.
pub(super) fn restore_task_lines(plan: &mut Plan) {
    let Some(body) = &plan.body else {
        return;
    };
    if !body_tasks::LAYOUT_KEYS
        .iter()
        .any(|k| plan.layout.entries.contains_key(*k))
    {
        return;
    }
    if let Some(full) = body_tasks::expand(body, |k| plan.layout.entries.get(k), &plan.tasks) {
        plan.body = Some(full);
        for k in body_tasks::LAYOUT_KEYS {
            plan.layout.entries.shift_remove(k);
        }
        // The marker a Cursor read puts first in the layout.
        plan.layout
            .entries
            .shift_insert(0, BODY_TASKS.into(), Value::Bool(true));
    }
}

/// The inverse of [`leave_out_title_ids`]: when no row of the tasks table has an `id`
/// and every row has a title, each task gets the id its title gives.
pub(super) fn give_title_ids(rows: &[Value], tasks: &mut [Task]) {
    let rows: Vec<&Map<String, Value>> = rows.iter().filter_map(Value::as_object).collect();
    if rows.is_empty()
        || rows.iter().any(|r| r.contains_key("id"))
        || tasks.iter().any(|t| t.title.is_none())
    {
        return;
    }
    let ids = ids_from_titles(tasks.iter().map(|t| t.title.as_deref()));
    for (t, id) in tasks.iter_mut().zip(ids) {
        t.id = id;
    }
}
