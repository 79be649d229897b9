//! How a Task Master file writes what it can write more than one way (a dependency as
//! a number or a string, `"details": null` or no key, its indentation, the key order of
//! its tasks), kept in the plan's layout: the [`Style`] most of its tasks follow, the
//! forms of single tasks that differ from it, and [`keep_text`], which records them
//! with the text patch of what is left.

use serde_json::{Map, Value};

use super::read::read;
use super::write::{to_tree, write};
use super::{List, MAX_DEPTH, SUBTASKS, TASKS, id_text, lists};
use crate::dialects::taskmaster::{PATCH, SUBTASK, SUBTASK_KEYS, TASK, TASK_KEYS};
use crate::fidelity::text_patch;
use crate::model::Plan;
use crate::syntax::format::Format;
use crate::table::fields;

/// How a file writes what it can write two ways, where most of its tasks agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Style {
    /// A subtask's sibling dependency as a dotted string (`"3.1"`), not its number.
    pub(super) dotted_siblings: bool,
    /// A subtask without subtasks with `"subtasks": []`.
    pub(super) empty_subtask_lists: bool,
    /// A task's dependency on a task numbered in plain digits as a string (`"3"`).
    pub(super) string_deps: bool,
    /// A task's own id in plain digits as a string (`"id": "3"`).
    pub(super) string_ids: bool,
    /// Per text of [`NULL_TEXTS`]: a task without it with the key and `null`
    /// (`"details": null`).
    pub(super) null_texts: [bool; 2],
}

/// Layout key: the file writes a subtask's sibling dependencies as dotted strings.
const DOTTED_SIBLINGS: &str = "taskmaster.dotted_siblings";
/// Layout key: the file writes `"subtasks": []` in subtasks without subtasks.
const EMPTY_SUBTASK_LISTS: &str = "taskmaster.empty_subtask_lists";
/// Layout key: the file writes a task's dependencies on numbered tasks as strings.
const STRING_DEPS: &str = "taskmaster.string_deps";
/// Layout key: the file writes its tasks' ids in plain digits as strings.
const STRING_IDS: &str = "taskmaster.string_ids";
/// Layout key: the file writes `"details": null` in tasks without details.
const NULL_DETAILS: &str = "taskmaster.null_details";
/// Layout key: the file writes `"testStrategy": null` in tasks without one.
const NULL_TEST_STRATEGY: &str = "taskmaster.null_test_strategy";
/// The keys of the texts a file may write `null` for when a task has none, with the
/// layout key that says it does.
pub(super) const NULL_TEXTS: [(&str, &str); 2] = [
    ("details", NULL_DETAILS),
    ("testStrategy", NULL_TEST_STRATEGY),
];
/// Layout key: the key orders of the tasks written in another order than the file's
/// first task (or subtask): a list of `{keys, tasks}`, each order once with the ids of
/// the tasks that follow it.
pub(super) const KEY_ORDER: &str = "taskmaster.key_order";

