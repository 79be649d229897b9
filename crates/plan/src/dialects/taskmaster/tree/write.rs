//! Writing a plan as a Task Master file: tagged or legacy, each task with its subtasks
//! under it, in the style and key order its file had when the plan keeps them, and in
//! JSON with the file's own lines where the plan keeps those.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::read::read;
use super::style::{
    DEP_FORMS, ID_FORMS, INDENT, KEY_ORDER, NULL_TEXTS, SUBTASK_FORMS, Style, dep_value, form,
    own_id_value,
};
use super::{List, MAX_DEPTH, TASKS, id_text};
use crate::dialects::taskmaster::{FILE, PATCH, SUBTASK, SUBTASK_KEYS, TASK, TASK_KEYS};
use crate::fidelity::{text_patch, toon_numbers};
use crate::model::{Plan, Task, child_id, group_prefix};
use crate::problem::{ErrorKind, PathBuf, PlanError};
use crate::syntax::format::{self, Format};
use crate::table::fields;
use crate::table::{Table, slot};

/// Writes a plan as a Task Master file; in JSON, with its file's own lines where the
/// plan keeps them and still states what they say.
pub(crate) fn write(plan: &Plan, format: Format) -> Result<String, PlanError> {
    let canonical = write_canonical(plan, format)?;
    if format != Format::Json {
        return Ok(canonical);
    }
    Ok(text_patch::patched(plan, PATCH, canonical, |t| {
        states(t, plan)
    }))
}

fn write_canonical(plan: &Plan, format: Format) -> Result<String, PlanError> {
    let indent = plan.layout.entries.get(INDENT).and_then(Value::as_str);
    match indent {
        Some(indent) if format == Format::Json && !indent.is_empty() => {
            use serde::Serialize;
            let mut out = Vec::new();
            let style = serde_json::ser::PrettyFormatter::with_indent(indent.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut out, style);
            to_tree(plan)
                .serialize(&mut ser)
                .map_err(|e| PlanError::new(ErrorKind::Shape, format!("cannot write JSON: {e}")))?;
            let mut text = String::from_utf8(out)
                .map_err(|e| PlanError::new(ErrorKind::Shape, e.to_string()))?;
            text.push('\n');
            Ok(text)
        }
        _ => format::write_tree(&to_tree(plan), format),
    }
}

/// Whether `text` reads as the plan (its layout aside), numbers compared in TOON form.
fn states(text: &str, plan: &Plan) -> bool {
    let Ok(tree) = serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text))
    else {
        return false;
    };
    let Ok(w) = read(&tree) else {
        return false;
    };
    let mut read = w.plan;
    let mut plan = plan.clone();
    read.layout = Default::default();
    plan.layout = Default::default();
    read == plan || toon_numbers::same_plan(&read, &plan)
}

