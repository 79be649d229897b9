//! What a conversion fills in: before a plan is written in a dialect, every field the
//! dialect requires and the plan lacks is derived from what the plan holds (a PlanDAG
//! `parallel_group` is the task's schedule wave), defaulted where one value is the
//! obvious one (a Cursor todo's `status` is `pending`), or taken from a [`Setting`]
//! (`FIELD=VALUE`: `--set` on the command line, `set=` in Python). Where no sensible
//! value exists (a tool DAG's `tool`, a PlanDAG `action`), nothing is invented: the
//! target's validation then names the field and the conversion report says which
//! field a setting fills ([`crate::ConversionReport::settable`]).
//!
//! Each dialect fills its own fields ([`crate::Dialect::fill`], in its module) with the
//! shared rules here (`plan_id_from_title`, `translate_kind`); this module fills the place for a task's words and applies the
//! settings and records every [`Fill`]. The rules, one row per target field, are
//! the table in `docs/plan-mapping.md`; each [`Fill`] records the rule it applied, and
//! the loss report lists it.

use std::fmt;

use serde_json::Number;

use crate::dialects::DialectId;
use crate::model::{Plan, Task};
use crate::problem::{ErrorKind, PlanError};
use crate::table::fill::{EMPTY_TEXT, Fill, FillKind, SET_RULE, group_fill, plan_fill, task_fill};
use crate::table::slot::{Record, Slot};
use crate::table::{Choice, Field, Kind, Table, TaskField, To, one_of};

/// A value a conversion puts in a task field the target requires: `FIELD=VALUE` for
/// every task that lacks a valid one, or `TASK.FIELD=VALUE` for one task.
///
/// ```
/// use toon_plan::Setting;
/// let every = Setting::new("tool", "web_search")?;
/// assert_eq!(every.to_string(), "tool=web_search");
/// let one = Setting::new("tool", "calc")?.for_task("b");
/// assert_eq!(one, "b.tool=calc".parse()?);
/// assert!(Setting::new("colour", "red").is_err());
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The task it is for; `None` for every task.
    pub task: Option<String>,
    /// The field, as the target dialect or the model names it (`tool`, `agent_type`,
    /// `executor`, `intent`, `step_type`, `action`, `status`, …).
    pub field: String,
    /// The value, as text (a number for `parallel_group`).
    pub value: String,
}

impl Setting {
    /// A value for `field` of every task that lacks a valid one. The field is a model
    /// name or a dialect's own name for one ([`settable_names`]); any other is an error
    /// of kind [`ErrorKind::Setting`].
    pub fn new(field: &str, value: impl Into<String>) -> Result<Setting, PlanError> {
        let value = value.into();
        if model_field(field).is_none() {
            return Err(PlanError::new(
                ErrorKind::Setting,
                format!(
                    "{field}={value}: unknown field {field:?} (one of: {})",
                    settable_names().join(", ")
                ),
            ));
        }
        Ok(Setting {
            task: None,
            field: field.to_owned(),
            value,
        })
    }

    /// This setting for one task only.
    pub fn for_task(mut self, task: impl Into<String>) -> Setting {
        self.task = Some(task.into());
        self
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(task) = &self.task {
            write!(f, "{task}.")?;
        }
        write!(f, "{}={}", self.field, self.value)
    }
}

impl std::str::FromStr for Setting {
    type Err = PlanError;

    /// `FIELD=VALUE` or `TASK.FIELD=VALUE` (a task id may hold dots: the field is what
    /// follows the last one).
    fn from_str(s: &str) -> Result<Setting, PlanError> {
        let (key, value) = s.split_once('=').ok_or_else(|| {
            PlanError::new(
                ErrorKind::Setting,
                format!("{s:?}: expected FIELD=VALUE or TASK.FIELD=VALUE"),
            )
        })?;
        match key.rsplit_once('.') {
            Some((task, field)) => Ok(Setting::new(field, value)?.for_task(task)),
            None => Setting::new(key, value),
        }
    }
}

