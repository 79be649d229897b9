//! Graphviz DOT: one cluster per wave, left to right, critical tasks in bold; a wait on
//! a whole group (a workflow task's `dependencies`) is a dashed edge from each of its
//! members.

use crate::exec::Schedule;
use crate::model::Plan;

/// A DOT double-quoted string's content.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The plan as a Graphviz `digraph`. Nodes are named by their ids, quoted.
pub fn dot(plan: &Plan, schedule: &Schedule) -> String {
    let waves = super::by_wave(schedule);
    let ids = super::by_id(schedule);
    let members = super::group_members(plan);
    let mut out = String::from("digraph plan {\n  rankdir=LR;\n  node [shape=box];\n");
    for w in &schedule.waves {
        out.push_str(&format!(
            "  subgraph cluster_wave{} {{\n    label=\"wave {}\";\n",
            w.index + 1,
            w.index + 1
        ));
        for t in waves[w.index].iter().copied() {
            let bold = if t.critical { ", style=bold" } else { "" };
            out.push_str(&format!(
                "    \"{}\" [label=\"{}\"{bold}];\n",
                escape(&t.id),
                escape(&super::label(plan, t.index))
            ));
        }
        out.push_str("  }\n");
    }
    for t in &schedule.tasks {
        for d in &t.waits_for {
            let bold = match ids.get(d.as_str()).copied() {
                Some(dep) if dep.critical && t.critical => " [style=bold]",
                _ => "",
            };
            out.push_str(&format!(
                "  \"{}\" -> \"{}\"{bold};\n",
                escape(d),
                escape(&t.id)
            ));
        }
        for g in &t.waits_for_groups {
            for &m in members.get(g.as_str()).into_iter().flatten() {
                if t.waits_for.contains(&plan.tasks[m].id) {
                    continue; // already drawn as a direct dependency
                }
                out.push_str(&format!(
                    "  \"{}\" -> \"{}\" [style=dashed, tooltip=\"waits for group {}\"];\n",
                    escape(&plan.tasks[m].id),
                    escape(&t.id),
                    escape(g)
                ));
            }
        }
    }
    out.push_str("}\n");
    out
}
