//! Ids written where they are local: a plan whose subtasks are named after their task
//! (`3.2`, [`child_id`]) and whose groups number their tasks alike (`feature:3`,
//! [`group_prefix`]) — a Task Master file, a Kiro spec — writes its tasks table with
//! the tasks that have no parent, each by its id within its group; a `subtasks` table
//! with the others, each by its task (`task`, the task's id within the group) and its
//! own last part (`id`); and its dependencies as `deps` rows of tasks and
//! `subtask_deps` rows of subtasks, whose `on` is a sibling's number or (a string) an id
//! within the group. A group whose tasks' ids carry a prefix gives it (`id_prefix`), and
//! then each group row gives the number of its rows in each of these tables, which
//! come in one run per group. Id cells in plain digits are numbers, so the columns hold
//! bare numbers rather than quoted `"master:1.2"`. The plan model's ids stay what the
//! dialect made them: [`join`] gives them back.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::extra_columns;
use super::group_runs::SIZE;
use super::list_cells::{self, DEPENDENCIES, id_text, scalar as cell};
use crate::model::{Plan, Task, child_id, child_local, group_prefix};
use crate::table::fields;

/// The subtasks table: tasks that have a parent.
pub(super) const SUBTASKS: &str = "subtasks";
/// The dependencies of subtasks.
pub(super) const SUBTASK_DEPS: &str = "subtask_deps";
/// The dependencies of the tasks table's tasks.
const DEPS: &str = "deps";
/// The column of a group row with the prefix of its tasks' ids.
pub(super) const ID_PREFIX: &str = "id_prefix";
/// A subtask row's column naming its task.
const TASK: &str = "task";

/// How each task of a plan is written with local ids.
struct Shape<'a> {
    /// Each task's parent, by index (it comes before the task).
    parent: Vec<Option<usize>>,
    /// Each subtask's part after its parent's id and the dot.
    local: Vec<&'a str>,
    /// The prefix of each group's ids (`None`: the ids are written whole).
    prefix: Vec<Option<String>>,
    /// Each task's group index, when the tasks come in one run per group.
    run_of: Option<Vec<usize>>,
}

impl<'a> Shape<'a> {
    fn of(plan: &'a Plan) -> Option<Shape<'a>> {
        let index = plan.task_positions();
        let mut parent = Vec::with_capacity(plan.tasks.len());
        let mut local = Vec::with_capacity(plan.tasks.len());
        for (i, t) in plan.tasks.iter().enumerate() {
            if fields::opaque_value(t).is_some() || t.id.is_empty() {
                return None;
            }
            match t.parent.as_deref() {
                Some(p) => {
                    let j = *index.get(p).filter(|&&j| j < i)?;
                    let l = child_local(&t.id, p)?;
                    if child_id(p, l) != t.id || plan.tasks[j].group != t.group {
                        return None;
                    }
                    parent.push(Some(j));
                    local.push(l);
                }
                None => {
                    parent.push(None);
                    local.push(t.id.as_str());
                }
            }
        }
        if parent.iter().all(Option::is_none) && plan.groups.len() < 2 {
            return None;
        }
        if dfs_order(&parent) != (0..plan.tasks.len()).collect::<Vec<_>>() {
            return None;
        }
        let run_of = runs(plan);
        let mut prefix = vec![None; plan.groups.len()];
        if let Some(run_of) = &run_of {
            for (g, group) in plan.groups.iter().enumerate() {
                let p = group_prefix(&group.id);
                let mut top = (0..plan.tasks.len())
                    .filter(|&i| run_of[i] == g && parent[i].is_none())
                    .peekable();
                let any = top.peek().is_some();
                let prefixed = |i: usize| {
                    plan.tasks[i]
                        .id
                        .strip_prefix(&p)
                        .is_some_and(|r| !r.is_empty())
                };
                if any && top.all(prefixed) {
                    prefix[g] = Some(p);
                }
            }
        }
        let shape = Shape {
            parent,
            local,
            prefix,
            run_of,
        };
        if shape.prefix.iter().all(Option::is_none) && shape.parent.iter().all(Option::is_none) {
            return None;
        }
        // Every dependency must be named within its task's group.
        for (i, t) in plan.tasks.iter().enumerate() {
            for d in t.dependencies.iter().flatten() {
                if shape.scoped_of(i, d).is_none_or(str::is_empty) {
                    return None;
                }
            }
        }
        for i in 0..plan.tasks.len() {
            if shape.parent[i].is_none() {
                shape
                    .scoped_of(i, &plan.tasks[i].id)
                    .filter(|s| !s.is_empty())?;
            }
        }
        Some(shape)
    }

    /// The prefix of task `i`'s group ("" when its ids are written whole).
    fn prefix(&self, i: usize) -> &str {
        self.run_of
            .as_ref()
            .and_then(|r| self.prefix[r[i]].as_deref())
            .unwrap_or("")
    }

    /// `id` as named within task `i`'s group.
    fn scoped_of<'b>(&self, i: usize, id: &'b str) -> Option<&'b str> {
        id.strip_prefix(self.prefix(i))
    }
}

