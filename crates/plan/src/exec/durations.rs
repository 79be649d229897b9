//! How long a task takes, from whatever its dialect says.
//!
//! Dialects keep durations in different places: a workflow step's `timeout` (seconds)
//! and a PlanDAG step's `timeout` (milliseconds) are both in
//! [`Task::timeout_ms`](crate::Task::timeout_ms); an `estimated_time` (seconds, as a
//! workflow task has) or `estimated_duration_ms` on a task itself stays in the task's
//! `extra` map. An estimate wins over a timeout, which is only an upper bound.

use serde::Serialize;
use serde_json::{Number, Value};

use crate::model::Task;

/// Where a task's duration came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DurationSource {
    /// The task's `estimated_duration_ms`.
    EstimatedDurationMs,
    /// The task's `estimated_time`, in seconds.
    EstimatedTime,
    /// The task's timeout: an upper bound, not an estimate.
    Timeout,
}

/// Milliseconds of a non-negative, finite number (rounded; huge values saturate).
pub(crate) fn ms_of(n: &Number, scale: f64) -> Option<u64> {
    if let Some(u) = n.as_u64() {
        return Some(u.saturating_mul(scale as u64));
    }
    let f = n.as_f64()? * scale;
    if !f.is_finite() || f < 0.0 {
        return None;
    }
    // `as` saturates at u64::MAX for floats too large.
    Some(f.round() as u64)
}

fn extra_number<'a>(task: &'a Task, key: &str) -> Option<&'a Number> {
    match task.extra.get(key) {
        Some(Value::Number(n)) => Some(n),
        _ => None,
    }
}

/// The task's duration in milliseconds and where it came from, or `None` when the task
/// says nothing usable (negative or non-numeric values are ignored).
pub fn task_duration(task: &Task) -> Option<(u64, DurationSource)> {
    if let Some(ms) = extra_number(task, "estimated_duration_ms").and_then(|n| ms_of(n, 1.0)) {
        return Some((ms, DurationSource::EstimatedDurationMs));
    }
    if let Some(ms) = extra_number(task, "estimated_time").and_then(|n| ms_of(n, 1000.0)) {
        return Some((ms, DurationSource::EstimatedTime));
    }
    let ms = task.timeout_ms.as_ref().and_then(|n| ms_of(n, 1.0))?;
    Some((ms, DurationSource::Timeout))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(extra: &[(&str, Value)], timeout: Option<i64>) -> Task {
        let mut t = Task {
            id: "t".into(),
            timeout_ms: timeout.map(Number::from),
            ..Task::default()
        };
        for (k, v) in extra {
            t.extra.insert((*k).into(), v.clone());
        }
        t
    }

    #[test]
    fn estimates_win_over_timeouts_and_units_are_converted() {
        let t = task(&[("estimated_time", serde_json::json!(2.5))], Some(9000));
        assert_eq!(
            task_duration(&t),
            Some((2500, DurationSource::EstimatedTime))
        );
        let t = task(
            &[
                ("estimated_time", serde_json::json!(2)),
                ("estimated_duration_ms", serde_json::json!(700)),
            ],
            None,
        );
        assert_eq!(
            task_duration(&t),
            Some((700, DurationSource::EstimatedDurationMs))
        );
        let t = task(&[], Some(30_000));
        assert_eq!(task_duration(&t), Some((30_000, DurationSource::Timeout)));
        assert_eq!(task_duration(&task(&[], None)), None);
    }

    #[test]
    fn unusable_values_are_ignored() {
        let t = task(&[("estimated_time", serde_json::json!(-1))], None);
        assert_eq!(task_duration(&t), None);
        let t = task(&[("estimated_time", serde_json::json!("5s"))], Some(10));
        assert_eq!(task_duration(&t), Some((10, DurationSource::Timeout)));
        let t = task(&[("estimated_time", serde_json::json!(1e300))], None);
        assert_eq!(
            task_duration(&t),
            Some((u64::MAX, DurationSource::EstimatedTime))
        );
        let t = task(&[("estimated_time", serde_json::json!(u64::MAX))], None);
        assert_eq!(
            task_duration(&t),
            Some((u64::MAX, DurationSource::EstimatedTime))
        );
    }
}
