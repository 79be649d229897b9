//! The model field a dialect key fills, and reading and writing an object through
//! its table.

use serde_json::{Number, Value};

use super::{Field, Table};
use crate::model::{Extra, Group, Plan, Task};
use crate::table::fields::{Fields, Out};

/// Where a key's value goes in the plan model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// A plan field.
    Plan(PlanField),
    /// A task field.
    Task(TaskField),
    /// A group field.
    Group(GroupField),
    /// The dialect reads and writes it itself (nested objects, converted units).
    Own,
    /// No model field: kept in the object's `extra` map.
    Extra,
}

/// Plan fields a key can fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanField {
    /// `id`.
    Id,
    /// `title`.
    Title,
    /// `goal`.
    Goal,
    /// `success_criteria`.
    SuccessCriteria,
    /// `rollback`.
    Rollback,
    /// `constraints`.
    Constraints,
    /// `metadata`.
    Metadata,
    /// `shared_inputs`.
    SharedInputs,
    /// `execution`.
    Execution,
}

/// Task fields a key can fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskField {
    /// `id`.
    Id,
    /// `title`.
    Title,
    /// `description`.
    Description,
    /// `status`.
    Status,
    /// `dependencies`.
    Dependencies,
    /// `executor`.
    Executor,
    /// `tool`.
    Tool,
    /// `tools`.
    Tools,
    /// `action`.
    Action,
    /// `target`.
    Target,
    /// `params`.
    Params,
    /// `capabilities`.
    Capabilities,
    /// `kind`.
    Kind,
    /// `timeout_ms`.
    TimeoutMs,
    /// `retries`.
    Retries,
    /// `outputs`.
    Outputs,
    /// `expected_outcome`.
    ExpectedOutcome,
    /// `parallel_group`.
    ParallelGroup,
    /// `group`.
    Group,
    /// `branch`.
    Branch,
}

/// Group fields a key can fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupField {
    /// `id`.
    Id,
    /// `name`.
    Name,
    /// `description`.
    Description,
    /// `mode`.
    Mode,
    /// `dependencies`.
    Dependencies,
    /// `executor`.
    Executor,
    /// `tools`.
    Tools,
}

/// A model field, by reference, by the type it holds.
#[doc(hidden)]
pub enum Slot<'a> {
    /// An id (always present).
    Id(&'a mut String),
    /// Optional text.
    Text(&'a mut Option<String>),
    /// An optional list of strings.
    List(&'a mut Option<Vec<String>>),
    /// An optional number.
    Num(&'a mut Option<Number>),
    /// An optional value.
    Json(&'a mut Option<Value>),
    /// An optional object.
    Map(&'a mut Option<Extra>),
}

/// A model object whose fields keys can fill.
pub trait Record: Default {
    /// The field `to` names, when it is one of this object's.
    #[doc(hidden)]
    fn slot(&mut self, to: To) -> Option<Slot<'_>>;
    /// Its extra map.
    #[doc(hidden)]
    fn extra_mut(&mut self) -> &mut Extra;
}

impl Record for Plan {
    fn slot(&mut self, to: To) -> Option<Slot<'_>> {
        let To::Plan(f) = to else { return None };
        Some(match f {
            PlanField::Id => Slot::Text(&mut self.id),
            PlanField::Title => Slot::Text(&mut self.title),
            PlanField::Goal => Slot::Text(&mut self.goal),
            PlanField::SuccessCriteria => Slot::Text(&mut self.success_criteria),
            PlanField::Rollback => Slot::Text(&mut self.rollback),
            PlanField::Constraints => Slot::List(&mut self.constraints),
            PlanField::Metadata => Slot::Map(&mut self.metadata),
            PlanField::SharedInputs => Slot::Json(&mut self.shared_inputs),
            PlanField::Execution => Slot::Map(&mut self.execution),
        })
    }

    fn extra_mut(&mut self) -> &mut Extra {
        &mut self.extra
    }
}

impl Record for Task {
    fn slot(&mut self, to: To) -> Option<Slot<'_>> {
        let To::Task(f) = to else { return None };
        Some(match f {
            TaskField::Id => Slot::Id(&mut self.id),
            TaskField::Title => Slot::Text(&mut self.title),
            TaskField::Description => Slot::Text(&mut self.description),
            TaskField::Status => Slot::Text(&mut self.status),
            TaskField::Dependencies => Slot::List(&mut self.dependencies),
            TaskField::Executor => Slot::Text(&mut self.executor),
            TaskField::Tool => Slot::Text(&mut self.tool),
            TaskField::Tools => Slot::List(&mut self.tools),
            TaskField::Action => Slot::Text(&mut self.action),
            TaskField::Target => Slot::Text(&mut self.target),
            TaskField::Params => Slot::Json(&mut self.params),
            TaskField::Capabilities => Slot::List(&mut self.capabilities),
            TaskField::Kind => Slot::Text(&mut self.kind),
            TaskField::TimeoutMs => Slot::Num(&mut self.timeout_ms),
            TaskField::Retries => Slot::Num(&mut self.retries),
            TaskField::Outputs => Slot::List(&mut self.outputs),
            TaskField::ExpectedOutcome => Slot::Text(&mut self.expected_outcome),
            TaskField::ParallelGroup => Slot::Num(&mut self.parallel_group),
            TaskField::Group => Slot::Text(&mut self.group),
            TaskField::Branch => Slot::Text(&mut self.branch),
        })
    }

    fn extra_mut(&mut self) -> &mut Extra {
        &mut self.extra
    }
}

impl Record for Group {
    fn slot(&mut self, to: To) -> Option<Slot<'_>> {
        let To::Group(f) = to else { return None };
        Some(match f {
            GroupField::Id => Slot::Id(&mut self.id),
            GroupField::Name => Slot::Text(&mut self.name),
            GroupField::Description => Slot::Text(&mut self.description),
            GroupField::Mode => Slot::Text(&mut self.mode),
            GroupField::Dependencies => Slot::List(&mut self.dependencies),
            GroupField::Executor => Slot::Text(&mut self.executor),
            GroupField::Tools => Slot::List(&mut self.tools),
        })
    }

    fn extra_mut(&mut self) -> &mut Extra {
        &mut self.extra
    }
}

/// Reads the model fields a table names from an object into `record`. A required
/// text or list that is empty (what a writer puts for a missing value) reads as
/// absent; a value of an unexpected kind is left for `extra`. Keys the table leaves
/// to the dialect ([`To::Own`]) are left in `f` for the caller to take.
pub fn read<'a, R: Record>(table: &'a Table, f: &mut Fields<'a>, record: &mut R) {
    for field in table.fields {
        read_field(field, f, record);
    }
}

fn read_field<'a, R: Record>(field: &'a Field, f: &mut Fields<'a>, record: &mut R) {
    let Some(slot) = record.slot(field.to) else {
        return;
    };
    let key = field.key;
    match slot {
        Slot::Id(s) => *s = f.str(key).unwrap_or_default(),
        Slot::Text(s) if field.required => *s = f.required_str(key),
        Slot::Text(s) => *s = f.str(key),
        Slot::List(l) if field.required => *l = f.required_strings(key),
        Slot::List(l) => *l = f.strings(key),
        Slot::Num(n) => *n = f.number(key),
        Slot::Json(v) => *v = f.value(key),
        Slot::Map(m) => *m = f.object(key),
    }
}

