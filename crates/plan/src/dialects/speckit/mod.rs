//! GitHub Spec Kit task lists (`specs/<NNN-feature>/tasks.md`): `# Tasks: <Feature>`,
//! `## Phase N: …` sections (setup, foundations, one per user story with its priority,
//! polish), and flat checkbox tasks `- [ ] T001 [P] [US1] Description with file path`
//! (`[x]` or `[X]` when done; ids such as `T010a`). The tables [`PLAN`], [`PHASE`] and
//! [`TASK`] describe its tree form (JSON, YAML, TOON) and what the markdown holds.
//!
//! Spec Kit runs phases in order and, within a phase, tasks in order, except that
//! `[P]` tasks may run together ("different files, no dependencies"): a run of `[P]`
//! tasks starts when the task before it is done, and the next task waits for the whole
//! run. The plan model holds that order as it runs: each phase is a group depending on
//! the phase before it, and each task depends on the task (or run of `[P]` tasks)
//! before it in its phase, so the schedule, `plan next` and every other dialect see it.
//! Those dependencies are derived from the file, never written into it; a task whose
//! dependencies say otherwise (a plan from another dialect) has them in a line under
//! it, `  - _Depends on: T001, T004_`, as Kiro writes them.
//!
//! Everything else (the format notes, checkpoints, the closing "Dependencies &
//! Execution Order" section, other spellings) is kept as a text patch against the
//! canonical rendering, so a file comes back byte for byte.

use serde_json::Value;

use super::checklist::{
    self, DEPENDS_ON, OwnIds, Repeats, labelled, mark_of, renumbered, repeated, status_of,
};
use super::{Dialect, DialectId, Read};

mod ids;
mod lines;
mod order;

use crate::dialects::checks::{self, Node};
use crate::model::{Group, Plan, Task};
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fill::{Fill, title_from_words, translate_status};
use crate::table::{self, Field, GroupField, Kind, PlanField, Table, TaskField, To, slot};
use ids::{number_phases, number_tasks, written_id};
use lines::{feature, phase, task_line};
use order::{derive_order, implied, is_parallel};

/// The Spec Kit dialect.
pub struct SpecKit;

impl DialectId {
    /// GitHub Spec Kit `specs/<NNN-feature>/tasks.md`.
    pub const SPECKIT: DialectId = DialectId::named("speckit");
}

/// A Spec Kit task list as a tree.
pub static PLAN: Table = Table {
    title: "Spec Kit tasks",
    doc: "A Spec Kit feature's task list (`specs/<NNN-feature>/tasks.md`) as a tree: the \
          feature, its tasks in order and its phases.",
    fields: &[
        Field::new(
            "feature",
            Kind::Str,
            false,
            "The feature (`# Tasks: <Feature>`).",
        )
        .to(To::Plan(PlanField::Title)),
        Field::new("tasks", Kind::Items(&TASK), true, "The tasks, in order.").to(To::Own),
        Field::new(
            "phases",
            Kind::Items(&PHASE),
            false,
            "The phases (`## Phase N: …`), in order: each runs after the one before it.",
        )
        .to(To::Own),
        Field::new(
            "layout",
            Kind::Object,
            false,
            "How the markdown file is written where it is not canonical.",
        )
        .to(To::Own),
    ],
};

/// A phase.
pub static PHASE: Table = Table {
    title: "Spec Kit phase",
    doc: "A phase: `## Phase 3: User Story 1 - Title (Priority: P1)`.",
    fields: &[
        Field::new("id", Kind::Str, true, "Its number as written (`3`).")
            .check(table::Check::NonBlank, "schema")
            .to(To::Group(GroupField::Id)),
        Field::new(
            "name",
            Kind::Str,
            false,
            "Its heading after `Phase N: ` (a user story with its priority, `Setup`, …).",
        )
        .to(To::Group(GroupField::Name)),
    ],
};