/// The group index of each task, when every task belongs to one of the plan's groups
/// and the tasks come in one run per group in the groups' order.
fn runs(plan: &Plan) -> Option<Vec<usize>> {
    if plan.groups.is_empty() {
        return None;
    }
    let mut at = 0;
    let mut out = Vec::with_capacity(plan.tasks.len());
    for t in &plan.tasks {
        let g = t.group.as_deref()?;
        while plan.groups.get(at)?.id != g {
            at += 1;
        }
        out.push(at);
    }
    Some(out)
}

/// The tasks in the order the two tables give back: each task of the tasks table, then
/// its subtasks (and theirs) in the subtasks table's order.
fn dfs_order(parent: &[Option<usize>]) -> Vec<usize> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); parent.len()];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = p {
            children[*p].push(i);
        }
    }
    let mut out = Vec::with_capacity(parent.len());
    let mut stack: Vec<usize> = (0..parent.len())
        .filter(|&i| parent[i].is_none())
        .rev()
        .collect();
    while let Some(i) = stack.pop() {
        out.push(i);
        stack.extend(children[i].iter().rev());
    }
    out
}

/// Whether [`split`] writes `plan` with local ids.
pub(super) fn applies(plan: &Plan) -> bool {
    Shape::of(plan).is_some()
}

/// Whether a cell item is plain digits: in a subtask's cell, a sibling's number.
fn digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// Task `i`'s dependencies as its row's cell names them, when every one reads back
/// (see [`list_cells`]): a task's by id within its group; a subtask's siblings by
/// their number (plain digits), other tasks by id within the group (not plain digits).
fn dep_items<'a>(
    plan: &'a Plan,
    shape: &Shape<'_>,
    i: usize,
    deps: &'a [String],
) -> Option<Vec<&'a str>> {
    let mut items = Vec::with_capacity(deps.len());
    for d in deps {
        let item = match shape.parent[i] {
            Some(p) => match child_local(d, &plan.tasks[p].id).filter(|l| digits(l)) {
                Some(l) => l,
                None => shape.scoped_of(i, d).filter(|s| !digits(s))?,
            },
            None => shape.scoped_of(i, d)?,
        };
        if !list_cells::fits(item) {
            return None;
        }
        items.push(item);
    }
    Some(items)
}

