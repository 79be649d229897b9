//! PlanDAG (seed 000): `{plan_id, intent, steps[…], success_criteria, rollback_plan,
//! metadata}` for browser/API agents, with six validation rules.

use std::collections::HashSet;

use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::checks::{self, Kind};
use crate::fields::{self, Fields, Out};
use crate::format::{self, Document, Format};
use crate::model::{Plan, Task};
use crate::problem::{Location, PathBuf, PlanError, Problem};

/// The PlanDAG dialect.
pub struct PlanDag;

/// Known `action` values.
pub const ACTIONS: &[&str] = &[
    "navigate",
    "click",
    "type",
    "scroll",
    "hover",
    "wait",
    "extract",
    "screenshot",
    "snapshot",
];

/// Known capabilities.
pub const CAPABILITIES: &[&str] = &[
    "CAP_READ",
    "CAP_INTERACT",
    "CAP_NAVIGATE",
    "CAP_MUTATE",
    "CAP_PURCHASE",
    "CAP_PII",
];

/// Known agent types.
pub const AGENT_TYPES: &[&str] = &["browser_agent", "api_agent"];

const PLAN_KEYS: &[&str] = &[
    "plan_id",
    "intent",
    "steps",
    "success_criteria",
    "rollback_plan",
    "metadata",
];
const STEP_KEYS: &[&str] = &[
    "step_id",
    "depends_on",
    "parallel_group",
    "agent_type",
    "action",
    "target",
    "params",
    "capabilities_required",
    "expected_outcome",
    "timeout",
];

impl Dialect for PlanDag {
    fn id(&self) -> DialectId {
        DialectId::PlanDag
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        let Some(o) = doc.tree().and_then(Value::as_object) else {
            return 0;
        };
        let step_ids = o
            .get("steps")
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|s| s.get("step_id").is_some()));
        if o.contains_key("plan_id") || step_ids {
            90
        } else {
            0
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::doc("a PlanDAG is a JSON object"))?;
        let mut f = Fields::new(obj);
        let mut plan = Plan {
            id: f.required_str("plan_id"),
            goal: f.required_str("intent"),
            ..Plan::default()
        };
        if let Some(steps) = f.array("steps") {
            plan.tasks = steps.iter().map(read_step).collect();
        }
        plan.success_criteria = f.required_str("success_criteria");
        plan.rollback = f.str("rollback_plan");
        plan.metadata = f.object("metadata");
        plan.extra = f.extra();
        Ok(plan.into())
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc.tree() {
            Some(tree) => validate_tree(tree),
            None => vec![Problem::error(
                "schema",
                Location::Document,
                "a PlanDAG is JSON, YAML or TOON, not markdown",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        format::write_tree(&to_tree(plan), format)
    }
}

fn read_step(item: &Value) -> Task {
    let Some(obj) = item.as_object() else {
        return fields::opaque_task(item);
    };
    let mut f = Fields::new(obj);
    let mut t = Task {
        id: f.str("step_id").unwrap_or_default(),
        dependencies: f.required_strings("depends_on"),
        parallel_group: f.number("parallel_group"),
        executor: f.required_str("agent_type"),
        action: f.required_str("action"),
        target: f.required_str("target"),
        params: f.value("params"),
        capabilities: f.required_strings("capabilities_required"),
        expected_outcome: f.str("expected_outcome"),
        timeout_ms: f.number("timeout"),
        ..Task::default()
    };
    t.extra = f.extra();
    t
}

/// The tree form of a plan as a PlanDAG.
pub fn to_tree(plan: &Plan) -> Value {
    let steps: Vec<Value> = plan
        .tasks
        .iter()
        .map(|t| {
            if let Some(v) = fields::opaque_value(t) {
                return v;
            }
            Out::new()
                .str("step_id", &Some(t.id.clone()))
                .required_strings("depends_on", &t.dependencies)
                .number("parallel_group", &t.parallel_group)
                .required_str("agent_type", &t.executor)
                .required_str("action", &t.action)
                .required_str("target", &t.target)
                .value("params", t.params.clone())
                .required_strings("capabilities_required", &t.capabilities)
                .str("expected_outcome", &t.expected_outcome)
                .number("timeout", &t.timeout_ms)
                .extra(&t.extra, STEP_KEYS)
                .build()
        })
        .collect();
    Out::new()
        .required_str("plan_id", &plan.id)
        .required_str("intent", &plan.goal)
        .value("steps", Some(Value::Array(steps)))
        .required_str("success_criteria", &plan.success_criteria)
        .str("rollback_plan", &plan.rollback)
        .object("metadata", &plan.metadata)
        .extra(&plan.extra, PLAN_KEYS)
        .build()
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "PlanDAG") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = checks::fields(
        obj,
        &PathBuf::root(),
        &[
            ("plan_id", Kind::Str, true),
            ("intent", Kind::Str, true),
            ("success_criteria", Kind::Str, true),
            ("rollback_plan", Kind::Str, false),
            ("metadata", Kind::Object, true),
        ],
        "schema",
    );
    let steps = match checks::array_field(obj, "steps", true) {
        Ok(Some(a)) => a,
        Ok(None) => return out,
        Err(p) => {
            out.push(p);
            return out;
        }
    };
    let base = PathBuf::root().key("steps");
    out.extend(checks::items_are_objects(steps, &base, "step"));
    for (i, step) in steps.iter().enumerate() {
        let Some(o) = step.as_object() else { continue };
        let path = base.index(i);
        out.extend(checks::fields(
            o,
            &path,
            &[
                ("step_id", Kind::Str, true),
                ("depends_on", Kind::Strings, true),
                ("parallel_group", Kind::Number, true),
                ("agent_type", Kind::Str, true),
                ("action", Kind::Str, true),
                ("target", Kind::Str, true),
                ("params", Kind::Object, false),
                ("capabilities_required", Kind::Strings, true),
                ("expected_outcome", Kind::Str, false),
                ("timeout", Kind::Number, false),
            ],
            "schema",
        ));
        // Rule 3: known actions.
        if let Some(a) = o.get("action").and_then(Value::as_str)
            && !ACTIONS.contains(&a)
        {
            out.push(Problem::error(
                "valid-actions",
                path.key_loc("action"),
                format!("unknown action {a:?} (known: {})", ACTIONS.join(", ")),
            ));
        }
        // Rule 4: known capabilities.
        if let Some(caps) = o.get("capabilities_required").and_then(Value::as_array) {
            for (j, c) in caps.iter().enumerate() {
                if let Some(c) = c.as_str()
                    && !CAPABILITIES.contains(&c)
                {
                    out.push(Problem::error(
                        "valid-capabilities",
                        path.key("capabilities_required").index(j).loc(),
                        format!(
                            "unknown capability {c:?} (known: {})",
                            CAPABILITIES.join(", ")
                        ),
                    ));
                }
            }
        }
        // Rule 5: positive integer groups.
        if let Some(g) = o.get("parallel_group")
            && g.is_number()
            && !matches!(g.as_u64(), Some(n) if n > 0)
        {
            out.push(Problem::error(
                "positive-groups",
                path.key_loc("parallel_group"),
                format!("parallel_group must be a positive integer, not {g}"),
            ));
        }
        if let Some(a) = o.get("agent_type").and_then(Value::as_str)
            && !AGENT_TYPES.contains(&a)
        {
            out.push(Problem::error(
                "schema",
                path.key_loc("agent_type"),
                format!(
                    "unknown agent_type {a:?} (known: {})",
                    AGENT_TYPES.join(", ")
                ),
            ));
        }
    }
    let nodes = checks::nodes_of(steps, &base, "step_id", "depends_on");
    // Rule 6: unique ids.
    out.extend(checks::unique_ids(&nodes, "unique-ids", "step"));
    // Rule 1: acyclic.
    let cycles = checks::acyclic(&nodes, "acyclic");
    let has_cycle = !cycles.is_empty();
    out.extend(cycles);
    // Rule 2: every step reachable from a root. Unknown dependencies make a step
    // unreachable; steps held back only by a cycle are covered by rule 1.
    out.extend(reachability(&nodes, has_cycle));
    out
}

