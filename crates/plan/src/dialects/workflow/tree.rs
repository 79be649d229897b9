//! The workflow plan as a JSON tree: reading, writing and the eight rules.

use std::collections::{BTreeSet, HashSet};

use indexmap::IndexSet;
use serde_json::{Map, Value};

use crate::dialects::checks;
use crate::model::{Group, Plan, Task, ms_to_seconds, seconds_to_ms};
use crate::problem::{ErrorKind, PathBuf, PlanError, Problem};
use crate::table::fields::{self, Fields};
use crate::table::{
    self, Check, Choice, Field, GroupField, Kind, PlanField, Table, TaskField, To, slot,
};

/// A workflow plan document.
pub static PLAN: Table = Table {
    title: "Workflow plan",
    doc: "A workflow plan (seed 002): tasks grouping steps, for the WorkflowAutomatorAgent. \
          All tasks must have the same fields, and so must all steps (uniform arrays).",
    fields: &[
        Field::new("metadata", Kind::Nested(&METADATA), true, "Plan metadata.").to(To::Own),
        Field::new(
            "tasks",
            Kind::Items(&TASK),
            true,
            "Tasks (groups of steps).",
        )
        .to(To::Own),
        Field::new("steps", Kind::Items(&STEP), true, "Steps.").to(To::Own),
        Field::new(
            "shared_inputs",
            Kind::Object,
            false,
            "Data shared across all workflow steps.",
        )
        .to(To::Plan(PlanField::SharedInputs)),
        Field::new(
            "workflow_config",
            Kind::Nested(&CONFIG),
            false,
            "Execution settings.",
        )
        .to(To::Plan(PlanField::Execution)),
    ],
};

/// Workflow plan metadata: its title and objective are the plan's.
pub static METADATA: Table = Table {
    title: "Workflow metadata",
    doc: "Workflow plan metadata.",
    fields: &[
        Field::new("title", Kind::Str, true, "Plan title.").to(To::Plan(PlanField::Title)),
        Field::new("objective", Kind::Str, true, "Clear objective statement.")
            .to(To::Plan(PlanField::Goal)),
        Field::new(
            "created_at",
            Kind::Str,
            false,
            "Creation timestamp (ISO 8601).",
        ),
        Field::new("author", Kind::Str, false, "User id or identifier."),
        Field::new("version", Kind::Str, false, "Plan version."),
    ],
};

/// A workflow task: a group of steps.
pub static TASK: Table = Table {
    title: "Workflow task",
    doc: "A workflow task: a group of steps.",
    fields: &[
        Field::new("id", Kind::Str, true, "Unique task identifier.").to(To::Group(GroupField::Id)),
        Field::new("name", Kind::Str, true, "Task name.").to(To::Group(GroupField::Name)),
        Field::new("description", Kind::Str, true, "Task description.")
            .to(To::Group(GroupField::Description)),
        Field::new(
            "steps",
            Kind::Strings,
            false,
            "Ids of the steps belonging to this task.",
        )
        .to(To::Own),
        Field::new(
            "dependencies",
            Kind::Strings,
            false,
            "Ids of the tasks this task depends on.",
        )
        .to(To::Group(GroupField::Dependencies)),
        Field::new(
            "agent_type",
            Kind::Str,
            false,
            "Agent type to execute the task (e.g. `model_engine`).",
        )
        .to(To::Group(GroupField::Executor)),
        Field::new(
            "tools_required",
            Kind::Strings,
            false,
            "Tools the task needs.",
        )
        .to(To::Group(GroupField::Tools)),
        Field::new(
            "estimated_time",
            Kind::Number,
            false,
            "Estimated execution time in seconds.",
        )
        .check(Check::NotNegative, "schema")
        .in_seconds(),
    ],
};

/// A workflow step.
pub static STEP: Table = Table {
    title: "Workflow step",
    doc: "A workflow step.",
    fields: &[
        Field::new("id", Kind::Str, true, "Unique step identifier.").to(To::Task(TaskField::Id)),
        Field::new(
            "name",
            Kind::Str,
            false,
            "Step name (the markdown layout's heading).",
        )
        .to(To::Task(TaskField::Title)),
        Field::new(
            "task_id",
            Kind::Str,
            true,
            "Id of the task the step belongs to.",
        )
        .to(To::Task(TaskField::Group)),
        Field::new(
            "action",
            Kind::Str,
            true,
            "Action to execute (e.g. `run_prediction`).",
        )
        .to(To::Task(TaskField::Action)),
        Field::new(
            "parameters",
            Kind::Object,
            false,
            "Action-specific parameters.",
        )
        .to(To::Task(TaskField::Params)),
        Field::new("step_type", Kind::Str, true, "Kind of step.")
            .check(Check::OneOf(STEP_TYPES), "valid-step-type")
            .to(To::Task(TaskField::Kind)),
        Field::new(
            "timeout",
            Kind::Integer,
            false,
            "Step timeout in seconds (default 300).",
        )
        .check(Check::NotNegative, "schema")
        .to(To::Own)
        .in_seconds(),
        Field::new(
            "dependencies",
            Kind::Strings,
            false,
            "Ids of the steps this step depends on.",
        )
        .to(To::Task(TaskField::Dependencies)),
        Field::new(
            "retry_count",
            Kind::Integer,
            false,
            "Retries on failure (default 3).",
        )
        .check(Check::NotNegative, "schema")
        .to(To::Task(TaskField::Retries)),
    ],
};

