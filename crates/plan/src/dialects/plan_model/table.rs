//! The plan model's document as field tables: the one description its validator
//! ([`crate::table::check`]) and its JSON Schema ([`crate::table::schema::of`]) follow,
//! for the flat form (rows of scalar fields, edge tables, maps keyed by id) and the
//! nested form (each task's lists and objects in its own row) alike.

use super::SCHEMA;
use crate::table::{Check, Choice, Field, Kind, Table};

/// The root object of a plan-model document.
pub static PLAN: Table = Table {
    title: "toon-plan model (dialect `plan`)",
    doc: "The toon-plan plan model, as it is written in JSON, YAML and TOON alike: \
          plan-level facts, then tasks and groups as tables of their scalar fields (a column \
          is null where a row has no value), list fields as edge tables of their own \
          (`deps[{task, on}]`, …), and per-task objects in maps keyed by task id. A plan \
          whose ids repeat is written nested instead: each row holds its own lists, `params` \
          and `extra`. Every field but `schema` is optional; a document without `tasks` \
          has the tasks its `body` gives (a Cursor body's task list or numbered headings).",
    fields: &[
        Field::new("schema", Kind::Str, true, "Marks a plan-model document.").check(
            Check::OneOf(&[Choice {
                value: SCHEMA,
                doc: "The plan model, version 1.",
            }]),
            "schema",
        ),
        Field::new("id", Kind::Str, false, "Plan identifier."),
        Field::new("title", Kind::Str, false, "Human title."),
        Field::new("goal", Kind::Str, false, "What the plan is for."),
        Field::new(
            "success_criteria",
            Kind::Str,
            false,
            "What counts as success.",
        ),
        Field::new("rollback", Kind::Str, false, "How to undo a failed run."),
        Field::new(
            "constraints",
            Kind::Strings,
            false,
            "Constraints on the whole plan.",
        ),
        Field::new("metadata", Kind::Object, false, "Plan metadata."),
        Field::new(
            "shared_inputs",
            Kind::Any,
            false,
            "Data shared by all tasks.",
        ),
        Field::new("execution", Kind::Object, false, "Execution settings."),
        Field::new(
            "body",
            Kind::Lines,
            false,
            "Free text (a Cursor plan's markdown body), as its lines when it has several.",
        ),
        Field::new(
            "groups",
            Kind::Items(&GROUP),
            false,
            "Groups of tasks (workflow tasks, stages), one row each.",
        ),
        Field::new(
            "group_deps",
            Kind::Items(&GROUP_ON),
            false,
            "Group dependencies: the group `group` waits for the group `on`.",
        ),
        Field::new(
            "group_tools",
            Kind::Items(&GROUP_TOOL),
            false,
            "Tools a group needs.",
        ),
        Field::new(
            "group_extra",
            Kind::Object,
            false,
            "Group fields the model does not name, by group id.",
        ),
        Field::new(
            "every_task_has",
            Kind::Strings,
            false,
            "List fields every task has (no edge rows: an empty list; a number: one item).",
        ),
        Field::new(
            "list_columns",
            Kind::Strings,
            false,
            "Columns whose cells are lists: items joined by `,`, a number one item.",
        ),
        Field::new(
            "tasks",
            Kind::Items(&TASK),
            false,
            "The executable units, one row each. Left out when they are the ones the body \
             gives (a Cursor body's task list or numbered headings, as the body writes them): \
             a reader takes them from the body.",
        ),
        Field::new(
            "subtasks",
            Kind::Items(&SUBTASK),
            false,
            "With local ids: the tasks that have a parent (the tasks table then holds the \
             others, by id within their group).",
        ),
        Field::new(
            "deps",
            Kind::Items(&TASK_ON),
            false,
            "Dependencies: the task `task` waits for the task `on`.",
        ),
        Field::new(
            "subtask_deps",
            Kind::Items(&SUBTASK_ON),
            false,
            "With local ids: the subtasks' dependencies.",
        ),
        Field::new(
            "tools",
            Kind::Items(&TASK_TOOL),
            false,
            "Tools a task may use.",
        ),
        Field::new(
            "capabilities",
            Kind::Items(&TASK_CAPABILITY),
            false,
            "Capabilities a task requires.",
        ),
        Field::new(
            "outputs",
            Kind::Items(&TASK_OUTPUT),
            false,
            "Artifacts a task produces.",
        ),
        Field::new(
            "requirements",
            Kind::Items(&TASK_REQUIREMENT),
            false,
            "Requirements a task meets, when its row cannot hold them as one cell.",
        ),
        Field::new(
            "params",
            Kind::Object,
            false,
            "Action parameters, by task id.",
        ),
        Field::new(
            "task_extra",
            Kind::Object,
            false,
            "Task fields the model does not name, by task id.",
        ),
        Field::new(
            "extra",
            Kind::Object,
            false,
            "Plan-level fields the model does not name.",
        ),
        Field::new(
            "layout",
            Kind::Object,
            false,
            "What a dialect needs to write its source back byte for byte.",
        ),
    ],
};

