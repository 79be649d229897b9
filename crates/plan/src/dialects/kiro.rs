//! Kiro spec task lists (`.kiro/specs/<feature>/tasks.md`): `# Implementation Plan`,
//! then numbered checkbox tasks (`- [x] 1. Title`), subtasks (`- [ ] 2.1 Title`,
//! indented or not), detail bullets under each, and `_Requirements: 1.1, 2.3_`
//! pointing into the spec's `requirements.md`. `- [ ]*` marks an optional task, `[-]`
//! or `[~]` one in progress. The tables [`PLAN`] and [`TASK`] describe its tree form
//! (JSON, YAML, TOON) and what the markdown holds.
//!
//! `# Implementation Plan` is the heading of every Kiro task list, not a title: it reads
//! as a plan without one, and a plan without a title is written with it. Another
//! heading is the plan's title (without a CommonMark closing sequence: `# Title #` is
//! `Title`). A plan whose title is `Implementation Plan` itself is written
//! `# Implementation Plan #`, which reads back as that title; the tree form's `heading`
//! holds the heading's text as the markdown writes it.
//!
//! A subtask's parent is the task its dotted number extends (`2.1` → `2`). A number
//! written again with another title (tasks added by hand) is a task of its own (`3-2`,
//! its subtasks `3-2.1`, …), as Spec Kit reads its ids (`checklist::OwnIds`), with a
//! warning. Kiro states no dependencies: tasks run in order. Lines that are not tasks
//! (an introduction, notes, checkpoints without a number) and any other spelling are
//! kept as a text patch against the canonical rendering, so a file comes back byte for
//! byte.

use std::collections::HashMap;

use serde_json::Value;

use super::checklist::{
    self, DEPENDS_ON, OwnIds, Repeats, check_line, labelled, mark_of, renumbered, repeated,
    status_of,
};
use super::{Dialect, DialectId, Read};
use crate::dialects::checks::{self, Node};
use crate::model::{Plan, Task};
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fill::{Fill, rename_task_ids, title_from_words, translate_status};
use crate::table::{self, Field, Kind, PlanField, Table, TaskField, To, slot};

/// The Kiro dialect.
pub struct Kiro;

impl DialectId {
    /// Kiro `.kiro/specs/<feature>/tasks.md`.
    pub const KIRO: DialectId = DialectId::named("kiro");
}

/// A Kiro task list as a tree.
pub static PLAN: Table = Table {
    title: "Kiro tasks",
    doc: "A Kiro spec's task list (`.kiro/specs/<feature>/tasks.md`) as a tree: its heading \
          and its tasks, subtasks after their task.",
    fields: &[
        Field::new(
            "heading",
            Kind::Str,
            true,
            "The file's heading: `Implementation Plan` (no title), or the plan's title \
             (`Implementation Plan #` for the title `Implementation Plan`).",
        )
        .to(To::Plan(PlanField::Title)),
        Field::new("tasks", Kind::Items(&TASK), true, "The tasks, in order.").to(To::Own),
        Field::new(
            "layout",
            Kind::Object,
            false,
            "How the markdown file is written where it is not canonical.",
        )
        .to(To::Own),
    ],
};

/// A task or subtask.
pub static TASK: Table = Table {
    title: "Kiro task",
    doc: "A task: its number (`2`, `2.1`), title, progress and details.",
    fields: &[
        Field::new(
            "id",
            Kind::Str,
            true,
            "Its number: `2`, or `2.1` for a subtask.",
        )
        .check(table::Check::NonBlank, "schema")
        .to(To::Task(TaskField::Id)),
        Field::new("title", Kind::Str, true, "What to do.").to(To::Task(TaskField::Title)),
        Field::new("status", Kind::Str, false, "Progress: the box.")
            .check(
                table::Check::OneOf(super::cursor::STATUSES),
                "known-statuses",
            )
            .to(To::Task(TaskField::Status)),
        Field::new("optional", Kind::Bool, false, "`- [ ]*`: may be skipped."),
        Field::new(
            "details",
            Kind::Str,
            false,
            "The bullets under it, one a line.",
        )
        .to(To::Task(TaskField::Details)),
        Field::new(
            "dependencies",
            Kind::Strings,
            false,
            "The tasks it waits for (`_Depends on: 1, 2.1_`; Kiro itself runs tasks in order).",
        )
        .to(To::Task(TaskField::Dependencies)),
        Field::new(
            "requirements",
            Kind::Strings,
            false,
            "The requirements it meets (`_Requirements: 1.1, 2.3_`).",
        )
        .to(To::Task(TaskField::Requirements)),
        Field::new("parent", Kind::Str, false, "The task it is a subtask of.")
            .to(To::Task(TaskField::Parent)),
    ],
};

