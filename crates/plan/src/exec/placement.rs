//! Declared placement checked against the dependencies: PlanDAG `parallel_group`s
//! (groups run in ascending order, a group's steps together) and staged-plan stages
//! (stages run in order; a `sequence` stage runs its steps one after another).
//!
//! A step placed before (or, for parallel groups, alongside) one of its dependencies
//! is an error: it cannot run where it is placed. A step that waits longer than its
//! dependencies need is a hint: an avoidable sequence.

use std::cmp::Reverse;
use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::run_graph::RunGraph;
use crate::model::Plan;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingLevel {
    /// The declared placement contradicts a dependency.
    Error,
    /// The declared placement makes a step wait when it need not.
    Hint,
}

/// One finding about declared groups or stages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Error or hint.
    pub level: FindingLevel,
    /// Short rule name: `group-order`, `stage-order`, `avoidable-wait`,
    /// `avoidable-sequence`, `parallel-disabled`.
    pub rule: &'static str,
    /// The task it is about (empty for plan-wide findings).
    pub task: String,
    /// What is wrong, in words.
    pub message: String,
}

impl Finding {
    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.level == FindingLevel::Error
    }

    fn error(rule: &'static str, task: &str, message: String) -> Self {
        Finding {
            level: FindingLevel::Error,
            rule,
            task: task.to_owned(),
            message,
        }
    }

    fn hint(rule: &'static str, task: &str, message: String) -> Self {
        Finding {
            level: FindingLevel::Hint,
            rule,
            task: task.to_owned(),
            message,
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.level {
            FindingLevel::Error => "error",
            FindingLevel::Hint => "hint",
        };
        write!(f, "{level}: {} [{}]", self.message, self.rule)
    }
}

/// All findings for a plan whose tasks sit in `wave`s.
pub(crate) fn check(plan: &Plan, g: &RunGraph, wave: &[usize]) -> Vec<Finding> {
    let mut out = parallel_groups(plan, g);
    out.extend(stages(plan, g, wave));
    out.extend(parallel_disabled(plan, g));
    out
}

/// Checks positions in an ordered list of slots (groups or stages): `pos[i]` is the
/// slot of task `i`, `names[k]` how slot `k` is called. A dependency in a later slot
/// is an error; so is one in the same slot when `same_slot_ok` says it is not allowed.
/// A task in a slot later than right after its latest dependency gets a hint.
fn slots(
    plan: &Plan,
    g: &RunGraph,
    pos: &[Option<usize>],
    names: &[String],
    same_slot_ok: &dyn Fn(usize, usize) -> bool,
    rule: &'static str,
    out: &mut Vec<Finding>,
) {
    // For each node, the task that stands for it: itself, or for a group barrier the
    // member in the latest slot (`None`: some member is not placed, or no member).
    let mut rep: Vec<Option<usize>> = (0..g.deps.len())
        .map(|v| if g.is_task(v) { Some(v) } else { None })
        .collect();
    for (b, r) in rep.iter_mut().enumerate().skip(g.tasks) {
        let members = &g.deps[b];
        if !members.is_empty() && members.iter().all(|&m| pos[m].is_some()) {
            *r = members
                .iter()
                .copied()
                .max_by_key(|&m| (pos[m], Reverse(m)));
        }
    }
    for (i, t) in plan.tasks.iter().enumerate() {
        let Some(p) = pos[i] else { continue };
        let mut earliest = 0usize;
        let mut all_placed = true;
        let mut placed_ok = true;
        for &node in &g.deps[i] {
            let Some(d) = rep[node] else {
                all_placed = false;
                continue;
            };
            let Some(q) = pos[d] else {
                all_placed = false;
                continue;
            };
            let dep = &plan.tasks[d].id;
            if q > p {
                placed_ok = false;
                out.push(Finding::error(
                    rule,
                    &t.id,
                    format!(
                        "{:?} is in {} but depends on {dep:?} in {}, which runs later",
                        t.id, names[p], names[q]
                    ),
                ));
            } else if q == p && !same_slot_ok(i, d) {
                placed_ok = false;
                out.push(Finding::error(
                    rule,
                    &t.id,
                    format!(
                        "{:?} is in {} with {dep:?}, which it depends on: it cannot start with it",
                        t.id, names[p]
                    ),
                ));
            }
            earliest = earliest.max(q + 1);
        }
        if placed_ok && all_placed && p > earliest {
            let why = if g.deps[i].is_empty() {
                "it has no dependencies".to_owned()
            } else {
                format!(
                    "its dependencies are done by the end of {}",
                    names[earliest - 1]
                )
            };
            out.push(Finding::hint(
                "avoidable-wait",
                &t.id,
                format!(
                    "{:?} waits in {}, but {why}: it could run in {}",
                    t.id, names[p], names[earliest]
                ),
            ));
        }
    }
}

