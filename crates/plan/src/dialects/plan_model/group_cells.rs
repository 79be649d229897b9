//! A group's `dependencies` as one cell of its row, the group ids joined by `,`, as a
//! task's (see [`list_cells`]), rather than as rows of the `group_deps` edge table,
//! which repeat the group's id once per item: a Spec Kit plan's phases each wait for
//! the one before. A group whose list a cell cannot hold keeps a `null` cell and its
//! edge rows. No group row holds a count, so a number in a declared `dependencies`
//! column (`list_columns`, `every_task_has`) is one item in every table. The groups'
//! cells use that declaration where the tasks' cells made it; else a one-item list in
//! plain digits stays a string (`"1"`: on a few groups the quotes cost fewer tokens
//! than the declaration).
//!
//! Group ids in plain digits (a Spec Kit phase's number) are numbers in every cell
//! that names a group (the groups' `id`, a task's `group`, the group edge tables), as
//! local task ids are ([`list_cells::scalar`]); the reader takes either.

use serde_json::{Map, Value};

use super::keys::GROUP_LISTS;
use super::list_cells::{self, DEPENDENCIES};
use crate::model::Plan;

/// The edge table of the groups' dependencies.
const GROUP_DEPS: &str = "group_deps";

/// Writes the groups' dependencies of the flat tree `out` (whose `groups` rows are
/// `plan`'s groups in order) as cells, and every group id in plain digits as a number.
pub(super) fn lift(plan: &Plan, out: &mut Map<String, Value>) {
    lift_dependencies(plan, out);
    ids_as_numbers(out);
}

fn lift_dependencies(plan: &Plan, out: &mut Map<String, Value>) {
    let all: Vec<Option<&[String]>> = plan
        .groups
        .iter()
        .map(|g| g.dependencies.as_deref())
        .collect();
    if all.iter().all(Option::is_none) {
        return;
    }
    match out.get("groups") {
        Some(Value::Array(rows)) if rows.len() == all.len() => {}
        _ => return,
    }
    let (lists, kept) = list_cells::split_fitting(plan.groups.iter().map(|g| g.id.as_str()), &all);
    let numbers = list_cells::declared(out, DEPENDENCIES);
    let cells = lists.iter().map(|l| match l {
        Some(l) => list_cells::cell(l, numbers),
        None => Value::Null,
    });
    list_cells::put(out, "groups", DEPENDENCIES, cells.collect());
    list_cells::keep_edge_rows(out, GROUP_DEPS, "group", &kept);
}

/// Every cell naming a group in plain digits as that number.
fn ids_as_numbers(out: &mut Map<String, Value>) {
    let mut cells: Vec<(&str, &str)> = vec![("groups", "id"), ("tasks", "group")];
    for (_, table, col) in GROUP_LISTS {
        cells.push((table, "group"));
        if *table == GROUP_DEPS {
            cells.push((table, col));
        }
    }
    for (table, col) in cells {
        let Some(Value::Array(rows)) = out.get_mut(table) else {
            continue;
        };
        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
            if let Some(v) = row.get_mut(col)
                && let Value::String(s) = v
            {
                *v = list_cells::scalar(s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::flat::{from_tree, to_flat_tree};
    use super::*;
    use crate::model::{Group, Task};

    fn group(id: &str, deps: Option<&[&str]>) -> Group {
        Group {
            id: id.to_owned(),
            dependencies: deps.map(|d| d.iter().map(|s| (*s).to_owned()).collect()),
            ..Group::default()
        }
    }

    fn plan(groups: Vec<Group>) -> Plan {
        let tasks = groups.iter().map(|g| Task {
            group: Some(g.id.clone()),
            ..Task::new(format!("t{}", g.id))
        });
        Plan {
            tasks: tasks.collect(),
            groups,
            ..Plan::default()
        }
    }

    #[test]
    fn group_dependencies_are_cells_and_digit_ids_numbers() {
        let p = plan(vec![
            group("1", None),
            group("2", Some(&["1"])),
            group("3", Some(&["1", "2"])),
            group("x", Some(&[])),
        ]);
        let tree = to_flat_tree(&p);
        assert!(tree.get(GROUP_DEPS).is_none(), "{tree:#}");
        let ids: Vec<&Value> = tree["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| &g["id"])
            .collect();
        assert_eq!(ids, [&json!(1), &json!(2), &json!(3), &json!("x")]);
        let cells: Vec<&Value> = tree["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| &g[DEPENDENCIES])
            .collect();
        // Undeclared: the one-item list in plain digits stays a string.
        assert_eq!(
            cells,
            [&Value::Null, &json!("1"), &json!("1,2"), &json!("")]
        );
        assert!(tree.get("list_columns").is_none(), "{tree:#}");
        assert_eq!(from_tree(tree.as_object().unwrap()), p);
    }

    #[test]
    fn a_list_a_cell_cannot_hold_keeps_its_edge_rows() {
        let p = plan(vec![
            group("a,b", None),
            group("c", Some(&["a,b"])),
            group("d", Some(&["c"])),
        ]);
        let tree = to_flat_tree(&p);
        assert_eq!(
            tree[GROUP_DEPS],
            json!([{"group": "c", "on": "a,b"}]),
            "{tree:#}"
        );
        assert_eq!(tree["groups"][1][DEPENDENCIES], Value::Null);
        assert_eq!(tree["groups"][2][DEPENDENCIES], json!("c"));
        assert_eq!(from_tree(tree.as_object().unwrap()), p);
    }

    #[test]
    fn a_declared_column_holds_a_bare_number_in_every_table() {
        let mut p = plan(vec![group("1", None), group("2", Some(&["1"]))]);
        p.tasks[1].dependencies = Some(vec!["7".to_owned()]);
        p.tasks.push(Task::new("7"));
        let tree = to_flat_tree(&p);
        assert_eq!(tree["list_columns"], json!([DEPENDENCIES]), "{tree:#}");
        assert_eq!(tree["groups"][1][DEPENDENCIES], json!(1), "{tree:#}");
        assert_eq!(from_tree(tree.as_object().unwrap()), p);
        // Without the declaration a number in a group's column is a count.
        let mut undeclared = tree.as_object().unwrap().clone();
        undeclared.shift_remove("list_columns");
        assert_eq!(
            from_tree(&undeclared).groups[1].dependencies,
            Some(Vec::new())
        );
    }
}