/// One task row.
pub static TASK: Table = Table {
    title: "task",
    doc: "One task: its scalar fields; in the flat form a list field is a count here, \
          given only when some task has an empty list (the items are in the edge tables).",
    fields: &[
        Field::new(
            "id",
            Kind::Id,
            false,
            "Identifier, unique within the plan (with local ids, within its group). Absent from every row when each task's id \
             is the one its title gives (its first three words that are not `a`, `the`, \
             `to`, …, lower case, joined by `-`; `-2`, `-3` on repeats) and no other table \
             names tasks.",
        ),
        Field::new("title", Kind::Str, false, "Short human title."),
        Field::new("description", Kind::Str, false, "What to do, in words."),
        Field::new(
            "status",
            Kind::Str,
            false,
            "Progress (pending, in_progress, completed, cancelled).",
        ),
        Field::new("executor", Kind::Str, false, "Who runs it."),
        Field::new("tool", Kind::Str, false, "The one tool it calls."),
        Field::new("action", Kind::Str, false, "Action name."),
        Field::new("target", Kind::Str, false, "What the action works on."),
        Field::new("kind", Kind::Str, false, "Kind of step."),
        Field::new(
            "expected_outcome",
            Kind::Str,
            false,
            "Expected outcome in words.",
        ),
        Field::new(
            "group",
            Kind::Id,
            false,
            "Id of the group this task belongs to.",
        ),
        Field::new("branch", Kind::Str, false, "Git branch for the task."),
        Field::new(
            "parent",
            Kind::Str,
            false,
            "Id of the task this one is a subtask of.",
        ),
        Field::new("priority", Kind::Str, false, "How urgent it is."),
        Field::new("details", Kind::Str, false, "How to do it, in detail."),
        Field::new(
            "test_strategy",
            Kind::Str,
            false,
            "How to check it is done.",
        ),
        Field::new(
            "timeout_ms",
            Kind::Number,
            false,
            "Timeout in milliseconds.",
        ),
        Field::new("retries", Kind::Number, false, "Retries on failure."),
        Field::new(
            "parallel_group",
            Kind::Number,
            false,
            "Wave number; tasks with the same number run together.",
        ),
        Field::new(
            "dependencies",
            Kind::StringsCountOrCell,
            false,
            "Ids of the tasks it waits for: as `requirements` (rows in `deps`; a subtask's \
             cell names siblings by number).",
        ),
        Field::new(
            "tools",
            Kind::StringsOrCount,
            false,
            "Tools it may use (nested form), or their number (in `tools`).",
        ),
        Field::new(
            "capabilities",
            Kind::StringsOrCount,
            false,
            "Capabilities it requires (nested form), or their number (in `capabilities`).",
        ),
        Field::new(
            "outputs",
            Kind::StringsOrCount,
            false,
            "Artifacts it produces (nested form), or their number (in `outputs`).",
        ),
        Field::new(
            "requirements",
            Kind::StringsCountOrCell,
            false,
            "Requirements it meets: a list, or one cell, the items joined by `,` (`1.1,2.3`; \
             `\"\"` for none), or their number (rows in `requirements`).",
        ),
        Field::new(
            "params",
            Kind::Any,
            false,
            "Action parameters (nested form; flat: in `params`).",
        ),
        Field::new(
            "extra",
            Kind::Object,
            false,
            "Fields the model does not name (nested form; flat: in `task_extra`).",
        ),
    ],
};

/// One group row.
pub static GROUP: Table = Table {
    title: "group",
    doc: "One group: its scalar fields, list fields as a task's.",
    fields: &[
        Field::new("id", Kind::Id, true, "Identifier."),
        Field::new("name", Kind::Str, false, "Display name."),
        Field::new("description", Kind::Str, false, "Description in words."),
        Field::new(
            "mode",
            Kind::Str,
            false,
            "How its tasks run: `parallel` or `sequence`.",
        ),
        Field::new("executor", Kind::Str, false, "Who runs it."),
        Field::new(
            "size",
            Kind::Number,
            false,
            "Its number of `tasks` rows, without a `group` column (one run per group, in \
             order).",
        ),
        Field::new(
            "subtasks",
            Kind::Number,
            false,
            "With `id_prefix`: its number of `subtasks` rows (one run per group).",
        ),
        Field::new("deps", Kind::Number, false, "As `subtasks`, for `deps`."),
        Field::new(
            "subtask_deps",
            Kind::Number,
            false,
            "As `subtasks`, for `subtask_deps`.",
        ),
        Field::new(
            "id_prefix",
            Kind::Str,
            false,
            "With local ids: the prefix of its tasks' ids (`feature:`), left out of cells.",
        ),
        Field::new(
            "dependencies",
            Kind::StringsCountOrCell,
            false,
            "Groups it waits for, as a task's `dependencies`.",
        ),
        Field::new(
            "tools",
            Kind::StringsOrCount,
            false,
            "Tools it needs (nested form), or their number (in `group_tools`).",
        ),
        Field::new(
            "extra",
            Kind::Object,
            false,
            "Fields the model does not name (nested form; flat: in `group_extra`).",
        ),
    ],
};