/// Layout key: the lines where the file differs from the canonical rendering.
pub const PATCH: &str = "kiro.patch";
/// The heading of a Kiro task list.
const HEADING: &str = "Implementation Plan";
/// The key of the task list in the tree form.
const TASKS: &str = PLAN.list_key();
/// The key of the layout in the tree form.
const LAYOUT: &str = "layout";
/// The label of a task's requirements line (`_Requirements: 1.1, 2.3_`).
const REQUIREMENTS: &str = "Requirements";
/// The extra field of an optional task.
const OPTIONAL: &str = "optional";

impl Dialect for Kiro {
    fn id(&self) -> DialectId {
        DialectId::KIRO
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Md
    }

    fn supports(&self, _format: Format) -> bool {
        true
    }

    fn claims_path(&self, lower_path: &str) -> bool {
        let in_specs =
            lower_path.starts_with(".kiro/specs/") || lower_path.contains("/.kiro/specs/");
        in_specs && lower_path.ends_with("/tasks.md")
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc {
            Document::Markdown(text) => {
                let numbered = text
                    .lines()
                    .filter_map(check_line)
                    .any(|c| number(c.rest).is_some());
                let ours = text
                    .lines()
                    .any(|l| l.trim_end() == format!("# {HEADING}") || requirements(l).is_some());
                if numbered && ours { 80 } else { 0 }
            }
            Document::Tree(Value::Object(o))
                if o.contains_key("heading") && o.contains_key(TASKS) =>
            {
                85
            }
            Document::Tree(_) => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        match doc {
            Document::Markdown(text) => Ok(read_markdown(text).into()),
            Document::Tree(Value::Object(o)) => {
                let mut f = crate::table::fields::Fields::new(o);
                let mut plan = Plan::default();
                slot::read(&PLAN, &mut f, &mut plan);
                plan.title = plan.title.and_then(|h| title(&h));
                if let Some(items) = f.array(TASKS) {
                    plan.tasks = items.iter().map(|t| slot::read_task(&TASK, t)).collect();
                }
                if let Some(layout) = f.object(LAYOUT) {
                    plan.layout.entries = layout;
                }
                plan.extra = f.extra();
                Ok(plan.into())
            }
            Document::Tree(_) => Err(PlanError::new(
                ErrorKind::Shape,
                "a Kiro task list in JSON, YAML or TOON is an object with `heading` and `tasks`",
            )),
        }
    }

    fn keep_text(&self, plan: &mut Plan, text: &str, format: Format) {
        if format == Format::Md {
            checklist::keep_text(plan, PATCH, text, render);
        }
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc {
            Document::Markdown(text) => {
                let (lines, mut out) = task_lines(text);
                let plan = read_markdown(text);
                // Each task located by its line (as a path `[N]`, turned into the line).
                let nodes: Vec<Node<'_>> = plan
                    .tasks
                    .iter()
                    .zip(&lines)
                    .map(|(t, &line)| Node {
                        id: t.id.as_str(),
                        path: PathBuf::root().index(line),
                        deps: t
                            .dependencies
                            .iter()
                            .flatten()
                            .map(|d| (d.as_str(), PathBuf::root().index(line)))
                            .collect(),
                    })
                    .collect();
                out.extend(checklist::at_lines(graph_problems(&nodes)));
                out
            }
            Document::Tree(Value::Object(o)) => {
                let mut out = table::check(o, &PathBuf::root(), &PLAN);
                let items = o.get(TASKS).and_then(Value::as_array);
                let nodes = checks::nodes_of(
                    items.map(Vec::as_slice).unwrap_or_default(),
                    &PathBuf::root().key(TASKS),
                    "id",
                    "dependencies",
                );
                out.extend(graph_problems(&nodes));
                out
            }
            Document::Tree(_) => vec![Problem::error(
                "schema",
                Location::Document,
                "a Kiro task list must be an object",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        match format {
            Format::Md => Ok(checklist::write(plan, PATCH, render, |t| {
                Some(read_markdown(t))
            })),
            other => format::write_tree(&to_tree(plan), other),
        }
    }

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        number_tasks(plan, fills);
        for t in &mut plan.tasks {
            title_from_words(t, fills);
            translate_status(
                t,
                super::cursor::STATUSES,
                &[("done", "completed"), ("in-progress", "in_progress")],
                "pending",
                "the same progress as a box",
                fills,
            );
        }
    }
}

/// A task's number at the start of a line's text (`2.` or `2.1`), and the title after
/// it. An id of another dialect written as Kiro numbers its tasks (`setup-db.`,
/// `build.`, `tag:3.`: letters, digits, `_`, `-`, `:` and `.`, and a final `.`) reads
/// as that id.
fn number(rest: &str) -> Option<(&str, &str)> {
    let end = rest.find(' ')?;
    let (token, title) = (&rest[..end], rest[end + 1..].trim());
    let num = token.strip_suffix('.').unwrap_or(token);
    let numbered = !num.is_empty()
        && num
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let id_like = token.ends_with('.') && checklist::is_id_like(num);
    (numbered || id_like).then_some((num, title))
}

/// The plan's title a heading's text (after `# `) gives: none for Kiro's own
/// `Implementation Plan`; otherwise the text without its CommonMark closing sequence
/// (`# Title #` is the heading `Title`).
fn title(heading: &str) -> Option<String> {
    if heading == HEADING {
        return None;
    }
    let open = heading.trim_end_matches('#');
    let closed = open.len() < heading.len() && (open.is_empty() || open.ends_with([' ', '\t']));
    Some(if closed { open.trim_end() } else { heading }.to_owned())
}

/// The heading's text (after `# `) a plan's title is written as: the title itself, or
/// Kiro's `Implementation Plan` for a plan without one. A title the plain heading would
/// not give back (the title `Implementation Plan` itself, a title ending in ` #`) is
/// written with a closing sequence, `# Implementation Plan #`: the same heading to any
/// markdown reader, and the title to [`title`].
fn heading(plan_title: Option<&str>) -> String {
    match plan_title {
        None => HEADING.to_owned(),
        Some(t) if title(t).as_deref() == Some(t) => t.to_owned(),
        Some(t) => format!("{t} #"),
    }
}

/// The requirement numbers of a `_Requirements: 1.1, 2.3_` line.
fn requirements(line: &str) -> Option<Vec<String>> {
    labelled(line, REQUIREMENTS)
}

/// The 1-based lines of the task lines, in order, and a warning for each task
/// written again (not a task of the plan) and each number used again with another
/// title (a task of its own).
fn task_lines(text: &str) -> (Vec<usize>, Vec<Problem>) {
    let mut ids = TaskIds::default();
    let mut lines = Vec::new();
    let mut warnings = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let Some((written, title)) = check_line(l).and_then(|c| number(c.rest)) else {
            continue;
        };
        match ids.place(written, title, i + 1) {
            Placed::Again(first) => {
                warnings.push(repeated(written, i + 1, first));
                continue;
            }
            Placed::Task {
                id,
                renumbered: Some(first),
                ..
            } => warnings.push(renumbered(written, &id, i + 1, first)),
            Placed::Task { .. } => {}
        }
        lines.push(i + 1);
    }
    (lines, warnings)
}

/// The ids of a file's task lines, read in order: a task line written again (same
/// number, same title) is no task; a subtask (`3.1`) is under the task its number
/// extends as last written, and its id extends that task's id (`3-2.1` under a `3.`
/// read as `3-2`); a number used again with another title is a task of its own
/// ([`OwnIds`]).
#[derive(Default)]
struct TaskIds<'a> {
    repeats: Repeats<'a>,
    own: OwnIds,
    /// Each number read so far, with the id of the task it last numbered.
    numbered: HashMap<&'a str, String>,
}

/// What a task line is: a task written again, or a task with its id and parent.
enum Placed {
    /// The same task as at this line.
    Again(usize),
    /// A task of the plan.
    Task {
        /// Its id.
        id: String,
        /// The task its number extends.
        parent: Option<String>,
        /// The line of its id's first use, when the id was used before.
        renumbered: Option<usize>,
    },
}

impl<'a> TaskIds<'a> {
    /// Places the task line numbered `written`, titled `title`, at `line`.
    fn place(&mut self, written: &'a str, title: &'a str, line: usize) -> Placed {
        if let Some(first) = self.repeats.again(written, title, line) {
            return Placed::Again(first);
        }
        let parent = written
            .rsplit_once('.')
            .and_then(|(p, local)| Some((self.numbered.get(p)?.clone(), local)));
        let base = match &parent {
            Some((p, local)) => format!("{p}.{local}"),
            None => written.to_owned(),
        };
        let (id, renumbered) = self.own.place(&base, line);
        self.numbered.insert(written, id.clone());
        Placed::Task {
            id,
            parent: parent.map(|(p, _)| p),
            renumbered,
        }
    }
}

/// Ids repeated, dependencies on no task, cycles.
fn graph_problems(nodes: &[Node<'_>]) -> Vec<Problem> {
    let mut out = checks::unique_ids(nodes, "unique-ids", "task");
    out.extend(checks::known_refs(nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(nodes, "acyclic"));
    out
}

/// Reads a Kiro markdown file: its heading and its numbered tasks with their
/// bullets. Never fails: what is not a task is left for the layout.
pub fn read_markdown(text: &str) -> Plan {
    let mut plan = Plan::default();
    let mut heading = false;
    let mut current: Option<(usize, usize)> = None; // (task index, indent)
    let mut ids = TaskIds::default();
    for (n, line) in text.lines().enumerate() {
        if !heading && let Some(h) = line.strip_prefix("# ") {
            heading = true;
            plan.title = title(h.trim_end());
            continue;
        }
        if let Some(c) = check_line(line)
            && let Some((written, title)) = number(c.rest)
        {
            let Placed::Task { id, parent, .. } = ids.place(written, title, n + 1) else {
                current = None;
                continue;
            };
            let mut t = Task::new(id);
            t.title = Some(title.to_owned());
            t.status = Some(status_of(c.mark).to_owned());
            t.parent = parent;
            if c.optional {
                t.extra.insert(OPTIONAL.into(), Value::Bool(true));
            }
            plan.tasks.push(t);
            current = Some((plan.tasks.len() - 1, c.indent));
            continue;
        }
        let Some((i, indent)) = current else { continue };
        let trimmed = line.trim_start();
        let deeper = line.len() - trimmed.len() > indent;
        let bullet = trimmed.strip_prefix("- ").filter(|_| deeper);
        let Some(bullet) = bullet else {
            if !line.trim().is_empty() {
                current = None;
            }
            continue;
        };
        let t = &mut plan.tasks[i];
        match (requirements(line), labelled(line, DEPENDS_ON)) {
            (Some(r), _) if t.requirements.is_none() => t.requirements = Some(r),
            (_, Some(d)) if t.dependencies.is_none() => t.dependencies = Some(d),
            _ => match &mut t.details {
                Some(d) => {
                    d.push('\n');
                    d.push_str(bullet.trim_end());
                }
                None => t.details = Some(bullet.trim_end().to_owned()),
            },
        }
    }
    plan
}

/// The canonical markdown of a plan as a Kiro task list.
fn render(plan: &Plan) -> String {
    let mut out = format!("# {}\n", heading(plan.title.as_deref()));
    let ids: std::collections::HashSet<&str> = plan.tasks.iter().map(|t| t.id.as_str()).collect();
    for t in &plan.tasks {
        let sub = t.parent.as_deref().is_some_and(|p| ids.contains(p));
        let indent = if sub { "  " } else { "" };
        if !sub {
            out.push('\n');
        }
        let optional = if t.extra.get(OPTIONAL) == Some(&Value::Bool(true)) {
            "*"
        } else {
            ""
        };
        let dot = if t.id.contains('.') && number(&format!("{} x", t.id)).is_some() {
            ""
        } else {
            "."
        };
        out.push_str(&format!(
            "{indent}- [{}]{optional} {}{dot} {}\n",
            mark_of(t.status.as_deref()),
            t.id,
            t.title.as_deref().unwrap_or("")
        ));
        for d in t.details.iter().flat_map(|d| d.lines()) {
            out.push_str(&format!("{indent}  - {d}\n"));
        }
        for (label, items) in [
            (DEPENDS_ON, &t.dependencies),
            (REQUIREMENTS, &t.requirements),
        ] {
            if let Some(items) = items {
                out.push_str(&format!("{indent}  - _{label}: {}_\n", items.join(", ")));
            }
        }
    }
    out
}

/// The tree form: heading (as the markdown writes it: [`heading`]), tasks, and the
/// layout when there is one.
fn to_tree(plan: &Plan) -> Value {
    let tasks = slot::write_tasks(&TASK, &plan.tasks);
    let headed = Plan {
        title: Some(heading(plan.title.as_deref())),
        ..plan.clone()
    };
    slot::write(&PLAN, &headed, |f| match f.key {
        LAYOUT if !plan.layout.is_empty() => {
            Some(crate::table::fields::object(&plan.layout.entries))
        }
        LAYOUT => None,
        _ => Some(tasks.clone()),
    })
}

/// Tasks numbered as Kiro numbers them (`1`, `2`, … and a subtask `2.1`, `2.2`, …)
/// where some id would not read back from a task line (a plain word, a space);
/// dependencies and parents renamed alike.
fn number_tasks(plan: &mut Plan, fills: &mut Vec<Fill>) {
    let reads_back = |id: &str| {
        number(&format!("{id}. x")).is_some_and(|(n, _)| n == id)
            || number(&format!("{id} x")).is_some_and(|(n, _)| n == id)
    };
    if plan.tasks.iter().all(|t| reads_back(&t.id)) {
        return;
    }
    let mut renamed: HashMap<String, String> = HashMap::new();
    let mut top = 0;
    let mut subs: HashMap<String, usize> = HashMap::new();
    for t in &plan.tasks {
        let parent = t.parent.as_ref().and_then(|p| renamed.get(p).cloned());
        let id = match parent {
            Some(p) => {
                let n = subs.entry(p.clone()).or_insert(0);
                *n += 1;
                format!("{p}.{n}")
            }
            None => {
                top += 1;
                top.to_string()
            }
        };
        renamed.insert(t.id.clone(), id);
    }
    rename_task_ids(plan, &renamed, fills, "numbered in order");
}