/// Reads a whole object through its table: the named fields, then everything else
/// (including keys left to the dialect) into `extra`.
pub fn read_record<R: Record>(table: &Table, obj: &serde_json::Map<String, Value>) -> R {
    let mut record = R::default();
    let mut f = Fields::new(obj);
    read(table, &mut f, &mut record);
    *record.extra_mut() = f.extra();
    record
}

/// Writes a record in table order: each model field a key names (a required one
/// empty when missing) and each key left to the dialect as `own` gives it; then the
/// extra fields (keys the model does not name among them), in source order.
pub fn write<R: Record + Clone>(
    table: &Table,
    record: &R,
    mut own: impl FnMut(&Field) -> Option<Value>,
) -> Value {
    let mut record = record.clone();
    let mut out = Out::new();
    for field in table.fields {
        let key = field.key;
        match record.slot(field.to) {
            Some(Slot::Id(s)) => out.str(key, &Some(s.clone())),
            Some(Slot::Text(s)) if field.required => out.required_str(key, s),
            Some(Slot::Text(s)) => out.str(key, s),
            Some(Slot::List(l)) if field.required => out.required_strings(key, l),
            Some(Slot::List(l)) => out.strings(key, l),
            Some(Slot::Num(n)) => out.number(key, n),
            Some(Slot::Json(v)) => out.value(key, v.clone()),
            Some(Slot::Map(m)) => out.object(key, m),
            None if field.to == To::Own => out.value(key, own(field)),
            None => &mut out,
        };
    }
    // Keys the model does not name are written with the other extra fields, in
    // source order.
    let keys: Vec<&str> = table
        .fields
        .iter()
        .filter(|f| f.to != To::Extra)
        .map(|f| f.key)
        .collect();
    out.extra(record.extra_mut(), &keys);
    out.build()
}

/// Reads a list item as a task through its table; an item that is not an object is
/// kept whole, as an opaque task holding the item.
pub fn read_task(table: &Table, item: &Value) -> Task {
    match item.as_object() {
        Some(obj) => read_record(table, obj),
        None => crate::table::fields::opaque_task(item),
    }
}

/// Writes tasks as a list through their table; an item kept whole is written back as
/// it was.
pub fn write_tasks(table: &Table, tasks: &[Task]) -> Value {
    let items = tasks.iter().map(|t| {
        crate::table::fields::opaque_value(t).unwrap_or_else(|| write(table, t, |_| None))
    });
    Value::Array(items.collect())
}