/// The tree form of a plan as a Task Master file: tagged when every task belongs to
/// one of the plan's groups and depends only on tasks of its own, and no group waits
/// for another (tags are task lists of their own; phases run in order are not), else
/// legacy.
pub(super) fn to_tree(plan: &Plan) -> Value {
    let keys = Keys::of(plan);
    let style = Style::of_plan(plan);
    let groups: HashSet<&str> = plan.groups.iter().map(|g| g.id.as_str()).collect();
    let group_of: HashMap<&str, Option<&str>> = plan
        .tasks
        .iter()
        .map(|t| (t.id.as_str(), t.group.as_deref()))
        .collect();
    let tagged = !plan.groups.is_empty()
        && plan
            .groups
            .iter()
            .all(|g| g.dependencies.as_ref().is_none_or(Vec::is_empty))
        && plan.tasks.iter().all(|t| {
            t.group.as_deref().is_some_and(|g| groups.contains(g))
                && t.dependencies
                    .iter()
                    .flatten()
                    .all(|d| group_of.get(d.as_str()).copied().flatten() == t.group.as_deref())
        });
    if !tagged {
        let all: Vec<usize> = (0..plan.tasks.len()).collect();
        let list = List {
            prefix: String::new(),
            group: None,
            parent: None,
            path: PathBuf::root(),
            style,
        };
        let tasks = write_list(plan, &all, &list, &keys);
        return slot::write(&FILE, plan, |_| Some(tasks.clone()));
    }
    let mut root = Map::new();
    let many = plan.groups.len() > 1;
    for g in &plan.groups {
        let members: Vec<usize> = (0..plan.tasks.len())
            .filter(|&i| plan.tasks[i].group.as_deref() == Some(g.id.as_str()))
            .collect();
        let list = List {
            prefix: if many {
                group_prefix(&g.id)
            } else {
                String::new()
            },
            group: Some(g.id.clone()),
            parent: None,
            path: PathBuf::root(),
            style,
        };
        let mut tag = Map::new();
        tag.insert(TASKS.into(), write_list(plan, &members, &list, &keys));
        for (k, v) in &g.extra {
            if k != TASKS {
                tag.insert(k.clone(), v.clone());
            }
        }
        root.entry(g.id.clone()).or_insert(Value::Object(tag));
    }
    for (k, v) in &plan.extra {
        root.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(root)
}

/// The key orders a plan keeps for its tasks and subtasks.
struct Keys {
    task: Vec<String>,
    subtask: Vec<String>,
    /// The order of each task written in its own ([`KEY_ORDER`]), by task id.
    own: HashMap<String, Vec<String>>,
}

impl Keys {
    fn of(plan: &Plan) -> Keys {
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut own = HashMap::new();
        for order in plan
            .layout
            .entries
            .get(KEY_ORDER)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let keys = strings(order.get("keys"));
            for id in strings(order.get("tasks")) {
                own.entry(id).or_insert_with(|| keys.clone());
            }
        }
        Keys {
            task: strings(plan.layout.entries.get(TASK_KEYS)),
            subtask: strings(plan.layout.entries.get(SUBTASK_KEYS)),
            own,
        }
    }
}

/// Writes the tasks `members` (indices into the plan) of one list as a tree: each task
/// with its subtasks under it. A task whose parent is not among them (or that a cycle
/// of parents would never reach) is written at the top.
fn write_list(plan: &Plan, members: &[usize], list: &List, keys: &Keys) -> Value {
    let ids: HashSet<&str> = members.iter().map(|&i| plan.tasks[i].id.as_str()).collect();
    let mut children: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut roots = Vec::new();
    for &i in members {
        match plan.tasks[i].parent.as_deref() {
            Some(p) if ids.contains(p) && p != plan.tasks[i].id => {
                children.entry(p).or_default().push(i)
            }
            _ => roots.push(i),
        }
    }
    let mut written = vec![false; plan.tasks.len()];
    let mut out = Vec::new();
    let writer = Writer {
        plan,
        children: &children,
        keys,
    };
    for &i in &roots {
        out.push(writer.task(i, list, 0, &mut written));
    }
    // Tasks on a cycle of parents: written at the top, with what hangs under them.
    for &i in members {
        if !written[i] {
            out.push(writer.task(i, list, 0, &mut written));
        }
    }
    Value::Array(out)
}

struct Writer<'a> {
    plan: &'a Plan,
    children: &'a HashMap<&'a str, Vec<usize>>,
    keys: &'a Keys,
}

impl Writer<'_> {
    /// Writes task `i` with its subtasks.
    fn task(&self, i: usize, list: &List, depth: usize, written: &mut [bool]) -> Value {
        written[i] = true;
        let t = &self.plan.tasks[i];
        if let Some(v) = fields::opaque_value(t) {
            return v;
        }
        let subtask = list.parent.is_some();
        let local = local_id(&t.id, list);
        let sub = List {
            prefix: list.prefix.clone(),
            group: list.group.clone(),
            parent: Some(t.id.clone()),
            path: PathBuf::root(),
            style: list.style,
        };
        let kids: Vec<usize> = self
            .children
            .get(t.id.as_str())
            .into_iter()
            .flatten()
            .copied()
            .filter(|&k| !written[k])
            .collect();
        let empty_list = form(self.plan, SUBTASK_FORMS, &t.id)
            .and_then(Value::as_bool)
            .unwrap_or(!subtask || list.style.empty_subtask_lists);
        let subtasks = if depth + 1 < MAX_DEPTH && (!kids.is_empty() || empty_list) {
            let mut items = Vec::new();
            for k in kids {
                if !written[k] {
                    items.push(self.task(k, &sub, depth + 1, written));
                }
            }
            Some(Value::Array(items))
        } else {
            None
        };
        let deps = t
            .dependencies
            .as_ref()
            .map(|deps| self.deps_value(t, deps, list));
        let id = match form(self.plan, ID_FORMS, &t.id) {
            Some(v) if id_text(v).as_deref() == Some(local.as_str()) => v.clone(),
            _ => own_id_value(&local, list),
        };
        let table: &Table = if subtask { &SUBTASK } else { &TASK };
        // A key the reader left as it was (an id that is neither number nor string,
        // subtasks nested too deep) is written back as it was.
        let mut value = slot::write(table, t, |f| match (t.extra.get(f.key), f.key) {
            (Some(kept), _) => Some(kept.clone()),
            (None, "id") => Some(id.clone()),
            (None, "dependencies") => deps.clone(),
            (None, _) => subtasks.clone(),
        });
        if let Value::Object(m) = &mut value {
            write_nulls(m, table, t, list.style);
        }
        let order = match self.keys.own.get(t.id.as_str()) {
            Some(o) => o,
            None if subtask => &self.keys.subtask,
            None => &self.keys.task,
        };
        if let Value::Object(m) = &mut value
            && !order.is_empty()
        {
            *m = reorder(std::mem::take(m), order);
        }
        value
    }
}