fn reachability(nodes: &[checks::Node<'_>], has_cycle: bool) -> Vec<Problem> {
    let ids: HashSet<&str> = nodes.iter().map(|n| n.id).collect();
    let mut out = Vec::new();
    for n in nodes {
        for (d, p) in &n.deps {
            if !ids.contains(d) {
                out.push(Problem::error(
                    "reachable",
                    p.loc(),
                    format!(
                        "step {:?} depends on unknown step {d:?}, so it cannot be reached from a root",
                        n.id
                    ),
                ));
            }
        }
    }
    if nodes.is_empty() {
        return out;
    }
    let graph = checks::graph_of(nodes);
    let levels = graph.levels();
    let roots = nodes.iter().filter(|n| n.deps.is_empty()).count();
    if roots == 0 && !has_cycle {
        out.push(Problem::error(
            "reachable",
            PathBuf::root().key("steps").loc(),
            "no root step: every step depends on another",
        ));
    }
    if !has_cycle {
        // Without cycles every step has a level; steps whose chain ends in an unknown
        // dependency were reported above, so report the ones behind them.
        let unknown: HashSet<usize> = nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.deps.iter().any(|(d, _)| !ids.contains(d)))
            .map(|(i, _)| i)
            .collect();
        let start: Vec<usize> = unknown.iter().copied().collect();
        let blocked = graph.downstream(&start);
        for (i, n) in nodes.iter().enumerate() {
            if blocked[i] && !unknown.contains(&i) && levels[i].is_some() {
                out.push(Problem::error(
                    "reachable",
                    n.path.key_loc("step_id"),
                    format!("step {:?} waits on a step that cannot be reached", n.id),
                ));
            }
        }
    }
    out
}