/// The task fields a [`Setting`] fills, by their model names. A dialect's own name for one
/// (`agent_type`, `intent`, `content`, …) comes from its field table.
const SETTABLE: &[(TaskField, &str)] = &[
    (TaskField::Tool, "tool"),
    (TaskField::Action, "action"),
    (TaskField::Target, "target"),
    (TaskField::Executor, "executor"),
    (TaskField::Kind, "kind"),
    (TaskField::Status, "status"),
    (TaskField::ParallelGroup, "parallel_group"),
    (TaskField::Title, "title"),
    (TaskField::Description, "description"),
];

/// Every field of a dialect's tables that holds a value (not an object or list of
/// objects), found by walking its root table into the objects and lists of objects it
/// holds.
fn value_fields(dialect: DialectId) -> Vec<&'static Field> {
    fn walk(table: &'static Table, out: &mut Vec<&'static Field>) {
        for f in table.fields {
            match f.kind {
                Kind::Items(t) | Kind::Nested(t) => walk(t, out),
                _ => out.push(f),
            }
        }
    }
    let mut out = Vec::new();
    if let Some(root) = dialect.dialect().table() {
        walk(root, &mut out);
    }
    out
}

/// Every field of a dialect's tables that fills a task field.
fn task_keys(dialect: DialectId) -> Vec<&'static Field> {
    let mut out = value_fields(dialect);
    out.retain(|f| matches!(f.to, To::Task(_)));
    out
}

/// The settable task field a name stands for, with its model name: a model name
/// itself, or a key that some dialect's table maps to one.
fn settable(name: &str) -> Option<(TaskField, &'static str)> {
    let by_model = |tf: TaskField| SETTABLE.iter().copied().find(|(t, _)| *t == tf);
    if let Some(hit) = SETTABLE.iter().copied().find(|(_, n)| *n == name) {
        return Some(hit);
    }
    DialectId::all()
        .flat_map(task_keys)
        .filter(|f| f.key == name)
        .find_map(|f| match f.to {
            To::Task(tf) => by_model(tf),
            _ => None,
        })
}

/// The model field a settable name stands for.
fn model_field(name: &str) -> Option<&'static str> {
    settable(name).map(|(_, n)| n)
}

/// Every name a [`Setting`] accepts: the model names, then the dialects' own names for them.
pub fn settable_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = SETTABLE.iter().map(|(_, n)| *n).collect();
    for f in DialectId::all().flat_map(task_keys) {
        if let To::Task(tf) = f.to
            && SETTABLE.iter().any(|(t, _)| *t == tf)
            && !names.contains(&f.key)
        {
            names.push(f.key);
        }
    }
    names
}

/// The values the target's table lists for a task field (empty when any value goes).
fn known_values(to: DialectId, field: TaskField) -> &'static [Choice] {
    task_keys(to)
        .into_iter()
        .find(|f| f.to == To::Task(field))
        .map_or(&[], Field::choices)
}

/// The plan with what `to` requires filled in, and what was filled. A plan written
/// back in its own dialect (`from == to`) gets only the settings: it already is
/// what that dialect holds. `name` is the source's name (a file's stem), the id of a
/// plan that has nothing else to make one of.
pub fn fill(
    plan: &Plan,
    from: DialectId,
    to: DialectId,
    sets: &[Setting],
    name: Option<&str>,
) -> Result<(Plan, Vec<Fill>), PlanError> {
    let mut out = plan.clone();
    let mut fills = Vec::new();
    // The sections and words come from what the plan says, before a setting replaces an
    // action.
    if from != to {
        groups_from_sections(&mut out, to, &mut fills);
        fill_words(&mut out, to, &mut fills);
    }
    apply_settings(&mut out, to, sets, &mut fills)?;
    if from == to {
        return Ok((out, fills));
    }
    title_from_body(&mut out, to, &mut fills);
    to.dialect().fill(&mut out, from, &mut fills);
    if let Some(name) = name {
        id_from_name(&mut out, to, name, &mut fills);
    }
    empty_required_text(&mut out, to, &mut fills);
    Ok((out, fills))
}

