//! Staged agent plan (seed 003): `AgentPlan{id, goal, stages[{id, name, mode,
//! steps[{id, title, intent, executor, tools, inputs, outputs}]}], constraints}`.
//!
//! Stages run in order; a stage runs its steps in parallel or in sequence. When a plan
//! has no stages, they are derived from the dependencies (one stage per dependency
//! level) and each step is annotated with `metadata.stageId`, `metadata.stageIndex`
//! and `metadata.stageMode`, as the seed's runtime does.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Dialect, DialectId, Read};
use crate::checks::{self, Kind, Node};
use crate::fields::{self, Fields, Out};
use crate::format::{self, Document, Format};
use crate::graph::Graph;
use crate::model::{Group, Plan, Task};
use crate::problem::{Location, PathBuf, PlanError, Problem};

/// The staged-plan dialect.
pub struct Staged;

/// Stage modes.
pub const MODES: &[&str] = &["parallel", "sequence"];
/// Step intents.
pub const INTENTS: &[&str] = &[
    "research", "analysis", "draft", "edit", "create", "update", "review",
];
/// Step executors.
pub const EXECUTORS: &[&str] = &["planner", "research", "writer", "editor", "tooling"];
/// Default cap on concurrently running steps.
pub const DEFAULT_CONCURRENCY: usize = 5;

const PLAN_KEYS: &[&str] = &["id", "goal", "stages", "constraints"];
const STAGE_KEYS: &[&str] = &["id", "name", "mode", "steps"];
const STEP_KEYS: &[&str] = &[
    "id", "title", "intent", "executor", "tools", "inputs", "outputs",
];
/// Layout key recording that the source annotated every step with its stage.
const ANNOTATED: &str = "staged.stage_annotations";