impl Writer<'_> {
    /// A task's dependencies as written: as its file wrote them where the plan keeps
    /// that and each still names the same task (as [`resolve`](super::read::resolve)
    /// reads it back), else canonically ([`dep_value`]).
    fn deps_value(&self, t: &Task, deps: &[String], list: &List) -> Value {
        let canonical: Vec<Value> = deps.iter().map(|d| dep_value(d, list)).collect();
        if let Some(Value::Array(kept)) = form(self.plan, DEP_FORMS, &t.id)
            && kept.len() == deps.len()
            && kept.iter().zip(deps).zip(&canonical).all(|((k, d), c)| {
                let Some(text) = id_text(k) else {
                    return false;
                };
                let full = d.strip_prefix(list.prefix.as_str()).unwrap_or(d);
                text == id_text(c).unwrap_or_default()
                    || text == full
                    || self.sibling(list, &text).is_some_and(|s| s == *d)
            })
        {
            return Value::Array(kept.clone());
        }
        Value::Array(canonical)
    }

    /// The id of the sibling a subtask of `list` names by `number` (a dependency
    /// without a dot), when its parent has that subtask.
    fn sibling(&self, list: &List, number: &str) -> Option<String> {
        let p = list.parent.as_deref().filter(|_| !number.contains('.'))?;
        let id = child_id(p, number);
        let kids = self.children.get(p)?;
        kids.iter()
            .any(|&k| self.plan.tasks[k].id == id)
            .then_some(id)
    }
}

/// Puts `null` for each text task `t` lacks that the file's style writes so
/// ([`NULL_TEXTS`]), where the table puts the key (the reader reads it as no text).
fn write_nulls(m: &mut Map<String, Value>, table: &Table, t: &Task, style: Style) {
    let rank = |key: &str| table.fields.iter().position(|f| f.key == key);
    let missing = [t.details.is_none(), t.test_strategy.is_none()];
    for (((key, _), on), missing) in NULL_TEXTS.into_iter().zip(style.null_texts).zip(missing) {
        if !on || !missing || m.contains_key(key) {
            continue;
        }
        let Some(at) = rank(key) else { continue };
        let before = m
            .keys()
            .take_while(|k| rank(k).is_some_and(|r| r < at))
            .count();
        m.shift_insert(before, key.to_owned(), Value::Null);
    }
}

/// The keys of `m` in `order` first, then the others as they were.
fn reorder(mut m: Map<String, Value>, order: &[String]) -> Map<String, Value> {
    let mut out = Map::new();
    for k in order {
        if let Some(v) = m.shift_remove(k) {
            out.insert(k.clone(), v);
        }
    }
    out.extend(m);
    out
}

/// A task's id within its list: without its tag's prefix, a subtask's without its
/// parent's id.
fn local_id(id: &str, list: &List) -> String {
    let own = match &list.parent {
        Some(p) => id
            .strip_prefix(p.as_str())
            .and_then(|r| r.strip_prefix('.')),
        None => id.strip_prefix(list.prefix.as_str()),
    };
    own.filter(|r| !r.is_empty()).unwrap_or(id).to_owned()
}
