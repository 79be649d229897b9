//! Pictures of a plan's graph, with its waves visible: [`mermaid`], [`dot`] (Graphviz)
//! and [`text`] (a compact terminal drawing in the style of seed 001's execution
//! graph). Each draws the dependencies as declared by the tasks and marks the
//! critical path.

mod dot;
mod mermaid;
mod text;

pub use dot::dot;
pub use mermaid::mermaid;
pub use text::text;

use std::collections::HashMap;

use serde::Serialize;

use crate::exec::{ExecError, Schedule, ScheduledTask};
use crate::model::Plan;
use crate::problem::{ErrorKind, PlanError};

/// The tasks of each wave, in plan order.
pub(crate) fn by_wave(schedule: &Schedule) -> Vec<Vec<&ScheduledTask>> {
    let mut out: Vec<Vec<&ScheduledTask>> = vec![Vec::new(); schedule.waves.len()];
    for t in &schedule.tasks {
        if let Some(w) = out.get_mut(t.wave) {
            w.push(t);
        }
    }
    out
}

/// Each group's member tasks (plan indices, in plan order), for drawing a wait on a
/// whole group as edges from its members.
pub(crate) fn group_members(plan: &Plan) -> HashMap<&str, Vec<usize>> {
    let mut out: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, t) in plan.tasks.iter().enumerate() {
        if let Some(g) = t.group.as_deref() {
            out.entry(g).or_default().push(i);
        }
    }
    out
}

/// The scheduled tasks by id.
pub(crate) fn by_id(schedule: &Schedule) -> HashMap<&str, &ScheduledTask> {
    schedule.tasks.iter().map(|t| (t.id.as_str(), t)).collect()
}

/// A task's label: its id, and its title when it has a different one.
pub(crate) fn label(plan: &Plan, index: usize) -> String {
    let t = &plan.tasks[index];
    match t.title.as_deref() {
        Some(title) if title != t.id && !title.trim().is_empty() => {
            format!("{}: {}", t.id, one_line(title, 40))
        }
        _ => t.id.clone(),
    }
}

/// Text on one line, cut to `max` characters with `…`.
pub fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        let cut: String = flat.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        flat
    }
}

/// A duration in milliseconds as seconds: `5 s`, or `1.250 s` when it has a fraction.
pub fn seconds(ms: u64) -> String {
    let (whole, millis) = (ms / 1000, ms % 1000);
    if millis == 0 {
        format!("{whole} s")
    } else {
        format!("{:.3} s", ms as f64 / 1000.0)
    }
}

/// Picture formats of a plan's graph ([`graph`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GraphFormat {
    /// A Mermaid flowchart.
    Mermaid,
    /// Graphviz DOT.
    Dot,
    /// A terminal drawing.
    Text,
}

impl std::str::FromStr for GraphFormat {
    type Err = PlanError;

    fn from_str(s: &str) -> Result<GraphFormat, PlanError> {
        match s.to_ascii_lowercase().as_str() {
            "mermaid" => Ok(GraphFormat::Mermaid),
            "dot" => Ok(GraphFormat::Dot),
            "text" => Ok(GraphFormat::Text),
            _ => Err(PlanError::new(
                ErrorKind::Unsupported,
                format!("unknown graph format {s:?} (mermaid, dot, text)"),
            )),
        }
    }
}

/// A plan's graph with its waves, drawn in a format: the schedule ([`schedule`](super::schedule))
/// placed in a picture.
///
/// ```
/// use toon_plan::{GraphFormat, ReadOptions};
/// let text = r#"{"dag": [
///   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
///   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
/// ]}"#;
/// let plan = toon_plan::read(text, &ReadOptions::default())?.plan;
/// let mermaid = toon_plan::graph(&plan, GraphFormat::Mermaid)?;
/// assert!(mermaid.starts_with("flowchart"), "{mermaid}");
/// assert!(toon_plan::graph(&plan, GraphFormat::Dot)?.contains("->"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn graph(plan: &Plan, format: GraphFormat) -> Result<String, ExecError> {
    let schedule = crate::exec::schedule(plan)?;
    Ok(match format {
        GraphFormat::Mermaid => mermaid(plan, &schedule),
        GraphFormat::Dot => dot(plan, &schedule),
        GraphFormat::Text => text(plan, &schedule),
    })
}
