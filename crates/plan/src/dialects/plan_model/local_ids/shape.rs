//! Whether a plan is written with local ids, and how: each task's parent and own last
//! part, each group's id prefix, each task's group run.

use crate::model::{Plan, child_id, child_local, group_prefix};
use crate::table::fields;

use super::dfs_order;

/// How each task of a plan is written with local ids.
pub(super) struct Shape<'a> {
    /// Each task's parent, by index (it comes before the task).
    pub parent: Vec<Option<usize>>,
    /// Each subtask's part after its parent's id and the dot.
    pub local: Vec<&'a str>,
    /// The prefix of each group's ids (`None`: the ids are written whole).
    pub prefix: Vec<Option<String>>,
    /// Each task's group index, when the tasks come in one run per group.
    pub run_of: Option<Vec<usize>>,
}

impl<'a> Shape<'a> {
    /// How `plan` is written with local ids; `None` when it is not.
    pub(super) fn of(plan: &'a Plan) -> Option<Shape<'a>> {
        let index = plan.task_positions();
        let mut parent = Vec::with_capacity(plan.tasks.len());
        let mut local = Vec::with_capacity(plan.tasks.len());
        for (i, t) in plan.tasks.iter().enumerate() {
            if fields::opaque_value(t).is_some() || t.id.is_empty() {
                return None;
            }
            match t.parent.as_deref() {
                Some(p) => {
                    let j = *index.get(p).filter(|&&j| j < i)?;
                    let l = child_local(&t.id, p)?;
                    if child_id(p, l) != t.id || plan.tasks[j].group != t.group {
                        return None;
                    }
                    parent.push(Some(j));
                    local.push(l);
                }
                None => {
                    parent.push(None);
                    local.push(t.id.as_str());
                }
            }
        }
        if parent.iter().all(Option::is_none) && plan.groups.len() < 2 {
            return None;
        }
        if dfs_order(&parent) != (0..plan.tasks.len()).collect::<Vec<_>>() {
            return None;
        }
        let run_of = runs(plan);
        let mut prefix = vec![None; plan.groups.len()];
        if let Some(run_of) = &run_of {
            for (g, group) in plan.groups.iter().enumerate() {
                let p = group_prefix(&group.id);
                let mut top = (0..plan.tasks.len())
                    .filter(|&i| run_of[i] == g && parent[i].is_none())
                    .peekable();
                let any = top.peek().is_some();
                let prefixed = |i: usize| {
                    plan.tasks[i]
                        .id
                        .strip_prefix(&p)
                        .is_some_and(|r| !r.is_empty())
                };
                if any && top.all(prefixed) {
                    prefix[g] = Some(p);
                }
            }
        }
        let shape = Shape {
            parent,
            local,
            prefix,
            run_of,
        };
        if shape.prefix.iter().all(Option::is_none) && shape.parent.iter().all(Option::is_none) {
            return None;
        }
        // Every dependency must be named within its task's group.
        for (i, t) in plan.tasks.iter().enumerate() {
            for d in t.dependencies.iter().flatten() {
                if shape.scoped_of(i, d).is_none_or(str::is_empty) {
                    return None;
                }
            }
        }
        for i in 0..plan.tasks.len() {
            if shape.parent[i].is_none() {
                shape
                    .scoped_of(i, &plan.tasks[i].id)
                    .filter(|s| !s.is_empty())?;
            }
        }
        Some(shape)
    }

    /// The prefix of task `i`'s group ("" when its ids are written whole).
    pub(super) fn prefix(&self, i: usize) -> &str {
        self.run_of
            .as_ref()
            .and_then(|r| self.prefix[r[i]].as_deref())
            .unwrap_or("")
    }

    /// `id` as named within task `i`'s group.
    pub(super) fn scoped_of<'b>(&self, i: usize, id: &'b str) -> Option<&'b str> {
        id.strip_prefix(self.prefix(i))
    }
}

/// The group index of each task, when every task belongs to one of the plan's groups
/// and the tasks come in one run per group in the groups' order.
fn runs(plan: &Plan) -> Option<Vec<usize>> {
    if plan.groups.is_empty() {
        return None;
    }
    let mut at = 0;
    let mut out = Vec::with_capacity(plan.tasks.len());
    for t in &plan.tasks {
        let g = t.group.as_deref()?;
        while plan.groups.get(at)?.id != g {
            at += 1;
        }
        out.push(at);
    }
    Some(out)
}
