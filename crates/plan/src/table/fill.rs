//! What a conversion records of each value it fills in ([`Fill`]), and the rules the
//! dialects share to fill their own fields ([`crate::Dialect::fill`]): a text from a
//! title, an id from a title, a goal from a title, a kind translated between
//! vocabularies. They work on the model and the field tables only; choosing which
//! dialect fills what, and applying settings, is the conversion's (`conversion::derive`).

use std::fmt;

use crate::model::{Group, Plan, Task};
use crate::table::slot::{Record, Slot};
use crate::table::{Choice, TaskField, To, one_of};

/// How a filled value came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillKind {
    /// Computed from other fields of the plan, by a rule.
    Derived,
    /// The one obvious value, where the plan says nothing.
    Defaulted,
    /// Given by a [`crate::Setting`].
    Set,
}

/// One value a conversion filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    /// `task ID` or `group ID`.
    pub owner: String,
    /// The model field (`parallel_group`, `tool`, `kind`, …).
    pub field: &'static str,
    /// Derived, defaulted or set.
    pub kind: FillKind,
    /// The rule, in words (`schedule wave`, `first of tools`).
    pub rule: &'static str,
}

impl fmt::Display for Fill {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: `{}` {}", self.owner, self.field, self.rule)
    }
}

/// The rule of a value a [`crate::Setting`] gave.
pub const SET_RULE: &str = "given";

/// The rule of a required text field written `""` on conversion: the target must hold
/// it, and the plan has no value for it and no rule gives one.
pub const EMPTY_TEXT: &str = "empty: the plan has no value for it";

/// The plan's id when it has none (PlanDAG `plan_id`, staged `id`): its title's words as
/// a task's are ([`crate::model::ids_from_titles`]: `Add dark mode` → `add-dark-mode`),
/// else its goal's.
pub(crate) fn plan_id_from_title(plan: &mut Plan, fills: &mut Vec<Fill>) {
    if plan.id.is_some() {
        return;
    }
    let words = |s: &Option<String>| {
        s.as_deref()
            .map(crate::model::slug)
            .filter(|w| !w.is_empty())
    };
    let (id, rule) = match (words(&plan.title), words(&plan.goal)) {
        (Some(id), _) => (id, "from the title"),
        (None, Some(id)) => (id, "from the goal"),
        (None, None) => return,
    };
    plan.id = Some(id);
    fills.push(plan_fill("id", FillKind::Derived, rule));
}

/// The plan's goal when it has none (PlanDAG `intent`, staged `goal`, workflow
/// `objective`): its title.
pub(crate) fn goal_from_title(plan: &mut Plan, fills: &mut Vec<Fill>) {
    if plan.goal.is_some() {
        return;
    }
    if let Some(title) = plan.title.clone().filter(|t| !t.trim().is_empty()) {
        plan.goal = Some(title);
        fills.push(plan_fill("goal", FillKind::Derived, "from the title"));
    }
}

