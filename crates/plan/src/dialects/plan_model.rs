//! The `plan` dialect: the plan model itself, in one table-friendly schema for JSON,
//! YAML and TOON alike (so its TOON is plain TOON of its JSON): tasks and groups are
//! tables of their scalar fields, and every list-valued field becomes its own
//! two-column table (`deps[N]{task,on}`, `tools[N]{task,tool}`, …), so every array is
//! tabular. Per-task objects (`params`, extra fields) go in maps keyed by task id. A
//! tasks table whose ids are the ones their titles give, and that nothing else names,
//! leaves out its `id` column. Plans whose ids are not unique (invalid plans) are written nested, as the model's
//! fields read; the reader takes either form.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Number, Value};

use super::cursor::{self, body_tasks};
use super::{Dialect, DialectId, Read};
use crate::checks::{self, Node};
use crate::fields::{self, Fields};
use crate::format::{self, Document, Format};
use crate::model::{Extra, Group, Plan, Task, ids_from_titles};
use crate::problem::{Location, PathBuf, PlanError, Problem};

/// The plan-model dialect.
pub struct PlanModel;

/// The value of the `schema` key that marks a plan-model document.
pub const SCHEMA: &str = "toon-plan/1";

impl DialectId {
    /// The plan model itself.
    pub const PLAN: DialectId = DialectId::named("plan");
}

