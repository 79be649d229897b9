//! Task Master task files (`.taskmaster/tasks/tasks.json`; older versions wrote
//! `tasks/tasks.json`): the tables [`FILE`], [`TASK`] and [`SUBTASK`].
//!
//! A file is tagged (`{"master": {"tasks": [...], "metadata": {...}}, "<tag>": …}`)
//! or legacy (`{"tasks": [...], "metadata": …}`). Each tag is a group of the plan; with
//! more than one tag a task's id is qualified by its tag (`feature:3`), since ids
//! repeat between tags. Subtasks (and theirs) are tasks of the plan whose `parent` is
//! the task they belong to, their ids dotted (`3.1`, `3.1.2`); a subtask's dependency
//! on a sibling number (`2`) or a dotted id (`"3.2"`) is the edge to that task. Ids are
//! numbers or strings; the file is written back byte for byte ([`Dialect::keep_text`]: the
//! lines where the file differs from the canonical rendering are kept as a text patch,
//! and the key order of its tasks when it is not the table's).

mod tree;

use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::dialects::checks::{self, Node};
use crate::model::Plan;
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{Document, Format};
use crate::table::fill::{Fill, FillKind, task_fill, title_from_words, translate_status};
use crate::table::{self, Choice, Field, Kind, PlanField, Table, TaskField, To};

/// The Task Master dialect.
pub struct TaskMaster;

impl DialectId {
    /// Task Master `tasks.json`.
    pub const TASKMASTER: DialectId = DialectId::named("taskmaster");
}

/// A task list: a legacy file's root, or one tag of a tagged file.
pub static FILE: Table = Table {
    title: "Task Master tasks",
    doc: "A Task Master task list (`tasks.json`): a legacy file's root object, or the \
          object of one tag in a tagged file (`{\"master\": {\"tasks\": …}, \"<tag>\": …}`). \
          Other keys are kept.",
    fields: &[
        Field::new("tasks", Kind::Items(&TASK), true, "The tasks, in order.").to(To::Own),
        Field::new(
            "metadata",
            Kind::Any,
            false,
            "About the list (`created`, `updated`, `description`, …).",
        )
        .to(To::Plan(PlanField::Metadata)),
    ],
};

const ID: Field = Field::new(
    "id",
    Kind::Id,
    true,
    "Id: a number or a string (a subtask's, within its task).",
)
.to(To::Own);
const TITLE: Field = Field::new("title", Kind::Str, true, "Title.").to(To::Task(TaskField::Title));
const DESCRIPTION: Field =
    Field::new("description", Kind::Str, false, "What to do.").to(To::Task(TaskField::Description));
const DETAILS: Field = Field::new("details", Kind::Str, false, "How to do it, in detail.")
    .to(To::Task(TaskField::Details));
const TEST_STRATEGY: Field =
    Field::new("testStrategy", Kind::Str, false, "How to check it is done.")
        .to(To::Task(TaskField::TestStrategy));
const PRIORITY: Field = Field::new("priority", Kind::Str, false, "high, medium or low.")
    .to(To::Task(TaskField::Priority));
const DEPENDENCIES: Field = Field::new(
    "dependencies",
    Kind::Ids,
    false,
    "Ids of the tasks that must be done first: a task's numbers or strings; a subtask's \
     sibling numbers or dotted ids (`\"3.2\"`).",
)
.to(To::Own);
const STATUS: Field = Field::new(
    "status",
    Kind::Str,
    true,
    "Progress: pending, in-progress, done, deferred, cancelled, review, blocked (other \
     words are kept).",
)
.to(To::Task(TaskField::Status));
/// A subtask's progress: real files leave it out (a subtask not yet started).
const SUBTASK_STATUS: Field = Field::new(
    "status",
    Kind::Str,
    false,
    "Progress, as a task's; left out by some files for a subtask not started.",
)
.to(To::Task(TaskField::Status));

/// A task.
pub static TASK: Table = Table {
    title: "Task Master task",
    doc: "A task. Other keys (`updatedAt`, `complexity`, …) are kept.",
    fields: &[
        ID,
        TITLE,
        DESCRIPTION,
        DETAILS,
        TEST_STRATEGY,
        PRIORITY,
        DEPENDENCIES,
        STATUS,
        Field::new("subtasks", Kind::Items(&SUBTASK), false, "Its subtasks.").to(To::Own),
    ],
};

/// A subtask (of a task or of a subtask).
pub static SUBTASK: Table = Table {
    title: "Task Master subtask",
    doc: "A subtask: a task's fields, its id unique among its siblings.",
    fields: &[
        ID,
        TITLE,
        DESCRIPTION,
        DETAILS,
        TEST_STRATEGY,
        PRIORITY,
        DEPENDENCIES,
        SUBTASK_STATUS,
        Field::new(
            "subtasks",
            Kind::Any,
            false,
            "Its own subtasks, each shaped as a subtask.",
        )
        .to(To::Own),
    ],
};