impl Style {
    /// The style most of a file's subtasks follow.
    pub(super) fn of_file(v: &Value) -> Style {
        let mut counts = [0usize; 4]; // dotted, plain, with list, without
        let (mut strings, mut numbers) = (0usize, 0usize);
        let (mut string_ids, mut number_ids) = (0usize, 0usize);
        let top = lists(v)
            .into_iter()
            .filter_map(|(o, _)| o.get(TASKS)?.as_array())
            .flatten();
        for id in top.clone().filter_map(|t| t.get("id")) {
            match id {
                Value::String(s) if id_value(s).is_number() => string_ids += 1,
                Value::Number(_) => number_ids += 1,
                _ => {}
            }
        }
        for d in top
            .clone()
            .filter_map(|t| t.get("dependencies")?.as_array())
            .flatten()
        {
            match d {
                Value::String(s) if id_value(s).is_number() => strings += 1,
                Value::Number(_) => numbers += 1,
                _ => {}
            }
        }
        let mut stack: Vec<(&Value, usize)> = top
            .filter_map(|t| t.get(SUBTASKS)?.as_array())
            .flatten()
            .map(|t| (t, 1))
            .collect();
        while let Some((t, depth)) = stack.pop() {
            for d in t
                .get("dependencies")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match d {
                    Value::String(s) if s.contains('.') => counts[0] += 1,
                    _ => counts[1] += 1,
                }
            }
            match t.get(SUBTASKS).and_then(Value::as_array) {
                Some(kids) if depth < MAX_DEPTH => {
                    if kids.is_empty() {
                        counts[2] += 1;
                    }
                    stack.extend(kids.iter().map(|k| (k, depth + 1)));
                }
                Some(_) => {}
                None => counts[3] += 1,
            }
        }
        // Per text key: tasks with `null`, tasks without the key.
        let mut nulls = [[0usize; 2]; NULL_TEXTS.len()];
        for t in task_objects(v).into_iter().flatten() {
            for ((key, _), n) in NULL_TEXTS.iter().zip(&mut nulls) {
                match t.get(*key) {
                    Some(Value::Null) => n[0] += 1,
                    None => n[1] += 1,
                    Some(_) => {}
                }
            }
        }
        Style {
            dotted_siblings: counts[0] > counts[1],
            empty_subtask_lists: counts[2] > counts[3],
            string_deps: strings > numbers,
            string_ids: string_ids > number_ids,
            null_texts: nulls.map(|[null, absent]| null > absent),
        }
    }

    /// The style a plan keeps in its layout.
    pub(super) fn of_plan(plan: &Plan) -> Style {
        let flag = |k: &str| plan.layout.entries.get(k) == Some(&Value::Bool(true));
        Style {
            dotted_siblings: flag(DOTTED_SIBLINGS),
            empty_subtask_lists: flag(EMPTY_SUBTASK_LISTS),
            string_deps: flag(STRING_DEPS),
            string_ids: flag(STRING_IDS),
            null_texts: NULL_TEXTS.map(|(_, layout)| flag(layout)),
        }
    }

    /// Keeps the style in the plan's layout (only what is not the default).
    pub(super) fn keep(self, plan: &mut Plan) {
        for (on, key) in [
            (self.dotted_siblings, DOTTED_SIBLINGS),
            (self.empty_subtask_lists, EMPTY_SUBTASK_LISTS),
            (self.string_deps, STRING_DEPS),
            (self.string_ids, STRING_IDS),
            (self.null_texts[0], NULL_TEXTS[0].1),
            (self.null_texts[1], NULL_TEXTS[1].1),
        ] {
            if on {
                plan.layout.entries.insert(key.into(), Value::Bool(true));
            }
        }
    }
}

/// Layout key: the ids written otherwise than canonically (`"3"` for 3, `29.1`), by
/// task id.
pub(super) const ID_FORMS: &str = "taskmaster.ids";
/// Layout key: the dependency lists written otherwise than canonically (`"2.1"` for a
/// sibling `1`, `"4"` for 4), by task id.
pub(super) const DEP_FORMS: &str = "taskmaster.deps";

/// Layout key: the file's indentation, when it is not two spaces.
pub(super) const INDENT: &str = "taskmaster.indent";

/// Layout key: where a task without subtasks writes `subtasks` otherwise than
/// canonically (`true`: an empty list, `false`: no key), by task id.
pub(super) const SUBTASK_FORMS: &str = "taskmaster.subtasks";

/// Records in the plan's layout how task `id` wrote a value (`what`: [`ID_FORMS`] or
/// [`DEP_FORMS`]).
pub(super) fn note_form(plan: &mut Plan, what: &str, id: &str, written: Value) {
    let entry = plan
        .layout
        .entries
        .entry(what.to_owned())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = entry {
        m.insert(id.to_owned(), written);
    }
}

/// How task `id` wrote a value, if the plan keeps it.
pub(super) fn form<'a>(plan: &'a Plan, what: &str, id: &str) -> Option<&'a Value> {
    plan.layout.entries.get(what)?.get(id)
}