/// Rewrites the flat tree `out` (whose `tasks` rows are `plan`'s tasks in order, extra
/// columns not yet lifted) with local ids, when the plan has subtasks named after their
/// task or groups that prefix their ids; then lifts extra columns per table. False (and
/// `out` untouched) otherwise.
pub(super) fn split(plan: &Plan, out: &mut Map<String, Value>) -> bool {
    let Some(shape) = Shape::of(plan) else {
        return false;
    };
    let Some(Value::Array(rows)) = out.get_mut("tasks") else {
        return false;
    };
    if rows.len() != plan.tasks.len()
        || rows
            .iter()
            .any(|r| r.as_object().is_none_or(|r| !r.contains_key("id")))
    {
        return false;
    }
    // Each task's dependency cell; a task whose dependencies a cell cannot say has a
    // `null` cell and its rows in the edge tables.
    let items: Vec<Option<Option<Vec<&str>>>> = plan
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| Some(dep_items(plan, &shape, i, t.dependencies.as_deref()?)))
        .collect();
    let lists: Vec<Option<&[&str]>> = items
        .iter()
        .map(|l| l.as_ref().map(|l| l.as_deref().unwrap_or_default()))
        .collect();
    let cells = list_cells::some_item(&lists);
    let edge_row: Vec<bool> = items
        .iter()
        .map(|l| !cells || matches!(l, Some(None)))
        .collect();
    if cells {
        let numbers = list_cells::some_number(&lists);
        let mut c = list_cells::cells(&lists, numbers);
        for (cell, edges) in c.iter_mut().zip(&edge_row) {
            if *edges {
                *cell = Value::Null;
            }
        }
        list_cells::put(out, "tasks", DEPENDENCIES, c);
        if numbers {
            list_cells::declare(out, DEPENDENCIES);
        }
    }
    let Some(Value::Array(rows)) = out.get_mut("tasks") else {
        return false;
    };
    let rows = std::mem::take(rows);
    let keep_group = shape.run_of.is_none();
    let scoped = |i: usize| shape.scoped_of(i, &plan.tasks[i].id).unwrap_or_default();
    let mut top = Vec::new();
    let mut subs = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        let Value::Object(mut row) = row else {
            continue;
        };
        row.shift_remove("parent");
        if !keep_group || shape.parent[i].is_some() {
            row.shift_remove("group");
        }
        match shape.parent[i] {
            None => {
                row.insert("id".into(), cell(scoped(i)));
                top.push(Value::Object(row));
            }
            Some(p) => {
                let mut sub = Map::new();
                sub.insert(TASK.into(), cell(scoped(p)));
                sub.insert("id".into(), cell(shape.local[i]));
                row.shift_remove("id");
                sub.extend(row);
                subs.push(Value::Object(sub));
            }
        }
    }
    let (mut deps, mut sub_deps) = (Vec::new(), Vec::new());
    let mut counts = vec![[0usize; 4]; plan.groups.len()];
    for (i, t) in plan.tasks.iter().enumerate() {
        let group = shape.run_of.as_ref().map(|r| r[i]);
        let mut n_deps = 0;
        for d in t.dependencies.iter().flatten().filter(|_| edge_row[i]) {
            let on = shape.scoped_of(i, d).unwrap_or_default();
            let mut e = Map::new();
            match shape.parent[i] {
                None => {
                    e.insert(TASK.into(), cell(scoped(i)));
                    e.insert("on".into(), cell(on));
                    deps.push(Value::Object(e));
                    n_deps += 1;
                }
                Some(p) => {
                    let sibling = child_local(d, &plan.tasks[p].id)
                        .map(cell)
                        .filter(Value::is_number);
                    e.insert(TASK.into(), cell(scoped(p)));
                    e.insert("id".into(), cell(shape.local[i]));
                    e.insert("on".into(), sibling.unwrap_or_else(|| on.into()));
                    sub_deps.push(Value::Object(e));
                }
            }
        }
        if let Some(g) = group {
            let c = &mut counts[g];
            if shape.parent[i].is_none() {
                c[0] += 1;
                c[2] += n_deps;
            } else {
                c[1] += 1;
                c[3] += t
                    .dependencies
                    .as_ref()
                    .filter(|_| edge_row[i])
                    .map_or(0, Vec::len);
            }
        }
    }
    let edge_tables = !cells || !deps.is_empty() || !sub_deps.is_empty();
    // The tables where the flat form has its tasks and its deps.
    for (k, v) in std::mem::take(out) {
        match k.as_str() {
            "tasks" => {
                out.insert(k, Value::Array(std::mem::take(&mut top)));
                if !subs.is_empty() {
                    out.insert(SUBTASKS.into(), Value::Array(std::mem::take(&mut subs)));
                }
            }
            DEPS => {
                if !deps.is_empty() {
                    out.insert(k, Value::Array(std::mem::take(&mut deps)));
                }
                if !sub_deps.is_empty() {
                    out.insert(
                        SUBTASK_DEPS.into(),
                        Value::Array(std::mem::take(&mut sub_deps)),
                    );
                }
            }
            _ => {
                out.insert(k, v);
            }
        }
    }
    if shape.run_of.is_some()
        && let Some(Value::Array(groups)) = out.get_mut("groups")
    {
        let prefixed = shape.prefix.iter().any(Option::is_some);
        for (g, row) in groups.iter_mut().enumerate() {
            let Some(row) = row.as_object_mut() else {
                continue;
            };
            row.insert(SIZE.into(), Value::from(counts[g][0]));
            if prefixed {
                let tables = if edge_tables { 3 } else { 1 };
                let keys = [SUBTASKS, DEPS, SUBTASK_DEPS].into_iter().take(tables);
                for (k, n) in keys.zip(&counts[g][1..]) {
                    row.insert(k.into(), Value::from(*n));
                }
                let p = shape.prefix[g].clone().map_or(Value::Null, Value::String);
                row.insert(ID_PREFIX.into(), p);
            }
        }
    }
    let tops: Vec<&Task> = (0..plan.tasks.len())
        .filter(|&i| shape.parent[i].is_none())
        .map(|i| &plan.tasks[i])
        .collect();
    let kids: Vec<&Task> = (0..plan.tasks.len())
        .filter(|&i| shape.parent[i].is_some())
        .map(|i| &plan.tasks[i])
        .collect();
    let lists = extra_columns::list_keys(&plan.tasks);
    extra_columns::lift_rows(&tops, out, "tasks", &lists);
    extra_columns::lift_rows(&kids, out, SUBTASKS, &lists);
    for table in ["tasks", SUBTASKS] {
        drop_empty_columns(out, table);
    }
    true
}