/// Workflow execution settings.
pub static CONFIG: Table = Table {
    title: "Workflow configuration",
    doc: "Workflow execution settings.",
    fields: &[
        Field::new(
            "parallel_execution",
            Kind::Bool,
            false,
            "Allow parallel step execution.",
        ),
        Field::new(
            "error_recovery",
            Kind::Bool,
            false,
            "Enable error recovery.",
        ),
        Field::new(
            "max_retries",
            Kind::Integer,
            false,
            "Maximum retry attempts for failed steps.",
        )
        .check(Check::NotNegative, "schema"),
    ],
};

/// Valid `step_type` values (WorkflowStepType).
pub const STEP_TYPES: &[Choice] = &[
    Choice {
        value: "AGENT_EXECUTION",
        doc: "Execute an agent action.",
    },
    Choice {
        value: "DATA_PROCESSING",
        doc: "Process data.",
    },
    Choice {
        value: "ANALYSIS",
        doc: "Perform analysis.",
    },
    Choice {
        value: "VISUALIZATION",
        doc: "Create a visualization.",
    },
    Choice {
        value: "CONDITION_CHECK",
        doc: "Check a condition.",
    },
    Choice {
        value: "PARALLEL_EXECUTION",
        doc: "Execute steps in parallel.",
    },
];

/// The keys of the metadata, task list and step list.
const META: &str = PLAN.fields[0].key;
const TASKS: &str = PLAN.fields[1].key;
const STEPS: &str = PLAN.fields[2].key;
/// The key of a task's list of step ids.
const TASK_STEPS: &str = TASK.fields[3].key;
/// The key of a step's timeout, in seconds.
const TIMEOUT: &str = STEP.fields[6].key;

/// Layout key: the source's tasks had no `steps` lists.
const NO_STEP_LISTS: &str = "workflow.no_step_lists";

/// Reads a workflow tree into the plan model.
pub fn from_tree(tree: &Value) -> Result<Plan, PlanError> {
    let obj = tree
        .as_object()
        .ok_or_else(|| PlanError::new(ErrorKind::Shape, "a workflow plan is a JSON object"))?;
    let mut f = Fields::new(obj);
    let mut plan = Plan::default();
    if let Some(meta) = f.object(META) {
        let meta: Map<String, Value> = meta.into_iter().collect();
        let had_only_text = meta
            .keys()
            .all(|k| METADATA.field(k).is_some_and(|f| f.to != To::Extra));
        let mut mf = Fields::new(&meta);
        slot::read(&METADATA, &mut mf, &mut plan);
        let rest = mf.extra();
        if !(rest.is_empty() && had_only_text && (plan.title.is_some() || plan.goal.is_some())) {
            plan.metadata = Some(rest);
        }
    }
    let groups = f.array(TASKS).cloned().unwrap_or_default();
    let steps = f.array(STEPS).cloned().unwrap_or_default();
    plan.tasks = steps.iter().map(read_step).collect();
    let mut any_list = false;
    for g in &groups {
        let (group, has_list) = read_group(g, &plan.tasks);
        any_list |= has_list;
        plan.groups.push(group);
    }
    if !groups.is_empty() && !any_list {
        plan.layout
            .entries
            .insert(NO_STEP_LISTS.to_owned(), Value::Bool(true));
    }
    slot::read(&PLAN, &mut f, &mut plan);
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
    let mut g: Group = slot::read_record(&TASK, obj);
    // A step list equal to the steps that name this task is derived, not stored.
    let has_list = g.extra.contains_key(TASK_STEPS);
    if let Some(Value::Array(list)) = g.extra.get(TASK_STEPS) {
        let derived = members(tasks, &g.id);
        let listed: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
        if listed.len() == list.len()
            && listed == derived.iter().map(String::as_str).collect::<Vec<_>>()
        {
            g.extra.shift_remove(TASK_STEPS);
        }
    }
    (g, has_list)
}

fn read_step(item: &Value) -> Task {
    let Some(obj) = item.as_object() else {
        return fields::opaque_task(item);
    };
    let mut f = Fields::new(obj);
    let mut t = Task::default();
    slot::read(&STEP, &mut f, &mut t);
    match obj.get(TIMEOUT) {
        Some(Value::Number(n)) => {
            if let Some(ms) = seconds_to_ms(n)
                && ms_to_seconds(&ms).as_ref() == Some(n)
            {
                let _ = f.number(TIMEOUT);
                t.timeout_ms = Some(ms);
            }
        }
        Some(Value::Null) => {
            // Uniform-array filler: the same as absent.
            let _ = f.value(TIMEOUT);
        }
        _ => {}
    }
    t.extra = f.extra();
    t
}

