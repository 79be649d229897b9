//! PlanDAG (seed 000): a plan of steps for browser/API agents, with six validation
//! rules. Its fields are the tables [`PLAN`], [`STEP`] and [`METADATA`].

use crate::exec::schedule;
use crate::model::Extra;
use crate::table::fill::{
    Fill, FillKind, goal_from_title, plan_fill, plan_id_from_title, task_fill,
};
use crate::table::one_of;
use std::collections::HashSet;

use serde_json::Value;

use super::{Dialect, DialectId, Read};
use crate::dialects::checks;
use crate::model::Plan;
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fields::Fields;
use crate::table::{self, Check, Choice, Field, Kind, PlanField, Table, TaskField, To, slot};

/// The PlanDAG dialect.
pub struct PlanDag;

/// A PlanDAG document.
pub static PLAN: Table = Table {
    title: "PlanDAG",
    doc: "A PlanDAG plan (seed 000): steps for browser and API agents, with dependencies and \
          parallel groups (steps with the same group run concurrently, groups in ascending \
          order).",
    fields: &[
        Field::new("plan_id", Kind::Str, true, "Unique plan identifier.")
            .to(To::Plan(PlanField::Id)),
        Field::new("intent", Kind::Str, true, "Original user intent.")
            .to(To::Plan(PlanField::Goal)),
        Field::new("steps", Kind::Items(&STEP), true, "Decomposed steps.").to(To::Own),
        Field::new(
            "success_criteria",
            Kind::Str,
            true,
            "What constitutes success.",
        )
        .to(To::Plan(PlanField::SuccessCriteria)),
        Field::new(
            "rollback_plan",
            Kind::Str,
            false,
            "Steps to undo if failed.",
        )
        .to(To::Plan(PlanField::Rollback)),
        Field::new("metadata", Kind::Nested(&METADATA), true, "Plan metadata.")
            .to(To::Plan(PlanField::Metadata)),
    ],
};

/// One step of a PlanDAG.
pub static STEP: Table = Table {
    title: "PlanDAG step",
    doc: "One step of a PlanDAG.",
    fields: &[
        Field::new("step_id", Kind::Str, true, "Unique step identifier.")
            .to(To::Task(TaskField::Id)),
        Field::new(
            "depends_on",
            Kind::Strings,
            true,
            "Ids of the steps that must complete before this step.",
        )
        .to(To::Task(TaskField::Dependencies)),
        Field::new(
            "parallel_group",
            Kind::Number,
            true,
            "Parallel group (steps in the same group run concurrently); a positive integer, \
             later than the groups of the step's dependencies.",
        )
        .check(Check::Positive, "positive-groups")
        .to(To::Task(TaskField::ParallelGroup)),
        Field::new(
            "agent_type",
            Kind::Str,
            true,
            "Agent type to execute this step.",
        )
        .check(Check::OneOf(AGENT_TYPES), "schema")
        .to(To::Task(TaskField::Executor)),
        Field::new("action", Kind::Str, true, "Action to perform.")
            .check(Check::OneOf(ACTIONS), "valid-actions")
            .to(To::Task(TaskField::Action)),
        Field::new(
            "target",
            Kind::Str,
            true,
            "Action target (URL, selector, etc.).",
        )
        .to(To::Task(TaskField::Target)),
        Field::new("params", Kind::Object, false, "Additional parameters.")
            .to(To::Task(TaskField::Params)),
        Field::new(
            "capabilities_required",
            Kind::Strings,
            true,
            "Required capabilities.",
        )
        .check(Check::OneOf(CAPABILITIES), "valid-capabilities")
        .to(To::Task(TaskField::Capabilities)),
        Field::new("expected_outcome", Kind::Str, false, "Expected outcome.")
            .to(To::Task(TaskField::ExpectedOutcome)),
        Field::new(
            "timeout",
            Kind::Number,
            false,
            "Timeout for this step, in milliseconds.",
        )
        .check(Check::NotNegative, "schema")
        .to(To::Task(TaskField::TimeoutMs)),
    ],
};

/// PlanDAG plan metadata: the seed's fields, each checked when present.
pub static METADATA: Table = Table {
    title: "PlanDAG metadata",
    doc: "PlanDAG plan metadata.",
    fields: &[
        Field::new("created_at", Kind::Str, false, "Creation time (ISO 8601)."),
        Field::new("planner_model", Kind::Str, false, "The model that planned."),
        Field::new(
            "confidence",
            Kind::Number,
            false,
            "The planner's confidence.",
        ),
        Field::new(
            "estimated_duration_ms",
            Kind::Number,
            false,
            "Estimated duration of the whole plan, in milliseconds.",
        )
        .check(Check::NotNegative, "schema"),
    ],
};

