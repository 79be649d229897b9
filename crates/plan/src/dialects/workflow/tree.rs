//! The workflow plan as a JSON tree: reading, writing and the eight rules.

use std::collections::{BTreeSet, HashSet};

use indexmap::IndexSet;
use serde_json::{Map, Value};

use crate::checks::{self, Kind};
use crate::fields::{self, Fields, Out};
use crate::model::{Group, Plan, Task, ms_to_seconds, seconds_to_ms};
use crate::problem::{PathBuf, PlanError, Problem};

/// Valid `step_type` values (WorkflowStepType).
pub const STEP_TYPES: &[&str] = &[
    "AGENT_EXECUTION",
    "DATA_PROCESSING",
    "ANALYSIS",
    "VISUALIZATION",
    "CONDITION_CHECK",
    "PARALLEL_EXECUTION",
];

const PLAN_KEYS: &[&str] = &[
    "metadata",
    "tasks",
    "steps",
    "shared_inputs",
    "workflow_config",
];
const TASK_KEYS: &[&str] = &[
    "id",
    "name",
    "description",
    "steps",
    "dependencies",
    "agent_type",
    "tools_required",
];
const STEP_KEYS: &[&str] = &[
    "id",
    "name",
    "task_id",
    "action",
    "parameters",
    "step_type",
    "timeout",
    "dependencies",
    "retry_count",
];
/// Layout key: the source's tasks had no `steps` lists.
const NO_STEP_LISTS: &str = "workflow.no_step_lists";

/// Reads a workflow tree into the plan model.
pub fn from_tree(tree: &Value) -> Result<Plan, PlanError> {
    let obj = tree
        .as_object()
        .ok_or_else(|| PlanError::doc("a workflow plan is a JSON object"))?;
    let mut f = Fields::new(obj);
    let mut plan = Plan::default();
    if let Some(meta) = f.object("metadata") {
        let had_only_text = meta
            .keys()
            .all(|k| matches!(k.as_str(), "title" | "objective"));
        let mut rest = meta;
        match rest.get("title") {
            Some(Value::String(s)) => {
                plan.title = Some(s.clone()).filter(|s| !s.is_empty());
                rest.shift_remove("title");
            }
            Some(Value::Null) => {
                rest.shift_remove("title");
            }
            _ => {}
        }
        match rest.get("objective") {
            Some(Value::String(s)) => {
                plan.goal = Some(s.clone()).filter(|s| !s.is_empty());
                rest.shift_remove("objective");
            }
            Some(Value::Null) => {
                rest.shift_remove("objective");
            }
            _ => {}
        }
        if !(rest.is_empty() && had_only_text && (plan.title.is_some() || plan.goal.is_some())) {
            plan.metadata = Some(rest);
        }
    }
    let groups = f.array("tasks").cloned().unwrap_or_default();
    let steps = f.array("steps").cloned().unwrap_or_default();
    plan.tasks = steps.iter().map(read_step).collect();
    let mut any_list = false;
    for g in &groups {
        let (group, has_list) = read_group(g, &plan.tasks);
        any_list |= has_list;
        plan.groups.push(group);
    }
    if !groups.is_empty() && !any_list {
        plan.layout
            .insert(NO_STEP_LISTS.to_owned(), Value::Bool(true));
    }
    plan.shared_inputs = f.value("shared_inputs");
    plan.execution = f.object("workflow_config");
    plan.extra = f.extra();
    Ok(plan)
}

/// Ids of the tasks in a group, in plan order.
fn members(tasks: &[Task], group: &str) -> Vec<String> {
    tasks
        .iter()
        .filter(|t| t.group.as_deref() == Some(group))
        .map(|t| t.id.clone())
        .collect()
}

fn read_group(item: &Value, tasks: &[Task]) -> (Group, bool) {
    let Some(obj) = item.as_object() else {
        let mut g = Group::default();
        g.extra.insert(fields::OPAQUE_KEY.to_owned(), item.clone());
        return (g, false);
    };
    let mut f = Fields::new(obj);
    let mut g = Group {
        id: f.str("id").unwrap_or_default(),
        name: f.required_str("name"),
        description: f.required_str("description"),
        dependencies: f.strings("dependencies"),
        executor: f.str("agent_type"),
        tools: f.strings("tools_required"),
        ..Group::default()
    };
    g.extra = f.extra();
    // A `steps` list equal to the steps that name this task is derived, not stored.
    let has_list = g.extra.contains_key("steps");
    if let Some(Value::Array(list)) = g.extra.get("steps") {
        let derived = members(tasks, &g.id);
        let listed: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
        if listed.len() == list.len()
            && listed == derived.iter().map(String::as_str).collect::<Vec<_>>()
        {
            g.extra.shift_remove("steps");
        }
    }
    (g, has_list)
}

