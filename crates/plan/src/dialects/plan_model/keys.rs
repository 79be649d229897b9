//! The names of the flat form's tables that hold what a task's row cannot: its list
//! fields as edge tables, its `params` and its extra fields.

/// List fields of a task and their edge tables: (field, table, column).
pub(super) const TASK_LISTS: &[(&str, &str, &str)] = &[
    ("dependencies", "deps", "on"),
    ("tools", "tools", "tool"),
    ("capabilities", "capabilities", "capability"),
    ("outputs", "outputs", "output"),
    ("requirements", "requirements", "requirement"),
];
/// List fields of a group and their edge tables: (field, table, column).
pub(super) const GROUP_LISTS: &[(&str, &str, &str)] = &[
    ("dependencies", "group_deps", "on"),
    ("tools", "group_tools", "tool"),
];

/// The map of tasks' `params` objects, keyed by task id.
pub(super) const PARAMS: &str = "params";
/// The map of tasks' extra fields, keyed by task id.
pub(super) const TASK_EXTRA: &str = "task_extra";
/// The list fields every task has (some of them empty), named once rather than given
/// as a count column of the tasks table (so a number in such a column is one item).
pub(super) const EVERY_TASK_HAS: &str = "every_task_has";
/// The columns of the tasks and subtasks tables whose cells are lists (the items joined
/// by `,`, a number one item): extra fields that are lists, and `dependencies` or
/// `requirements` when a cell of theirs is a bare number.
pub(super) const LIST_COLUMNS: &str = "list_columns";