/// PlanDAG `parallel_group`s: steps of one group run together, groups in ascending
/// order, so a dependency must be in an earlier group.
fn parallel_groups(plan: &Plan, g: &RunGraph) -> Vec<Finding> {
    let mut values: Vec<f64> = plan
        .tasks
        .iter()
        .filter_map(|t| t.parallel_group.as_ref()?.as_f64())
        .filter(|f| f.is_finite())
        .collect();
    if values.is_empty() {
        return Vec::new();
    }
    values.sort_by(f64::total_cmp);
    values.dedup();
    let pos: Vec<Option<usize>> = plan
        .tasks
        .iter()
        .map(|t| {
            let v = t.parallel_group.as_ref()?.as_f64()?;
            values.iter().position(|x| *x == v)
        })
        .collect();
    // f64's Display writes whole numbers without a fraction: `parallel group 2`.
    let names: Vec<String> = values
        .iter()
        .map(|v| format!("parallel group {v}"))
        .collect();
    let mut out = Vec::new();
    slots(
        plan,
        g,
        &pos,
        &names,
        &|_, _| false,
        "group-order",
        &mut out,
    );
    out
}

/// Staged-plan stages (groups with a `mode`): stages run in order; in a `sequence`
/// stage a step runs after the steps listed before it, in a `parallel` stage a step
/// waits for its inputs.
fn stages(plan: &Plan, g: &RunGraph, wave: &[usize]) -> Vec<Finding> {
    if !plan.groups.iter().any(|gr| gr.mode.is_some()) {
        return Vec::new();
    }
    let index: HashMap<&str, usize> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, gr)| (gr.id.as_str(), i))
        .collect();
    let pos: Vec<Option<usize>> = plan
        .tasks
        .iter()
        .map(|t| index.get(t.group.as_deref()?).copied())
        .collect();
    let names: Vec<String> = plan
        .groups
        .iter()
        .map(|gr| format!("stage {:?}", gr.id))
        .collect();
    let sequence = |k: usize| plan.groups[k].mode.as_deref() == Some("sequence");
    // In a sequence stage a dependency must come earlier in the stage's step list.
    let same_ok = |i: usize, d: usize| match pos[i] {
        Some(k) if sequence(k) => d < i,
        _ => true,
    };
    let mut out = Vec::new();
    slots(plan, g, &pos, &names, &same_ok, "stage-order", &mut out);
    let mut members_of: Vec<Vec<usize>> = vec![Vec::new(); plan.groups.len()];
    for (i, p) in pos.iter().enumerate() {
        if let Some(k) = p {
            members_of[*k].push(i);
        }
    }
    let misplaced: std::collections::HashSet<&str> = out
        .iter()
        .filter(|f| f.is_error())
        .map(|f| f.task.as_str())
        .collect();
    let mut hints = Vec::new();
    // A sequence stage whose next step does not depend on the one before it (stages
    // with a misplaced step are left to that error).
    for (k, gr) in plan.groups.iter().enumerate() {
        let members = &members_of[k];
        if !sequence(k)
            || members
                .iter()
                .any(|&i| misplaced.contains(plan.tasks[i].id.as_str()))
        {
            continue;
        }
        // A task can depend (even indirectly) on another only from a later wave, so
        // a step in the same or an earlier wave than the one before it is independent.
        let independent: Vec<(usize, usize)> = members
            .windows(2)
            .filter(|w| wave[w[1]] <= wave[w[0]])
            .map(|w| (w[0], w[1]))
            .collect();
        if let Some(&(a, b)) = independent.first() {
            hints.push(Finding::hint(
                "avoidable-sequence",
                &plan.tasks[b].id,
                format!(
                    "stage {:?} runs in sequence, but {} of its steps do not depend on the step before them (e.g. {:?} after {:?}): mode `parallel` would let them overlap",
                    gr.id,
                    independent.len(),
                    plan.tasks[b].id,
                    plan.tasks[a].id
                ),
            ));
        }
    }
    out.extend(hints);
    out
}

/// Whether the plan's workflow config turns parallel execution off
/// (`workflow_config.parallel_execution: false`).
pub(crate) fn parallel_disabled_by(plan: &Plan) -> bool {
    plan.execution
        .as_ref()
        .and_then(|e| e.get("parallel_execution"))
        == Some(&Value::Bool(false))
}

/// A workflow plan with `parallel_execution: false` whose dependencies would allow
/// overlap: the schedule runs its steps one at a time, and says what that costs.
fn parallel_disabled(plan: &Plan, g: &RunGraph) -> Vec<Finding> {
    if !parallel_disabled_by(plan) {
        return Vec::new();
    }
    // The waves the dependencies alone would give.
    let mut after = vec![0usize; g.deps.len()];
    let mut sizes: HashMap<usize, usize> = HashMap::new();
    for &v in &g.order {
        let w = g.deps[v].iter().map(|&d| after[d]).max().unwrap_or(0);
        if g.is_task(v) {
            *sizes.entry(w).or_insert(0) += 1;
            after[v] = w + 1;
        } else {
            after[v] = w;
        }
    }
    let wide = sizes.values().filter(|&&s| s > 1).count();
    if wide == 0 {
        return Vec::new();
    }
    vec![Finding::hint(
        "parallel-disabled",
        "",
        format!(
            "workflow_config.parallel_execution is false: steps run one at a time, though {wide} wave(s) have steps that could run together"
        ),
    )]
}