/// A plan without a title (a Cursor file without `name`) takes its body's first H1
/// heading as its title in a target that does not keep the body; the id and goal
/// rules then start from it.
fn title_from_body(plan: &mut Plan, to: DialectId, fills: &mut Vec<Fill>) {
    if plan.title.is_some() || to.dialect().keeps_body() {
        return;
    }
    if let Some(title) = plan
        .body
        .as_deref()
        .and_then(crate::syntax::body_tasks::body_title)
    {
        plan.title = Some(title);
        fills.push(plan_fill(
            "title",
            FillKind::Derived,
            "from the body's first heading",
        ));
    }
}

/// A plan whose tasks are its body's task list or numbered headings, and has no groups,
/// takes the body's sections as groups in a target that has groups (staged stages,
/// workflow tasks) and does not keep the body: each task joins the group of the heading
/// above it ([`crate::syntax::body_tasks::task_sections`]), named by its text; a task
/// before any section stays without one.
fn groups_from_sections(plan: &mut Plan, to: DialectId, fills: &mut Vec<Fill>) {
    let has_groups = value_fields(to)
        .iter()
        .any(|f| f.to == To::Group(crate::table::GroupField::Id));
    let in_body = plan
        .layout
        .entries
        .get(crate::syntax::body_tasks::BODY_TASKS)
        == Some(&serde_json::Value::Bool(true));
    if !has_groups
        || to.dialect().keeps_body()
        || !in_body
        || !plan.groups.is_empty()
        || plan.tasks.iter().any(|t| t.group.is_some())
    {
        return;
    }
    let Some(body) = plan.body.as_deref() else {
        return;
    };
    if crate::syntax::body_tasks::tasks(body) != plan.tasks {
        return;
    }
    let sections = crate::syntax::body_tasks::task_sections(body);
    let mut names: Vec<&str> = Vec::new();
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for name in sections.iter().flatten() {
        index.entry(name).or_insert_with(|| {
            names.push(name);
            names.len() - 1
        });
    }
    let ids = crate::model::ids_from_titles(names.iter().map(|n| Some(*n)));
    for (name, id) in names.iter().zip(&ids) {
        let group = crate::model::Group {
            id: id.clone(),
            name: Some((*name).to_owned()),
            ..crate::model::Group::default()
        };
        fills.push(group_fill(
            &group,
            "name",
            FillKind::Derived,
            "the body's heading",
        ));
        plan.groups.push(group);
    }
    for (task, section) in plan.tasks.iter_mut().zip(&sections) {
        if let Some(&k) = section.as_deref().and_then(|s| index.get(s)) {
            task.group = Some(ids[k].clone());
            fills.push(task_fill(
                task,
                "group",
                FillKind::Derived,
                "the body's section it is in",
            ));
        }
    }
}

/// The id of a plan that has none and no title or goal to make one of (the dialect's
/// rules did not give one), in a target that requires it: the source's name as an id.
fn id_from_name(plan: &mut Plan, to: DialectId, name: &str, fills: &mut Vec<Fill>) {
    let required = value_fields(to)
        .iter()
        .any(|f| f.required && f.to == To::Plan(crate::table::PlanField::Id));
    let id = crate::model::slug(name);
    if plan.id.is_some() || !required || id.is_empty() {
        return;
    }
    plan.id = Some(id);
    fills.push(plan_fill("id", FillKind::Derived, "from the source's name"));
}

/// The model fields that hold a task's words, in the order a target's place for them is
/// chosen: a dialect with a description (Cursor `content`, composite `prompt`, tool DAG
/// `query`) keeps them there, else in its title (staged `title`, workflow step
/// `name`), else in its expected outcome (PlanDAG).
const WORDS_PLACES: [TaskField; 3] = [
    TaskField::Description,
    TaskField::Title,
    TaskField::ExpectedOutcome,
];

/// Fills `to`'s place for each task's words from the task's other words
/// ([`crate::table::fill::task_words`]) where it holds none, so they survive the trip; a
/// target that holds the task's action as it is (a workflow step's `load_csv`) does not
/// repeat it as words; one that does not know it (PlanDAG) does.
fn fill_words(plan: &mut Plan, to: DialectId, fills: &mut Vec<Fill>) {
    if to.dialect().writes_tasks_as_they_are(plan) {
        return;
    }
    let keys = task_keys(to);
    let Some(place) = WORDS_PLACES
        .into_iter()
        .find(|p| keys.iter().any(|f| f.to == To::Task(*p)))
    else {
        return;
    };
    let holds_action = keys.iter().any(|f| f.to == To::Task(TaskField::Action));
    for t in &mut plan.tasks {
        let with_action = !holds_action || !has_valid(t, "action", to);
        crate::table::fill::words_into(t, place, with_action, fills);
    }
}