impl Dialect for PlanModel {
    fn id(&self) -> DialectId {
        DialectId::PLAN
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc.tree().and_then(|v| v.get("schema")) {
            Some(Value::String(s)) if s == SCHEMA => 100,
            _ => 0,
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        let obj = doc
            .tree()
            .and_then(Value::as_object)
            .ok_or_else(|| PlanError::doc("a plan-model document is an object"))?;
        Ok(from_tree(obj).into())
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc.tree() {
            Some(Value::Object(o)) => {
                let plan = from_tree(o);
                let mut out = validate_plan(&plan);
                if let Some(key) = body_tasks::LAYOUT_KEYS
                    .into_iter()
                    .find(|k| plan.layout.contains_key(*k))
                {
                    // A warning: the tasks are all in the table, and a Cursor file
                    // written from this plan lists them in its front matter instead.
                    out.push(Problem::warning(
                        "layout",
                        PathBuf::root().key("layout").key_loc(key),
                        "the task lines left out of `body` cannot be put back (`cursor.tasks_at` \
                         with each number in `cursor.nested` once and at most the number of \
                         tasks, or `cursor.task_lines` with one row per task and lines in \
                         ascending order, not both): a Cursor file written from this plan lists \
                         its tasks as `todos` instead",
                    ));
                }
                out
            }
            _ => vec![Problem::error(
                "schema",
                Location::Document,
                "a plan-model document is an object (JSON, YAML or TOON)",
            )],
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        format::write_tree(&to_flat_tree(plan), format)
    }
}

/// The nested tree: `schema` then the model's fields.
pub fn to_nested_tree(plan: &Plan) -> Value {
    let mut m = Map::new();
    m.insert("schema".into(), Value::String(SCHEMA.into()));
    if let Ok(Value::Object(body)) = serde_json::to_value(plan) {
        m.extend(body);
    }
    Value::Object(m)
}

const TASK_TEXT: &[&str] = &[
    "title",
    "description",
    "status",
    "executor",
    "tool",
    "action",
    "target",
    "kind",
    "expected_outcome",
    "group",
    "branch",
];
const TASK_NUMBERS: &[&str] = &["timeout_ms", "retries", "parallel_group"];
/// List fields of a task and their edge tables: (field, table, column).
const TASK_LISTS: &[(&str, &str, &str)] = &[
    ("dependencies", "deps", "on"),
    ("tools", "tools", "tool"),
    ("capabilities", "capabilities", "capability"),
    ("outputs", "outputs", "output"),
];
const GROUP_TEXT: &[&str] = &["name", "description", "mode", "executor"];
const GROUP_LISTS: &[(&str, &str, &str)] = &[
    ("dependencies", "group_deps", "on"),
    ("tools", "group_tools", "tool"),
];

fn unique_ids<'a>(ids: impl Iterator<Item = &'a str>) -> bool {
    let mut seen = HashSet::new();
    ids.into_iter().all(|id| !id.is_empty() && seen.insert(id))
}

/// The flat, tabular tree written in every format (nested when ids repeat).
pub fn to_flat_tree(plan: &Plan) -> Value {
    if !unique_ids(plan.tasks.iter().map(|t| t.id.as_str()))
        || !unique_ids(plan.groups.iter().map(|g| g.id.as_str()))
    {
        return to_nested_tree(plan);
    }
    let nested = to_nested_tree(plan);
    let Value::Object(mut top) = nested else {
        return nested;
    };
    let tasks: Vec<Map<String, Value>> = plan.tasks.iter().map(task_object).collect();
    let groups: Vec<Map<String, Value>> = plan.groups.iter().map(group_object).collect();
    let mut out = Map::new();
    for (k, v) in top.iter_mut() {
        if !matches!(k.as_str(), "tasks" | "groups" | "extra" | "layout") {
            out.insert(k.clone(), std::mem::take(v));
        }
    }
    flatten(
        &mut out,
        groups,
        "groups",
        "group",
        GROUP_TEXT,
        &[],
        GROUP_LISTS,
        "group_extra",
    );
    flatten(
        &mut out,
        tasks,
        "tasks",
        "task",
        TASK_TEXT,
        TASK_NUMBERS,
        TASK_LISTS,
        TASK_EXTRA,
    );
    if out.get("tasks").is_none() {
        out.insert("tasks".into(), Value::Array(Vec::new()));
    }
    for k in ["extra", "layout"] {
        if let Some(v) = top.shift_remove(k) {
            out.insert(k.into(), v);
        }
    }
    leave_out_task_lines(plan, &mut out);
    leave_out_title_ids(plan, &mut out);
    Value::Object(out)
}

/// The map of tasks' `params` objects, keyed by task id.
const PARAMS: &str = "params";
/// The map of tasks' extra fields, keyed by task id.
const TASK_EXTRA: &str = "task_extra";

/// Whether `out` writes a table or map that names tasks by id (an edge table of
/// [`TASK_LISTS`], [`PARAMS`], [`TASK_EXTRA`]): then the tasks table keeps its `id`
/// column, so a reader sees the ids they refer to.
fn names_tasks_by_id(out: &Map<String, Value>) -> bool {
    TASK_LISTS
        .iter()
        .map(|(_, table, _)| *table)
        .chain([PARAMS, TASK_EXTRA])
        .any(|k| out.contains_key(k))
}

/// A tasks table whose ids are exactly the ones their titles give
/// ([`ids_from_titles`]), and that nothing else refers to, is written without its `id`
/// column: [`from_tree`] gives them back.
fn leave_out_title_ids(plan: &Plan, out: &mut Map<String, Value>) {
    if plan.tasks.is_empty()
        || names_tasks_by_id(out)
        || plan.tasks.iter().any(|t| t.title.is_none())
        || ids_from_titles(plan.tasks.iter().map(|t| t.title.as_deref()))
            .iter()
            .zip(&plan.tasks)
            .any(|(id, t)| *id != t.id)
    {
        return;
    }
    if let Some(Value::Array(rows)) = out.get_mut("tasks") {
        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
            row.shift_remove("id");
        }
    }
}

/// A Cursor body whose task list is the plan's tasks keeps only the lines its tasks do
/// not give back exactly: the tasks table holds the rest, so nothing is stored twice.
fn leave_out_task_lines(plan: &Plan, out: &mut Map<String, Value>) {
    let in_body = plan.layout.get(cursor::BODY_TASKS) == Some(&Value::Bool(true));
    let Some(body) = plan.body.as_deref().filter(|_| in_body) else {
        return;
    };
    if let Some((kept, entries)) = body_tasks::compact(body, &plan.tasks)
        && let Some(Value::Object(layout)) = out.get_mut("layout")
    {
        // The entries say the tasks are the body's task list: the marker would repeat it.
        layout.shift_remove(cursor::BODY_TASKS);
        layout.extend(entries.into_iter().map(|(k, v)| (k.to_owned(), v)));
        out.insert("body".into(), Value::String(kept));
    }
}

