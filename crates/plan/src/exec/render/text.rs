//! A compact terminal drawing: waves top to bottom, each task with what it waits
//! for, critical tasks starred.
//!
//! ```text
//! wave 1  [setup-db]*
//!            │
//!            ▼
//! wave 2  [setup-auth-utils]*  ◄ setup-db
//! ```

use crate::exec::Schedule;
use crate::model::Plan;

use super::seconds as ms;

/// The drawing, ending with the critical path and, when durations are known, the
/// makespan. Task labels are cut to one line.
pub fn text(plan: &Plan, schedule: &Schedule) -> String {
    let waves = super::by_wave(schedule);
    let mut out = String::new();
    let width = format!("wave {}", schedule.waves.len()).len();
    for (k, w) in schedule.waves.iter().enumerate() {
        if k > 0 {
            let pad = " ".repeat(width + 5);
            out.push_str(&format!("{pad}│\n{pad}▼\n"));
        }
        let head = format!("wave {}", w.index + 1);
        for (j, t) in waves[w.index].iter().copied().enumerate() {
            let lead = if j == 0 { head.as_str() } else { "" };
            let mut line = format!(
                "{lead:<width$}  [{}]{}",
                super::one_line(&super::label(plan, t.index), 60),
                if t.critical { "*" } else { "" }
            );
            if let Some(d) = t.duration_ms {
                line.push_str(&format!(" {}", ms(d)));
            }
            let waits: Vec<String> = t
                .waits_for
                .iter()
                .cloned()
                .chain(t.waits_for_groups.iter().map(|g| format!("group {g}")))
                .collect();
            if !waits.is_empty() {
                line.push_str(&format!("  ◄ {}", waits.join(", ")));
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    if schedule.critical_path.is_empty() {
        out.push_str("(no tasks)\n");
        return out;
    }
    out.push_str(&format!(
        "* critical path: {}",
        schedule.critical_path.join(" → ")
    ));
    match schedule.makespan_ms {
        Some(m) => out.push_str(&format!(" ({})\n", ms(m))),
        None => out.push_str(&format!(" ({} tasks)\n", schedule.critical_path.len())),
    }
    out
}
