//! The tasks ready to start: not started, every task they wait for finished, in
//! schedule order.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::error::ExecError;
use super::schedule::schedule;
use crate::model::{Plan, Task};

/// Statuses that mean a task is finished (Task Master `done`, Cursor `completed`).
pub const FINISHED: &[&str] = &["done", "completed"];
/// Statuses that mean a task has not started (a task without a status counts as not
/// started too).
pub const NOT_STARTED: &[&str] = &["pending"];

/// What can be started now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Next {
    /// The tasks ready to start, in schedule order (by wave, then plan order).
    pub ready: Vec<ReadyTask>,
    /// How many tasks are finished.
    pub finished: usize,
    /// How many tasks there are.
    pub total: usize,
}

/// A task ready to start.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadyTask {
    /// Its id.
    pub id: String,
    /// Its title, else its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its status as written (`None` when it has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Its priority, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// The task it is a subtask of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Its wave in the schedule (0-based).
    pub wave: usize,
}

/// Whether a status says the task is finished.
pub fn is_finished(status: Option<&str>) -> bool {
    status.is_some_and(|s| FINISHED.iter().any(|f| f.eq_ignore_ascii_case(s)))
}

/// Whether a status says the task has not started.
pub fn is_not_started(status: Option<&str>) -> bool {
    status.is_none_or(|s| NOT_STARTED.iter().any(|f| f.eq_ignore_ascii_case(s)))
}

/// The tasks ready to start: not started ([`NOT_STARTED`], or no status), every task
/// it waits for finished ([`FINISHED`]) — its dependencies, the tasks of the groups
/// its group waits for, and those of each task it is a subtask of — and none of its
/// own subtasks unfinished (then those are the ones to start). In schedule order: by
/// wave, then plan order. A plan without a schedule (a cycle, an unknown dependency)
/// has no answer.
///
/// ```
/// use toon_plan::{Plan, Task};
/// let task = |id: &str, status: &str, deps: &[&str]| Task {
///     status: Some(status.into()),
///     dependencies: Some(deps.iter().map(|d| d.to_string()).collect()),
///     ..Task::new(id)
/// };
/// let plan = Plan {
///     tasks: vec![task("a", "done", &[]), task("b", "pending", &["a"]), task("c", "pending", &["b"])],
///     ..Plan::default()
/// };
/// let next = toon_plan::exec::next(&plan)?;
/// assert_eq!(next.ready.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(), ["b"]);
/// # Ok::<(), toon_plan::exec::ExecError>(())
/// ```
pub fn next(plan: &Plan) -> Result<Next, ExecError> {
    let s = schedule(plan)?;
    let index = plan.task_positions();
    let finished = |id: &str| {
        index
            .get(id)
            .is_some_and(|&i| is_finished(plan.tasks[i].status.as_deref()))
    };
    let mut members: HashMap<&str, Vec<&str>> = HashMap::new();
    for t in &plan.tasks {
        if let Some(g) = &t.group {
            members.entry(g.as_str()).or_default().push(t.id.as_str());
        }
    }
    let mut unfinished_children: HashSet<&str> = HashSet::new();
    for t in &plan.tasks {
        if let Some(p) = &t.parent
            && !is_finished(t.status.as_deref())
            && !matches!(t.status.as_deref(), Some("cancelled"))
        {
            unfinished_children.insert(p.as_str());
        }
    }
    let waits_done = |i: usize| {
        let st = &s.tasks[i];
        st.waits_for.iter().all(|d| finished(d))
            && st
                .waits_for_groups
                .iter()
                .flat_map(|g| members.get(g.as_str()).into_iter().flatten())
                .all(|d| finished(d))
    };
    let mut ready: Vec<(usize, usize)> = Vec::new();
    for (i, t) in plan.tasks.iter().enumerate() {
        if !is_not_started(t.status.as_deref())
            || unfinished_children.contains(t.id.as_str())
            || !waits_done(i)
            || !ancestors(plan, &index, t).all(waits_done)
        {
            continue;
        }
        ready.push((s.tasks[i].wave, i));
    }
    ready.sort();
    Ok(Next {
        ready: ready
            .into_iter()
            .map(|(wave, i)| {
                let t = &plan.tasks[i];
                ReadyTask {
                    id: t.id.clone(),
                    title: t.title.clone().or_else(|| t.description.clone()),
                    status: t.status.clone(),
                    priority: t.priority.clone(),
                    parent: t.parent.clone(),
                    wave,
                }
            })
            .collect(),
        finished: plan
            .tasks
            .iter()
            .filter(|t| is_finished(t.status.as_deref()))
            .count(),
        total: plan.tasks.len(),
    })
}

/// The indices of the tasks `t` is a subtask of, nearest first (a cycle of parents
/// ends the walk).
fn ancestors<'a>(
    plan: &'a Plan,
    index: &'a HashMap<&str, usize>,
    t: &'a Task,
) -> impl Iterator<Item = usize> + 'a {
    let mut seen = HashSet::new();
    let mut at = t.parent.as_deref();
    std::iter::from_fn(move || {
        let i = *index.get(at?)?;
        if !seen.insert(i) {
            return None;
        }
        at = plan.tasks[i].parent.as_deref();
        Some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, status: Option<&str>, deps: &[&str], parent: Option<&str>) -> Task {
        Task {
            status: status.map(str::to_owned),
            dependencies: Some(deps.iter().map(|d| d.to_string()).collect()),
            parent: parent.map(str::to_owned),
            ..Task::new(id)
        }
    }

    fn ids(plan: &Plan) -> Vec<String> {
        next(plan)
            .unwrap()
            .ready
            .into_iter()
            .map(|t| t.id)
            .collect()
    }

    #[test]
    fn ready_tasks_wait_for_finished_dependencies_in_schedule_order() {
        let plan = Plan {
            tasks: vec![
                task("c", Some("pending"), &["b"], None),
                task("a", Some("done"), &[], None),
                task("b", Some("pending"), &["a"], None),
                task("d", None, &[], None),
                task("e", Some("in-progress"), &[], None),
                task("f", Some("pending"), &["e"], None),
            ],
            ..Plan::default()
        };
        // `d` is in wave 0, `b` in wave 1: schedule order, not plan order.
        assert_eq!(ids(&plan), ["d", "b"]);
        let n = next(&plan).unwrap();
        assert_eq!((n.finished, n.total), (1, 6));
        assert_eq!(n.ready[1].wave, 1);
    }

    #[test]
    fn subtasks_are_started_before_their_parent_and_inherit_its_dependencies() {
        let plan = Plan {
            tasks: vec![
                task("1", Some("done"), &[], None),
                task("2", Some("pending"), &["1"], None),
                task("2.1", Some("done"), &[], Some("2")),
                task("2.2", Some("pending"), &["2.1"], Some("2")),
                task("3", Some("pending"), &["9"], None),
                task("3.1", Some("pending"), &[], Some("3")),
                task("9", Some("pending"), &[], None),
            ],
            ..Plan::default()
        };
        // `2` has an unfinished subtask; `3.1` waits for what its parent waits for.
        assert_eq!(ids(&plan), ["9", "2.2"]);
    }

    #[test]
    fn a_plan_without_a_schedule_has_no_answer() {
        let plan = Plan {
            tasks: vec![task("a", None, &["b"], None), task("b", None, &["a"], None)],
            ..Plan::default()
        };
        assert!(matches!(next(&plan), Err(ExecError::Cycle { .. })));
    }
}
