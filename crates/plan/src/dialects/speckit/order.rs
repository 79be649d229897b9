//! The order Spec Kit runs a task list in, as the plan model's dependencies: phases
//! one after another, tasks in order within their phase, `[P]` tasks together.

use std::collections::HashMap;

use serde_json::Value;

use super::PARALLEL;
use crate::model::{Plan, Task};

/// The order Spec Kit runs a plan in, as dependencies: each phase after the phase
/// before it; in a phase (and among the tasks before the first phase), a task after
/// the task before it, a `[P]` task together with the `[P]` tasks next to it, and the
/// task after a run of `[P]` tasks after all of them. A task that has dependencies of
/// its own (a `_Depends on:_` line) keeps them.
pub(super) fn derive_order(plan: &mut Plan) {
    let order = order_of(&plan.tasks);
    for (t, deps) in plan.tasks.iter_mut().zip(order) {
        if t.dependencies.is_none() {
            t.dependencies = deps;
        }
    }
    let ids: Vec<String> = plan.groups.iter().map(|g| g.id.clone()).collect();
    for (k, g) in plan.groups.iter_mut().enumerate() {
        g.dependencies = k.checked_sub(1).map(|p| vec![ids[p].clone()]);
    }
}

/// Each task's dependencies as Spec Kit's order gives them (see [`derive_order`]).
fn order_of(tasks: &[Task]) -> Vec<Option<Vec<String>>> {
    let mut out = Vec::with_capacity(tasks.len());
    // Per phase: the last task not in a run of `[P]` tasks, and the run since it.
    let mut state: HashMap<Option<&str>, (Option<&str>, Vec<&str>)> = HashMap::new();
    for t in tasks {
        let (last, run) = state.entry(t.group.as_deref()).or_default();
        let deps: Vec<&str> = if is_parallel(t) {
            run.push(&t.id);
            last.iter().copied().collect()
        } else {
            let deps = if run.is_empty() {
                last.iter().copied().collect()
            } else {
                std::mem::take(run)
            };
            *last = Some(&t.id);
            deps
        };
        let deps: Vec<String> = deps.into_iter().map(str::to_owned).collect();
        out.push((!deps.is_empty()).then_some(deps));
    }
    out
}

/// Whether a task is marked `[P]`.
pub(super) fn is_parallel(t: &Task) -> bool {
    t.extra.get(PARALLEL) == Some(&Value::Bool(true))
}

/// Each task's dependencies as the order of the file it writes gives them (by task
/// index): the tasks of no phase first, then each phase's.
pub(super) fn implied(plan: &Plan) -> Vec<Option<Vec<String>>> {
    let phase = |t: &Task| {
        t.group
            .as_deref()
            .and_then(|g| plan.groups.iter().position(|x| x.id == g))
    };
    let mut sorted: Vec<usize> = (0..plan.tasks.len()).collect();
    sorted.sort_by_key(|&i| phase(&plan.tasks[i]).map_or(0, |k| k + 1));
    let in_file: Vec<Task> = sorted
        .iter()
        .map(|&i| Task {
            group: phase(&plan.tasks[i]).map(|k| plan.groups[k].id.clone()),
            ..plan.tasks[i].clone()
        })
        .collect();
    let mut out = vec![None; plan.tasks.len()];
    for (i, deps) in sorted.into_iter().zip(order_of(&in_file)) {
        out[i] = deps;
    }
    out
}
