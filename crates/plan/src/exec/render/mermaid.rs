//! Mermaid flowchart: one subgraph per wave, critical tasks in bold; a wait on a whole
//! group (a workflow task's `dependencies`) is a dotted edge from each of its members.

use crate::exec::Schedule;
use crate::model::Plan;

/// Mermaid text with characters that would end a quoted label replaced by entity
/// codes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The plan as a Mermaid `flowchart TD`. Nodes are named `t0`, `t1`, … (plan order)
/// so any id is safe; labels carry the ids.
pub fn mermaid(plan: &Plan, schedule: &Schedule) -> String {
    let waves = super::by_wave(schedule);
    let ids = super::by_id(schedule);
    let members = super::group_members(plan);
    let mut out = String::from("flowchart TD\n");
    for w in &schedule.waves {
        out.push_str(&format!(
            "  subgraph wave{}[\"wave {}\"]\n",
            w.index + 1,
            w.index + 1
        ));
        for t in waves[w.index].iter().copied() {
            out.push_str(&format!(
                "    t{}[\"{}\"]\n",
                t.index,
                escape(&super::label(plan, t.index))
            ));
        }
        out.push_str("  end\n");
    }
    for t in &schedule.tasks {
        for d in &t.waits_for {
            if let Some(dep) = ids.get(d.as_str()).copied() {
                out.push_str(&format!("  t{} --> t{}\n", dep.index, t.index));
            }
        }
        for g in &t.waits_for_groups {
            for m in members.get(g.as_str()).into_iter().flatten() {
                if t.waits_for.contains(&plan.tasks[*m].id) {
                    continue; // already drawn as a direct dependency
                }
                out.push_str(&format!("  t{m} -.-> t{}\n", t.index));
            }
        }
    }
    let critical: Vec<String> = schedule
        .tasks
        .iter()
        .filter(|t| t.critical)
        .map(|t| format!("t{}", t.index))
        .collect();
    if !critical.is_empty() {
        out.push_str("  classDef critical stroke-width:3px\n");
        out.push_str(&format!("  class {} critical\n", critical.join(",")));
    }
    out
}
