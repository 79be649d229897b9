//! Cursor plans (`.cursor/plans/*.plan.md`): YAML front matter (`name`, `overview`,
//! `todos[id, content, status, dependencies]`, `isProject`, …) and a markdown body.
//!
//! Real files are messy; the reader copes and never loses a character. Front matter
//! that is not valid YAML is read tolerantly (with a warning); a file without front
//! matter is all body; CRLF files, byte-order marks and missing final newlines are
//! noted. When the canonical rendering of what was read would not give the file back
//! byte for byte, the lines where the original head differs are kept in the plan's
//! `layout` ([`HEAD_PATCH`], a text patch) and applied again as long as the plan's front-matter
//! facts are unchanged — so cursor → cursor (and cursor → plan → cursor) reproduces
//! the file exactly, and the front matter is stored once.

mod front_matter;
mod markdown;
mod split;
mod styles;
mod tolerant;

pub use front_matter::KEY_ORDER;
use markdown::{adopt_body_tasks, front_plan};
pub use markdown::{read_markdown, write_markdown};
pub use styles::HEAD_STYLES;

use crate::table::fill::{Fill, FillKind, task_fill, translate_status};

use serde_json::{Map, Value};

use super::{Dialect, DialectId, Read};
use crate::dialects::checks::{self, Node};
use crate::model::Plan;
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::{self, Check, Choice, Field, Kind, PlanField, Table, TaskField, To};

/// The Cursor dialect.
pub struct Cursor;

/// A Cursor plan as a tree: its front matter and its body.
pub static PLAN: Table = Table {
    title: "Cursor plan",
    doc: "A Cursor plan (`.cursor/plans/*.plan.md`) as a tree: its front matter keys and \
          its markdown `body`. Other front matter keys are kept.",
    fields: &[
        Field::new(
            "name",
            Kind::Any,
            false,
            "Plan name: text (other values are read tolerantly, with a warning).",
        )
        .to(To::Plan(PlanField::Title)),
        Field::new(
            "overview",
            Kind::Any,
            false,
            "Overview in words: text (other values are read tolerantly, with a warning).",
        )
        .to(To::Plan(PlanField::Goal)),
        Field::new("todos", Kind::Items(&TODO), false, "The todos.").to(To::Own),
        Field::new(
            "body",
            Kind::Str,
            false,
            "The markdown body after the front matter.",
        )
        .to(To::Own),
    ],
};

/// The front matter keys of the plan's name, overview and todos, and the key of the
/// body in the tree form.
const NAME: &str = PLAN.fields[0].key;
const OVERVIEW: &str = PLAN.fields[1].key;
const TODOS: &str = PLAN.list_key();
const BODY: &str = PLAN.fields[3].key;
/// The key of the tree form that holds the plan's `layout` (not front matter).
const LAYOUT: &str = "layout";

/// Whether an object is what the tree form of a Cursor plan without `name`, `overview`
/// and `todos` is (a file without front matter): a text `body`, and no key but the
/// Cursor keys and `layout`. Other dialects name keys of their own, so a document
/// they claim scores higher.
fn is_tree_form(o: &Map<String, Value>) -> bool {
    has_text_body(o) && o.keys().all(|k| k == LAYOUT || PLAN.field(k).is_some())
}

/// Whether an object has a text `body`: the tree form of a Cursor plan whose front
/// matter holds only keys of its own (`description`, `alwaysApply`), which Cursor
/// keeps as written. No other dialect has a text `body`, so this is the weakest claim.
fn has_text_body(o: &Map<String, Value>) -> bool {
    o.get(BODY).is_some_and(Value::is_string)
}

/// Whether a front matter key is one the model names (the body is not front matter).
fn named_key(key: &str) -> bool {
    key != BODY && PLAN.field(key).is_some()
}

/// A Cursor todo.
pub static TODO: Table = Table {
    title: "Cursor todo",
    doc: "A Cursor todo.",
    fields: &[
        Field::new(
            "id",
            Kind::Any,
            true,
            "Unique todo id: text (other values are read as text, with a warning).",
        )
        .check(Check::NonBlank, "schema")
        .to(To::Task(TaskField::Id)),
        Field::new(
            "content",
            Kind::Any,
            false,
            "What to do: text (other values are read as text).",
        )
        .to(To::Task(TaskField::Description)),
        Field::new("status", Kind::Str, false, "Progress.")
            .check(Check::Known(STATUSES), "known-statuses")
            .to(To::Task(TaskField::Status)),
        Field::new(
            "dependencies",
            Kind::Strings,
            false,
            "Ids of the todos that must be done first.",
        )
        .to(To::Task(TaskField::Dependencies)),
    ],
};

/// Known todo statuses.
pub const STATUSES: &[Choice] = &[
    Choice {
        value: "pending",
        doc: "Not started.",
    },
    Choice {
        value: "in_progress",
        doc: "Being worked on.",
    },
    Choice {
        value: "completed",
        doc: "Done.",
    },
    Choice {
        value: "cancelled",
        doc: "Dropped.",
    },
];