/// Leaves out of table `table` the columns that are `null` in every row (a subtask's
/// `priority`): a missing cell reads as `null`.
fn drop_empty_columns(out: &mut Map<String, Value>, table: &str) {
    let Some(Value::Array(rows)) = out.get_mut(table) else {
        return;
    };
    let Some(first) = rows.first().and_then(Value::as_object) else {
        return;
    };
    let empty: Vec<String> = first
        .keys()
        .filter(|k| !matches!(k.as_str(), "id" | TASK))
        .filter(|k| {
            rows.iter()
                .all(|r| r.get(k.as_str()).is_none_or(Value::is_null))
        })
        .cloned()
        .collect();
    for row in rows.iter_mut().filter_map(Value::as_object_mut) {
        for k in &empty {
            row.shift_remove(k);
        }
    }
}

/// One group's runs: its id, the prefix of its ids, and the number of its rows in the
/// tasks, subtasks, deps and subtask deps tables.
struct Run {
    id: String,
    prefix: String,
    counts: [Option<usize>; 4],
}

/// The group (index into `runs`) of each of `n` rows of the table whose counts are
/// `runs[_].counts[k]`, when they add up to `n`.
fn rows_groups(runs: &[Run], k: usize, n: usize) -> Option<Vec<usize>> {
    let mut out = Vec::with_capacity(n);
    for (g, r) in runs.iter().enumerate() {
        let c = r.counts[k]?;
        if c > n - out.len() {
            return None;
        }
        out.extend(std::iter::repeat_n(g, c));
    }
    (out.len() == n).then_some(out)
}

