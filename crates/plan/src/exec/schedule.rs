//! Waves, stages, critical path and makespan of a plan.

use serde::Serialize;
use serde_json::Value;

use super::durations::{DurationSource, ms_of, task_duration};
use super::error::ExecError;
use super::placement::{self, Finding};
use super::run_graph::RunGraph;
use crate::model::Plan;

/// What a plan's dependencies allow when it runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schedule {
    /// The topological waves: wave `k` holds the tasks whose deepest chain of
    /// dependencies is `k` long, so each task depends only on tasks of earlier waves
    /// and the tasks of one wave can run together.
    pub waves: Vec<Wave>,
    /// Every task, in plan order, with its wave, stage, duration and timing.
    pub tasks: Vec<ScheduledTask>,
    /// The longest chain of dependent tasks, first to last. Measured in milliseconds
    /// when some task has a duration (tasks without one count as 0 ms), else in tasks;
    /// ties go to the chain with more tasks, then to the first in plan order.
    pub critical_path: Vec<String>,
    /// Earliest finish of the whole plan with unlimited concurrency, when some task
    /// has a duration (tasks without one count as 0 ms).
    pub makespan_ms: Option<u64>,
    /// How many tasks have no duration.
    pub tasks_without_duration: usize,
    /// The plan's own estimate of its duration (PlanDAG `metadata.estimated_duration_ms`).
    pub plan_estimate_ms: Option<u64>,
    /// Declared groups and stages checked against the dependencies.
    pub findings: Vec<Finding>,
}

/// One wave of tasks that can run together.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Wave {
    /// 0-based index.
    pub index: usize,
    /// Ids of its tasks, in plan order.
    pub tasks: Vec<String>,
}

/// Seed 003's stage annotation of a step, with stages derived from the dependencies
/// (one stage per wave).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StageAnnotation {
    /// `stage-N`, N = wave index + 1.
    pub stage_id: String,
    /// The wave index (0-based, as the staged dialect writes it).
    pub stage_index: usize,
    /// `parallel` when the stage has more than one step, else `sequence`.
    pub stage_mode: String,
}

/// A task in the schedule.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScheduledTask {
    /// Index in the plan's task list.
    pub index: usize,
    /// Task id.
    pub id: String,
    /// Its wave (0-based).
    pub wave: usize,
    /// Its derived stage.
    pub stage: StageAnnotation,
    /// Ids of the tasks it depends on.
    pub waits_for: Vec<String>,
    /// Ids of the groups whose every task it waits for (its workflow task's
    /// `dependencies`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waits_for_groups: Vec<String>,
    /// Its duration, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Where the duration came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_source: Option<DurationSource>,
    /// Earliest start with unlimited concurrency (when durations are known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<u64>,
    /// Earliest finish with unlimited concurrency (when durations are known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_ms: Option<u64>,
    /// Whether it is on the critical path.
    pub critical: bool,
}

impl Schedule {
    /// The scheduled task with this id.
    pub fn task(&self, id: &str) -> Option<&ScheduledTask> {
        self.tasks.iter().find(|t| t.id == id)
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Finding::is_error)
    }
}

/// Schedules a plan. Fails when tasks lack ids or share them, a dependency names no
/// task, or dependencies form a cycle; the error names the tasks.
pub fn schedule(plan: &Plan) -> Result<Schedule, ExecError> {
    let g = RunGraph::build(plan)?;
    Ok(schedule_with(plan, &g))
}

