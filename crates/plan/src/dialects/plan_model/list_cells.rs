//! A task's `requirements` as one cell of its row, its items joined by `,`
//! (`"1.1,1.2,2.3"`), rather than as rows of the `requirements` edge table, which repeat
//! the task's id once per item: a Kiro task names several requirements of its spec
//! (`_Requirements: 1.1, 1.2, 2.3_`), and as edge rows they cost more tokens than the
//! markdown line. Requirements are labels of another document, not ids of this plan,
//! so nothing else reads them as edges (dependencies stay in `deps`).
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

/// The list fields written as cells: the key (the task row's column and the edge
/// table's name) and the task's list.
pub(super) const CELL_LISTS: &[(&str, ListOf)] = &[("requirements", |t| t.requirements.as_deref())];

/// Whether an item comes back from a cell as it is.
fn fits(item: &str) -> bool {
    !item.is_empty() && !item.contains(SEPARATOR) && item.trim() == item
}

/// Writes each of [`CELL_LISTS`] as a column of the `tasks` rows (which are `plan`'s
/// tasks in order) and leaves out its edge table, when every task's list fits in a cell
/// and some task has one.
pub(super) fn lift(plan: &Plan, out: &mut Map<String, Value>) {
    for (key, list) in CELL_LISTS {
        let lists: Vec<Option<&[String]>> = plan.tasks.iter().map(list).collect();
        if lists.iter().all(Option::is_none)
            || lists
                .iter()
                .flatten()
                .flat_map(|l| l.iter())
                .any(|i| !fits(i))
        {
            continue;
        }
        let Some(Value::Array(rows)) = out.get_mut("tasks") else {
            continue;
        };
        if rows.len() != lists.len() {
            continue;
        }
        for (row, items) in rows.iter_mut().zip(&lists) {
            if let Value::Object(row) = row {
                let cell = items.map_or(Value::Null, |l| Value::String(l.join(SEPARATOR)));
                // In the place of the count column, when there is one.
                row.insert((*key).to_owned(), cell);
            }
        }
        out.shift_remove(*key);
    }
}

/// A list field's value in a row: a cell is split at each `,` and each item trimmed
/// (`""` is an empty list); a list is its strings; a count (the items in the edge table)
/// an empty list the edge table fills.
pub(super) fn read(v: Option<&Value>) -> Option<Vec<String>> {
    match v? {
        Value::String(s) if s.trim().is_empty() => Some(Vec::new()),
        Value::String(s) => Some(s.split(SEPARATOR).map(|i| i.trim().to_owned()).collect()),
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
        for (key, _) in CELL_LISTS {
            let f = table::TASK.field(key).expect("a task field");
            assert!(matches!(f.kind, Kind::StringsCountOrCell), "{key}");
            assert!(table::PLAN.field(key).is_some(), "{key}: its edge table");
        }
    }
}