impl Dialect for Staged {
    fn id(&self) -> DialectId {
        DialectId::Staged
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(Value::as_object) {
            Some(o) if o.get("stages").is_some_and(Value::is_array) => 90,
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::doc("a staged plan is a JSON object with `stages`"))?;
        let mut f = Fields::new(obj);
        let mut plan = Plan {
            id: f.required_str("id"),
            goal: f.required_str("goal"),
            ..Plan::default()
        };
        let mut all_annotated = true;
        let mut any_step = false;
        if let Some(stages) = f.array("stages") {
            for (index, stage) in stages.iter().enumerate() {
                let Some(so) = stage.as_object() else {
                    let mut g = Group::default();
                    g.extra.insert(fields::OPAQUE_KEY.to_owned(), stage.clone());
                    plan.groups.push(g);
                    continue;
                };
                let mut sf = Fields::new(so);
                let mut group = Group {
                    id: sf.str("id").unwrap_or_default(),
                    name: sf.required_str("name"),
                    mode: sf.required_str("mode"),
                    ..Group::default()
                };
                let steps = sf.array("steps").cloned().unwrap_or_default();
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
            plan.layout.insert(ANNOTATED.to_owned(), Value::Bool(true));
        }
        plan.constraints = f.strings("constraints");
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
}

/// Reads a step; says whether it carried a stage annotation matching its stage (the
/// annotation is then dropped, as it is derived).
fn read_step(item: &Value, stage: &Group, index: usize) -> (Task, bool) {
    let Some(obj) = item.as_object() else {
        let mut t = fields::opaque_task(item);
        t.group = Some(stage.id.clone());
        return (t, false);
    };
    let mut f = Fields::new(obj);
    let mut t = Task {
        id: f.str("id").unwrap_or_default(),
        title: f.required_str("title"),
        kind: f.required_str("intent"),
        executor: f.required_str("executor"),
        tools: f.strings("tools"),
        dependencies: f.strings("inputs"),
        outputs: f.strings("outputs"),
        group: Some(stage.id.clone()),
        ..Task::default()
    };
    t.extra = f.extra();
    let expected = annotation(stage, index);
    let mut annotated = false;
    if let Some(Value::Object(meta)) = t.extra.get("metadata") {
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
                t.extra.shift_remove("metadata");
            } else {
                t.extra.insert("metadata".to_owned(), Value::Object(rest));
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
/// waits for another of them, else `parallel`.
fn derived_mode(plan: &Plan, members: &[usize]) -> &'static str {
    let ids: HashSet<&str> = members.iter().map(|&i| plan.tasks[i].id.as_str()).collect();
    let inner = members.iter().any(|&i| {
        plan.tasks[i]
            .dependencies
            .iter()
            .flatten()
            .any(|d| ids.contains(d.as_str()))
    });
    if inner || members.len() <= 1 {
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
    let annotate = derived || plan.layout.get(ANNOTATED) == Some(&Value::Bool(true));
    let stages: Vec<Value> = stages_of(plan)
        .into_iter()
        .enumerate()
        .map(|(index, (g, members))| {
            if g.id.is_empty()
                && let Some(v) = g.extra.get(fields::OPAQUE_KEY)
            {
                return v.clone();
            }
            let steps: Vec<Value> = members
                .iter()
                .map(|&i| write_step(&plan.tasks[i], &g, index, annotate))
                .collect();
            Out::new()
                .str("id", &Some(g.id.clone()))
                .required_str("name", &g.name)
                .required_str("mode", &g.mode)
                .value("steps", Some(Value::Array(steps)))
                .extra(&g.extra, STAGE_KEYS)
                .build()
        })
        .collect();
    Out::new()
        .required_str("id", &plan.id)
        .required_str("goal", &plan.goal)
        .value("stages", Some(Value::Array(stages)))
        .strings("constraints", &plan.constraints)
        .extra(&plan.extra, PLAN_KEYS)
        .build()
}

fn write_step(t: &Task, stage: &Group, index: usize, annotate: bool) -> Value {
    if let Some(v) = fields::opaque_value(t) {
        return v;
    }
    let mut extra = t.extra.clone();
    if annotate {
        let mut meta = match extra.get("metadata") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        for (k, v) in annotation(stage, index) {
            meta.insert(k, v);
        }
        extra.insert("metadata".to_owned(), Value::Object(meta));
    }
    Out::new()
        .str("id", &Some(t.id.clone()))
        .required_str("title", &t.title)
        .required_str("intent", &t.kind)
        .required_str("executor", &t.executor)
        .strings("tools", &t.tools)
        .strings("inputs", &t.dependencies)
        .strings("outputs", &t.outputs)
        .extra(&extra, STEP_KEYS)
        .build()
}

fn validate_tree(tree: &Value) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "staged plan") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = checks::fields(
        obj,
        &PathBuf::root(),
        &[
            ("id", Kind::Str, true),
            ("goal", Kind::Str, true),
            ("constraints", Kind::Strings, false),
        ],
        "schema",
    );
    let stages = match checks::array_field(obj, "stages", true) {
        Ok(Some(a)) => a,
        Ok(None) => return out,
        Err(p) => {
            out.push(p);
            return out;
        }
    };
    let base = PathBuf::root().key("stages");
    out.extend(checks::items_are_objects(stages, &base, "stage"));
    // Every step, with the index of its stage.
    let mut nodes: Vec<Node<'_>> = Vec::new();
    let mut stage_of: Vec<usize> = Vec::new();
    let mut stage_nodes = Vec::new();
    for (si, stage) in stages.iter().enumerate() {
        let Some(so) = stage.as_object() else {
            continue;
        };
        let spath = base.index(si);
        out.extend(checks::fields(
            so,
            &spath,
            &[
                ("id", Kind::Str, true),
                ("name", Kind::Str, true),
                ("mode", Kind::Str, true),
            ],
            "schema",
        ));
        if let Some(m) = so.get("mode").and_then(Value::as_str)
            && !MODES.contains(&m)
        {
            out.push(Problem::error(
                "stage-modes",
                spath.key_loc("mode"),
                format!("stage mode must be `parallel` or `sequence`, not {m:?}"),
            ));
        }
        if let Some(id) = so.get("id").and_then(Value::as_str) {
            stage_nodes.push(Node {
                id,
                path: spath.clone(),
                deps: Vec::new(),
            });
        }
        let steps = match so.get("steps") {
            Some(Value::Array(a)) => a,
            None | Some(Value::Null) => {
                out.push(Problem::error(
                    "schema",
                    spath.loc(),
                    "missing required field `steps`",
                ));
                continue;
            }
            Some(_) => {
                out.push(Problem::error(
                    "schema",
                    spath.key_loc("steps"),
                    "`steps` must be a list",
                ));
                continue;
            }
        };
        let stpath = spath.key("steps");
        out.extend(checks::items_are_objects(steps, &stpath, "step"));
        for (i, step) in steps.iter().enumerate() {
            let Some(o) = step.as_object() else { continue };
            let path = stpath.index(i);
            out.extend(checks::fields(
                o,
                &path,
                &[
                    ("id", Kind::Str, true),
                    ("title", Kind::Str, true),
                    ("intent", Kind::Str, true),
                    ("executor", Kind::Str, true),
                    ("tools", Kind::Strings, false),
                    ("inputs", Kind::Strings, false),
                    ("outputs", Kind::Strings, false),
                ],
                "schema",
            ));
            for (key, known, rule) in [
                ("intent", INTENTS, "known-intents"),
                ("executor", EXECUTORS, "known-executors"),
            ] {
                if let Some(v) = o.get(key).and_then(Value::as_str)
                    && !known.contains(&v)
                {
                    out.push(Problem::error(
                        rule,
                        path.key_loc(key),
                        format!("unknown {key} {v:?} (known: {})", known.join(", ")),
                    ));
                }
            }
        }
        for n in checks::nodes_of(steps, &stpath, "id", "inputs") {
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