/// The inverse of [`leave_out_task_lines`]: the task lines go back into the body. Entries
/// that do not fit (a hand-edited file) stay in the layout, where `validate` reports them.
fn restore_task_lines(plan: &mut Plan) {
    let Some(body) = &plan.body else {
        return;
    };
    if !body_tasks::LAYOUT_KEYS
        .iter()
        .any(|k| plan.layout.contains_key(*k))
    {
        return;
    }
    if let Some(full) = body_tasks::expand(body, |k| plan.layout.get(k), &plan.tasks) {
        plan.body = Some(full);
        for k in body_tasks::LAYOUT_KEYS {
            plan.layout.shift_remove(k);
        }
        // The marker a Cursor read puts first in the layout.
        plan.layout
            .shift_insert(0, cursor::BODY_TASKS.into(), Value::Bool(true));
    }
}

fn task_object(t: &Task) -> Map<String, Value> {
    match serde_json::to_value(t) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

fn group_object(g: &Group) -> Map<String, Value> {
    match serde_json::to_value(g) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// Writes rows of scalar columns, one edge table per list field, and the per-row
/// objects (`params`, extra) in maps keyed by id.
#[allow(clippy::too_many_arguments)]
fn flatten(
    out: &mut Map<String, Value>,
    rows: Vec<Map<String, Value>>,
    table: &str,
    owner: &str,
    text: &[&str],
    numbers: &[&str],
    lists: &[(&str, &str, &str)],
    extra_key: &str,
) {
    if rows.is_empty() {
        return;
    }
    let has = |k: &str| rows.iter().any(|r| r.contains_key(k));
    // A count column keeps `[]` apart from "not given" when some row has an empty list.
    let count_cols: Vec<&str> = lists
        .iter()
        .map(|(f, _, _)| *f)
        .filter(|f| {
            rows.iter().any(|r| {
                r.get(*f)
                    .and_then(Value::as_array)
                    .is_some_and(Vec::is_empty)
            })
        })
        .collect();
    let mut cols: Vec<&str> = vec!["id"];
    cols.extend(text.iter().chain(numbers).copied().filter(|k| has(k)));
    cols.extend(count_cols.iter().copied());
    let mut table_rows = Vec::with_capacity(rows.len());
    let mut edges: Vec<Vec<Value>> = vec![Vec::new(); lists.len()];
    let mut params = Map::new();
    let mut extras = Map::new();
    for r in &rows {
        let id = r.get("id").cloned().unwrap_or(Value::String(String::new()));
        let mut row = Map::new();
        for c in &cols {
            let v = match r.get(*c) {
                Some(Value::Array(a)) if count_cols.contains(c) => Value::from(a.len()),
                Some(v) => v.clone(),
                None => Value::Null,
            };
            row.insert((*c).to_owned(), v);
        }
        table_rows.push(Value::Object(row));
        for (i, (field, _, col)) in lists.iter().enumerate() {
            for item in r
                .get(*field)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let mut e = Map::new();
                e.insert(owner.to_owned(), id.clone());
                e.insert((*col).to_owned(), item.clone());
                edges[i].push(Value::Object(e));
            }
        }
        if let Some(p) = r.get("params")
            && let Some(id) = id.as_str()
        {
            params.insert(id.to_owned(), p.clone());
        }
        if let Some(x) = r.get("extra")
            && let Some(id) = id.as_str()
        {
            extras.insert(id.to_owned(), x.clone());
        }
    }
    out.insert(table.to_owned(), Value::Array(table_rows));
    for (i, (_, name, _)) in lists.iter().enumerate() {
        if !edges[i].is_empty() {
            out.insert(
                (*name).to_owned(),
                Value::Array(std::mem::take(&mut edges[i])),
            );
        }
    }
    if !params.is_empty() {
        out.insert(PARAMS.into(), Value::Object(params));
    }
    if !extras.is_empty() {
        out.insert(extra_key.to_owned(), Value::Object(extras));
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_owned)
}

fn number(v: Option<&Value>) -> Option<Number> {
    v.and_then(Value::as_number).cloned()
}

/// A list field: a list, or a count (filled from the edge table), or absent.
fn list(v: Option<&Value>) -> Option<Vec<String>> {
    match v? {
        Value::Array(a) => Some(
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        ),
        Value::Number(_) => Some(Vec::new()),
        _ => None,
    }
}

fn extra_of(v: Option<&Value>) -> Extra {
    match v {
        Some(Value::Object(m)) => m.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => Extra::new(),
    }
}

/// Reads either form (nested or flat) back into the model.
pub fn from_tree(obj: &Map<String, Value>) -> Plan {
    let mut f = Fields::new(obj);
    let _ = f.str("schema");
    let mut plan = Plan {
        id: f.str("id"),
        title: f.str("title"),
        goal: f.str("goal"),
        success_criteria: f.str("success_criteria"),
        rollback: f.str("rollback"),
        constraints: f.strings("constraints"),
        metadata: f.object("metadata"),
        shared_inputs: f.value("shared_inputs"),
        execution: f.object("execution"),
        body: f.str("body"),
        ..Plan::default()
    };
    let edge_table = |f: &mut Fields<'_>, name: &'static str| f.array(name).cloned();
    let mut tables: HashMap<&str, Vec<Value>> = HashMap::new();
    for (_, name, _) in TASK_LISTS.iter().chain(GROUP_LISTS) {
        if let Some(rows) = edge_table(&mut f, name) {
            tables.insert(name, rows);
        }
    }
    let params = f.object(PARAMS).unwrap_or_default();
    let task_extra = f.object(TASK_EXTRA).unwrap_or_default();
    let group_extra = f.object("group_extra").unwrap_or_default();
    if let Some(groups) = f.array("groups") {
        plan.groups = groups
            .iter()
            .filter_map(Value::as_object)
            .map(|g| Group {
                id: text(g.get("id")).unwrap_or_default(),
                name: text(g.get("name")),
                description: text(g.get("description")),
                mode: text(g.get("mode")),
                dependencies: list(g.get("dependencies")),
                executor: text(g.get("executor")),
                tools: list(g.get("tools")),
                extra: extra_of(g.get("extra")),
            })
            .collect();
    }
    if let Some(tasks) = f.array("tasks") {
        plan.tasks = tasks
            .iter()
            .filter_map(Value::as_object)
            .map(|t| Task {
                id: text(t.get("id")).unwrap_or_default(),
                title: text(t.get("title")),
                description: text(t.get("description")),
                status: text(t.get("status")),
                dependencies: list(t.get("dependencies")),
                executor: text(t.get("executor")),
                tool: text(t.get("tool")),
                tools: list(t.get("tools")),
                action: text(t.get("action")),
                target: text(t.get("target")),
                params: t.get("params").filter(|v| !v.is_null()).cloned(),
                capabilities: list(t.get("capabilities")),
                kind: text(t.get("kind")),
                timeout_ms: number(t.get("timeout_ms")),
                retries: number(t.get("retries")),
                outputs: list(t.get("outputs")),
                expected_outcome: text(t.get("expected_outcome")),
                parallel_group: number(t.get("parallel_group")),
                group: text(t.get("group")),
                branch: text(t.get("branch")),
                extra: extra_of(t.get("extra")),
            })
            .collect();
        give_title_ids(tasks, &mut plan.tasks);
    }
    // Flat form: fill lists from the edge tables and objects from the id maps.
    let task_index: HashMap<String, usize> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();
    for (field, name, col) in TASK_LISTS {
        for e in tables.get(name).into_iter().flatten() {
            let (Some(owner), Some(item)) = (text(e.get("task")), text(e.get(*col))) else {
                continue;
            };
            if let Some(&i) = task_index.get(&owner) {
                let t = &mut plan.tasks[i];
                let slot = match *field {
                    "dependencies" => &mut t.dependencies,
                    "tools" => &mut t.tools,
                    "capabilities" => &mut t.capabilities,
                    _ => &mut t.outputs,
                };
                slot.get_or_insert_with(Vec::new).push(item);
            }
        }
    }
    let group_index: HashMap<String, usize> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id.clone(), i))
        .collect();
    for (field, name, col) in GROUP_LISTS {
        for e in tables.get(name).into_iter().flatten() {
            let (Some(owner), Some(item)) = (text(e.get("group")), text(e.get(*col))) else {
                continue;
            };
            if let Some(&i) = group_index.get(&owner) {
                let g = &mut plan.groups[i];
                let slot = if *field == "dependencies" {
                    &mut g.dependencies
                } else {
                    &mut g.tools
                };
                slot.get_or_insert_with(Vec::new).push(item);
            }
        }
    }
    for (id, p) in params {
        if let Some(&i) = task_index.get(&id) {
            plan.tasks[i].params = Some(p);
        }
    }
    for (id, x) in task_extra {
        if let Some(&i) = task_index.get(&id) {
            plan.tasks[i].extra = extra_of(Some(&x));
        }
    }
    for (id, x) in group_extra {
        if let Some(&i) = group_index.get(&id) {
            plan.groups[i].extra = extra_of(Some(&x));
        }
    }
    plan.extra = f.object("extra").unwrap_or_default();
    plan.layout = f.object("layout").unwrap_or_default();
    // Keys the model does not know are kept rather than dropped.
    for (k, v) in f.extra() {
        plan.extra.entry(k).or_insert(v);
    }
    restore_task_lines(&mut plan);
    plan
}