/// Every required text field of `to` that the plan still has no value for (a PlanDAG
/// `success_criteria`, a step's `target`) is written as `""` (the target must hold it,
/// the plan says nothing): noted as defaulted, so the loss report says so.
fn empty_required_text(plan: &mut Plan, to: DialectId, fills: &mut Vec<Fill>) {
    let all = value_fields(to);
    // Required in every table that has it (a Task Master subtask may go without the
    // `status` a task must have).
    let mut required = all.clone();
    required.retain(|f| {
        f.required
            && matches!(f.kind, Kind::Str)
            && all
                .iter()
                .filter(|g| g.key == f.key && g.to == f.to)
                .all(|g| g.required)
    });
    let empty = |slot: Option<Slot<'_>>| matches!(slot, Some(Slot::Text(None)));
    for f in required {
        match f.to {
            To::Plan(_) => {
                if empty(plan.slot(f.to)) {
                    fills.push(plan_fill(f.key, FillKind::Defaulted, EMPTY_TEXT));
                }
            }
            To::Task(_) => {
                for t in &mut plan.tasks {
                    if crate::table::fields::opaque_value(t).is_none() && empty(t.slot(f.to)) {
                        fills.push(task_fill(t, f.key, FillKind::Defaulted, EMPTY_TEXT));
                    }
                }
            }
            To::Group(_) => {
                for g in &mut plan.groups {
                    if empty(g.slot(f.to)) {
                        fills.push(group_fill(g, f.key, FillKind::Defaulted, EMPTY_TEXT));
                    }
                }
            }
            To::Own | To::Extra => {}
        }
    }
}

/// Applies settings: to the named task, or to every task whose value is missing
/// or not one the target knows.
fn apply_settings(
    plan: &mut Plan,
    to: DialectId,
    sets: &[Setting],
    fills: &mut Vec<Fill>,
) -> Result<(), PlanError> {
    for s in sets {
        let Some(field) = model_field(&s.field) else {
            return Err(Setting::new(&s.field, s.value.as_str())
                .err()
                .unwrap_or_else(|| PlanError::new(ErrorKind::Setting, format!("{s}"))));
        };
        if s.value.trim().is_empty() {
            return Err(PlanError::new(
                ErrorKind::Setting,
                format!("{s}: give a value after `=`"),
            ));
        }
        if let Some((tf, _)) = settable(field) {
            // The plan model holds every field; a dialect, the ones its tables name.
            let held = to == DialectId::PLAN || task_keys(to).iter().any(|f| f.to == To::Task(tf));
            if !held {
                return Err(PlanError::new(
                    ErrorKind::Setting,
                    format!(
                        "{s}: {to} has no field for a task's {field}, so the value would go nowhere"
                    ),
                ));
            }
            let known = known_values(to, tf);
            if !known.is_empty() && !one_of(known, &s.value) {
                let names: Vec<&str> = known.iter().map(|c| c.value).collect();
                return Err(PlanError::new(
                    ErrorKind::Setting,
                    format!(
                        "{s}: {to} does not know {:?} (one of: {})",
                        s.value,
                        names.join(", ")
                    ),
                ));
            }
        }
        if let Some(id) = &s.task
            && plan.task(id).is_none()
        {
            return Err(PlanError::new(
                ErrorKind::Setting,
                format!("{s}: the plan has no task {id:?}"),
            ));
        }
        for t in &mut plan.tasks {
            let named = s.task.as_deref() == Some(t.id.as_str());
            if s.task.is_some() && !named {
                continue;
            }
            if !named && has_valid(t, field, to) {
                continue;
            }
            set(t, field, &s.value)?;
            fills.push(task_fill(t, field, FillKind::Set, SET_RULE));
        }
    }
    Ok(())
}

