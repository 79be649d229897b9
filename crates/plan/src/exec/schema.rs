//! A JSON Schema (draft 2020-12) for every dialect, so a planner can ask a language
//! model for structured output that the dialect's validator accepts.
//!
//! Each dialect's schema is generated from its field tables (see [`crate::table`]):
//! the JSON tree of the dialect (for Cursor plans: the front matter keys plus `body`,
//! as `toon plan convert --to cursor --format json` writes them) with the field types,
//! required fields and known values the validator checks from the same tables, so a
//! document's fields pass the schema exactly when they pass `toon plan validate`.
//! Rules that span several items — unique ids, dependencies that name existing tasks,
//! no cycles, uniform workflow arrays — are not expressible in JSON Schema and remain
//! the validator's.
//!
//! Keys a dialect does not name are allowed by both: the readers keep them in the
//! plan's `extra` maps and the writers write them back. The plan model's own document
//! follows the same rule; its schema comes from the serde types below.

#![allow(dead_code)] // The plan model's types below exist only to describe its schema.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value};

use crate::dialects::DialectId;
use crate::dialects::plan_model::SCHEMA as PLAN_SCHEMA;
use crate::model::Extra;
use crate::table::{self, Table};

/// The JSON Schema of a dialect.
pub fn schema(dialect: DialectId) -> Value {
    match fields_table(dialect) {
        Some(table) => table::schema::of(table),
        None => plan_model_schema(),
    }
}

/// The field table of a dialect's root object (the plan model has serde types
/// instead).
pub fn fields_table(dialect: DialectId) -> Option<&'static Table> {
    dialect.dialect().table()
}

/// The plan model's schema, from its serde types.
fn plan_model_schema() -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let root: Schema = generator.into_root_schema_for::<PlanModelDoc>();
    let Value::Object(mut o) = root.to_value() else {
        return Value::Bool(true);
    };
    plan_model_marker(&mut o);
    // `$schema`, `title` and `description` first, for people reading it.
    let mut out = Map::new();
    for key in ["$schema", "title", "description"] {
        if let Some(v) = o.shift_remove(key) {
            out.insert(key.to_owned(), v);
        }
    }
    out.extend(o);
    let mut value = Value::Object(out);
    unwrap_descriptions(&mut value);
    value
}