/// Known `action` values.
pub const ACTIONS: &[Choice] = &[
    Choice {
        value: "navigate",
        doc: "Go to a URL.",
    },
    Choice {
        value: "click",
        doc: "Click an element.",
    },
    Choice {
        value: "type",
        doc: "Type text.",
    },
    Choice {
        value: "scroll",
        doc: "Scroll.",
    },
    Choice {
        value: "hover",
        doc: "Hover over an element.",
    },
    Choice {
        value: "wait",
        doc: "Wait for a condition.",
    },
    Choice {
        value: "extract",
        doc: "Extract data.",
    },
    Choice {
        value: "screenshot",
        doc: "Take a screenshot.",
    },
    Choice {
        value: "snapshot",
        doc: "Take a page snapshot.",
    },
];

/// Known capabilities.
pub const CAPABILITIES: &[Choice] = &[
    Choice {
        value: "CAP_READ",
        doc: "Read.",
    },
    Choice {
        value: "CAP_INTERACT",
        doc: "Interact.",
    },
    Choice {
        value: "CAP_NAVIGATE",
        doc: "Navigate.",
    },
    Choice {
        value: "CAP_MUTATE",
        doc: "Mutate.",
    },
    Choice {
        value: "CAP_PURCHASE",
        doc: "Purchase.",
    },
    Choice {
        value: "CAP_PII",
        doc: "Personal data.",
    },
];

/// Known agent types.
pub const AGENT_TYPES: &[Choice] = &[
    Choice {
        value: "browser_agent",
        doc: "A browser agent.",
    },
    Choice {
        value: "api_agent",
        doc: "An API agent.",
    },
];

impl DialectId {
    /// PlanDAG (seed 000).
    pub const PLANDAG: DialectId = DialectId::named("plandag");
}

impl Dialect for PlanDag {
    fn id(&self) -> DialectId {
        DialectId::PLANDAG
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        let Some(o) = doc.tree().and_then(Value::as_object) else {
            return 0;
        };
        let step_id = STEP.key_of(To::Task(TaskField::Id));
        let step_ids = o
            .get(STEPS)
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|s| s.get(step_id).is_some()));
        if o.contains_key(PLAN.key_of(To::Plan(PlanField::Id))) || step_ids {
            90
        } else {
            0
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::new(ErrorKind::Shape, "a PlanDAG is a JSON object"))?;
        let mut f = Fields::new(obj);
        let mut plan = Plan::default();
        slot::read(&PLAN, &mut f, &mut plan);
        if let Some(steps) = f.array(STEPS) {
            plan.tasks = steps
                .iter()
                .map(|item| slot::read_task(&STEP, item))
                .collect();
        }
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

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        plan_id_from_title(plan, fills);
        goal_from_title(plan, fills);
        if plan.metadata.is_none() {
            plan.metadata = Some(Extra::new());
            fills.push(plan_fill("metadata", FillKind::Defaulted, "{}"));
        }
        // Capabilities outside PlanDAG's fixed set cannot be held: they are left
        // out (the loss report shows the change).
        for t in &mut plan.tasks {
            if let Some(caps) = &mut t.capabilities {
                caps.retain(|c| one_of(CAPABILITIES, c));
            }
        }
        if plan.tasks.iter().any(|t| t.parallel_group.is_none())
            && let Ok(s) = schedule(plan)
        {
            let waves: std::collections::HashMap<&str, usize> =
                s.tasks.iter().map(|st| (st.id.as_str(), st.wave)).collect();
            for t in &mut plan.tasks {
                if t.parallel_group.is_none()
                    && let Some(&wave) = waves.get(t.id.as_str())
                {
                    t.parallel_group = Some(serde_json::Number::from(wave + 1));
                    fills.push(task_fill(
                        t,
                        "parallel_group",
                        FillKind::Derived,
                        "schedule wave",
                    ));
                }
            }
        }
    }
}

/// The key of the step list.
const STEPS: &str = PLAN.list_key();

/// The tree form of a plan as a PlanDAG.
pub fn to_tree(plan: &Plan) -> Value {
    slot::write(&PLAN, plan, |_| Some(slot::write_tasks(&STEP, &plan.tasks)))
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "PlanDAG") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = table::check(obj, &PathBuf::root(), &PLAN);
    let Some(steps) = obj.get(STEPS).and_then(Value::as_array) else {
        return out;
    };
    let base = PathBuf::root().key(STEPS);
    let nodes = checks::nodes_of(
        steps,
        &base,
        STEP.key_of(To::Task(TaskField::Id)),
        STEP.key_of(To::Task(TaskField::Dependencies)),
    );
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
                    n.path.key_loc(STEP.key_of(To::Task(TaskField::Id))),
                    format!("step {:?} waits on a step that cannot be reached", n.id),
                ));
            }
        }
    }
    out
}
