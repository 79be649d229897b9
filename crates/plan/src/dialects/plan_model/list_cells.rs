//! A task's list fields ([`CELL_LISTS`]: `dependencies`, `requirements`) and its extra
//! fields that are lists of strings (a Task Master task's `files`, `modules`) as one
//! cell of its row each, the items joined by `,` (`"1.1,1.2,2.3"`), rather than as rows
//! of an edge table or entries of the `task_extra` map, which repeat the task's id once
//! per item or per task: a Kiro task names several requirements of its spec
//! (`_Requirements: 1.1, 1.2, 2.3_`), a Task Master task several dependencies, and as
//! edge rows they cost more tokens than the source. With local ids
//! ([`super::local_ids`]) the dependency cells hold the ids as the `deps` and
//! `subtask_deps` rows would.
//!
//! A list is a cell only where it reads back from it exactly: each item is non-empty,
//! holds no `,` and neither starts nor ends with white space; a row whose list cannot
//! be a cell keeps its items where the plan would have them without cells (edge rows,
//! the `task_extra` map). A task without the field has a `null` cell, one with an empty
//! list `""`. The document names the columns whose cells are lists in `list_columns`
//! ([`LIST_COLUMNS`]), or in `every_task_has` (whose columns hold no counts); in those
//! a number is a list of one item (`1`: `["1"]`), so a one-item list in plain digits is
//! written as that number, unquoted. Without the declaration a number in
//! `dependencies` or `requirements` is a count (the items in the edge table).

use serde_json::{Map, Value};

use super::keys::{EVERY_TASK_HAS, LIST_COLUMNS};
use crate::model::{Plan, Task};

/// What separates the items in a cell.
const SEPARATOR: &str = ",";

/// A task's list field.
type ListOf = fn(&Task) -> Option<&[String]>;

/// The key of the list field whose items are task ids.
pub(super) const DEPENDENCIES: &str = "dependencies";

/// The list fields written as cells: the key (the task row's column), the edge table
/// it replaces, and the task's list.
pub(super) const CELL_LISTS: &[(&str, &str, ListOf)] = &[
    (DEPENDENCIES, "deps", |t| t.dependencies.as_deref()),
    ("requirements", "requirements", |t| {
        t.requirements.as_deref()
    }),
];

/// Whether an item comes back from a cell as it is.
pub(super) fn fits(item: &str) -> bool {
    !item.is_empty() && !item.contains(SEPARATOR) && item.trim() == item
}

/// A text as a cell: a number when it is plain digits (at most 15, so that any decoder
/// keeps it exactly: a JavaScript number holds 15 digits), else a string.
pub(super) fn scalar(s: &str) -> Value {
    if plain_digits(s)
        && let Ok(n) = s.parse::<u64>()
    {
        return Value::from(n);
    }
    Value::String(s.to_owned())
}

/// A text as a cell where a number in decimals reads back as well as one in plain
/// digits (a subtask's own id, `1.2`, which the reader takes as a number's text): a
/// number when every decoder gives that number back as this text (plain digits as
/// [`scalar`]; or digits, a `.` and digits, at most 15 in all, without a leading or a
/// trailing zero), else a string.
pub(super) fn decimal_scalar(s: &str) -> Value {
    let Some((int, frac)) = s.split_once('.') else {
        return scalar(s);
    };
    let exact = plain_digits(int)
        && !frac.is_empty()
        && frac.bytes().all(|b| b.is_ascii_digit())
        && !frac.ends_with('0')
        && int.len() + frac.len() <= 15;
    match s.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
        Some(n) if exact && n.to_string() == s => Value::Number(n),
        _ => Value::String(s.to_owned()),
    }
}

/// Whether a text is a number in plain digits that every decoder keeps exactly (see
/// [`scalar`]).
fn plain_digits(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 15
        && s.bytes().all(|b| b.is_ascii_digit())
        && (s == "0" || !s.starts_with('0'))
}

/// The text of a scalar cell: a string, or a number's JSON text.
pub(super) fn id_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// One list as a cell: its items joined by `,` (`""` for none); in a declared column
/// (`numbers`) a single item in plain digits is that number.
pub(super) fn cell<S: AsRef<str>>(items: &[S], numbers: bool) -> Value {
    match items {
        [one] if numbers && plain_digits(one.as_ref()) => scalar(one.as_ref()),
        _ => {
            let items: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
            Value::String(items.join(SEPARATOR))
        }
    }
}

/// Whether some list would be written as a number (a single item in plain digits):
/// then its column is worth declaring.
pub(super) fn some_number<S: AsRef<str>>(lists: &[Option<&[S]>]) -> bool {
    lists
        .iter()
        .flatten()
        .any(|l| matches!(l, [one] if plain_digits(one.as_ref())))
}

