//! What a conversion records of each value it fills in ([`Fill`]), and the rules the
//! dialects share to fill their own fields ([`crate::Dialect::fill`]): a text from a
//! title, an id from a title, a goal from a title, a kind translated between
//! vocabularies. They work on the model and the field tables only; choosing which
//! dialect fills what, and applying settings, is the conversion's (`conversion::derive`).

use std::fmt;

use crate::model::{Group, Plan, Task};
use crate::table::{Choice, one_of};

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

/// The words of a task (Cursor `content`, composite `prompt`, tool DAG `query`) when it
/// has none: its title, else its action and target (`navigate https://…`), else its
/// expected outcome.
pub(crate) fn text_from_title(t: &mut Task, fills: &mut Vec<Fill>) {
    if present(&t.description).is_some() {
        return;
    }
    if let Some((text, rule)) = words(t, present(&t.title).map(|w| (w, "from the title"))) {
        t.description = Some(text);
        fills.push(task_fill(t, "description", FillKind::Derived, rule));
    }
}

/// A task's title (a staged step's `title`) when it has none: its words (description),
/// else its action and target, else its expected outcome.
pub(crate) fn title_from_words(t: &mut Task, fills: &mut Vec<Fill>) {
    if t.title.is_some() {
        return;
    }
    let first = present(&t.description).map(|w| (w, "from the description"));
    if let Some((text, rule)) = words(t, first) {
        t.title = Some(text);
        fills.push(task_fill(t, "title", FillKind::Derived, rule));
    }
}

/// Text that is there and not blank.
fn present(s: &Option<String>) -> Option<String> {
    s.clone().filter(|s| !s.trim().is_empty())
}

/// `first`, else the task's action and target, else its expected outcome, with the
/// rule that gave it.
fn words(t: &Task, first: Option<(String, &'static str)>) -> Option<(String, &'static str)> {
    if first.is_some() {
        return first;
    }
    if let Some(action) = present(&t.action) {
        let text = match present(&t.target) {
            Some(target) => format!("{action} {target}"),
            None => action,
        };
        return Some((text, "from the action and target"));
    }
    present(&t.expected_outcome).map(|o| (o, "from the expected outcome"))
}