/// Keeps in the plan's layout what writing it would not give back of `text`: the key
/// order of its tasks and the lines that differ (a text patch).
pub(crate) fn keep_text(plan: &mut Plan, text: &str) {
    let Ok(tree) = serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text))
    else {
        return;
    };
    for (keys, layout, table) in [
        (first_task_keys(&tree, false), TASK_KEYS, &TASK),
        (first_task_keys(&tree, true), SUBTASK_KEYS, &SUBTASK),
    ] {
        // As the writer puts them: the table's keys in its order, then the others.
        let canonical: Vec<&str> = table.fields.iter().map(|f| f.key).collect();
        let expected = canonical
            .iter()
            .copied()
            .filter(|k| keys.iter().any(|x| x == k))
            .chain(
                keys.iter()
                    .map(String::as_str)
                    .filter(|k| !canonical.contains(k)),
            );
        let in_order = expected.eq(keys.iter().map(String::as_str));
        if !keys.is_empty() && !in_order {
            plan.layout
                .entries
                .insert(layout.into(), fields::strings(&keys));
        }
    }
    let indent: String = text
        .lines()
        .nth(1)
        .map(|l| l.chars().take_while(|c| *c == ' ' || *c == '\t').collect())
        .unwrap_or_default();
    if !indent.is_empty() && indent != "  " {
        plan.layout
            .entries
            .insert(INDENT.into(), Value::String(indent));
    }
    if let (Ok(w), Ok(written)) = (read(&tree), serde_json::to_value(to_tree(plan))) {
        let ours = task_objects(&written);
        // Each order once, with the tasks that follow it.
        let mut orders: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        for ((t, theirs), ours) in w.plan.tasks.iter().zip(task_objects(&tree)).zip(ours) {
            // Only an order the writer can follow: the same keys, another order.
            if let (Some(a), Some(b)) = (theirs, ours)
                && !a.keys().eq(b.keys())
                && a.len() == b.len()
                && a.keys().all(|k| b.contains_key(k))
                && !t.id.is_empty()
            {
                let keys: Vec<String> = a.keys().cloned().collect();
                match orders.iter_mut().find(|(k, _)| *k == keys) {
                    Some((_, ids)) => ids.push(t.id.clone()),
                    None => orders.push((keys, vec![t.id.clone()])),
                }
            }
        }
        if !orders.is_empty() {
            let list = orders.iter().map(|(keys, ids)| {
                let mut m = Map::new();
                m.insert("keys".into(), fields::strings(keys));
                m.insert("tasks".into(), fields::strings(ids));
                Value::Object(m)
            });
            plan.layout
                .entries
                .insert(KEY_ORDER.into(), Value::Array(list.collect()));
        }
    }
    text_patch::keep(plan, PATCH, text, |p| {
        write(p, Format::Json).unwrap_or_default()
    });
}

/// Every task item of a file, depth first as [`read`] takes them (an item that is not
/// an object as `None`).
fn task_objects(tree: &Value) -> Vec<Option<&Map<String, Value>>> {
    fn walk<'a>(items: &'a [Value], depth: usize, out: &mut Vec<Option<&'a Map<String, Value>>>) {
        for item in items {
            let obj = item.as_object();
            out.push(obj);
            let id_ok = obj.and_then(|o| o.get("id")).and_then(id_text).is_some();
            if let Some(kids) = obj.and_then(|o| o.get(SUBTASKS)).and_then(Value::as_array)
                && depth < MAX_DEPTH
                && id_ok
            {
                walk(kids, depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    for (o, _) in lists(tree) {
        if let Some(items) = o.get(TASKS).and_then(Value::as_array) {
            walk(items, 0, &mut out);
        }
    }
    out
}

/// The keys of the file's first task (or first subtask), in order.
fn first_task_keys(tree: &Value, subtask: bool) -> Vec<String> {
    let mut tasks: Vec<&Value> = lists(tree)
        .into_iter()
        .filter_map(|(o, _)| o.get(TASKS)?.as_array())
        .flatten()
        .collect();
    if subtask {
        tasks = tasks
            .into_iter()
            .filter_map(|t| t.get(SUBTASKS)?.as_array())
            .flatten()
            .collect();
    }
    tasks
        .first()
        .and_then(|t| t.as_object())
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

/// An id as written: a number when it is one in plain digits, else a string.
fn id_value(id: &str) -> Value {
    let plain = !id.is_empty()
        && id.bytes().all(|b| b.is_ascii_digit())
        && (id == "0" || !id.starts_with('0'));
    match id.parse::<u64>() {
        Ok(n) if plain => Value::from(n),
        _ => Value::String(id.to_owned()),
    }
}

/// A task's own id (`local`, within `list`) as written: as [`id_value`], but a task's
/// (not a subtask's) id in plain digits as a string in a file that writes them so.
pub(super) fn own_id_value(local: &str, list: &List) -> Value {
    match id_value(local) {
        Value::Number(_) if list.parent.is_none() && list.style.string_ids => {
            Value::String(local.to_owned())
        }
        v => v,
    }
}

/// A dependency as `t` in `list` writes it: a subtask's sibling by its number, another
/// task by its id in the list (a number for a task's plain number, else a string).
pub(super) fn dep_value(dep: &str, list: &List) -> Value {
    if let Some(p) = &list.parent {
        if let Some(rest) = dep
            .strip_prefix(p.as_str())
            .and_then(|r| r.strip_prefix('.'))
            .filter(|r| !r.is_empty() && !r.contains('.'))
            && !list.style.dotted_siblings
        {
            return id_value(rest);
        }
        let own = dep.strip_prefix(list.prefix.as_str()).unwrap_or(dep);
        return Value::String(own.to_owned());
    }
    let own = dep.strip_prefix(list.prefix.as_str()).unwrap_or(dep);
    match id_value(own) {
        Value::Number(_) if list.style.string_deps => Value::String(own.to_owned()),
        v => v,
    }
}
