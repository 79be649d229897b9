//! A dry run: the plan "runs" in simulated time, as seed 003's executor coordinator
//! would run it, and emits seed 003's events.
//!
//! - A step starts when every step it waits for has completed, as soon as the global
//!   cap (default [`DEFAULT_CAP`]) and the caps of the tools it uses allow. Ready steps
//!   start in wave order, then plan order.
//! - It takes its duration (see [`task_duration`](super::task_duration)), or
//!   [`DryRunOptions::default_duration_ms`] when it has none.
//! - It succeeds unless the caller says it fails; a failed step's dependents, direct or
//!   not, are skipped (`step_complete` with status `skipped` and `blocked_by`).
//! - A tool DAG step's query is resolved against its dependencies' results: the
//!   caller's, else a stand-in `<id.field>`. A reference that cannot be resolved fails
//!   the step.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};
use std::ops::Bound::{Excluded, Unbounded};

use indexmap::IndexMap;
use serde_json::Value;

use super::error::ExecError;
use super::events::{Event, StepEvent, StepStatus};
use super::refs::{RefError, lookup, resolve_with};
use super::run_graph::RunGraph;
use super::schedule::{Schedule, schedule_with};
use crate::model::{Plan, Task};

/// Seed 003's default global cap on concurrent steps.
pub const DEFAULT_CAP: usize = 5;

/// How a step ends in a dry run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It completes.
    Succeed,
    /// It fails, with this message.
    Fail(String),
}

/// Options of a dry run.
#[derive(Clone, Debug)]
pub struct DryRunOptions {
    /// At most this many steps run at once (at least 1).
    pub cap: usize,
    /// Per-tool caps: at most N running steps may use the tool (at least 1 each). A
    /// step uses its `tool` and its `tools`.
    pub tool_caps: BTreeMap<String, usize>,
    /// Outcomes by step id; steps not named succeed.
    pub outcomes: HashMap<String, Outcome>,
    /// Results by step id, for resolving `{{id.field}}` references; steps not named get
    /// stand-in results.
    pub results: HashMap<String, Value>,
    /// Duration of steps that have none.
    pub default_duration_ms: u64,
}

impl Default for DryRunOptions {
    fn default() -> Self {
        DryRunOptions {
            cap: DEFAULT_CAP,
            tool_caps: BTreeMap::new(),
            outcomes: HashMap::new(),
            results: HashMap::new(),
            default_duration_ms: 1000,
        }
    }
}

/// The result of a dry run.
#[derive(Clone, Debug, PartialEq)]
pub struct DryRun {
    /// The schedule the run followed.
    pub schedule: Schedule,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Each step's final status (`complete`, `failed` or `skipped`), in plan order.
    pub statuses: IndexMap<String, StepStatus>,
    /// The most steps that ran at once.
    pub max_running: usize,
    /// When the last step finished.
    pub finished_ms: u64,
}

/// The tools a task uses, each once.
fn tools_of(t: &Task) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for tool in t.tool.iter().chain(t.tools.iter().flatten()) {
        if !out.contains(&tool.as_str()) {
            out.push(tool);
        }
    }
    out
}

fn executor_of(t: &Task) -> String {
    t.executor
        .clone()
        .or_else(|| t.tool.clone())
        .unwrap_or_else(|| "default".to_owned())
}