/// Writes the plan model as a workflow tree. Tasks and steps are written with the same
/// fields each (missing ones as `null`), as the seed's uniform-array rule asks.
pub fn to_tree(plan: &Plan) -> Value {
    let meta =
        (plan.title.is_some() || plan.goal.is_some() || plan.metadata.is_some()).then(|| {
            let holder = Plan {
                title: plan.title.clone(),
                goal: plan.goal.clone(),
                extra: plan.metadata.clone().unwrap_or_default(),
                ..Plan::default()
            };
            slot::write(&METADATA, &holder, |_| None)
        });
    let lists = !plan
        .layout
        .entries
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
    let mut own = [meta, Some(Value::Array(groups)), Some(Value::Array(steps))];
    slot::write(&PLAN, plan, |field| match field.key {
        META => own[0].take(),
        TASKS => own[1].take(),
        _ => own[2].take(),
    })
}

fn write_group(g: &Group, plan: &Plan, lists: bool) -> Value {
    if g.id.is_empty()
        && let Some(v) = g.extra.get(fields::OPAQUE_KEY)
    {
        return v.clone();
    }
    slot::write(&TASK, g, |_| match g.extra.get(TASK_STEPS) {
        Some(v) => Some(v.clone()),
        None if lists => Some(fields::strings(&members(&plan.tasks, &g.id))),
        None => None,
    })
}

fn write_step(t: &Task) -> Value {
    if let Some(v) = fields::opaque_value(t) {
        return v;
    }
    slot::write(&STEP, t, |_| {
        t.timeout_ms
            .as_ref()
            .and_then(ms_to_seconds)
            .map(Value::Number)
    })
}

/// Gives every object in the list the same keys, adding `null` where one is missing.
pub(super) fn make_uniform(items: &mut [Value]) {
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
    let mut out = table::check(obj, &PathBuf::root(), &PLAN);
    let list = |key: &str| {
        obj.get(key)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    };
    let (tasks, steps) = (list(TASKS), list(STEPS));
    let tbase = PathBuf::root().key(TASKS);
    let sbase = PathBuf::root().key(STEPS);
    // Rules 1 and 2: uniform arrays.
    out.extend(uniform(tasks, &tbase, "uniform-tasks", "task", &[]));
    let step_name = STEP.key_of(To::Task(TaskField::Title));
    let skip: &[&str] = if from_markdown { &[step_name] } else { &[] };
    out.extend(uniform(steps, &sbase, "uniform-steps", "step", skip));
    let task_id = TASK.key_of(To::Group(GroupField::Id));
    let step_id = STEP.key_of(To::Task(TaskField::Id));
    let task_ids: HashSet<&str> = tasks
        .iter()
        .filter_map(|t| t.get(task_id)?.as_str())
        .collect();
    let step_ids: HashSet<&str> = steps
        .iter()
        .filter_map(|t| t.get(step_id)?.as_str())
        .collect();
    // Rule 7: a step's task names a task.
    let step_task = STEP.key_of(To::Task(TaskField::Group));
    for (i, s) in steps.iter().enumerate() {
        if let Some(tid) = s.get(step_task).and_then(Value::as_str)
            && !task_ids.contains(tid)
        {
            out.push(Problem::error(
                "valid-task-ref",
                sbase.index(i).key_loc(step_task),
                format!("step {step_task} {tid:?} names no task"),
            ));
        }
    }
    // A task's step list names steps.
    for (i, t) in tasks.iter().enumerate() {
        if let Some(list) = t.get(TASK_STEPS).and_then(Value::as_array) {
            for (j, s) in list.iter().enumerate() {
                if let Some(s) = s.as_str()
                    && !step_ids.contains(s)
                {
                    out.push(Problem::warning(
                        "task-steps",
                        tbase.index(i).key(TASK_STEPS).index(j).loc(),
                        format!("task lists step {s:?}, which is not in `{STEPS}`"),
                    ));
                }
            }
        }
    }
    let snodes = checks::nodes_of(
        steps,
        &sbase,
        step_id,
        STEP.key_of(To::Task(TaskField::Dependencies)),
    );
    let tnodes = checks::nodes_of(
        tasks,
        &tbase,
        task_id,
        TASK.key_of(To::Group(GroupField::Dependencies)),
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys taken from the tables by position are the fields they stand for.
    #[test]
    fn keys_taken_by_position_name_their_fields() {
        fn kind(t: &'static Table, key: &str) -> Option<(&'static Kind, To)> {
            t.field(key).map(|f| (&f.kind, f.to))
        }
        assert!(
            matches!(kind(&PLAN, META), Some((Kind::Nested(t), To::Own)) if std::ptr::eq(*t, &METADATA))
        );
        assert!(
            matches!(kind(&PLAN, TASKS), Some((Kind::Items(t), To::Own)) if std::ptr::eq(*t, &TASK))
        );
        assert!(
            matches!(kind(&PLAN, STEPS), Some((Kind::Items(t), To::Own)) if std::ptr::eq(*t, &STEP))
        );
        assert!(matches!(
            kind(&TASK, TASK_STEPS),
            Some((Kind::Strings, To::Own))
        ));
        assert!(matches!(
            kind(&STEP, TIMEOUT),
            Some((Kind::Integer, To::Own))
        ));
    }
}