/// Each task's list as a cell ([`cell`]), `null` for no list. An empty list is `""`,
/// or `null` when every task has the list (then `every_task_has` names it).
pub(super) fn cells<S: AsRef<str>>(lists: &[Option<&[S]>], numbers: bool) -> Vec<Value> {
    let every = lists.iter().all(Option::is_some);
    let one = |l: &Option<&[S]>| match l {
        Some(l) if !(every && l.is_empty()) => cell(l, numbers),
        _ => Value::Null,
    };
    lists.iter().map(one).collect()
}

/// Whether a field is worth its cells: some task's list has an item.
pub(super) fn some_item<S>(lists: &[Option<&[S]>]) -> bool {
    lists.iter().flatten().any(|l| !l.is_empty())
}

/// The lists that can be cells (`None` where a list cannot: every item must [`fits`]),
/// and the ids (`ids`, one per list, in order) of the owners whose lists stay edge rows.
pub(super) fn split_fitting<'a>(
    ids: impl Iterator<Item = &'a str>,
    all: &[Option<&'a [String]>],
) -> (Vec<Option<&'a [String]>>, Vec<&'a str>) {
    let fitting = |l: &Option<&[String]>| l.is_none_or(|l| l.iter().all(|i| fits(i)));
    let lists = all.iter().map(|l| l.filter(|_| fitting(l))).collect();
    let kept = ids
        .zip(all)
        .filter(|(_, l)| !fitting(l))
        .map(|(id, _)| id)
        .collect();
    (lists, kept)
}

/// Keeps in the edge table `edges` only the rows whose `owner` cell is one of `kept`;
/// leaves the table out when no owner is kept.
pub(super) fn keep_edge_rows(
    out: &mut Map<String, Value>,
    edges: &str,
    owner: &str,
    kept: &[&str],
) {
    match out.get_mut(edges) {
        Some(Value::Array(rows)) if !kept.is_empty() => rows.retain(|r| {
            r.get(owner)
                .and_then(Value::as_str)
                .is_some_and(|o| kept.contains(&o))
        }),
        _ => {
            out.shift_remove(edges);
        }
    }
}

/// Writes `cells` (one per row, in order) as column `key` of the rows of table `table`,
/// in the place of its count column when there is one.
pub(super) fn put(out: &mut Map<String, Value>, table: &str, key: &str, cells: Vec<Value>) {
    if let Some(Value::Array(rows)) = out.get_mut(table) {
        for (row, cell) in rows.iter_mut().zip(cells) {
            if let Value::Object(row) = row {
                row.insert(key.to_owned(), cell);
            }
        }
    }
}

/// Names `key` in the document's `list_columns` (placed before the tasks table), unless
/// `every_task_has` names it (which says as much: its column holds no counts).
pub(super) fn declare(out: &mut Map<String, Value>, key: &str) {
    if named(out, EVERY_TASK_HAS, key) {
        return;
    }
    if !out.contains_key(LIST_COLUMNS) {
        let at = out.keys().position(|k| k == "tasks").unwrap_or(out.len());
        out.shift_insert(at, LIST_COLUMNS.into(), Value::Array(Vec::new()));
    }
    if let Some(Value::Array(keys)) = out.get_mut(LIST_COLUMNS)
        && !keys.iter().any(|k| k == key)
    {
        keys.push(Value::String(key.to_owned()));
    }
}

/// Whether the list of strings at `obj[list]` names `key`.
fn named(obj: &Map<String, Value>, list: &str, key: &str) -> bool {
    let names = obj
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    names.into_iter().any(|n| n == key)
}

/// Whether a document declares column `key` a list: `list_columns` or `every_task_has`
/// names it.
pub(super) fn declared(obj: &Map<String, Value>, key: &str) -> bool {
    named(obj, LIST_COLUMNS, key) || named(obj, EVERY_TASK_HAS, key)
}