/// The inverse of [`split`]: a flat tree with a subtasks table or id prefixes as the
/// flat tree with whole ids (tasks in one table with their `parent` and `group`, one
/// `deps` table), which the reader reads; `None` when `obj` has neither.
pub(super) fn join(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let group_rows: Vec<&Map<String, Value>> = match obj.get("groups") {
        Some(Value::Array(g)) => g.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    let local = obj.contains_key(SUBTASKS)
        || obj.contains_key(SUBTASK_DEPS)
        || group_rows.iter().any(|g| g.contains_key(ID_PREFIX));
    if !local {
        return None;
    }
    let declared = list_cells::declared(obj, DEPENDENCIES);
    let count = |g: &Map<String, Value>, k: &str| {
        g.get(k)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    let runs: Vec<Run> = group_rows
        .iter()
        .map(|g| Run {
            id: id_text(g.get("id")).unwrap_or_default(),
            prefix: g
                .get(ID_PREFIX)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            counts: [SIZE, SUBTASKS, DEPS, SUBTASK_DEPS].map(|k| count(g, k)),
        })
        .collect();
    let table = |k: &str| -> Vec<&Map<String, Value>> {
        match obj.get(k) {
            Some(Value::Array(rows)) => rows.iter().filter_map(Value::as_object).collect(),
            _ => Vec::new(),
        }
    };
    let (top, subs, deps, sub_deps) = (
        table("tasks"),
        table(SUBTASKS),
        table(DEPS),
        table(SUBTASK_DEPS),
    );
    let groups_of = |k: usize, n: usize| rows_groups(&runs, k, n);
    let top_groups = groups_of(0, top.len());
    let prefix = |groups: &Option<Vec<usize>>, i: usize| {
        groups.as_ref().map_or("", |g| runs[g[i]].prefix.as_str())
    };
    let text = |v: Option<&Value>| id_text(v).unwrap_or_default();
    // Each row with its whole id, group and parent; subtasks after their task.
    let mut rows: Vec<Map<String, Value>> = Vec::new();
    let mut group: Vec<Option<String>> = Vec::new();
    for (i, r) in top.iter().enumerate() {
        let mut row = (*r).clone();
        let p = prefix(&top_groups, i);
        if let Some(on) = cell_ids(r, declared, |item| format!("{p}{item}")) {
            row.insert(DEPENDENCIES.into(), on);
        }
        let id = format!("{p}{}", text(r.get("id")));
        row.insert("id".into(), Value::String(id));
        let g = match &top_groups {
            Some(g) => Some(runs[g[i]].id.clone()),
            None => id_text(r.get("group")),
        };
        if let Some(g) = &g {
            row.insert("group".into(), Value::String(g.clone()));
        }
        rows.push(row);
        group.push(g);
    }
    let sub_groups = groups_of(1, subs.len());
    let first_sub = rows.len();
    let mut parent_of = Vec::with_capacity(subs.len());
    for (i, r) in subs.iter().enumerate() {
        let parent = format!("{}{}", prefix(&sub_groups, i), text(r.get(TASK)));
        let mut row = Map::new();
        row.insert(
            "id".into(),
            Value::String(child_id(&parent, &text(r.get("id")))),
        );
        row.extend(
            r.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "id" | TASK))
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        let p = prefix(&sub_groups, i);
        let on = |item: &str| match digits(item) {
            true => child_id(&parent, item),
            false => format!("{p}{item}"),
        };
        if let Some(on) = cell_ids(r, declared, on) {
            row.insert(DEPENDENCIES.into(), on);
        }
        row.insert("parent".into(), Value::String(parent.clone()));
        rows.push(row);
        group.push(sub_groups.as_ref().map(|g| runs[g[i]].id.clone()));
        parent_of.push(parent);
    }
    // Task order: each task, then its subtasks depth first; the rest after.
    let index: HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .rev()
        .filter_map(|(i, r)| Some((r.get("id")?.as_str()?.to_owned(), i)))
        .collect();
    let mut parent: Vec<Option<usize>> = vec![None; rows.len()];
    for (k, p) in parent_of.iter().enumerate() {
        let i = first_sub + k;
        parent[i] = index.get(p).copied().filter(|&j| j != i);
    }
    let mut order = dfs_order(&parent);
    if order.len() < rows.len() {
        let mut seen = vec![false; rows.len()];
        for &i in &order {
            seen[i] = true;
        }
        order.extend((0..rows.len()).filter(|&i| !seen[i]));
    }
    for &i in &order {
        if group[i].is_none()
            && let Some(p) = parent[i]
        {
            group[i] = group[p].clone();
        }
    }
    let tasks: Vec<Value> = order
        .iter()
        .map(|&i| {
            let mut row = rows[i].clone();
            if let Some(g) = &group[i] {
                row.insert("group".into(), Value::String(g.clone()));
            }
            Value::Object(row)
        })
        .collect();
    let mut edges = Vec::with_capacity(deps.len() + sub_deps.len());
    let dep_groups = groups_of(2, deps.len());
    for (i, e) in deps.iter().enumerate() {
        let p = prefix(&dep_groups, i);
        edges.push(edge(
            format!("{p}{}", text(e.get(TASK))),
            format!("{p}{}", text(e.get("on"))),
        ));
    }
    let sub_dep_groups = groups_of(3, sub_deps.len());
    for (i, e) in sub_deps.iter().enumerate() {
        let p = prefix(&sub_dep_groups, i);
        let task = format!("{p}{}", text(e.get(TASK)));
        let on = match e.get("on") {
            Some(Value::Number(n)) => child_id(&task, &n.to_string()),
            v => format!("{p}{}", text(v)),
        };
        edges.push(edge(child_id(&task, &text(e.get("id"))), on));
    }
    let mut out = Map::new();
    for (k, v) in obj {
        match k.as_str() {
            "tasks" => {
                out.insert(k.clone(), Value::Array(tasks.clone()));
            }
            SUBTASKS | SUBTASK_DEPS => {}
            DEPS => {
                out.insert(k.clone(), Value::Array(std::mem::take(&mut edges)));
            }
            "groups" => {
                let plain = group_rows.iter().map(|g| {
                    let mut g = (*g).clone();
                    for key in [SIZE, SUBTASKS, DEPS, SUBTASK_DEPS, ID_PREFIX] {
                        g.shift_remove(key);
                    }
                    Value::Object(g)
                });
                out.insert(k.clone(), Value::Array(plain.collect()));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    if !edges.is_empty() {
        out.insert(DEPS.into(), Value::Array(edges));
    }
    Some(out)
}

/// A row's dependency cell as the list of whole ids `whole` makes of its items.
/// (A number is a cell only where the document declares the column a list; else it is
/// a count of edge rows.)
fn cell_ids(
    row: &Map<String, Value>,
    declared: bool,
    whole: impl Fn(&str) -> String,
) -> Option<Value> {
    let cell = row.get(DEPENDENCIES)?;
    if !(cell.is_string() || declared && cell.is_number()) {
        return None;
    }
    let items = list_cells::read(Some(cell), declared)?;
    Some(items.iter().map(|i| Value::String(whole(i))).collect())
}

fn edge(task: String, on: String) -> Value {
    let mut e = Map::new();
    e.insert(TASK.into(), Value::String(task));
    e.insert("on".into(), Value::String(on));
    Value::Object(e)
}