/// Runs a plan in simulated time. Fails when the plan cannot be scheduled or the
/// options are unusable (a cap of 0, an outcome or result for an unknown step).
pub fn dry_run(plan: &Plan, options: &DryRunOptions) -> Result<DryRun, ExecError> {
    let g = RunGraph::build(plan)?;
    let schedule = schedule_with(plan, &g);
    if options.cap == 0 {
        return Err(ExecError::Options(
            "the concurrency cap must be at least 1".into(),
        ));
    }
    if let Some((tool, _)) = options.tool_caps.iter().find(|(_, c)| **c == 0) {
        return Err(ExecError::Options(format!(
            "the cap for tool {tool:?} must be at least 1"
        )));
    }
    for id in options.outcomes.keys().chain(options.results.keys()) {
        if plan.task(id).is_none() {
            return Err(ExecError::Options(format!("no step {id:?} in the plan")));
        }
    }
    // `workflow_config.parallel_execution: false`: one step at a time, as the schedule
    // has it.
    if super::placement::parallel_disabled_by(plan) && options.cap > 1 {
        let serial = DryRunOptions {
            cap: 1,
            ..options.clone()
        };
        return Ok(Sim::new(plan, &g, schedule, &serial).run());
    }
    Ok(Sim::new(plan, &g, schedule, options).run())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    Ready,
    Running,
    Done(StepStatus),
}

struct Sim<'a> {
    plan: &'a Plan,
    g: &'a RunGraph,
    schedule: Schedule,
    opts: &'a DryRunOptions,
    state: Vec<State>,
    waiting: Vec<usize>,
    ready: BTreeSet<(usize, usize)>,
    /// Ready steps waiting for a slot of a capped tool, by tool.
    parked: HashMap<&'a str, BTreeSet<(usize, usize)>>,
    running: BinaryHeap<Reverse<(u64, usize)>>,
    tool_use: HashMap<&'a str, usize>,
    results: HashMap<String, Value>,
    ref_failures: HashMap<usize, String>,
    events: Vec<Event>,
    now: u64,
    max_running: usize,
    /// Position of each node in the graph's topological order.
    rank: Vec<usize>,
}

impl<'a> Sim<'a> {
    fn new(plan: &'a Plan, g: &'a RunGraph, schedule: Schedule, opts: &'a DryRunOptions) -> Self {
        let nodes = g.deps.len();
        let mut rank = vec![0; nodes];
        for (k, &v) in g.order.iter().enumerate() {
            rank[v] = k;
        }
        Sim {
            rank,
            plan,
            g,
            schedule,
            opts,
            state: vec![State::Waiting; nodes],
            waiting: g.deps.iter().map(Vec::len).collect(),
            ready: BTreeSet::new(),
            parked: HashMap::new(),
            running: BinaryHeap::new(),
            tool_use: HashMap::new(),
            results: HashMap::new(),
            ref_failures: HashMap::new(),
            events: Vec::new(),
            now: 0,
            max_running: 0,
        }
    }

    fn step_event(&self, i: usize, status: StepStatus, blocked_by: Option<String>) -> StepEvent {
        let t = &self.plan.tasks[i];
        let output_refs = match status {
            StepStatus::Complete => t.outputs.clone().unwrap_or_default(),
            _ => Vec::new(),
        };
        StepEvent {
            at_ms: self.now,
            step_id: t.id.clone(),
            stage_id: self.schedule.tasks[i].stage.stage_id.clone(),
            status,
            executor: executor_of(t),
            output_refs,
            blocked_by,
        }
    }

    fn run(mut self) -> DryRun {
        self.events.push(Event::PlanCreated {
            at_ms: 0,
            plan_id: self.plan.id.clone(),
            steps: self.plan.tasks.len(),
            stages: self.schedule.waves.len(),
            cap: self.opts.cap,
        });
        let roots: Vec<usize> = (0..self.g.deps.len())
            .filter(|&v| self.waiting[v] == 0)
            .collect();
        for v in roots {
            self.make_ready(v);
        }
        loop {
            self.start_ready();
            let Some(Reverse((at, _))) = self.running.peek().copied() else {
                break;
            };
            self.now = at;
            let mut finishing = Vec::new();
            while let Some(Reverse((t, i))) = self.running.peek().copied() {
                if t != at {
                    break;
                }
                self.running.pop();
                finishing.push(i);
            }
            for i in finishing {
                self.finish(i);
            }
        }
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        let mut statuses = IndexMap::new();
        for (i, t) in self.plan.tasks.iter().enumerate() {
            let status = match self.state[i] {
                State::Done(s) => s,
                // Unreachable with caps of at least 1; reported rather than hidden.
                _ => StepStatus::Skipped,
            };
            let name = match status {
                StepStatus::Complete => "complete",
                StepStatus::Failed => "failed",
                _ => "skipped",
            };
            *counts.entry(name).or_insert(0) += 1;
            statuses.insert(t.id.clone(), status);
        }
        let summary: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
        self.events.push(Event::Operation {
            at_ms: self.now,
            message: format!(
                "dry run finished at {} ms: {} (at most {} running at once)",
                self.now,
                if summary.is_empty() {
                    "no steps".to_owned()
                } else {
                    summary.join(", ")
                },
                self.max_running
            ),
        });
        DryRun {
            schedule: self.schedule,
            events: self.events,
            statuses,
            max_running: self.max_running,
            finished_ms: self.now,
        }
    }