/// Writes each of [`CELL_LISTS`] as a column of the `tasks` rows (which are `plan`'s
/// tasks in order) where some task's list has an item: each list that fits as a cell,
/// the others (`null` cells) as rows of the edge table, which is left out when no row
/// is left in it. With `local_ids`, dependencies are left to
/// [`super::local_ids::split`].
pub(super) fn lift(plan: &Plan, out: &mut Map<String, Value>, local_ids: bool) {
    for (key, edges, list) in CELL_LISTS {
        if local_ids && *key == DEPENDENCIES {
            continue;
        }
        let all: Vec<Option<&[String]>> = plan.tasks.iter().map(list).collect();
        // `kept`: ids of the tasks whose items stay edge rows.
        let (lists, kept) = split_fitting(plan.tasks.iter().map(|t| t.id.as_str()), &all);
        if !some_item(&lists) {
            continue;
        }
        let Some(Value::Array(rows)) = out.get("tasks") else {
            continue;
        };
        if rows.len() != lists.len() {
            continue;
        }
        let numbers = some_number(&lists);
        let mut c = cells(&lists, numbers);
        if lists.iter().any(Option::is_none) && all.iter().all(Option::is_some) {
            // Every task has the list (`every_task_has`): only a kept list is `null`.
            for (cell, l) in c.iter_mut().zip(&all) {
                if l.is_some_and(<[String]>::is_empty) {
                    *cell = Value::Null;
                }
            }
        }
        put(out, "tasks", key, c);
        if numbers {
            declare(out, key);
        }
        keep_edge_rows(out, edges, "task", &kept);
    }
}

