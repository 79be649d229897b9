//! Reading a Task Master file into the plan model (tags as groups, subtasks as tasks
//! with a parent, ids resolved to edges) and writing a plan as one, byte for byte when
//! the plan keeps its file's layout. This module holds what both directions share: the
//! two shapes of a file, the task lists in it, and a list being read or written; the
//! reader is in [`mod@read`], the writer in [`mod@write`], and how a file writes what
//! it can write more than one way (kept in the plan's layout) in [`style`].

mod read;
mod style;
mod write;

use serde_json::{Map, Value};

use super::{FILE, TASK};
use crate::model::Plan;
use crate::problem::{PathBuf, Problem};

pub(super) use read::read;
use style::Style;
pub(super) use style::keep_text;
pub(super) use write::write;

/// Subtasks nested deeper than this stay in their task's extra fields, unread.
const MAX_DEPTH: usize = 64;
/// The key of a task list.
const TASKS: &str = FILE.list_key();
/// The key of a task's subtasks.
const SUBTASKS: &str = TASK.list_key();

/// The two shapes of a Task Master file.
pub(super) enum Shape<'a> {
    /// `{"tasks": [...], "metadata": …}`.
    Legacy(&'a Map<String, Value>),
    /// `{"<tag>": {"tasks": [...], …}, …}`.
    Tagged(&'a Map<String, Value>),
    /// Neither.
    Other,
}

/// Which shape a document has.
pub(super) fn shape(v: &Value) -> Shape<'_> {
    let Some(o) = v.as_object() else {
        return Shape::Other;
    };
    if o.get(TASKS).is_some_and(Value::is_array) {
        return Shape::Legacy(o);
    }
    if o.values().any(is_tag) {
        Shape::Tagged(o)
    } else {
        Shape::Other
    }
}

/// Whether a value is a tag's task list.
fn is_tag(v: &Value) -> bool {
    v.get(TASKS).is_some_and(Value::is_array)
}

/// The task lists of a file with where they are: the root, or each tag.
pub(super) fn lists(v: &Value) -> Vec<(&Map<String, Value>, PathBuf)> {
    match shape(v) {
        Shape::Legacy(o) => vec![(o, PathBuf::root())],
        Shape::Tagged(o) => o
            .iter()
            .filter(|(_, t)| is_tag(t))
            .filter_map(|(k, t)| Some((t.as_object()?, PathBuf::root().key(k))))
            .collect(),
        Shape::Other => Vec::new(),
    }
}

/// In a tagged file, each key whose value is not a tag (an object with a `tasks`
/// list): the reader keeps it, but Task Master reads every key as a tag.
pub(super) fn not_tags(v: &Value) -> Vec<Problem> {
    let Shape::Tagged(o) = shape(v) else {
        return Vec::new();
    };
    o.iter()
        .filter(|(_, t)| !is_tag(t))
        .map(|(k, _)| {
            Problem::error(
                "schema",
                PathBuf::root().key(k).loc(),
                format!("`{k}` is not a tag: an object with a `{TASKS}` list"),
            )
        })
        .collect()
}

/// Where a task and each of its dependencies are written.
pub(super) struct Place {
    /// The task.
    pub path: PathBuf,
    /// Each dependency it names, in order.
    pub deps: Vec<PathBuf>,
}

/// A file read: the plan and, for each of its tasks, its place.
pub(super) struct Walked {
    pub plan: Plan,
    pub places: Vec<Place>,
}

/// A list of tasks being read or written: the prefix of its ids (the tag, in a file of
/// several tags), its group (tag), its parent task (for subtasks) and where it is.
struct List {
    prefix: String,
    group: Option<String>,
    parent: Option<String>,
    path: PathBuf,
    style: Style,
}

/// The text of an id as written: a number's JSON text, a string itself.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}