fn read_step(item: &Value) -> Task {
    let Some(obj) = item.as_object() else {
        return fields::opaque_task(item);
    };
    let mut f = Fields::new(obj);
    let mut t = Task {
        id: f.str("id").unwrap_or_default(),
        title: f.str("name"),
        group: f.required_str("task_id"),
        action: f.required_str("action"),
        params: f.value("parameters"),
        kind: f.required_str("step_type"),
        ..Task::default()
    };
    match obj.get("timeout") {
        Some(Value::Number(n)) => {
            if let Some(ms) = seconds_to_ms(n)
                && ms_to_seconds(&ms).as_ref() == Some(n)
            {
                let _ = f.number("timeout");
                t.timeout_ms = Some(ms);
            }
        }
        Some(Value::Null) => {
            // Uniform-array filler: the same as absent.
            let _ = f.value("timeout");
        }
        _ => {}
    }
    t.dependencies = f.strings("dependencies");
    t.retries = f.number("retry_count");
    t.extra = f.extra();
    t
}

/// Writes the plan model as a workflow tree. Tasks and steps are written with the same
/// fields each (missing ones as `null`), as the seed's uniform-array rule asks.
pub fn to_tree(plan: &Plan) -> Value {
    let mut out = Out::new();
    if plan.title.is_some() || plan.goal.is_some() || plan.metadata.is_some() {
        let mut meta = Out::new();
        meta.required_str("title", &plan.title)
            .required_str("objective", &plan.goal);
        if let Some(m) = &plan.metadata {
            meta.extra(m, &["title", "objective"]);
        }
        out.value("metadata", Some(meta.build()));
    }
    let lists = !plan
        .layout
        .get(NO_STEP_LISTS)
        .is_some_and(|v| v == &Value::Bool(true));
    let mut groups: Vec<Value> = plan
        .groups
        .iter()
        .map(|g| write_group(g, plan, lists))
        .collect();
    // Steps naming a task that is not in the plan's groups still need their task.
    let known: HashSet<&str> = plan.groups.iter().map(|g| g.id.as_str()).collect();
    let mut missing: IndexSet<&str> = IndexSet::new();
    for t in &plan.tasks {
        if let Some(g) = t.group.as_deref()
            && !known.contains(g)
        {
            missing.insert(g);
        }
    }
    for g in missing {
        let group = Group {
            id: g.to_owned(),
            ..Group::default()
        };
        groups.push(write_group(&group, plan, lists));
    }
    let mut steps: Vec<Value> = plan.tasks.iter().map(write_step).collect();
    make_uniform(&mut groups);
    make_uniform(&mut steps);
    out.value("tasks", Some(Value::Array(groups)))
        .value("steps", Some(Value::Array(steps)))
        .value("shared_inputs", plan.shared_inputs.clone())
        .object("workflow_config", &plan.execution)
        .extra(&plan.extra, PLAN_KEYS);
    out.build()
}

fn write_group(g: &Group, plan: &Plan, lists: bool) -> Value {
    if g.id.is_empty()
        && let Some(v) = g.extra.get(fields::OPAQUE_KEY)
    {
        return v.clone();
    }
    let mut out = Out::new();
    out.str("id", &Some(g.id.clone()))
        .required_str("name", &g.name)
        .required_str("description", &g.description);
    match g.extra.get("steps") {
        Some(v) => {
            out.value("steps", Some(v.clone()));
        }
        None if lists => {
            out.strings("steps", &Some(members(&plan.tasks, &g.id)));
        }
        None => {}
    }
    out.strings("dependencies", &g.dependencies)
        .str("agent_type", &g.executor)
        .strings("tools_required", &g.tools)
        .extra(&g.extra, TASK_KEYS)
        .build()
}