/// A list field's value in a row: a cell is split at each `,` and each item trimmed
/// (`""` is an empty list); in a declared column (`declared`) a number is its one
/// item; a list is its strings; otherwise a number (a count, the items in the edge
/// table) is an empty list the edge table fills.
pub(super) fn read(v: Option<&Value>, declared: bool) -> Option<Vec<String>> {
    match v? {
        Value::String(s) if s.trim().is_empty() => Some(Vec::new()),
        Value::String(s) => Some(s.split(SEPARATOR).map(|i| i.trim().to_owned()).collect()),
        Value::Number(n) if declared => Some(vec![n.to_string()]),
        _ => super::flat::list(v),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{flat, table};
    use super::*;
    use crate::table::Kind;

    fn plan(requirements: &[Option<&[&str]>]) -> Plan {
        let tasks = requirements.iter().enumerate().map(|(i, r)| Task {
            title: Some(format!("Task {i}")),
            requirements: r.map(|r| r.iter().map(|s| (*s).to_owned()).collect()),
            ..Task::new(format!("{}.1", i + 1))
        });
        Plan {
            tasks: tasks.collect(),
            ..Plan::default()
        }
    }

    /// The `requirements` cell of each row of a flat tree's tasks table.
    fn requirement_cells(tree: &Value) -> Vec<&Value> {
        let rows = tree["tasks"].as_array().into_iter().flatten();
        rows.map(|r| &r["requirements"]).collect()
    }

    #[test]
    fn decimals_are_numbers_only_where_every_decoder_gives_back_the_text() {
        for s in ["1.2", "0.5", "12.25", "123456789.012345"] {
            assert_eq!(
                decimal_scalar(s),
                serde_json::json!(s.parse::<f64>().unwrap()),
                "{s}"
            );
            assert_eq!(id_text(Some(&decimal_scalar(s))).as_deref(), Some(s));
        }
        assert_eq!(decimal_scalar("3"), serde_json::json!(3));
        for s in [
            "1.10",
            "01.2",
            "1.",
            ".5",
            "1.2.3",
            "1e5",
            "-1.2",
            "1234567890.1234567",
            "a.1",
        ] {
            assert_eq!(decimal_scalar(s), Value::String(s.to_owned()), "{s}");
        }
    }

    #[test]
    fn requirements_are_one_cell_per_task_and_read_back() {
        let p = plan(&[Some(&["1.1", "2.3", "All requirements"]), None, Some(&[])]);
        let tree = flat::to_flat_tree(&p);
        assert!(tree.get("requirements").is_none(), "{tree:#}");
        let cells = requirement_cells(&tree);
        assert_eq!(
            cells,
            [
                &Value::from("1.1,2.3,All requirements"),
                &Value::Null,
                &Value::from("")
            ]
        );
        let back = flat::from_tree(tree.as_object().expect("an object"));
        assert_eq!(back.tasks, p.tasks);
    }

    #[test]
    fn a_list_a_cell_cannot_hold_keeps_its_edge_rows_and_the_others_their_cells() {
        for odd in ["1, 2", " 1.1", "2.3 ", ""] {
            let p = plan(&[Some(&["1.1", odd]), Some(&[]), Some(&["3.1", "3.2"])]);
            let tree = flat::to_flat_tree(&p);
            let rows = tree["requirements"].as_array().expect("an edge table");
            assert_eq!(rows.len(), 2, "{odd:?}: {tree:#}");
            assert!(rows.iter().all(|r| r["task"] == "1.1"), "{odd:?}: {tree:#}");
            let cells = requirement_cells(&tree);
            assert_eq!(cells, [&Value::Null, &Value::Null, &Value::from("3.1,3.2")]);
            // `[]` stays apart from no list.
            let back = flat::from_tree(tree.as_object().expect("an object"));
            assert_eq!(back.tasks, p.tasks, "{odd:?}");
        }
    }

    #[test]
    fn a_one_item_list_in_plain_digits_is_a_number_in_a_declared_column() {
        let p = plan(&[Some(&["7"]), Some(&["1", "2"]), Some(&["07"]), None]);
        let tree = flat::to_flat_tree(&p);
        assert_eq!(tree["list_columns"], serde_json::json!(["requirements"]));
        let cells = requirement_cells(&tree);
        assert_eq!(
            cells,
            [
                &Value::from(7),
                &Value::from("1,2"),
                &Value::from("07"),
                &Value::Null
            ]
        );
        let back = flat::from_tree(tree.as_object().expect("an object"));
        assert_eq!(back.tasks, p.tasks);
        // Without a one-item number there is nothing to declare.
        let p = plan(&[Some(&["1.1"]), Some(&["1", "2"])]);
        let tree = flat::to_flat_tree(&p);
        assert!(tree.get("list_columns").is_none(), "{tree:#}");
    }

    #[test]
    fn a_cell_written_with_spaces_reads_as_its_items() {
        let cell = Value::from(" 1.1, 2.3 ,4 ");
        assert_eq!(
            read(Some(&cell), false),
            Some(vec!["1.1".to_owned(), "2.3".to_owned(), "4".to_owned()])
        );
        assert_eq!(read(Some(&Value::from(" ")), false), Some(Vec::new()));
        assert_eq!(read(Some(&Value::Null), false), None);
        // A number: a count of edge rows, or in a declared column one item.
        assert_eq!(read(Some(&Value::from(3)), false), Some(Vec::new()));
        assert_eq!(
            read(Some(&Value::from(3)), true),
            Some(vec!["3".to_owned()])
        );
    }

    #[test]
    fn the_cell_lists_are_described_as_cells() {
        for (key, edges, _) in CELL_LISTS {
            let f = table::TASK.field(key).expect("a task field");
            assert!(matches!(f.kind, Kind::StringsCountOrCell), "{key}");
            assert!(table::PLAN.field(edges).is_some(), "{key}: its edge table");
        }
    }

    fn task(id: &str, parent: Option<&str>, deps: &[&str]) -> Task {
        Task {
            title: Some(format!("Task {id}")),
            parent: parent.map(str::to_owned),
            dependencies: Some(deps.iter().map(|s| (*s).to_owned()).collect()),
            ..Task::new(id)
        }
    }

    #[test]
    fn dependencies_are_cells_with_local_ids_and_edge_rows_when_a_cell_cannot_say_them() {
        let cells = Plan {
            tasks: vec![
                task("1", None, &[]),
                task("2", None, &["1"]),
                task("2.1", Some("2"), &[]),
                task("2.2", Some("2"), &["2.1"]),
                task("3", None, &["2.2", "1"]),
            ],
            ..Plan::default()
        };
        let tree = flat::to_flat_tree(&cells);
        assert!(tree.get("deps").is_none() && tree.get("subtask_deps").is_none());
        // A sibling by its number (one item in plain digits: a number, the column
        // declared a list by `every_task_has`); another task by its id (not plain digits).
        assert_eq!(tree["every_task_has"], serde_json::json!([DEPENDENCIES]));
        assert!(tree.get("list_columns").is_none(), "{tree:#}");
        assert_eq!(
            tree["subtasks"][1][DEPENDENCIES],
            Value::from(1),
            "{tree:#}"
        );
        assert_eq!(
            tree["tasks"][2][DEPENDENCIES],
            Value::from("2.2,1"),
            "{tree:#}"
        );
        let back = flat::from_tree(tree.as_object().expect("an object"));
        assert_eq!(back.tasks, cells.tasks);
        // A subtask waiting on task `1` (plain digits, which a cell reads as a sibling).
        let mut rows = cells.clone();
        rows.tasks[3].dependencies = Some(vec!["1".to_owned()]);
        let tree = flat::to_flat_tree(&rows);
        // That subtask's dependencies are edge rows; the other rows keep their cells.
        assert_eq!(
            tree["subtask_deps"].as_array().map(Vec::len),
            Some(1),
            "{tree:#}"
        );
        assert_eq!(
            tree["tasks"][2][DEPENDENCIES],
            Value::from("2.2,1"),
            "{tree:#}"
        );
        assert!(tree["subtasks"][1].get(DEPENDENCIES).is_none(), "{tree:#}");
        let back = flat::from_tree(tree.as_object().expect("an object"));
        assert_eq!(back.tasks, rows.tasks);
    }
}