/// Edge tables: a row names the owner by id and holds one item of its list.
static TASK_ON: Table = Table {
    title: "dependency",
    doc: "A task dependency.",
    fields: &[
        Field::new("task", Kind::Id, true, "The waiting task."),
        Field::new("on", Kind::Id, true, "The task it waits for."),
    ],
};

/// A subtask row: a task row's columns (but `group` and `parent`) after these two.
pub static SUBTASK: Table = Table {
    title: "subtask",
    doc: "A task with a parent: its task's id within the group, its own part (its id is \
          `<id_prefix><task>.<id>`), then a task row's columns.",
    fields: &[
        Field::new("task", Kind::Id, true, "Its task, by id within the group."),
        Field::new("id", Kind::Id, true, "Its id within its task."),
    ],
};

static SUBTASK_ON: Table = Table {
    title: "subtask dependency",
    doc: "A subtask dependency, when ids are local.",
    fields: &[
        Field::new("task", Kind::Id, true, "The waiting subtask's task."),
        Field::new(
            "id",
            Kind::Id,
            true,
            "The waiting subtask's id within its task.",
        ),
        Field::new(
            "on",
            Kind::Id,
            true,
            "A number: a sibling; a string: an id within the group.",
        ),
    ],
};

static GROUP_ON: Table = Table {
    title: "group dependency",
    doc: "A group dependency.",
    fields: &[
        Field::new("group", Kind::Id, true, "The waiting group."),
        Field::new("on", Kind::Id, true, "The group it waits for."),
    ],
};

static GROUP_TOOL: Table = Table {
    title: "group tool",
    doc: "A tool a group needs.",
    fields: &[
        Field::new("group", Kind::Id, true, "The group."),
        Field::new("tool", Kind::Str, true, "The tool."),
    ],
};

static TASK_TOOL: Table = Table {
    title: "task tool",
    doc: "A tool a task may use.",
    fields: &[
        Field::new("task", Kind::Str, true, "The task."),
        Field::new("tool", Kind::Str, true, "The tool."),
    ],
};

static TASK_CAPABILITY: Table = Table {
    title: "capability",
    doc: "A capability a task requires.",
    fields: &[
        Field::new("task", Kind::Str, true, "The task."),
        Field::new("capability", Kind::Str, true, "The capability."),
    ],
};

static TASK_OUTPUT: Table = Table {
    title: "output",
    doc: "An artifact a task produces.",
    fields: &[
        Field::new("task", Kind::Str, true, "The task."),
        Field::new("output", Kind::Str, true, "The artifact id."),
    ],
};

static TASK_REQUIREMENT: Table = Table {
    title: "requirement",
    doc: "A requirement a task meets.",
    fields: &[
        Field::new("task", Kind::Str, true, "The task."),
        Field::new("requirement", Kind::Str, true, "The requirement's number."),
    ],
};

#[cfg(test)]
mod tests {
    use super::super::keys::{GROUP_LISTS, TASK_LISTS};
    use super::*;

    /// Each list field the flat form writes as an edge table is a list-or-count field
    /// of its row table, and the edge table is a root list of rows holding the owner and
    /// the column the writer fills.
    #[test]
    fn the_edge_tables_the_flat_form_writes_are_the_ones_described() {
        for (row, owner, lists) in [(&TASK, "task", TASK_LISTS), (&GROUP, "group", GROUP_LISTS)] {
            for (field, name, column) in lists {
                let f = row
                    .field(field)
                    .unwrap_or_else(|| panic!("no {owner} {field}"));
                assert!(
                    matches!(f.kind, Kind::StringsOrCount | Kind::StringsCountOrCell),
                    "{owner} {field}"
                );
                let Some(Kind::Items(edge)) = PLAN.field(name).map(|f| &f.kind) else {
                    panic!("no edge table {name}");
                };
                let keys: Vec<&str> = edge.fields.iter().map(|f| f.key).collect();
                assert_eq!(keys, [owner, column], "{name}");
            }
        }
    }
}
