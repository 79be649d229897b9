//! Ids written where they are local: a plan whose subtasks are named after their task
//! (`3.2`, [`child_id`](crate::model::child_id)) and whose groups number their tasks alike (`feature:3`,
//! [`group_prefix`](crate::model::group_prefix)) — a Task Master file, a Kiro spec — writes its tasks table with
//! the tasks that have no parent, each by its id within its group; a `subtasks` table
//! with the others, each by its task (`task`, the task's id within the group) and its
//! own last part (`id`); and its dependencies as `deps` rows of tasks and
//! `subtask_deps` rows of subtasks, whose `on` is a sibling's number or (a string) an id
//! within the group. A group whose tasks' ids carry a prefix gives it (`id_prefix`), and
//! then each group row gives the number of its rows in each of these tables, which
//! come in one run per group. Id cells in plain digits are numbers, so the columns hold
//! bare numbers rather than quoted `"master:1.2"`; a subtask's own id in decimals (a
//! Task Master subtask written `"id": "1.2"`) is a number too, `1.2`, where every
//! decoder gives back that text. The plan model's ids stay what the
//! dialect made them: [`join`] gives them back.
//!
//! [`split`] writes the tables (`write`, after [`shape`] decides whether and how a
//! plan is written so); [`join`] reads them back (`read`).

mod read;
mod shape;
mod write;

pub(super) use read::join;
pub(super) use write::{applies, split};

/// The subtasks table: tasks that have a parent.
const SUBTASKS: &str = "subtasks";
/// The dependencies of subtasks.
const SUBTASK_DEPS: &str = "subtask_deps";
/// The dependencies of the tasks table's tasks.
const DEPS: &str = "deps";
/// The column of a group row with the prefix of its tasks' ids.
const ID_PREFIX: &str = "id_prefix";
/// A subtask row's column naming its task.
const TASK: &str = "task";

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

/// Whether a cell item is plain digits: in a subtask's cell, a sibling's number.
fn digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}
