//! Plan execution view: what a plan's dependencies mean when it runs.
//!
//! Everything here works on the one [`Plan`](crate::Plan) model, so it answers the
//! same questions for every dialect:
//!
//! - [`schedule`]: the topological waves (what can run together), the stage each task
//!   is annotated with (seed 003's `stageId`/`stageIndex`/`stageMode`), durations,
//!   the critical path and makespan, and checks of declared `parallel_group`s and
//!   stages against the dependencies.
//! - [`dry_run`]: a simulated run with a global concurrency cap and per-tool caps,
//!   outcomes chosen by the caller, failure propagation, and seed 003's event stream.
//! - [`references`] and [`resolve`]: the `{{task_id.field}}` hand-offs of seed 004.
//! - [`render`]: Mermaid, Graphviz DOT and a terminal drawing, waves visible.
//! - JSON Schemas for every dialect are in the crate's `schema` module.
//!
//! It is a view, not a workflow engine: nothing runs, no time passes.
//!
//! ```
//! use toon_plan::exec;
//!
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "search", "query": "y", "dependencies": []},
//!   {"id": "c", "tool": "calc", "query": "{{a.result}} - {{b.result}}", "dependencies": ["a", "b"]}
//! ]}"#;
//! let plan = toon_plan::read(text, &toon_plan::ReadOptions::default())?.plan;
//! let s = exec::schedule(&plan)?;
//! assert_eq!(s.waves.len(), 2);
//! assert_eq!(s.waves[0].tasks, ["a", "b"]);
//! assert_eq!(s.tasks[2].stage.stage_id, "stage-2");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod durations;
mod error;
mod events;
mod placement;
mod refs;
pub mod render;
mod run_graph;
mod schedule;
mod simulate;

pub use durations::{DurationSource, task_duration};
pub use error::ExecError;
pub use events::{Event, StepEvent, StepStatus, to_json_lines};
pub(crate) use placement::parallel_disabled_by;
pub use placement::{Finding, FindingLevel};
pub use refs::{RefError, Reference, references, resolve, resolve_with, scan};
pub use schedule::{Schedule, ScheduledTask, StageAnnotation, Wave, schedule};
pub use simulate::{DEFAULT_CAP, DryRun, DryRunOptions, Outcome, dry_run};