/// Task Master's statuses.
pub const STATUSES: &[Choice] = &[
    Choice {
        value: "pending",
        doc: "Not started.",
    },
    Choice {
        value: "in-progress",
        doc: "Being worked on.",
    },
    Choice {
        value: "done",
        doc: "Finished.",
    },
    Choice {
        value: "deferred",
        doc: "Put off.",
    },
    Choice {
        value: "cancelled",
        doc: "Dropped.",
    },
    Choice {
        value: "review",
        doc: "Waiting for review.",
    },
    Choice {
        value: "blocked",
        doc: "Cannot go on.",
    },
];

/// Task Master statuses for the other dialects' words.
const STATUS_OF: &[(&str, &str)] = &[
    ("in_progress", "in-progress"),
    ("completed", "done"),
    ("complete", "done"),
];

/// Layout key: the lines where the file differs from its canonical rendering.
pub const PATCH: &str = "taskmaster.patch";
/// Layout key: the key order of the file's first task, when it is not the table's.
pub const TASK_KEYS: &str = "taskmaster.task_keys";
/// Layout key: the key order of the file's first subtask, when it is not the table's.
pub const SUBTASK_KEYS: &str = "taskmaster.subtask_keys";

impl Dialect for TaskMaster {
    fn id(&self) -> DialectId {
        DialectId::TASKMASTER
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&FILE)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn claims_path(&self, lower_path: &str) -> bool {
        // `.taskmaster/tasks/tasks.json`, and `tasks/tasks.json` of older versions.
        lower_path == "tasks/tasks.json" || lower_path.ends_with("/tasks/tasks.json")
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().map(tree::shape) {
            Some(tree::Shape::Tagged(_)) => 90,
            Some(tree::Shape::Legacy(o)) => {
                let first = o
                    .get("tasks")
                    .and_then(Value::as_array)
                    .and_then(|t| t.first())
                    .and_then(Value::as_object);
                let ours = ["subtasks", "testStrategy", "details", "priority"];
                match first {
                    Some(t) if ours.iter().any(|k| t.contains_key(*k)) => 80,
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let tree = doc.tree().ok_or_else(not_markdown)?;
        Ok(tree::read(tree)?.plan.into())
    }

    fn keep_text(&self, plan: &mut Plan, text: &str, format: Format) {
        if format == Format::Json {
            tree::keep_text(plan, text);
        }
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        let Some(tree) = doc.tree() else {
            return vec![Problem::error(
                "schema",
                Location::Document,
                not_markdown().message,
            )];
        };
        let read = match tree::read(tree) {
            Ok(r) => r,
            Err(e) => return vec![Problem::error("schema", PathBuf::root().loc(), e.message)],
        };
        let mut out = tree::not_tags(tree);
        for (obj, path) in tree::lists(tree) {
            out.extend(table::check(obj, &path, &FILE));
        }
        let nodes: Vec<Node<'_>> = read
            .plan
            .tasks
            .iter()
            .zip(&read.places)
            .filter(|(t, _)| !t.id.is_empty())
            .map(|(t, place)| Node {
                id: t.id.as_str(),
                path: place.path.clone(),
                deps: t
                    .dependencies
                    .iter()
                    .flatten()
                    .zip(&place.deps)
                    .map(|(d, p)| (d.as_str(), p.clone()))
                    .collect(),
            })
            .collect();
        out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
        out.extend(checks::known_refs(&nodes, "known-dependencies", "task"));
        out.extend(checks::acyclic(&nodes, "acyclic"));
        out
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        tree::write(plan, format)
    }

    fn fill(&self, plan: &mut Plan, from: DialectId, fills: &mut Vec<Fill>) {
        // The plan model keeps a Task Master file's words as they are (`completed`
        // among them): only another dialect's statuses are translated.
        let translate = from != DialectId::PLAN;
        for t in &mut plan.tasks {
            title_from_words(t, fills);
            // A subtask may go without a status; a task may not.
            if t.status.is_none() && t.parent.is_none() {
                t.status = Some("pending".to_owned());
                fills.push(task_fill(t, "status", FillKind::Defaulted, "pending"));
            } else if translate {
                translate_status(
                    t,
                    STATUSES,
                    STATUS_OF,
                    "pending",
                    "the same progress in Task Master's words",
                    fills,
                );
            }
        }
    }
}

fn not_markdown() -> PlanError {
    PlanError::new(
        ErrorKind::Shape,
        "a Task Master file is JSON (or YAML or TOON), not markdown",
    )
}