/// Whether a task's field holds a value the target accepts as it is: present (not
/// blank, for text the target needs: a tool, a description) and, where the target's
/// table lists known values, one of them.
fn has_valid(t: &mut Task, field: &str, to: DialectId) -> bool {
    let Some((tf, _)) = settable(field) else {
        return false;
    };
    let known = known_values(to, tf);
    match t.slot(To::Task(tf)) {
        Some(Slot::Text(v)) => v.as_deref().is_some_and(|v| {
            let filled = match tf {
                TaskField::Tool => !v.is_empty(),
                TaskField::Description => !v.trim().is_empty(),
                _ => true,
            };
            filled && (known.is_empty() || one_of(known, v))
        }),
        Some(Slot::Num(n)) => n.is_some(),
        _ => false,
    }
}

/// Sets a task's field to a setting's value: text as it is, a number (`parallel_group`)
/// when it reads as one.
fn set(t: &mut Task, field: &str, value: &str) -> Result<(), PlanError> {
    let Some((tf, name)) = settable(field) else {
        return Err(PlanError::new(
            ErrorKind::Setting,
            format!("{field}: not a settable field"),
        ));
    };
    match t.slot(To::Task(tf)) {
        Some(Slot::Text(v)) => *v = Some(value.to_owned()),
        Some(Slot::Num(n)) => {
            let parsed: u64 = value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                PlanError::new(
                    ErrorKind::Setting,
                    format!("{name}={value}: not a positive integer"),
                )
            })?;
            *n = Some(Number::from(parsed));
        }
        _ => {}
    }
    Ok(())
}

/// The settable field a target's validation problem points at (`dag[0].tool` →
/// `tool`): what a setting `FIELD=VALUE` fills.
pub fn settable_field(path: &str) -> Option<&'static str> {
    let last = path
        .rsplit(['.', ']'])
        .find(|s| !s.is_empty() && !s.starts_with('['))?;
    settable_names().into_iter().find(|f| *f == last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_with_and_without_a_task() {
        let s: Setting = "tool=web_search".parse().unwrap();
        assert_eq!(
            (s.task, s.field.as_str(), s.value.as_str()),
            (None, "tool", "web_search")
        );
        let s: Setting = "step.v2.tool=calc".parse().unwrap();
        assert_eq!(s.task.as_deref(), Some("step.v2"));
        assert!("tool".parse::<Setting>().is_err());
        assert!(
            "colour=red"
                .parse::<Setting>()
                .unwrap_err()
                .message
                .contains("unknown field")
        );
    }

    #[test]
    fn settable_fields_are_found_in_problem_paths() {
        assert_eq!(settable_field("dag[0].tool"), Some("tool"));
        assert_eq!(settable_field("steps[2].agent_type"), Some("agent_type"));
        assert_eq!(settable_field("steps[2]"), None);
    }
}

#[cfg(test)]
mod table_names {
    use super::*;

    #[test]
    fn each_dialects_own_name_stands_for_the_field_its_table_fills() {
        for (name, model) in [
            ("agent_type", "executor"),
            ("intent", "kind"),
            ("step_type", "kind"),
            ("content", "description"),
            ("prompt", "description"),
            ("query", "description"),
            ("tool", "tool"),
            ("parallel_group", "parallel_group"),
        ] {
            assert_eq!(model_field(name), Some(model), "{name}");
            assert!(settable_names().contains(&name), "{name}");
        }
        // A dialect key that fills no settable field is not settable.
        assert_eq!(model_field("dependencies"), None);
        assert_eq!(model_field("id"), None);
    }

    #[test]
    fn a_targets_known_values_come_from_its_table() {
        let mut t = Task {
            executor: Some("browser_agent".to_owned()),
            ..Task::default()
        };
        assert!(has_valid(&mut t, "agent_type", DialectId::PLANDAG));
        assert!(!has_valid(&mut t, "executor", DialectId::STAGED));
        assert!(has_valid(&mut t, "executor", DialectId::COMPOSITE));
        let mut t = Task {
            status: Some("done".to_owned()),
            ..Task::default()
        };
        assert!(!has_valid(&mut t, "status", DialectId::CURSOR));
    }
}