/// A task's `kind` in the target's vocabulary (`known`): kept when it is one, else
/// translated by `table` (derived, by `rule`), else `default` (defaulted).
pub(crate) fn translate_kind(
    t: &mut Task,
    known: &[Choice],
    table: &[(&str, &'static str)],
    default: &'static str,
    rule: &'static str,
    fills: &mut Vec<Fill>,
) {
    let mut kind = t.kind.take();
    let filled = translate(&mut kind, known, table, default, rule);
    t.kind = kind;
    if let Some((how, rule)) = filled {
        fills.push(task_fill(t, "kind", how, rule));
    }
}

/// A task's `status` in the target's vocabulary (`known`), where it has one: kept when
/// it is known, else translated by `table` (derived, by `rule`), else `default`
/// (defaulted). A task without a status is left to the target's own default.
pub(crate) fn translate_status(
    t: &mut Task,
    known: &[Choice],
    table: &[(&str, &'static str)],
    default: &'static str,
    rule: &'static str,
    fills: &mut Vec<Fill>,
) {
    if t.status.is_none() {
        return;
    }
    let mut status = t.status.take();
    let filled = translate(&mut status, known, table, default, rule);
    t.status = status;
    if let Some((how, rule)) = filled {
        fills.push(task_fill(t, "status", how, rule));
    }
}

/// A text in a vocabulary (`known`): kept when it is one, else translated by `table`
/// (derived, by `rule`), else `default` (defaulted); says how it was filled.
fn translate(
    value: &mut Option<String>,
    known: &[Choice],
    table: &[(&str, &'static str)],
    default: &'static str,
    rule: &'static str,
) -> Option<(FillKind, &'static str)> {
    let current = value.as_deref();
    if current.is_some_and(|k| one_of(known, k)) {
        return None;
    }
    let (to, how, rule) = match table.iter().find(|(from, _)| Some(*from) == current) {
        Some((_, to)) => (*to, FillKind::Derived, rule),
        None => (default, FillKind::Defaulted, default),
    };
    *value = Some(to.to_owned());
    Some((how, rule))
}

pub(crate) fn plan_fill(field: &'static str, kind: FillKind, rule: &'static str) -> Fill {
    Fill {
        owner: "plan".to_owned(),
        field,
        kind,
        rule,
    }
}

pub(crate) fn group_fill(
    g: &Group,
    field: &'static str,
    kind: FillKind,
    rule: &'static str,
) -> Fill {
    Fill {
        owner: format!("group {}", g.id),
        field,
        kind,
        rule,
    }
}

pub(crate) fn task_fill(t: &Task, field: &'static str, kind: FillKind, rule: &'static str) -> Fill {
    Fill {
        owner: format!("task {}", t.id),
        field,
        kind,
        rule,
    }
}

/// A task's words, with the rule that names where they come from: the first of its
/// description (Cursor `content`, composite `prompt`, tool DAG `query`), its title
/// (composite and staged `title`, workflow step `name`), its expected outcome (PlanDAG
/// `expected_outcome`), its action and target (`navigate https://…`, a workflow step's
/// `load_csv`) that is there and not blank. Each dialect's place for a task's words is
/// filled from them when a conversion writes it, so a task's words survive every round trip.
pub fn task_words(t: &Task) -> Option<(String, &'static str)> {
    task_words_but(t, None, true)
}

/// A task's title when it has none (Task Master and Kiro tasks require one): the
/// task's other words, with the rule that gave them.
pub(crate) fn title_from_words(t: &mut Task, fills: &mut Vec<Fill>) {
    if present(&t.title).is_some() {
        return;
    }
    if let Some((text, rule)) = task_words_but(t, Some(TaskField::Title), true) {
        t.title = Some(text);
        fills.push(task_fill(t, "title", FillKind::Derived, rule));
    }
}

/// [`task_words`] without the field `but` (the one being filled), and without the
/// action and target unless `with_action`.
fn task_words_but(
    t: &Task,
    but: Option<TaskField>,
    with_action: bool,
) -> Option<(String, &'static str)> {
    let texts = [
        (
            TaskField::Description,
            &t.description,
            "from the description",
        ),
        (TaskField::Title, &t.title, "from the title"),
        (
            TaskField::ExpectedOutcome,
            &t.expected_outcome,
            "from the expected outcome",
        ),
    ];
    for (field, text, rule) in texts {
        if Some(field) != but
            && let Some(text) = present(text)
        {
            return Some((text, rule));
        }
    }
    if !with_action {
        return None;
    }
    let action = present(&t.action)?;
    let text = match present(&t.target) {
        Some(target) => format!("{action} {target}"),
        None => action,
    };
    Some((text, "from the action and target"))
}

/// Fills the target's place for a task's words (`field`: Cursor `content` is the
/// description, a workflow step's `name` the title, PlanDAG's `expected_outcome`) from
/// the task's other words ([`task_words`]) when it holds none; from its action and
/// target only when `with_action` (a target that holds the action has them already).
pub(crate) fn words_into(t: &mut Task, field: TaskField, with_action: bool, fills: &mut Vec<Fill>) {
    let name = match field {
        TaskField::Description => "description",
        TaskField::Title => "title",
        TaskField::ExpectedOutcome => "expected_outcome",
        _ => return,
    };
    let Some(Slot::Text(slot)) = t.slot(To::Task(field)) else {
        return;
    };
    if present(slot).is_some() {
        return;
    }
    if let Some((text, rule)) = task_words_but(t, Some(field), with_action) {
        if let Some(Slot::Text(slot)) = t.slot(To::Task(field)) {
            *slot = Some(text);
        }
        fills.push(task_fill(t, name, FillKind::Derived, rule));
    }
}

/// Text that is there and not blank.
fn present(s: &Option<String>) -> Option<String> {
    s.clone().filter(|s| !s.trim().is_empty())
}

/// Task ids that are not slugs ([`crate::table::SLUG_PATTERN`]: a tool DAG's, whose
/// `{{id.field}}` references split at the dot) with each other character replaced by
/// `_` (`3.1` → `3_1`; `-2`, `-3`, … where that id is taken), and every dependency and
/// parent naming them renamed alike.
pub(crate) fn slug_ids(plan: &mut Plan, fills: &mut Vec<Fill>) {
    use std::collections::{HashMap, HashSet};
    let mut taken: HashSet<String> = plan.tasks.iter().map(|t| t.id.clone()).collect();
    let mut renamed: HashMap<String, String> = HashMap::new();
    for t in &plan.tasks {
        if t.id.is_empty() || crate::table::is_slug(&t.id) || renamed.contains_key(&t.id) {
            continue;
        }
        let base: String =
            t.id.chars()
                .map(|c| {
                    let one = c.to_string();
                    if crate::table::is_slug(&one) { c } else { '_' }
                })
                .collect();
        let mut id = base.clone();
        let mut k = 2;
        while taken.contains(&id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        taken.insert(id.clone());
        renamed.insert(t.id.clone(), id);
    }
    if renamed.is_empty() {
        return;
    }
    rename_task_ids(
        plan,
        &renamed,
        fills,
        "punctuation but `_` and `-` replaced by `_`",
    );
}

/// Gives tasks the new ids `renamed` maps their old ones to, in their ids, dependencies
/// and parents, and reports each task whose id changed as derived, `why`.
pub(crate) fn rename_task_ids(
    plan: &mut Plan,
    renamed: &std::collections::HashMap<String, String>,
    fills: &mut Vec<Fill>,
    why: &'static str,
) {
    let rename = |s: &mut String| {
        if let Some(new) = renamed.get(s.as_str()) {
            s.clone_from(new);
        }
    };
    for t in &mut plan.tasks {
        let before = t.id.clone();
        rename(&mut t.id);
        t.dependencies.iter_mut().flatten().for_each(rename);
        t.parent.iter_mut().for_each(rename);
        if t.id != before {
            fills.push(task_fill(t, "id", FillKind::Derived, why));
        }
    }
}
