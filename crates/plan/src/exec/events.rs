//! The event contract of seed 003 §7, as emitted by a dry run.

use serde::Serialize;

/// A step's status in `step_start` / `step_complete` events. Seed 003 names `start`,
/// `complete` and `failed`; `skipped` marks a step whose dependency failed (seed 003
/// §6.3: failure propagates to dependent steps, which are skipped or blocked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// The step started.
    Start,
    /// The step finished successfully.
    Complete,
    /// The step failed.
    Failed,
    /// The step never ran: a step it waits for failed or was skipped.
    Skipped,
}

/// The fields seed 003 asks every step event to carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepEvent {
    /// Simulated time in milliseconds since the run started.
    pub at_ms: u64,
    /// The step.
    pub step_id: String,
    /// Its stage (derived from the dependencies, see
    /// [`StageAnnotation`](super::StageAnnotation)).
    pub stage_id: String,
    /// What happened.
    pub status: StepStatus,
    /// Who runs it: the task's executor, else its tool, else `default`.
    pub executor: String,
    /// The artifacts it produces (staged `outputs`), on success.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub output_refs: Vec<String>,
    /// For skipped steps: the failed step that blocked it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<String>,
}

/// One event of a (simulated) run. Serialized with an `event` tag holding the seed's
/// event name, e.g. `{"event":"step_start","at_ms":0,"step_id":"a",…}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// The plan is about to run.
    PlanCreated {
        /// Always 0.
        at_ms: u64,
        /// The plan's id, when it has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        plan_id: Option<String>,
        /// Number of steps.
        steps: usize,
        /// Number of derived stages (waves).
        stages: usize,
        /// The global concurrency cap.
        cap: usize,
    },
    /// A step started.
    StepStart(StepEvent),
    /// An executor was spawned for a step.
    ExecutorSpawned {
        /// Simulated time.
        at_ms: u64,
        /// The step.
        step_id: String,
        /// The executor.
        executor: String,
    },
    /// A step called its tool (tool DAG `tool`), with its query after reference
    /// resolution.
    ToolCall {
        /// Simulated time.
        at_ms: u64,
        /// The step.
        step_id: String,
        /// The tool.
        tool: String,
        /// The resolved query, when the step has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<String>,
    },
    /// The tool answered.
    ToolResult {
        /// Simulated time.
        at_ms: u64,
        /// The step.
        step_id: String,
        /// The tool.
        tool: String,
        /// Whether the call succeeded.
        ok: bool,
    },
    /// The executor finished.
    ExecutorResult {
        /// Simulated time.
        at_ms: u64,
        /// The step.
        step_id: String,
        /// The executor.
        executor: String,
        /// Whether it succeeded.
        ok: bool,
    },
    /// A step failed.
    Error {
        /// Simulated time.
        at_ms: u64,
        /// The step.
        step_id: String,
        /// Why.
        message: String,
    },
    /// A step finished, failed or was skipped.
    StepComplete(StepEvent),
    /// A human-readable note (the run's summary).
    Operation {
        /// Simulated time.
        at_ms: u64,
        /// The note.
        message: String,
    },
}

impl Event {
    /// The event's simulated time.
    pub fn at_ms(&self) -> u64 {
        match self {
            Event::StepStart(e) | Event::StepComplete(e) => e.at_ms,
            Event::PlanCreated { at_ms, .. }
            | Event::ExecutorSpawned { at_ms, .. }
            | Event::ToolCall { at_ms, .. }
            | Event::ToolResult { at_ms, .. }
            | Event::ExecutorResult { at_ms, .. }
            | Event::Error { at_ms, .. }
            | Event::Operation { at_ms, .. } => *at_ms,
        }
    }
}

/// Events as JSON lines, one object per line, each line ending in `\n`.
pub fn to_json_lines(events: &[Event]) -> String {
    let mut out = String::new();
    for e in events {
        // Serializing these plain structs cannot fail; skip rather than panic anyway.
        if let Ok(line) = serde_json::to_string(e) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}
