//! Reading a Task Master file into the plan model: each tag a group, each subtask a
//! task with a parent, each dependency resolved to the task it names; where the file
//! writes an id, a dependency list or a `subtasks` key otherwise than canonically, the
//! plan's layout says so ([`super::style`]).

use std::collections::HashSet;

use serde_json::Value;

use super::style::{DEP_FORMS, ID_FORMS, SUBTASK_FORMS, Style, dep_value, note_form, own_id_value};
use super::{List, MAX_DEPTH, Place, SUBTASKS, Shape, TASKS, Walked, id_text, is_tag, shape};
use crate::dialects::taskmaster::{FILE, SUBTASK, TASK};
use crate::model::{Group, Plan, Task, child_id, group_prefix};
use crate::problem::{ErrorKind, PathBuf, PlanError};
use crate::table::fields::{self, Fields};
use crate::table::{Table, slot};

/// Reads a file into the plan model.
pub(crate) fn read(v: &Value) -> Result<Walked, PlanError> {
    let mut w = Walked {
        plan: Plan::default(),
        places: Vec::new(),
    };
    let style = Style::of_file(v);
    style.keep(&mut w.plan);
    match shape(v) {
        Shape::Legacy(o) => {
            let mut f = Fields::new(o);
            slot::read(&FILE, &mut f, &mut w.plan);
            let tasks = f.array(TASKS).map(Vec::as_slice).unwrap_or_default();
            let list = List {
                prefix: String::new(),
                group: None,
                parent: None,
                path: PathBuf::root().key(TASKS),
                style,
            };
            walk(tasks, &list, 0, &mut w);
            w.plan.extra = f.extra();
        }
        Shape::Tagged(o) => {
            let many = o.values().filter(|t| is_tag(t)).count() > 1;
            for (tag, value) in o {
                let Some(obj) = value.as_object().filter(|_| is_tag(value)) else {
                    w.plan.extra.insert(tag.clone(), value.clone());
                    continue;
                };
                let mut f = Fields::new(obj);
                let tasks = f.array(TASKS).map(Vec::as_slice).unwrap_or_default();
                let list = List {
                    prefix: if many {
                        group_prefix(tag)
                    } else {
                        String::new()
                    },
                    group: Some(tag.clone()),
                    parent: None,
                    path: PathBuf::root().key(tag).key(TASKS),
                    style,
                };
                walk(tasks, &list, 0, &mut w);
                w.plan.groups.push(Group {
                    id: tag.clone(),
                    extra: f.extra(),
                    ..Group::default()
                });
            }
        }
        Shape::Other => {
            return Err(PlanError::new(
                ErrorKind::Shape,
                "a Task Master file is an object with `tasks`, or with tags each holding `tasks`",
            ));
        }
    }
    Ok(w)
}

/// Reads a list of tasks (and their subtasks, depth first) into `w`.
fn walk(items: &[Value], list: &List, depth: usize, w: &mut Walked) {
    let table: &Table = if list.parent.is_some() {
        &SUBTASK
    } else {
        &TASK
    };
    let siblings: HashSet<String> = items
        .iter()
        .filter_map(|t| t.get("id").and_then(id_text))
        .collect();
    for (i, item) in items.iter().enumerate() {
        let path = list.path.index(i);
        let Some(obj) = item.as_object() else {
            let mut t = fields::opaque_task(item);
            t.parent.clone_from(&list.parent);
            t.group.clone_from(&list.group);
            w.plan.tasks.push(t);
            w.places.push(Place {
                path,
                deps: Vec::new(),
            });
            continue;
        };
        let mut f = Fields::new(obj);
        let mut t = Task::default();
        slot::read(table, &mut f, &mut t);
        let local = obj.get("id").and_then(id_text);
        if local.is_some() {
            f.value("id");
        }
        t.id = match (&local, &list.parent) {
            (Some(l), Some(p)) => child_id(p, l),
            (Some(l), None) => format!("{}{l}", list.prefix),
            (None, _) => String::new(),
        };
        if let (Some(v), Some(l)) = (obj.get("id"), &local)
            && *v != own_id_value(l, list)
        {
            note_form(&mut w.plan, ID_FORMS, &t.id, v.clone());
        }
        let mut deps = Vec::new();
        if let Some(items) = obj
            .get("dependencies")
            .and_then(Value::as_array)
            .filter(|a| a.iter().all(|d| id_text(d).is_some()))
        {
            f.value("dependencies");
            let resolved = items
                .iter()
                .filter_map(id_text)
                .map(|d| resolve(&d, list, &siblings))
                .collect::<Vec<_>>();
            if resolved
                .iter()
                .zip(items)
                .any(|(d, v)| dep_value(d, list) != *v)
            {
                note_form(&mut w.plan, DEP_FORMS, &t.id, Value::Array(items.clone()));
            }
            t.dependencies = Some(resolved);
            deps = (0..items.len())
                .map(|j| path.key("dependencies").index(j))
                .collect();
        }
        let children = match obj.get(SUBTASKS) {
            Some(Value::Array(a)) if depth < MAX_DEPTH && !t.id.is_empty() => {
                f.value(SUBTASKS);
                Some(a)
            }
            _ => None,
        };
        // A task's `subtasks` is written even when empty, a subtask's only when it has
        // some: where the file does otherwise, the layout says so.
        let empty = children.is_some_and(Vec::is_empty);
        let absent = obj.get(SUBTASKS).is_none();
        if !t.id.is_empty() && (absent || empty) {
            let has_key = !absent;
            let by_default = list.parent.is_none() || list.style.empty_subtask_lists;
            if has_key != by_default {
                note_form(&mut w.plan, SUBTASK_FORMS, &t.id, Value::Bool(has_key));
            }
        }
        t.extra = f.extra();
        t.parent.clone_from(&list.parent);
        t.group.clone_from(&list.group);
        let id = t.id.clone();
        w.plan.tasks.push(t);
        w.places.push(Place {
            path: path.clone(),
            deps,
        });
        if let Some(children) = children {
            let sub = List {
                prefix: list.prefix.clone(),
                group: list.group.clone(),
                parent: Some(id),
                path: path.key(SUBTASKS),
                style: list.style,
            };
            walk(children, &sub, depth + 1, w);
        }
    }
}

/// The task a dependency names. A task's dependency is an id of its list (`3`, or a
/// dotted subtask id `"2.1"`); a subtask's is a sibling's number when it has a sibling
/// of that id, else an id of the whole list.
fn resolve(dep: &str, list: &List, siblings: &HashSet<String>) -> String {
    match &list.parent {
        Some(p) if !dep.contains('.') && siblings.contains(dep) => child_id(p, dep),
        _ => format!("{}{dep}", list.prefix),
    }
}