pub(crate) fn schedule_with(plan: &Plan, g: &RunGraph) -> Schedule {
    let n = g.tasks;
    let nodes = g.deps.len();
    // A workflow with `parallel_execution: false` runs one step at a time, in
    // dependency order: each task also waits for the task before it in that order.
    let mut previous: Vec<Option<usize>> = vec![None; nodes];
    if placement::parallel_disabled_by(plan) {
        let mut last = None;
        for &v in g.order.iter().filter(|&&v| g.is_task(v)) {
            previous[v] = last;
            last = Some(v);
        }
    }
    let waits = |v: usize| g.deps[v].iter().copied().chain(previous[v]);
    // Waves: a task comes one wave after each task it waits for; a barrier sits
    // "after" its group's last task, so it adds no wave of its own.
    let mut after = vec![0usize; nodes];
    let mut wave = vec![0usize; n];
    for &v in &g.order {
        let mut w = 0;
        for d in waits(v) {
            w = w.max(after[d]);
        }
        if g.is_task(v) {
            wave[v] = w;
            after[v] = w + 1;
        } else {
            after[v] = w;
        }
    }
    let count = wave.iter().map(|w| w + 1).max().unwrap_or(0);
    let mut waves: Vec<Wave> = (0..count)
        .map(|index| Wave {
            index,
            tasks: Vec::new(),
        })
        .collect();
    for (i, &w) in wave.iter().enumerate() {
        waves[w].tasks.push(plan.tasks[i].id.clone());
    }

    // Durations, earliest times and the critical path (longest path; ties keep the
    // first candidate in dependency order, the first end task in plan order).
    let durations: Vec<Option<(u64, DurationSource)>> =
        plan.tasks.iter().map(task_duration).collect();
    let timed = durations.iter().any(Option::is_some);
    let weight = |i: usize| match durations[i] {
        Some((ms, _)) => ms,
        None if timed => 0,
        None => 1,
    };
    let mut finish = vec![0u64; nodes];
    // The task whose finish a node's start (or a barrier's finish) waits on.
    let mut via: Vec<Option<usize>> = vec![None; nodes];
    let mut start = vec![0u64; n];
    for &v in &g.order {
        let mut best: Option<(u64, usize)> = None;
        for d in waits(v) {
            let cand = if g.is_task(d) { Some(d) } else { via[d] };
            // Longest finish wins; on a tie, the longer chain of tasks (later wave).
            if let Some(c) = cand
                && best.is_none_or(|(f, b)| (finish[d], wave[c]) > (f, wave[b]))
            {
                best = Some((finish[d], c));
            }
        }
        let begin = best.map_or(0, |(f, _)| f);
        via[v] = best.map(|(_, c)| c);
        if g.is_task(v) {
            start[v] = begin;
            finish[v] = begin.saturating_add(weight(v));
        } else {
            finish[v] = begin;
        }
    }
    let mut critical = vec![false; n];
    let mut path = Vec::new();
    let mut end: Option<usize> = None;
    for i in 0..n {
        if end.is_none_or(|e| (finish[i], wave[i]) > (finish[e], wave[e])) {
            end = Some(i);
        }
    }
    let mut cur = end;
    while let Some(i) = cur {
        critical[i] = true;
        path.push(plan.tasks[i].id.clone());
        cur = via[i];
    }
    path.reverse();
    let makespan_ms = if timed { end.map(|e| finish[e]) } else { None };

    let tasks: Vec<ScheduledTask> = (0..n)
        .map(|i| {
            let w = wave[i];
            ScheduledTask {
                index: i,
                id: plan.tasks[i].id.clone(),
                wave: w,
                stage: StageAnnotation {
                    stage_id: format!("stage-{}", w + 1),
                    stage_index: w,
                    stage_mode: if waves[w].tasks.len() > 1 {
                        "parallel"
                    } else {
                        "sequence"
                    }
                    .to_owned(),
                },
                waits_for: g
                    .direct_deps(i)
                    .0
                    .into_iter()
                    .map(|d| plan.tasks[d].id.clone())
                    .collect(),
                waits_for_groups: g
                    .direct_deps(i)
                    .1
                    .into_iter()
                    .map(|b| g.barrier_groups[b - n].clone())
                    .collect(),
                duration_ms: durations[i].map(|(ms, _)| ms),
                duration_source: durations[i].map(|(_, s)| s),
                start_ms: timed.then_some(start[i]),
                finish_ms: timed.then_some(finish[i]),
                critical: critical[i],
            }
        })
        .collect();
    let plan_estimate_ms = plan
        .metadata
        .as_ref()
        .and_then(|m| m.get("estimated_duration_ms"))
        .and_then(Value::as_number)
        .and_then(|n| ms_of(n, 1.0));
    let findings = placement::check(plan, g, &wave);
    Schedule {
        waves,
        tasks_without_duration: durations.iter().filter(|d| d.is_none()).count(),
        tasks,
        critical_path: path,
        makespan_ms,
        plan_estimate_ms,
        findings,
    }
}
