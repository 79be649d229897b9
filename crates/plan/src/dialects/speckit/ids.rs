//! Ids a Spec Kit file can write: task ids (`T012`, or another dialect's as `id.`) and
//! phase numbers, and renumbering a plan whose ids it cannot.

use std::collections::HashMap;

use super::{PHASE_HEADING, checklist, phase};
use crate::model::Plan;
use crate::table::fill::{Fill, FillKind, group_fill, rename_task_ids};

/// Phases numbered in order (`1`, `2`, …) where some group's id would not read back
/// from a phase heading (a space, a `:`); tasks' phases renamed alike.
pub(super) fn number_phases(plan: &mut Plan, fills: &mut Vec<Fill>) {
    let reads_back =
        |id: &str| phase(&format!("{PHASE_HEADING}{id}:")).is_some_and(|(n, _)| n == id);
    if plan.groups.iter().all(|g| reads_back(&g.id)) {
        return;
    }
    let renamed: HashMap<String, String> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(k, g)| (g.id.clone(), (k + 1).to_string()))
        .collect();
    for g in &mut plan.groups {
        if let Some(new) = renamed.get(&g.id).filter(|n| **n != g.id) {
            g.id.clone_from(new);
            fills.push(group_fill(g, "id", FillKind::Derived, "numbered in order"));
        }
    }
    for t in &mut plan.tasks {
        if let Some(g) = &mut t.group
            && let Some(new) = renamed.get(g.as_str())
        {
            g.clone_from(new);
        }
    }
}

/// Tasks numbered as Spec Kit numbers them (`T001`, `T002`, …) where some id would
/// not read back from a task line (a space, punctuation); dependencies and parents
/// renamed alike.
pub(super) fn number_tasks(plan: &mut Plan, fills: &mut Vec<Fill>) {
    let reads_back = |id: &str| task_id(&written_id(id)) == Some(id);
    if plan.tasks.iter().all(|t| reads_back(&t.id)) {
        return;
    }
    let renamed: HashMap<String, String> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(k, t)| (t.id.clone(), format!("T{:03}", k + 1)))
        .collect();
    rename_task_ids(plan, &renamed, fills, "numbered in order");
}

/// Whether a token is a Spec Kit task id: `T`, digits, and letters after them
/// (`T001`, `T010a`).
pub(super) fn is_task_id(token: &str) -> bool {
    let Some(rest) = token.strip_prefix('T') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].bytes().all(|b| b.is_ascii_alphabetic())
}

/// The task id a line's first token is: a Spec Kit id (`T012`), or another dialect's
/// id written with a final `.` (`setup-db.`) as Kiro writes it.
pub(super) fn task_id(token: &str) -> Option<&str> {
    if is_task_id(token) {
        return Some(token);
    }
    token
        .strip_suffix('.')
        .filter(|id| checklist::is_id_like(id))
}

/// A task id as a task line writes it.
pub(super) fn written_id(id: &str) -> String {
    if is_task_id(id) {
        id.to_owned()
    } else {
        format!("{id}.")
    }
}