/// A task.
pub static TASK: Table = Table {
    title: "Spec Kit task",
    doc: "A task: `- [ ] T012 [P] [US1] Create User model in src/models/user.py`.",
    fields: &[
        Field::new("id", Kind::Str, true, "Its id: `T012`, `T010a`.")
            .check(table::Check::NonBlank, "schema")
            .to(To::Task(TaskField::Id)),
        Field::new(
            "title",
            Kind::Str,
            true,
            "What to do, with the files it touches.",
        )
        .to(To::Task(TaskField::Title)),
        Field::new("status", Kind::Str, false, "Progress: the box.")
            .check(
                table::Check::OneOf(super::cursor::STATUSES),
                "known-statuses",
            )
            .to(To::Task(TaskField::Status)),
        Field::new(
            PARALLEL,
            Kind::Bool,
            false,
            "`[P]`: may run together with the `[P]` tasks next to it.",
        ),
        Field::new(
            STORY,
            Kind::Str,
            false,
            "The user story it belongs to (`[US1]`).",
        ),
        Field::new("phase", Kind::Str, false, "The id of its phase.")
            .to(To::Task(TaskField::Group)),
        Field::new(
            "dependencies",
            Kind::Strings,
            false,
            "The tasks it waits for, where they are not the order's (`_Depends on: T001_`).",
        )
        .to(To::Task(TaskField::Dependencies)),
    ],
};

/// Layout key: the lines where the file differs from the canonical rendering.
pub const PATCH: &str = "speckit.patch";
/// What the heading says before the feature.
const HEADING: &str = "Tasks";
/// The key of the task list in the tree form.
const TASKS: &str = "tasks";
/// The key of the phases in the tree form.
const PHASES: &str = "phases";
/// The key of the layout in the tree form.
const LAYOUT: &str = "layout";
/// The extra field of a `[P]` task.
const PARALLEL: &str = "parallel";
/// The extra field of a task's user story label.
const STORY: &str = "story";
/// A phase heading's start.
const PHASE_HEADING: &str = "## Phase ";

