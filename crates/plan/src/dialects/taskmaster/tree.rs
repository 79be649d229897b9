//! Reading a Task Master file into the plan model (tags as groups, subtasks as tasks
//! with a parent, ids resolved to edges) and writing a plan as one, byte for byte when
//! the plan keeps its file's layout.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{FILE, PATCH, SUBTASK, SUBTASK_KEYS, TASK, TASK_KEYS};
use crate::fidelity::{text_patch, toon_numbers};
use crate::model::{Group, Plan, Task, child_id, group_prefix};
use crate::problem::{ErrorKind, PathBuf, PlanError, Problem};
use crate::syntax::format::{self, Format};
use crate::table::fields::{self, Fields};
use crate::table::{Table, slot};

/// Subtasks nested deeper than this stay in their task's extra fields, unread.
const MAX_DEPTH: usize = 64;
/// The key of a task list.
const TASKS: &str = FILE.list_key();
/// The key of a task's subtasks.
const SUBTASKS: &str = TASK.list_key();

/// The two shapes of a Task Master file.
pub(super) enum Shape<'a> {
    /// `{"tasks": [...], "metadata": …}`.
    Legacy(&'a Map<String, Value>),
    /// `{"<tag>": {"tasks": [...], …}, …}`.
    Tagged(&'a Map<String, Value>),
    /// Neither.
    Other,
}

/// Which shape a document has.
pub(super) fn shape(v: &Value) -> Shape<'_> {
    let Some(o) = v.as_object() else {
        return Shape::Other;
    };
    if o.get(TASKS).is_some_and(Value::is_array) {
        return Shape::Legacy(o);
    }
    if o.values().any(is_tag) {
        Shape::Tagged(o)
    } else {
        Shape::Other
    }
}

/// Whether a value is a tag's task list.
fn is_tag(v: &Value) -> bool {
    v.get(TASKS).is_some_and(Value::is_array)
}

/// The task lists of a file with where they are: the root, or each tag.
pub(super) fn lists(v: &Value) -> Vec<(&Map<String, Value>, PathBuf)> {
    match shape(v) {
        Shape::Legacy(o) => vec![(o, PathBuf::root())],
        Shape::Tagged(o) => o
            .iter()
            .filter(|(_, t)| is_tag(t))
            .filter_map(|(k, t)| Some((t.as_object()?, PathBuf::root().key(k))))
            .collect(),
        Shape::Other => Vec::new(),
    }
}

/// In a tagged file, each key whose value is not a tag (an object with a `tasks`
/// list): the reader keeps it, but Task Master reads every key as a tag.
pub(super) fn not_tags(v: &Value) -> Vec<Problem> {
    let Shape::Tagged(o) = shape(v) else {
        return Vec::new();
    };
    o.iter()
        .filter(|(_, t)| !is_tag(t))
        .map(|(k, _)| {
            Problem::error(
                "schema",
                PathBuf::root().key(k).loc(),
                format!("`{k}` is not a tag: an object with a `{TASKS}` list"),
            )
        })
        .collect()
}

/// Where a task and each of its dependencies are written.
pub(super) struct Place {
    /// The task.
    pub path: PathBuf,
    /// Each dependency it names, in order.
    pub deps: Vec<PathBuf>,
}

/// A file read: the plan and, for each of its tasks, its place.
pub(super) struct Walked {
    pub plan: Plan,
    pub places: Vec<Place>,
}

/// Reads a file into the plan model.
pub(super) fn read(v: &Value) -> Result<Walked, PlanError> {
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

/// A list of tasks being read or written: the prefix of its ids (the tag, in a file of
/// several tags), its group (tag), its parent task (for subtasks) and where it is.
struct List {
    prefix: String,
    group: Option<String>,
    parent: Option<String>,
    path: PathBuf,
    style: Style,
}

/// How a file writes what it can write two ways, where most of its tasks agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Style {
    /// A subtask's sibling dependency as a dotted string (`"3.1"`), not its number.
    dotted_siblings: bool,
    /// A subtask without subtasks with `"subtasks": []`.
    empty_subtask_lists: bool,
    /// A task's dependency on a task numbered in plain digits as a string (`"3"`).
    string_deps: bool,
    /// A task's own id in plain digits as a string (`"id": "3"`).
    string_ids: bool,
    /// Per text of [`NULL_TEXTS`]: a task without it with the key and `null`
    /// (`"details": null`).
    null_texts: [bool; 2],
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
const NULL_TEXTS: [(&str, &str); 2] = [
    ("details", NULL_DETAILS),
    ("testStrategy", NULL_TEST_STRATEGY),
];
/// Layout key: the key orders of the tasks written in another order than the file's
/// first task (or subtask): a list of `{keys, tasks}`, each order once with the ids of
/// the tasks that follow it.
const KEY_ORDER: &str = "taskmaster.key_order";

impl Style {
    /// The style most of a file's subtasks follow.
    fn of_file(v: &Value) -> Style {
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
    fn of_plan(plan: &Plan) -> Style {
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
    fn keep(self, plan: &mut Plan) {
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

/// The text of an id as written: a number's JSON text, a string itself.
fn id_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
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

/// Layout key: the ids written otherwise than canonically (`"3"` for 3, `29.1`), by
/// task id.
const ID_FORMS: &str = "taskmaster.ids";
/// Layout key: the dependency lists written otherwise than canonically (`"2.1"` for a
/// sibling `1`, `"4"` for 4), by task id.
const DEP_FORMS: &str = "taskmaster.deps";

/// Layout key: the file's indentation, when it is not two spaces.
const INDENT: &str = "taskmaster.indent";

/// Layout key: where a task without subtasks writes `subtasks` otherwise than
/// canonically (`true`: an empty list, `false`: no key), by task id.
const SUBTASK_FORMS: &str = "taskmaster.subtasks";

/// Records in the plan's layout how task `id` wrote a value (`what`: [`ID_FORMS`] or
/// [`DEP_FORMS`]).
fn note_form(plan: &mut Plan, what: &str, id: &str, written: Value) {
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
fn form<'a>(plan: &'a Plan, what: &str, id: &str) -> Option<&'a Value> {
    plan.layout.entries.get(what)?.get(id)
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

/// Keeps in the plan's layout what writing it would not give back of `text`: the key
/// order of its tasks and the lines that differ (a text patch).
pub(super) fn keep_text(plan: &mut Plan, text: &str) {
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

/// Writes a plan as a Task Master file; in JSON, with its file's own lines where the
/// plan keeps them and still states what they say.
pub(super) fn write(plan: &Plan, format: Format) -> Result<String, PlanError> {
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
    /// that and each still names the same task (as [`resolve`] reads it back), else
    /// canonically ([`dep_value`]).
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
fn own_id_value(local: &str, list: &List) -> Value {
    match id_value(local) {
        Value::Number(_) if list.parent.is_none() && list.style.string_ids => {
            Value::String(local.to_owned())
        }
        v => v,
    }
}

/// A dependency as `t` in `list` writes it: a subtask's sibling by its number, another
/// task by its id in the list (a number for a task's plain number, else a string).
fn dep_value(dep: &str, list: &List) -> Value {
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
