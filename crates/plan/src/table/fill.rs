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
    let kind = t.kind.as_deref();
    if kind.is_some_and(|k| one_of(known, k)) {
        return;
    }
    let (value, how, rule) = match table.iter().find(|(from, _)| Some(*from) == kind) {
        Some((_, to)) => (*to, FillKind::Derived, rule),
        None => (default, FillKind::Defaulted, default),
    };
    t.kind = Some(value.to_owned());
    fills.push(task_fill(t, "kind", how, rule));
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
