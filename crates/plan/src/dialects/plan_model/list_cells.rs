//! A task's list fields ([`CELL_LISTS`]: `dependencies`, `requirements`) as one cell of
//! its row each, the items joined by `,` (`"1.1,1.2,2.3"`), rather than as rows of an
//! edge table, which repeat the task's id once per item: a Kiro task names several
//! requirements of its spec (`_Requirements: 1.1, 1.2, 2.3_`), a Task Master task
//! several dependencies, and as edge rows they cost more tokens than the source.
//! With local ids ([`super::local_ids`]) the dependency cells hold the ids as the
//! `deps` and `subtask_deps` rows would.
//!
//! The cell is written only when every task's list reads back from it exactly: each
//! item is non-empty, holds no `,` and neither starts nor ends with white space. A task
//! without the field has a `null` cell, one with an empty list `""`. Otherwise the plan
//! keeps the edge table ([`super::flat`]'s rows and counts).

use serde_json::{Map, Value};

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

/// Each task's list as a cell: its items joined by `,`, `null` for no list. An empty
/// list is `""`, or `null` when every task has the list (then `every_task_has` names it).
pub(super) fn cells<S: AsRef<str>>(lists: &[Option<&[S]>]) -> Vec<Value> {
    let every = lists.iter().all(Option::is_some);
    let cell = |l: &Option<&[S]>| match l {
        Some(l) if !(every && l.is_empty()) => {
            let items: Vec<&str> = l.iter().map(AsRef::as_ref).collect();
            Value::String(items.join(SEPARATOR))
        }
        _ => Value::Null,
    };
    lists.iter().map(cell).collect()
}

/// Whether a field is worth its cells: some task's list has an item.
pub(super) fn some_item<S>(lists: &[Option<&[S]>]) -> bool {
    lists.iter().flatten().any(|l| !l.is_empty())
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

/// Writes each of [`CELL_LISTS`] as a column of the `tasks` rows (which are `plan`'s
/// tasks in order) and leaves out its edge table, when every task's list fits in a cell
/// and some task has one. With `local_ids`, dependencies are left to
/// [`super::local_ids::split`].
pub(super) fn lift(plan: &Plan, out: &mut Map<String, Value>, local_ids: bool) {
    for (key, edges, list) in CELL_LISTS {
        if local_ids && *key == DEPENDENCIES {
            continue;
        }
        let lists: Vec<Option<&[String]>> = plan.tasks.iter().map(list).collect();
        if !some_item(&lists)
            || lists
                .iter()
                .flatten()
                .flat_map(|l| l.iter())
                .any(|i| !fits(i))
        {
            continue;
        }
        let Some(Value::Array(rows)) = out.get("tasks") else {
            continue;
        };
        if rows.len() != lists.len() {
            continue;
        }
        put(out, "tasks", key, cells(&lists));
        out.shift_remove(*edges);
    }
}

/// A list field's value in a row: a cell is split at each `,` and each item trimmed
/// (`""` is an empty list); a list is its strings; a count (the items in the edge table)
/// an empty list the edge table fills.
pub(super) fn read(v: Option<&Value>) -> Option<Vec<String>> {
    match v? {
        Value::String(s) if s.trim().is_empty() => Some(Vec::new()),
        Value::String(s) => Some(s.split(SEPARATOR).map(|i| i.trim().to_owned()).collect()),
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

    #[test]
    fn requirements_are_one_cell_per_task_and_read_back() {
        let p = plan(&[Some(&["1.1", "2.3", "All requirements"]), None, Some(&[])]);
        let tree = flat::to_flat_tree(&p);
        assert!(tree.get("requirements").is_none(), "{tree:#}");
        let cells: Vec<&Value> = tree["tasks"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| &r["requirements"])
            .collect();
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
    fn a_list_a_cell_cannot_hold_keeps_the_edge_table() {
        for odd in ["1, 2", " 1.1", "2.3 ", ""] {
            let p = plan(&[Some(&["1.1", odd]), Some(&[])]);
            let tree = flat::to_flat_tree(&p);
            assert_eq!(
                tree["requirements"].as_array().map(Vec::len),
                Some(2),
                "{odd:?}: {tree:#}"
            );
            // `[]` stays apart from no list.
            let back = flat::from_tree(tree.as_object().expect("an object"));
            assert_eq!(back.tasks, p.tasks, "{odd:?}");
        }
    }

    #[test]
    fn a_cell_written_with_spaces_reads_as_its_items() {
        let cell = Value::from(" 1.1, 2.3 ,4 ");
        assert_eq!(
            read(Some(&cell)),
            Some(vec!["1.1".to_owned(), "2.3".to_owned(), "4".to_owned()])
        );
        assert_eq!(read(Some(&Value::from(" "))), Some(Vec::new()));
        assert_eq!(read(Some(&Value::Null)), None);
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
        // A sibling by its number; another task by its id (not plain digits).
        assert_eq!(
            tree["subtasks"][1][DEPENDENCIES],
            Value::from("1"),
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