/// Doc comments wrap lines; descriptions read better as one paragraph each. The
/// walk uses a stack, not recursion.
fn unwrap_descriptions(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) => {
                for (k, child) in o.iter_mut() {
                    if k == "description"
                        && let Value::String(text) = child
                    {
                        *text = text
                            .split("\n\n")
                            .map(|para| para.split_whitespace().collect::<Vec<_>>().join(" "))
                            .collect::<Vec<_>>()
                            .join("\n\n");
                    } else {
                        stack.push(child);
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// The schema of a dialect as pretty JSON text, ending in a newline.
pub fn schema_text(dialect: DialectId) -> String {
    let mut s = serde_json::to_string_pretty(&schema(dialect)).unwrap_or_default();
    s.push('\n');
    s
}

/// A plan-model document starts with `"schema": "toon-plan/1"`, which is how it is
/// recognised; the model's own fields follow.
fn plan_model_marker(o: &mut Map<String, Value>) {
    o.insert(
        "title".into(),
        Value::String("toon-plan model (dialect `plan`)".into()),
    );
    o.insert(
        "description".into(),
        Value::String(
            "The toon-plan plan model, as it is written in JSON, YAML and TOON alike: plan-level facts, then tasks and groups as tables of their scalar fields (a column is null where a row has no value), list fields as edge tables of their own (`deps[{task, on}]`, …), and per-task objects in maps keyed by task id. Every field but `schema` and `tasks` is optional.".into(),
        ),
    );
    let mut marker = Map::new();
    marker.insert("const".into(), Value::String(PLAN_SCHEMA.into()));
    marker.insert(
        "description".into(),
        Value::String("Marks a plan-model document.".into()),
    );
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        let mut with_marker = Map::new();
        with_marker.insert("schema".into(), Value::Object(marker));
        with_marker.extend(std::mem::take(props));
        *props = with_marker;
    }
    if let Some(Value::Object(tasks)) = props_get_mut(o, "tasks") {
        tasks.insert("anyOf".into(), ids_given_or_from_titles());
    }
    let mut required = vec![Value::String("schema".into())];
    if let Some(Value::Array(r)) = o.get("required") {
        required.extend(r.iter().cloned());
    }
    if !required.contains(&Value::String("tasks".into())) {
        required.push(Value::String("tasks".into()));
    }
    o.insert("required".into(), Value::Array(required));
}

fn props_get_mut<'a>(o: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Value> {
    o.get_mut("properties")?.as_object_mut()?.get_mut(key)
}

/// Every task row has an `id`, or none has and every row has a `title` (the ids are
/// then the ones the titles give).
fn ids_given_or_from_titles() -> Value {
    serde_json::json!([
        { "items": { "required": ["id"] } },
        {
            "items": { "required": ["title"], "not": { "required": ["id"] } },
            "minItems": 1
        }
    ])
}

// ---- The plan model (dialect `plan`) ----

/// The plan model's document (see `dialects::plan_model`).
#[derive(JsonSchema)]
struct PlanModelDoc {
    /// Plan identifier.
    id: Option<String>,
    /// Human title.
    title: Option<String>,
    /// What the plan is for.
    goal: Option<String>,
    /// What counts as success.
    success_criteria: Option<String>,
    /// How to undo a failed run.
    rollback: Option<String>,
    /// Constraints on the whole plan.
    constraints: Option<Vec<String>>,
    /// Plan metadata.
    metadata: Option<Extra>,
    /// Data shared by all tasks.
    shared_inputs: Option<Value>,
    /// Execution settings.
    execution: Option<Extra>,
    /// Free text of the plan document (a Cursor plan's markdown body).
    body: Option<String>,
    /// Groups of tasks (workflow tasks, stages), one row each.
    groups: Option<Vec<GroupRow>>,
    /// Group dependencies: the group `group` waits for the group `on`.
    group_deps: Option<Vec<GroupOn>>,
    /// Tools a group needs.
    group_tools: Option<Vec<GroupTool>>,
    /// Group fields the model does not name, by group id.
    group_extra: Option<Map<String, Value>>,
    /// The executable units, one row each.
    tasks: Vec<TaskRow>,
    /// Dependencies: the task `task` waits for the task `on`.
    deps: Option<Vec<TaskOn>>,
    /// Tools a task may use.
    tools: Option<Vec<TaskTool>>,
    /// Capabilities a task requires.
    capabilities: Option<Vec<TaskCapability>>,
    /// Artifacts a task produces.
    outputs: Option<Vec<TaskOutput>>,
    /// Action parameters, by task id.
    params: Option<Map<String, Value>>,
    /// Task fields the model does not name, by task id.
    task_extra: Option<Map<String, Value>>,
    /// Plan-level fields the model does not name.
    extra: Option<Extra>,
    /// What a dialect needs to write its source back byte for byte.
    layout: Option<Extra>,
}

/// One task: its scalar fields; list fields are counted here only when some task has
/// an empty list (the items are in the edge tables).
#[derive(JsonSchema)]
struct TaskRow {
    /// Identifier, unique within the plan. Absent from every row when each task's id is
    /// the one its title gives (its first three words that are not `a`, `the`, `to`, …,
    /// lower case, joined by `-`; `-2`, `-3` on repeats) and no other table names tasks.
    id: Option<String>,
    /// Short human title.
    title: Option<String>,
    /// What to do, in words.
    description: Option<String>,
    /// Progress (pending, in_progress, completed, cancelled).
    status: Option<String>,
    /// Who runs it.
    executor: Option<String>,
    /// The one tool it calls.
    tool: Option<String>,
    /// Action name.
    action: Option<String>,
    /// What the action works on.
    target: Option<String>,
    /// Kind of step.
    kind: Option<String>,
    /// Expected outcome in words.
    expected_outcome: Option<String>,
    /// Id of the group this task belongs to.
    group: Option<String>,
    /// Git branch for the task.
    branch: Option<String>,
    /// Timeout in milliseconds.
    timeout_ms: Option<f64>,
    /// Retries on failure.
    retries: Option<f64>,
    /// Wave number; tasks with the same number run together.
    parallel_group: Option<f64>,
    /// Number of dependencies (in `deps`).
    dependencies: Option<u64>,
    /// Number of tools (in `tools`).
    tools: Option<u64>,
    /// Number of capabilities (in `capabilities`).
    capabilities: Option<u64>,
    /// Number of outputs (in `outputs`).
    outputs: Option<u64>,
}

/// One group: its scalar fields, list fields counted as in [`TaskRow`].
#[derive(JsonSchema)]
struct GroupRow {
    /// Identifier.
    id: String,
    /// Display name.
    name: Option<String>,
    /// Description in words.
    description: Option<String>,
    /// How its tasks run: `parallel` or `sequence`.
    mode: Option<String>,
    /// Who runs it.
    executor: Option<String>,
    /// Number of group dependencies (in `group_deps`).
    dependencies: Option<u64>,
    /// Number of tools (in `group_tools`).
    tools: Option<u64>,
}

/// A task dependency edge's ends.
#[derive(JsonSchema)]
struct TaskOn {
    /// The waiting task.
    task: String,
    /// The task it waits for.
    on: String,
}

/// A group dependency edge's ends.
#[derive(JsonSchema)]
struct GroupOn {
    /// The waiting group.
    group: String,
    /// The group it waits for.
    on: String,
}

/// A tool a group needs.
#[derive(JsonSchema)]
struct GroupTool {
    /// The group.
    group: String,
    /// The tool.
    tool: String,
}

/// A tool a task may use.
#[derive(JsonSchema)]
struct TaskTool {
    /// The task.
    task: String,
    /// The tool.
    tool: String,
}

/// A capability a task requires.
#[derive(JsonSchema)]
struct TaskCapability {
    /// The task.
    task: String,
    /// The capability.
    capability: String,
}

/// An artifact a task produces.
#[derive(JsonSchema)]
struct TaskOutput {
    /// The task.
    task: String,
    /// The artifact id.
    output: String,
}