/// Cursor statuses for the other dialects' words (Task Master's).
const STATUS_OF: &[(&str, &str)] = &[
    ("done", "completed"),
    ("in-progress", "in_progress"),
    ("review", "in_progress"),
    ("blocked", "pending"),
    ("deferred", "pending"),
];

/// Layout key: the whole original head (front matter with its fences), LF line
/// endings. Written only when a [`HEAD_PATCH`] cannot give the file back; read from
/// files of any age.
pub const HEAD: &str = "cursor.head";
/// Layout key: the lines where the original head differs from the canonical head
/// rendered from the plan's fields (a text patch).
pub const HEAD_PATCH: &str = "cursor.head_patch";
/// Layout key: the file used CRLF line endings.
pub const CRLF: &str = "cursor.crlf";
/// Layout key: the file started with a byte-order mark.
pub const BOM: &str = "cursor.bom";
pub use crate::syntax::body_tasks::BODY_TASKS;

impl DialectId {
    /// Cursor `.cursor/plans/*.plan.md`.
    pub const CURSOR: DialectId = DialectId::named("cursor");
}

impl Dialect for Cursor {
    fn id(&self) -> DialectId {
        DialectId::CURSOR
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Md
    }

    fn supports(&self, format: Format) -> bool {
        format != Format::Prompt
    }

