//! Staged agent plan (seed 003): an `AgentPlan` of stages holding steps (the tables
//! [`PLAN`], [`STAGE`] and [`STEP`]).
//!
//! Stages run in order; a stage runs its steps in parallel or in sequence. When a plan
//! has no stages, they are derived from the dependencies (one stage per dependency
//! level) and each step is annotated with `metadata.stageId`, `metadata.stageIndex`
//! and `metadata.stageMode`, as the seed's runtime does.

use crate::table::fill::{
    Fill, FillKind, goal_from_title, group_fill, plan_id_from_title, task_fill, title_from_words,
    translate_kind,
};
use crate::table::one_of;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Dialect, DialectId, Read};
use crate::dialects::checks::{self, Node};
use crate::model::graph::Graph;
use crate::model::{Group, Plan, Task};
use crate::problem::{ErrorKind, Location, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::fields::{self, Fields};
use crate::table::{
    self, Check, Choice, Field, GroupField, Kind, PlanField, Table, TaskField, To, slot,
};

/// The staged-plan dialect.
pub struct Staged;

/// A staged plan document.
pub static PLAN: Table = Table {
    title: "AgentPlan",
    doc: "A staged agent plan (seed 003): stages run in order; a stage runs its steps in \
          parallel or in sequence; a step runs when all its `inputs` are complete.",
    fields: &[
        Field::new("id", Kind::Str, true, "Plan id.").to(To::Plan(PlanField::Id)),
        Field::new("goal", Kind::Str, true, "What the plan achieves.")
            .to(To::Plan(PlanField::Goal)),
        Field::new("stages", Kind::Items(&STAGE), true, "Stages, in run order.").to(To::Own),
        Field::new(
            "constraints",
            Kind::Strings,
            false,
            "Constraints on the whole plan.",
        )
        .to(To::Plan(PlanField::Constraints)),
    ],
};

/// A stage.
pub static STAGE: Table = Table {
    title: "Stage",
    doc: "A stage.",
    fields: &[
        Field::new("id", Kind::Str, true, "Stage id.").to(To::Group(GroupField::Id)),
        Field::new("name", Kind::Str, true, "Display name.").to(To::Group(GroupField::Name)),
        Field::new("mode", Kind::Str, true, "How its steps run.")
            .check(Check::OneOf(MODES), "stage-modes")
            .to(To::Group(GroupField::Mode)),
        Field::new("steps", Kind::Items(&STEP), true, "Its steps.").to(To::Own),
    ],
};

/// A step of a stage.
pub static STEP: Table = Table {
    title: "Step",
    doc: "A step of a stage.",
    fields: &[
        Field::new("id", Kind::Str, true, "Step id, unique in the plan.")
            .to(To::Task(TaskField::Id)),
        Field::new("title", Kind::Str, true, "Short title.").to(To::Task(TaskField::Title)),
        Field::new("intent", Kind::Str, true, "What kind of work it is.")
            .check(Check::OneOf(INTENTS), "known-intents")
            .to(To::Task(TaskField::Kind)),
        Field::new(
            "executor",
            Kind::Str,
            true,
            "The executor profile that runs it.",
        )
        .check(Check::OneOf(EXECUTORS), "known-executors")
        .to(To::Task(TaskField::Executor)),
        Field::new("tools", Kind::Strings, false, "Tools it may use.")
            .to(To::Task(TaskField::Tools)),
        Field::new(
            "inputs",
            Kind::Strings,
            false,
            "Ids of the steps this step depends on (in this or earlier stages).",
        )
        .to(To::Task(TaskField::Dependencies)),
        Field::new(
            "outputs",
            Kind::Strings,
            false,
            "Ids of the artifacts it produces.",
        )
        .to(To::Task(TaskField::Outputs)),
        Field::new(
            "metadata",
            Kind::Object,
            false,
            "Runtime annotations (`stageId`, `stageIndex`, `stageMode`).",
        ),
    ],
};

/// Stage modes.
pub const MODES: &[Choice] = &[
    Choice {
        value: "parallel",
        doc: "Steps run concurrently (within the concurrency cap).",
    },
    Choice {
        value: "sequence",
        doc: "Steps run in order.",
    },
];
/// Step intents.
pub const INTENTS: &[Choice] = &[
    Choice {
        value: "research",
        doc: "Research.",
    },
    Choice {
        value: "analysis",
        doc: "Analysis.",
    },
    Choice {
        value: "draft",
        doc: "Drafting.",
    },
    Choice {
        value: "edit",
        doc: "Editing.",
    },
    Choice {
        value: "create",
        doc: "Creating.",
    },
    Choice {
        value: "update",
        doc: "Updating.",
    },
    Choice {
        value: "review",
        doc: "Reviewing.",
    },
];
/// Step executors.
pub const EXECUTORS: &[Choice] = &[
    Choice {
        value: "planner",
        doc: "The planner.",
    },
    Choice {
        value: "research",
        doc: "A researcher.",
    },
    Choice {
        value: "writer",
        doc: "A writer.",
    },
    Choice {
        value: "editor",
        doc: "An editor.",
    },
    Choice {
        value: "tooling",
        doc: "Tool calls.",
    },
];
/// Default cap on concurrently running steps.
pub const DEFAULT_CONCURRENCY: usize = 5;

/// The key of the stage list.
const STAGES: &str = PLAN.list_key();
/// The key of a stage's step list.
const STEPS: &str = STAGE.list_key();
/// Layout key recording that the source annotated every step with its stage.
const ANNOTATED: &str = "staged.stage_annotations";

impl DialectId {
    /// Staged agent plan (seed 003).
    pub const STAGED: DialectId = DialectId::named("staged");
}

impl Dialect for Staged {
    fn id(&self) -> DialectId {
        DialectId::STAGED
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(Value::as_object) {
            Some(o) if o.get(STAGES).is_some_and(Value::is_array) => 90,
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc.tree().and_then(Value::as_object).ok_or_else(|| {
            PlanError::new(
                ErrorKind::Shape,
                "a staged plan is a JSON object with `stages`",
            )
        })?;
        let mut f = Fields::new(obj);
        let mut plan = Plan::default();
        slot::read(&PLAN, &mut f, &mut plan);
        let mut all_annotated = true;
        let mut any_step = false;
        if let Some(stages) = f.array(STAGES) {
            for (index, stage) in stages.iter().enumerate() {
                let Some(so) = stage.as_object() else {
                    let mut g = Group::default();
                    g.extra.insert(fields::OPAQUE_KEY.to_owned(), stage.clone());
                    plan.groups.push(g);
                    continue;
                };
                let mut sf = Fields::new(so);
                let mut group = Group::default();
                slot::read(&STAGE, &mut sf, &mut group);
                let steps = sf.array(STEPS).cloned().unwrap_or_default();
                group.extra = sf.extra();
                for step in &steps {
                    any_step = true;
                    let (task, annotated) = read_step(step, &group, index);
                    all_annotated &= annotated;
                    plan.tasks.push(task);
                }
                plan.groups.push(group);
            }
        }
        if any_step && all_annotated {
            plan.layout
                .entries
                .insert(ANNOTATED.to_owned(), Value::Bool(true));
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
                "a staged plan is JSON, YAML or TOON, not markdown",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        format::write_tree(&to_tree(plan), format)
    }

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        plan_id_from_title(plan, fills);
        goal_from_title(plan, fills);
        for t in &mut plan.tasks {
            title_from_words(t, fills);
            if t.tools.is_none()
                && let Some(tool) = t.tool.clone()
            {
                t.tools = Some(vec![tool]);
                fills.push(task_fill(
                    t,
                    "tools",
                    FillKind::Derived,
                    "the tool it calls",
                ));
            }
            let known = |e: &Option<String>| e.as_deref().is_some_and(|e| one_of(EXECUTORS, e));
            if !known(&t.executor) && (t.tool.is_some() || t.tools.is_some()) {
                t.executor = Some("tooling".to_owned());
                fills.push(task_fill(
                    t,
                    "executor",
                    FillKind::Derived,
                    "calls a tool: tooling",
                ));
            }
            translate_kind(
                t,
                INTENTS,
                INTENT_OF_STEP_TYPE,
                "create",
                "intent from the workflow step_type",
                fills,
            );
        }
        // A group of the source (a workflow task) becomes a stage: its mode, where the
        // source does not say, is the one `stages_of` derives.
        for (stage, _) in stages_of(plan) {
            if let Some(g) = plan.groups.iter_mut().find(|g| g.id == stage.id)
                && g.mode.is_none()
            {
                g.mode = stage.mode;
                fills.push(group_fill(
                    g,
                    "mode",
                    FillKind::Derived,
                    "sequence when one of its steps waits for another, else parallel",
                ));
            }
        }
    }
}

/// Reads a step; says whether it carried a stage annotation matching its stage (the
/// annotation is then dropped, as it is derived).
fn read_step(item: &Value, stage: &Group, index: usize) -> (Task, bool) {
    let Some(obj) = item.as_object() else {
        let mut t = fields::opaque_task(item);
        t.group = Some(stage.id.clone());
        return (t, false);
    };
    let mut t: Task = slot::read_record(&STEP, obj);
    t.group = Some(stage.id.clone());
    let meta_key = STEP.key_of(To::Extra);
    let expected = annotation(stage, index);
    let mut annotated = false;
    if let Some(Value::Object(meta)) = t.extra.get(meta_key) {
        let matches = expected
            .iter()
            .all(|(k, v)| meta.get(k.as_str()) == Some(v));
        if matches {
            annotated = true;
            let rest: Map<String, Value> = meta
                .iter()
                .filter(|(k, _)| !expected.contains_key(k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if rest.is_empty() {
                t.extra.shift_remove(meta_key);
            } else {
                t.extra.insert(meta_key.to_owned(), Value::Object(rest));
            }
        }
    }
    (t, annotated)
}

fn annotation(stage: &Group, index: usize) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("stageId".into(), Value::String(stage.id.clone()));
    m.insert("stageIndex".into(), Value::from(index));
    m.insert(
        "stageMode".into(),
        Value::String(stage.mode.clone().unwrap_or_default()),
    );
    m
}

/// The stages a plan is written with, each with the indices of its tasks.
/// Existing groups are kept; tasks without a stage get stages derived from their
/// dependency levels.
pub fn stages_of(plan: &Plan) -> Vec<(Group, Vec<usize>)> {
    let mut stages: Vec<(Group, Vec<usize>)> = plan
        .groups
        .iter()
        .map(|g| (g.clone(), Vec::new()))
        .collect();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, (g, _)) in stages.iter().enumerate() {
        index.entry(g.id.clone()).or_insert(i);
    }
    let mut unstaged = Vec::new();
    for (i, t) in plan.tasks.iter().enumerate() {
        match &t.group {
            Some(g) => {
                let at = *index.entry(g.clone()).or_insert_with(|| {
                    stages.push((
                        Group {
                            id: g.clone(),
                            ..Group::default()
                        },
                        Vec::new(),
                    ));
                    stages.len() - 1
                });
                stages[at].1.push(i);
            }
            None => unstaged.push(i),
        }
    }
    if !unstaged.is_empty() {
        stages.extend(derive_stages(plan, &unstaged, &index));
    }
    for (g, members) in &mut stages {
        if g.mode.is_none() {
            g.mode = Some(derived_mode(plan, members).to_owned());
        }
    }
    stages
}

/// A stage's mode when the source does not say: `sequence` when one of its steps
/// waits for another of them, or the plan runs one step at a time
/// (`workflow_config.parallel_execution: false`), else `parallel`.
fn derived_mode(plan: &Plan, members: &[usize]) -> &'static str {
    let ids: HashSet<&str> = members.iter().map(|&i| plan.tasks[i].id.as_str()).collect();
    let inner = members.iter().any(|&i| {
        plan.tasks[i]
            .dependencies
            .iter()
            .flatten()
            .any(|d| ids.contains(d.as_str()))
    });
    if inner || members.len() <= 1 || crate::exec::parallel_disabled_by(plan) {
        "sequence"
    } else {
        "parallel"
    }
}

fn derive_stages(
    plan: &Plan,
    members: &[usize],
    taken: &HashMap<String, usize>,
) -> Vec<(Group, Vec<usize>)> {
    let graph = Graph::build(members.iter().map(|&i| {
        let t = &plan.tasks[i];
        (
            t.id.as_str(),
            t.dependencies
                .iter()
                .flatten()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        )
    }));
    let levels = graph.levels();
    let last = levels.iter().flatten().max().copied().unwrap_or(0);
    let mut out: Vec<(Group, Vec<usize>)> = Vec::new();
    let mut n = 1;
    let fresh_id = |n: &mut usize| loop {
        let id = format!("stage-{n}");
        *n += 1;
        if !taken.contains_key(&id) {
            return id;
        }
    };
    // One pass into per-level buckets (a long chain has as many levels as tasks).
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); last + 2];
    for (&i, l) in members.iter().zip(&levels) {
        // Tasks on a cycle go last.
        by_level[l.unwrap_or(last + 1)].push(i);
    }
    for here in by_level {
        if here.is_empty() {
            continue;
        }
        let id = fresh_id(&mut n);
        let name = format!("Stage {}", out.len() + 1);
        out.push((
            Group {
                id,
                name: Some(name),
                ..Group::default()
            },
            here,
        ));
    }
    out
}