impl Dialect for SpecKit {
    fn id(&self) -> DialectId {
        DialectId::SPECKIT
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

    fn orders_by_position(&self) -> bool {
        true
    }

    fn claims_path(&self, lower_path: &str) -> bool {
        let in_specs = lower_path.starts_with("specs/") || lower_path.contains("/specs/");
        in_specs && !lower_path.contains(".kiro/") && lower_path.ends_with("/tasks.md")
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc {
            Document::Markdown(text) => {
                let tasks = text.lines().filter_map(task_line).count();
                let heading = text.lines().any(|l| {
                    l.strip_prefix("# ")
                        .is_some_and(|h| h.trim_end() == HEADING || feature(l).is_some())
                });
                let phases = text.lines().any(|l| phase(l).is_some());
                if tasks > 0 && (heading || phases) {
                    80
                } else {
                    0
                }
            }
            Document::Tree(Value::Object(o))
                if o.contains_key(TASKS)
                    && (o.contains_key("feature") || o.contains_key(PHASES)) =>
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
                if let Some(items) = f.array(TASKS) {
                    plan.tasks = items.iter().map(|t| slot::read_task(&TASK, t)).collect();
                }
                if let Some(items) = f.array(PHASES) {
                    plan.groups = items
                        .iter()
                        .filter_map(Value::as_object)
                        .map(|g| slot::read_record(&PHASE, g))
                        .collect();
                }
                if let Some(layout) = f.object(LAYOUT) {
                    plan.layout.entries = layout;
                }
                plan.extra = f.extra();
                derive_order(&mut plan);
                Ok(plan.into())
            }
            Document::Tree(_) => Err(PlanError::new(
                ErrorKind::Shape,
                "a Spec Kit task list in JSON, YAML or TOON is an object with `tasks`",
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
                let plan = read_markdown(text);
                let (lines, mut out) = task_lines(text);
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
                let list = |key: &str| {
                    let items = o.get(key).and_then(Value::as_array);
                    checks::nodes_of(
                        items.map(Vec::as_slice).unwrap_or_default(),
                        &PathBuf::root().key(key),
                        "id",
                        "",
                    )
                };
                let tasks = {
                    let items = o.get(TASKS).and_then(Value::as_array);
                    checks::nodes_of(
                        items.map(Vec::as_slice).unwrap_or_default(),
                        &PathBuf::root().key(TASKS),
                        "id",
                        "dependencies",
                    )
                };
                out.extend(graph_problems(&tasks));
                out.extend(checks::unique_ids(&list(PHASES), "unique-phases", "phase"));
                out
            }
            Document::Tree(_) => vec![Problem::error(
                "schema",
                Location::Document,
                "a Spec Kit task list must be an object",
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
        number_phases(plan, fills);
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

/// Task ids repeated, dependencies on no task, cycles (through `_Depends on:_`
/// lines).
fn graph_problems(nodes: &[Node<'_>]) -> Vec<Problem> {
    let mut out = checks::unique_ids(nodes, "unique-ids", "task");
    out.extend(checks::known_refs(nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(nodes, "acyclic"));
    out
}

/// The 1-based lines of the tasks read, in order, and a warning for each task written
/// again, each task id and each phase number used again.
fn task_lines(text: &str) -> (Vec<usize>, Vec<Problem>) {
    let mut repeats = Repeats::default();
    let (mut phases, mut tasks) = (OwnIds::default(), OwnIds::default());
    let mut lines = Vec::new();
    let mut warnings = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if let Some((number, _)) = phase(l)
            && let (own, Some(first)) = phases.place(number, i + 1)
        {
            warnings.push(Problem::warning(
                "unique-phases",
                Location::Line(i + 1),
                format!(
                    "phase {number} is numbered again (first at line {first}): it is read \
                     as its own phase, {own}, after the one before it"
                ),
            ));
        }
        let Some(row) = task_line(l) else { continue };
        if let Some(first) = repeats.again(row.id, row.title, i + 1) {
            warnings.push(repeated(row.id, i + 1, first));
            continue;
        }
        if let (own, Some(first)) = tasks.place(row.id, i + 1) {
            warnings.push(renumbered(row.id, &own, i + 1, first));
        }
        lines.push(i + 1);
    }
    (lines, warnings)
}

/// Reads a Spec Kit markdown file: its feature, phases and tasks. Never fails: what
/// is not a task or a phase is left for the layout.
pub fn read_markdown(text: &str) -> Plan {
    let mut plan = Plan::default();
    let mut heading = false;
    let mut current: Option<String> = None;
    // The task of the line before (its index and indentation).
    let mut last: Option<(usize, usize)> = None;
    let mut repeats = Repeats::default();
    let (mut phases, mut tasks) = (OwnIds::default(), OwnIds::default());
    for (n, line) in text.lines().enumerate() {
        if !heading && line.starts_with("# ") {
            heading = true;
            plan.title = feature(line).map(str::to_owned);
            continue;
        }
        if let Some((number, name)) = phase(line) {
            // A number used again (phases numbered alike) is a phase of its own.
            let (id, _) = phases.place(number, n + 1);
            plan.groups.push(Group {
                id: id.clone(),
                name: name.map(str::to_owned),
                ..Group::default()
            });
            current = Some(id);
            last = None;
            continue;
        }
        if line.starts_with("## ") {
            // A section that is no phase (the closing notes) ends the phase.
            current = None;
            last = None;
            continue;
        }
        let row = task_line(line).filter(|r| repeats.again(r.id, r.title, n + 1).is_none());
        let Some(row) = row else {
            // The dependencies of the task above, when they are not the order's.
            if let Some((i, indent)) = last
                && line.len() - line.trim_start().len() > indent
                && let Some(deps) = labelled(line, DEPENDS_ON)
                && plan.tasks[i].dependencies.is_none()
            {
                plan.tasks[i].dependencies = Some(deps);
            }
            last = None;
            continue;
        };
        // An id used again with another title is a task of its own.
        let mut t = Task::new(tasks.place(row.id, n + 1).0);
        t.title = Some(row.title.to_owned());
        t.status = Some(status_of(row.mark).to_owned());
        if row.parallel {
            t.extra.insert(PARALLEL.into(), Value::Bool(true));
        }
        if let Some(s) = row.story {
            t.extra.insert(STORY.into(), Value::String(s.to_owned()));
        }
        t.group.clone_from(&current);
        plan.tasks.push(t);
        last = Some((plan.tasks.len() - 1, row.indent));
    }
    derive_order(&mut plan);
    plan
}

/// The canonical markdown of a plan as a Spec Kit task list: the heading, the tasks
/// of no phase, then each phase with its tasks.
fn render(plan: &Plan) -> String {
    let mut out = match plan.title.as_deref() {
        Some(f) => format!("# {HEADING}: {f}\n"),
        None => format!("# {HEADING}\n"),
    };
    let known: std::collections::HashSet<&str> =
        plan.groups.iter().map(|g| g.id.as_str()).collect();
    let phase_of = |t: &Task| t.group.clone().filter(|g| known.contains(g.as_str()));
    let implied = implied(plan);
    let write_tasks = |out: &mut String, p: Option<&str>| {
        let mut first = true;
        for (i, t) in plan.tasks.iter().enumerate() {
            if phase_of(t).as_deref() != p {
                continue;
            }
            if first {
                out.push('\n');
                first = false;
            }
            out.push_str(&format!(
                "- [{}] {}",
                mark_of(t.status.as_deref()),
                written_id(&t.id)
            ));
            if is_parallel(t) {
                out.push_str(" [P]");
            }
            if let Some(Value::String(s)) = t.extra.get(STORY) {
                out.push_str(&format!(" [{s}]"));
            }
            match t.title.as_deref() {
                Some(title) if !title.is_empty() => out.push_str(&format!(" {title}\n")),
                _ => out.push('\n'),
            }
            if implied[i] != t.dependencies {
                let deps = t.dependencies.as_deref().unwrap_or_default().join(", ");
                out.push_str(&format!("  - _{DEPENDS_ON}: {deps}_\n"));
            }
        }
    };
    write_tasks(&mut out, None);
    for g in &plan.groups {
        match g.name.as_deref() {
            Some(name) => out.push_str(&format!("\n{PHASE_HEADING}{}: {name}\n", g.id)),
            None => out.push_str(&format!("\n{PHASE_HEADING}{}:\n", g.id)),
        }
        write_tasks(&mut out, Some(&g.id));
    }
    out
}

/// The tree form: feature, tasks (their dependencies where the order does not give
/// them), phases, and the layout when there is one.
fn to_tree(plan: &Plan) -> Value {
    let mut tasks = plan.tasks.clone();
    for (t, implied) in tasks.iter_mut().zip(implied(plan)) {
        if t.dependencies == implied {
            t.dependencies = None;
        } else if t.dependencies.is_none() {
            t.dependencies = Some(Vec::new());
        }
    }
    let tasks = slot::write_tasks(&TASK, &tasks);
    let phases: Vec<Value> = plan
        .groups
        .iter()
        .map(|g| {
            let g = Group {
                dependencies: None,
                ..g.clone()
            };
            slot::write(&PHASE, &g, |_| None)
        })
        .collect();
    slot::write(&PLAN, plan, |f| match f.key {
        LAYOUT if !plan.layout.is_empty() => {
            Some(crate::table::fields::object(&plan.layout.entries))
        }
        PHASES if !phases.is_empty() => Some(Value::Array(phases.clone())),
        LAYOUT | PHASES => None,
        _ => Some(tasks.clone()),
    })
}