    /// A node whose dependencies are all complete: tasks queue, barriers complete.
    fn make_ready(&mut self, v: usize) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            if self.g.is_task(v) {
                self.state[v] = State::Ready;
                self.ready.insert((self.schedule.tasks[v].wave, v));
                continue;
            }
            self.state[v] = State::Done(StepStatus::Complete);
            for &w in &self.g.dependents[v] {
                self.waiting[w] -= 1;
                if self.waiting[w] == 0 && self.state[w] == State::Waiting {
                    stack.push(w);
                }
            }
        }
    }

    /// The first capped tool the task uses that has no free slot.
    fn saturated_tool(&self, t: &'a Task) -> Option<&'a str> {
        tools_of(t).into_iter().find(|tool| {
            self.opts
                .tool_caps
                .get(*tool)
                .is_some_and(|&cap| self.tool_use.get(tool).copied().unwrap_or(0) >= cap)
        })
    }

    /// Moves parked steps back to the ready set, as many per tool as it has free slots.
    /// Returns whether any moved.
    fn unpark(&mut self) -> bool {
        let mut moved = false;
        for (tool, cap) in &self.opts.tool_caps {
            let free = cap.saturating_sub(self.tool_use.get(tool.as_str()).copied().unwrap_or(0));
            let Some(parked) = self.parked.get_mut(tool.as_str()) else {
                continue;
            };
            for _ in 0..free {
                let Some(key) = parked.pop_first() else {
                    break;
                };
                self.ready.insert(key);
                moved = true;
            }
        }
        moved
    }

    /// Starts ready steps in order (wave, then plan order) while the global cap allows.
    /// A step whose capped tool is saturated is parked under that tool until a slot
    /// frees, so it is not looked at again meanwhile: the run stays near-linear.
    fn start_ready(&mut self) {
        loop {
            self.start_pass();
            if self.running.len() >= self.opts.cap || !self.unpark() {
                break;
            }
        }
    }

    fn start_pass(&mut self) {
        // Started and parked steps leave the set behind the cursor.
        let mut cursor: Option<(usize, usize)> = None;
        while self.running.len() < self.opts.cap {
            let next = match cursor {
                None => self.ready.iter().next(),
                Some(c) => self.ready.range((Excluded(c), Unbounded)).next(),
            };
            let Some(&key) = next else {
                break;
            };
            cursor = Some(key);
            let i = key.1;
            let plan = self.plan;
            let t = &plan.tasks[i];
            if let Some(tool) = self.saturated_tool(t) {
                self.ready.remove(&key);
                self.parked.entry(tool).or_default().insert(key);
                continue;
            }
            self.ready.remove(&key);
            self.state[i] = State::Running;
            for tool in tools_of(t) {
                *self.tool_use.entry(tool).or_insert(0) += 1;
            }
            let ms = self.schedule.tasks[i]
                .duration_ms
                .unwrap_or(self.opts.default_duration_ms);
            self.running.push(Reverse((self.now.saturating_add(ms), i)));
            self.max_running = self.max_running.max(self.running.len());
            let ev = self.step_event(i, StepStatus::Start, None);
            self.events.push(Event::StepStart(ev));
            if let Some(e) = &t.executor {
                self.events.push(Event::ExecutorSpawned {
                    at_ms: self.now,
                    step_id: t.id.clone(),
                    executor: e.clone(),
                });
            }
            if let Some(tool) = &t.tool {
                let query = match self.query(t) {
                    Some(Ok(q)) => Some(q),
                    Some(Err(e)) => {
                        self.ref_failures.insert(i, format!("query: {e}"));
                        None
                    }
                    None => None,
                };
                self.events.push(Event::ToolCall {
                    at_ms: self.now,
                    step_id: t.id.clone(),
                    tool: tool.clone(),
                    query,
                });
            }
        }
    }

    /// The step's resolved query, or why it cannot be resolved.
    fn query(&self, t: &Task) -> Option<Result<String, RefError>> {
        let q = t.description.as_deref()?;
        Some(resolve_with(q, |id, field| match self.results.get(id) {
            Some(v) => lookup(v, id, field),
            None => Err(RefError::MissingTask {
                reference: format!("{{{{{id}.{field}}}}}"),
                task: id.to_owned(),
            }),
        }))
    }

    fn finish(&mut self, i: usize) {
        let plan = self.plan;
        let t = &plan.tasks[i];
        for tool in tools_of(t) {
            if let Some(n) = self.tool_use.get_mut(tool) {
                *n = n.saturating_sub(1);
            }
        }
        let mut failure = match self.opts.outcomes.get(&t.id) {
            Some(Outcome::Fail(msg)) => Some(msg.clone()),
            _ => None,
        };
        if failure.is_none() {
            failure = self.ref_failures.remove(&i);
        }
        if let Some(tool) = &t.tool {
            self.events.push(Event::ToolResult {
                at_ms: self.now,
                step_id: t.id.clone(),
                tool: tool.clone(),
                ok: failure.is_none(),
            });
        }
        if let Some(e) = &t.executor {
            self.events.push(Event::ExecutorResult {
                at_ms: self.now,
                step_id: t.id.clone(),
                executor: e.clone(),
                ok: failure.is_none(),
            });
        }
        match failure {
            None => {
                let result = self
                    .opts
                    .results
                    .get(&t.id)
                    .cloned()
                    .unwrap_or_else(|| Value::String(format!("<{}.result>", t.id)));
                self.results.insert(t.id.clone(), result);
                self.state[i] = State::Done(StepStatus::Complete);
                let ev = self.step_event(i, StepStatus::Complete, None);
                self.events.push(Event::StepComplete(ev));
                let dependents = self.g.dependents[i].clone();
                for w in dependents {
                    self.waiting[w] -= 1;
                    if self.waiting[w] == 0 && self.state[w] == State::Waiting {
                        self.make_ready(w);
                    }
                }
            }
            Some(message) => {
                self.state[i] = State::Done(StepStatus::Failed);
                self.events.push(Event::Error {
                    at_ms: self.now,
                    step_id: t.id.clone(),
                    message,
                });
                let ev = self.step_event(i, StepStatus::Failed, None);
                self.events.push(Event::StepComplete(ev));
                self.skip_downstream(i);
            }
        }
    }

    /// Skips every step that waits, directly or not, for a failed step. Each step is
    /// skipped once, so all failures together cost time linear in the plan.
    fn skip_downstream(&mut self, failed: usize) {
        let mut hit = Vec::new();
        let mut stack = vec![failed];
        while let Some(v) = stack.pop() {
            for &w in &self.g.dependents[v] {
                if self.state[w] == State::Waiting {
                    self.state[w] = State::Done(StepStatus::Skipped);
                    hit.push(w);
                    stack.push(w);
                }
            }
        }
        hit.sort_by_key(|&v| self.rank[v]);
        let blocked_by = self.plan.tasks[failed].id.clone();
        for v in hit {
            if self.g.is_task(v) {
                let ev = self.step_event(v, StepStatus::Skipped, Some(blocked_by.clone()));
                self.events.push(Event::StepComplete(ev));
            }
        }
    }
}