/// The inverse of [`leave_out_title_ids`]: when no row of the tasks table has an `id`
/// and every row has a title, each task gets the id its title gives.
fn give_title_ids(rows: &[Value], tasks: &mut [Task]) {
    let rows: Vec<&Map<String, Value>> = rows.iter().filter_map(Value::as_object).collect();
    if rows.is_empty()
        || rows.iter().any(|r| r.contains_key("id"))
        || tasks.iter().any(|t| t.title.is_none())
    {
        return;
    }
    let ids = ids_from_titles(tasks.iter().map(|t| t.title.as_deref()));
    for (t, id) in tasks.iter_mut().zip(ids) {
        t.id = id;
    }
}

/// Checks any plan in the model: ids present and unique, dependencies that exist, no
/// cycles, groups that exist. Paths point into the nested form.
pub fn validate_plan(plan: &Plan) -> Vec<Problem> {
    let base = PathBuf::root().key("tasks");
    let mut out = Vec::new();
    let mut nodes = Vec::new();
    let groups: HashSet<&str> = plan.groups.iter().map(|g| g.id.as_str()).collect();
    for (i, t) in plan.tasks.iter().enumerate() {
        let path = base.index(i);
        if fields::opaque_value(t).is_some() {
            out.push(Problem::error(
                "schema",
                path.loc(),
                "task is not an object",
            ));
            continue;
        }
        if t.id.is_empty() {
            out.push(Problem::error("schema", path.loc(), "task has no id"));
            continue;
        }
        if let Some(g) = &t.group
            && !plan.groups.is_empty()
            && !groups.contains(g.as_str())
        {
            out.push(Problem::error(
                "known-groups",
                path.key_loc("group"),
                format!("task {:?} names unknown group {g:?}", t.id),
            ));
        }
        let deps = t
            .dependencies
            .iter()
            .flatten()
            .enumerate()
            .map(|(j, d)| (d.as_str(), path.key("dependencies").index(j)))
            .collect();
        nodes.push(Node {
            id: t.id.as_str(),
            path,
            deps,
        });
    }
    out.extend(checks::unique_ids(&nodes, "unique-ids", "task"));
    out.extend(checks::known_refs(&nodes, "known-dependencies", "task"));
    out.extend(checks::acyclic(&nodes, "acyclic"));
    out
}