fn write_step(t: &Task) -> Value {
    if let Some(v) = fields::opaque_value(t) {
        return v;
    }
    Out::new()
        .str("id", &Some(t.id.clone()))
        .str("name", &t.title)
        .required_str("task_id", &t.group)
        .required_str("action", &t.action)
        .value("parameters", t.params.clone())
        .required_str("step_type", &t.kind)
        .number("timeout", &t.timeout_ms.as_ref().and_then(ms_to_seconds))
        .strings("dependencies", &t.dependencies)
        .number("retry_count", &t.retries)
        .extra(&t.extra, STEP_KEYS)
        .build()
}

/// Gives every object in the list the same keys, adding `null` where one is missing.
fn make_uniform(items: &mut [Value]) {
    let mut all: IndexSet<String> = IndexSet::new();
    for it in items.iter() {
        if let Value::Object(o) = it {
            all.extend(o.keys().cloned());
        }
    }
    for it in items.iter_mut() {
        if let Value::Object(o) = it
            && o.len() < all.len()
        {
            let mut fixed = Map::new();
            for k in &all {
                fixed.insert(k.clone(), o.remove(k).unwrap_or(Value::Null));
            }
            *o = fixed;
        }
    }
}

/// The eight rules of seed 002 (plus required fields and acyclic dependencies).
/// `ignore_in_uniformity` skips the step `name` key, which the markdown layout takes
/// from a heading rather than a field.
pub fn validate_tree(tree: &Value, from_markdown: bool) -> Vec<Problem> {
    let obj = match checks::root_object(tree, "workflow plan") {
        Ok(o) => o,
        Err(p) => return vec![p],
    };
    let mut out = Vec::new();
    match obj.get("metadata") {
        Some(Value::Object(m)) => out.extend(checks::fields(
            m,
            &PathBuf::root().key("metadata"),
            &[
                ("title", Kind::Str, true),
                ("objective", Kind::Str, true),
                ("created_at", Kind::Str, false),
                ("author", Kind::Str, false),
                ("version", Kind::Str, false),
            ],
            "schema",
        )),
        Some(_) => out.push(Problem::error(
            "schema",
            PathBuf::root().key_loc("metadata"),
            "`metadata` must be an object",
        )),
        None => out.push(Problem::error(
            "schema",
            PathBuf::root().loc(),
            "missing required field `metadata`",
        )),
    }
    out.extend(checks::fields(
        obj,
        &PathBuf::root(),
        &[
            ("shared_inputs", Kind::Object, false),
            ("workflow_config", Kind::Object, false),
        ],
        "schema",
    ));
    if let Some(Value::Object(c)) = obj.get("workflow_config") {
        out.extend(checks::fields(
            c,
            &PathBuf::root().key("workflow_config"),
            &[
                ("parallel_execution", Kind::Bool, false),
                ("error_recovery", Kind::Bool, false),
                ("max_retries", Kind::Integer, false),
            ],
            "schema",
        ));
    }
    let tasks = match checks::array_field(obj, "tasks", true) {
        Ok(a) => a.map(Vec::as_slice).unwrap_or(&[]),
        Err(p) => {
            out.push(p);
            &[]
        }
    };
    let steps = match checks::array_field(obj, "steps", true) {
        Ok(a) => a.map(Vec::as_slice).unwrap_or(&[]),
        Err(p) => {
            out.push(p);
            &[]
        }
    };
    let tbase = PathBuf::root().key("tasks");
    let sbase = PathBuf::root().key("steps");
    out.extend(checks::items_are_objects(tasks, &tbase, "task"));
    out.extend(checks::items_are_objects(steps, &sbase, "step"));
    // Rules 1 and 2: uniform arrays.
    out.extend(uniform(tasks, &tbase, "uniform-tasks", "task", &[]));
    let skip: &[&str] = if from_markdown { &["name"] } else { &[] };
    out.extend(uniform(steps, &sbase, "uniform-steps", "step", skip));
    for (i, t) in tasks.iter().enumerate() {
        let Some(o) = t.as_object() else { continue };
        out.extend(checks::fields(
            o,
            &tbase.index(i),
            &[
                ("id", Kind::Str, true),
                ("name", Kind::Str, true),
                ("description", Kind::Str, true),
                ("steps", Kind::Strings, false),
                ("dependencies", Kind::Strings, false),
                ("agent_type", Kind::Str, false),
                ("tools_required", Kind::Strings, false),
                ("estimated_time", Kind::Number, false),
            ],
            "schema",
        ));
    }
    let task_ids: HashSet<&str> = tasks.iter().filter_map(|t| t.get("id")?.as_str()).collect();
    let step_ids: HashSet<&str> = steps.iter().filter_map(|t| t.get("id")?.as_str()).collect();
    for (i, s) in steps.iter().enumerate() {
        let Some(o) = s.as_object() else { continue };
        let path = sbase.index(i);
        out.extend(checks::fields(
            o,
            &path,
            &[
                ("id", Kind::Str, true),
                ("task_id", Kind::Str, true),
                ("action", Kind::Str, true),
                ("parameters", Kind::Object, false),
                ("step_type", Kind::Str, true),
                ("timeout", Kind::Integer, false),
                ("dependencies", Kind::Strings, false),
                ("retry_count", Kind::Integer, false),
            ],
            "schema",
        ));
        // Rule 7: task_id names a task.
        if let Some(tid) = o.get("task_id").and_then(Value::as_str)
            && !task_ids.contains(tid)
        {
            out.push(Problem::error(
                "valid-task-ref",
                path.key_loc("task_id"),
                format!("step task_id {tid:?} names no task"),
            ));
        }
        // Rule 8: step_type is a WorkflowStepType.
        if let Some(st) = o.get("step_type").and_then(Value::as_str)
            && !STEP_TYPES.contains(&st)
        {
            out.push(Problem::error(
                "valid-step-type",
                path.key_loc("step_type"),
                format!(
                    "unknown step_type {st:?} (valid: {})",
                    STEP_TYPES.join(", ")
                ),
            ));
        }
    }
    // A task's `steps` list names steps.
    for (i, t) in tasks.iter().enumerate() {
        if let Some(list) = t.get("steps").and_then(Value::as_array) {
            for (j, s) in list.iter().enumerate() {
                if let Some(s) = s.as_str()
                    && !step_ids.contains(s)
                {
                    out.push(Problem::warning(
                        "task-steps",
                        tbase.index(i).key("steps").index(j).loc(),
                        format!("task lists step {s:?}, which is not in `steps`"),
                    ));
                }
            }
        }
    }
    let snodes = checks::nodes_of(steps, &sbase, "id", "dependencies");
    let tnodes = checks::nodes_of(tasks, &tbase, "id", "dependencies");
    // Rules 3 to 6.
    out.extend(checks::unique_ids(&snodes, "unique-step-ids", "step"));
    out.extend(checks::unique_ids(&tnodes, "unique-task-ids", "task"));
    out.extend(checks::known_refs(&snodes, "valid-step-deps", "step"));
    out.extend(checks::known_refs(&tnodes, "valid-task-deps", "task"));
    out.extend(checks::acyclic(&snodes, "acyclic"));
    out.extend(checks::acyclic(&tnodes, "acyclic"));
    out
}

fn uniform(
    items: &[Value],
    base: &PathBuf,
    rule: &'static str,
    what: &str,
    skip: &[&str],
) -> Vec<Problem> {
    let keys = |o: &Map<String, Value>| -> BTreeSet<String> {
        o.keys()
            .filter(|k| !skip.contains(&k.as_str()))
            .cloned()
            .collect()
    };
    let mut out = Vec::new();
    let mut first: Option<BTreeSet<String>> = None;
    for (i, it) in items.iter().enumerate() {
        let Some(o) = it.as_object() else { continue };
        let k = keys(o);
        match &first {
            None => first = Some(k),
            Some(f) if *f != k => {
                let missing: Vec<&str> = f.difference(&k).map(String::as_str).collect();
                let added: Vec<&str> = k.difference(f).map(String::as_str).collect();
                let mut msg = format!("{what} fields differ from the first {what}'s");
                if !missing.is_empty() {
                    msg.push_str(&format!("; missing: {}", missing.join(", ")));
                }
                if !added.is_empty() {
                    msg.push_str(&format!("; extra: {}", added.join(", ")));
                }
                out.push(Problem::error(rule, base.index(i).loc(), msg));
            }
            Some(_) => {}
        }
    }
    out
}