/// The tree form of a plan as a staged plan.
pub fn to_tree(plan: &Plan) -> Value {
    let derived = plan.groups.is_empty() && !plan.tasks.is_empty();
    let annotate = derived || plan.layout.entries.get(ANNOTATED) == Some(&Value::Bool(true));
    let stages: Vec<Value> = stages_of(plan)
        .into_iter()
        .enumerate()
        .map(|(index, (g, members))| {
            if g.id.is_empty()
                && let Some(v) = g.extra.get(fields::OPAQUE_KEY)
            {
                return v.clone();
            }
            slot::write(&STAGE, &g, |_| {
                let steps = members
                    .iter()
                    .map(|&i| write_step(&plan.tasks[i], &g, index, annotate));
                Some(Value::Array(steps.collect()))
            })
        })
        .collect();
    slot::write(&PLAN, plan, |_| Some(Value::Array(stages.clone())))
}

fn write_step(t: &Task, stage: &Group, index: usize, annotate: bool) -> Value {
    if let Some(v) = fields::opaque_value(t) {
        return v;
    }
    let mut t = t.clone();
    if annotate {
        let meta_key = STEP.key_of(To::Extra);
        let mut meta = match t.extra.get(meta_key) {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        for (k, v) in annotation(stage, index) {
            meta.insert(k, v);
        }
        t.extra.insert(meta_key.to_owned(), Value::Object(meta));
    }
    slot::write(&STEP, &t, |_| None)
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "staged plan") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = table::check(obj, &PathBuf::root(), &PLAN);
    let Some(stages) = obj.get(STAGES).and_then(Value::as_array) else {
        return out;
    };
    let base = PathBuf::root().key(STAGES);
    let id_key = STEP.key_of(To::Task(TaskField::Id));
    let inputs_key = STEP.key_of(To::Task(TaskField::Dependencies));
    // Every step, with the index of its stage.
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut stage_of: Vec<usize> = Vec::new();
    let stage_nodes = checks::nodes_of(stages, &base, STAGE.key_of(To::Group(GroupField::Id)), "");
    for (si, stage) in stages.iter().enumerate() {
        let Some(steps) = stage.get(STEPS).and_then(Value::as_array) else {
            continue;
        };
        let stpath = base.index(si).key(STEPS);
        for n in checks::nodes_of(steps, &stpath, id_key, inputs_key) {
            nodes.push(n);
            stage_of.push(si);
        }
    }
    out.extend(checks::unique_ids(&stage_nodes, "unique-ids", "stage"));
    out.extend(checks::unique_ids(&nodes, "unique-ids", "step"));
    out.extend(checks::known_refs(&nodes, "known-inputs", "step"));
    // Stages run in order: an input from a later stage can never be ready.
    let first_stage: HashMap<&str, usize> = nodes
        .iter()
        .zip(&stage_of)
        .rev()
        .map(|(n, &s)| (n.id, s))
        .collect();
    for (n, &s) in nodes.iter().zip(&stage_of) {
        for (d, p) in &n.deps {
            if let Some(&ds) = first_stage.get(d)
                && ds > s
            {
                out.push(Problem::error(
                    "stage-order",
                    p.loc(),
                    format!(
                        "step {:?} takes input from {d:?}, which is in a later stage",
                        n.id
                    ),
                ));
            }
        }
    }
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}

/// Staged `intent` for a workflow `step_type`.
const INTENT_OF_STEP_TYPE: &[(&str, &str)] = &[
    ("ANALYSIS", "analysis"),
    ("DATA_PROCESSING", "analysis"),
    ("CONDITION_CHECK", "review"),
    ("VISUALIZATION", "create"),
];