    fn claims_file_name(&self, lower_name: &str) -> bool {
        lower_name.ends_with(".plan.md")
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc {
            Document::Markdown(text) => {
                let s = split::split(text);
                match &s.front_matter {
                    Some(fm) => {
                        let p = front_matter::parse(fm, s.front_matter_line);
                        if p.map.keys().any(|k| named_key(k)) {
                            90
                        } else {
                            60
                        }
                    }
                    None => 50,
                }
            }
            Document::Tree(Value::Object(o)) => {
                if o.contains_key(TODOS) || o.contains_key(OVERVIEW) {
                    70
                } else if o.contains_key(BODY) && o.contains_key(NAME) {
                    60
                } else if is_tree_form(o) {
                    40
                } else if has_text_body(o) {
                    20
                } else {
                    0
                }
            }
            Document::Tree(_) => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        match doc {
            Document::Markdown(text) => Ok(read_markdown(text)),
            Document::Tree(Value::Object(o)) => Ok(read_tree(o)),
            Document::Tree(_) => Err(PlanError::new(
                ErrorKind::Shape,
                "a Cursor plan in JSON, YAML or TOON is an object (front matter keys and `body`)",
            )),
        }
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc {
            Document::Markdown(text) => {
                let s = split::split(text);
                let Some(fm) = &s.front_matter else {
                    return Vec::new();
                };
                let parsed = front_matter::parse(fm, s.front_matter_line);
                let lines = front_matter::lines(fm, s.front_matter_line);
                let mut out = parsed.warnings;
                for p in validate_map(&parsed.map) {
                    out.push(relocate(p, &lines, s.front_matter_line));
                }
                out
            }
            Document::Tree(Value::Object(o)) => {
                let mut m = o.clone();
                m.shift_remove(LAYOUT);
                validate_map(&m)
            }
            Document::Tree(_) => vec![Problem::error(
                "schema",
                PathBuf::root().loc(),
                "a Cursor plan must be an object",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        match format {
            Format::Md => Ok(write_markdown(plan)),
            other => format::write_tree(&to_tree(plan), other),
        }
    }

    fn keeps_body(&self) -> bool {
        true
    }

    /// Tasks read from a Cursor body's task list go back into the body as they are.
    fn writes_tasks_as_they_are(&self, plan: &Plan) -> bool {
        plan.layout.entries.get(BODY_TASKS) == Some(&Value::Bool(true))
    }

    fn fill(&self, plan: &mut Plan, from: DialectId, fills: &mut Vec<Fill>) {
        // The plan model holds a status wherever its source had one, as written (an
        // unknown one too, with a warning): a task without one stays without (a todo
        // needs none), so a Cursor plan stored as the plan model comes back byte for
        // byte. Another dialect's tasks get `pending` when they have no status, and
        // their statuses put in Cursor's words.
        if self.writes_tasks_as_they_are(plan) || from == DialectId::PLAN {
            return;
        }
        for t in &mut plan.tasks {
            if t.status.is_none() {
                t.status = Some("pending".to_owned());
                fills.push(task_fill(t, "status", FillKind::Defaulted, "pending"));
            }
            translate_status(
                t,
                STATUSES,
                STATUS_OF,
                "pending",
                "the same progress in Cursor's words",
                fills,
            );
        }
    }
}

fn read_tree(o: &Map<String, Value>) -> Read {
    let mut fm = o.clone();
    let body = fm.shift_remove(BODY);
    let layout = fm.shift_remove(LAYOUT);
    let mut plan = Plan::default();
    front_matter::to_plan(&fm, &mut plan);
    match body {
        Some(Value::String(b)) => plan.body = Some(b),
        Some(other) => {
            plan.extra.insert(BODY.into(), other);
        }
        None => {}
    }
    match layout {
        Some(Value::Object(l)) => plan.layout.entries = l.into_iter().collect(),
        Some(other) => {
            plan.extra.insert(LAYOUT.into(), other);
        }
        None => {}
    }
    adopt_body_tasks(&mut plan, fm.contains_key(TODOS));
    Read {
        warnings: no_tasks(&plan).into_iter().collect(),
        plan,
    }
}

/// A warning when the plan holds no task anywhere (no `todos`, no task list, no
/// numbered headings): it converts to a plan without tasks.
fn no_tasks(plan: &Plan) -> Option<Problem> {
    (plan.tasks.is_empty() && !plan.extra.contains_key(TODOS)).then(|| {
        Problem::warning(
            "no-tasks",
            Location::Document,
            "no tasks: no `todos` (or an empty list), no task list (`- [ ] …`) and no numbered headings \
             (`## Step 1: …`) in the body, so the plan converts without tasks",
        )
    })
}

/// The tree form: front matter keys, then `body`, then `layout` when not empty.
pub fn to_tree(plan: &Plan) -> Value {
    let mut m = front_matter::from_plan(&front_plan(plan));
    if let Some(b) = &plan.body {
        m.insert(BODY.into(), Value::String(b.clone()));
    }
    // Reading a tree without `todos` takes the body's task list again, so the marker
    // that says so is not written.
    let derivable = |k: &str| k == BODY_TASKS && !m.contains_key(TODOS);
    let layout: Map<String, Value> = plan
        .layout
        .entries
        .iter()
        .filter(|(k, _)| !derivable(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !layout.is_empty() {
        m.insert(LAYOUT.into(), Value::Object(layout));
    }
    Value::Object(m)
}

fn relocate(mut p: Problem, lines: &[(String, usize)], first_line: usize) -> Problem {
    if let Location::Path(path) = &p.location {
        let mut best: Option<(usize, usize)> = None;
        for (prefix, line) in lines {
            let hit = path == prefix
                || (path.starts_with(prefix.as_str())
                    && matches!(path.as_bytes().get(prefix.len()), Some(b'.' | b'[')));
            if hit && best.is_none_or(|(len, _)| prefix.len() > len) {
                best = Some((prefix.len(), *line));
            }
        }
        p.location = Location::Line(best.map_or(first_line, |(_, l)| l));
    }
    p
}

/// The Cursor rules on front matter: the fields of [`PLAN`] and [`TODO`], unique todo
/// ids, dependencies that exist, no cycles. A name or overview that is not text is
/// read tolerantly, with a warning.
fn validate_map(map: &Map<String, Value>) -> Vec<Problem> {
    let mut out = Vec::new();
    for key in [NAME, OVERVIEW] {
        match map.get(key) {
            None | Some(Value::String(_)) | Some(Value::Null) => {}
            Some(Value::Array(_)) => out.push(Problem::warning(
                "schema",
                PathBuf::root().key_loc(key),
                format!("`{key}` is a list; read as one text joined with \", \""),
            )),
            Some(_) => out.push(Problem::warning(
                "schema",
                PathBuf::root().key_loc(key),
                format!("`{key}` is not text"),
            )),
        }
    }
    out.extend(table::check(map, &PathBuf::root(), &PLAN));
    let Some(todos) = map.get(TODOS).and_then(Value::as_array) else {
        return out;
    };
    let base = PathBuf::root().key(TODOS);
    let id_key = TODO.key_of(To::Task(TaskField::Id));
    for (i, t) in todos.iter().enumerate() {
        if let Some(id) = t.get(id_key)
            && !id.is_string()
            && !id.is_null()
        {
            out.push(Problem::warning(
                "schema",
                base.index(i).key_loc(id_key),
                "todo id is not text",
            ));
        }
    }
    let nodes: Vec<Node<'_>> = checks::nodes_of(
        todos,
        &base,
        TODO.key_of(To::Task(TaskField::Id)),
        TODO.key_of(To::Task(TaskField::Dependencies)),
    );
    out.extend(checks::unique_ids(&nodes, "unique-ids", "todo"));
    out.extend(checks::known_refs(&nodes, "known-dependencies", "todo"));
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys taken from the table by position are the fields they stand for.
    #[test]
    fn keys_taken_by_position_name_their_fields() {
        assert_eq!(NAME, PLAN.key_of(To::Plan(PlanField::Title)));
        assert_eq!(OVERVIEW, PLAN.key_of(To::Plan(PlanField::Goal)));
        assert!(
            matches!(PLAN.field(TODOS).map(|f| &f.kind), Some(Kind::Items(t)) if std::ptr::eq(*t, &TODO))
        );
        assert!(matches!(
            PLAN.field(BODY).map(|f| (&f.kind, f.to)),
            Some((Kind::Str, To::Own))
        ));
        assert!(named_key(TODOS) && !named_key(BODY) && !named_key("isProject"));
    }
}
