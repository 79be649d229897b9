//! Why a plan has no schedule.

use std::fmt;

/// A plan whose dependencies cannot be scheduled, or a dry run asked for the impossible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// A task without an id (at this index in the plan).
    EmptyId {
        /// Index of the task in the plan.
        index: usize,
    },
    /// Two tasks share an id.
    DuplicateId {
        /// The repeated id.
        id: String,
    },
    /// A task depends on a task that is not in the plan.
    UnknownDependency {
        /// The task.
        task: String,
        /// The missing dependency.
        dependency: String,
    },
    /// A group depends on a group that is not in the plan.
    UnknownGroup {
        /// The group.
        group: String,
        /// The missing group.
        dependency: String,
    },
    /// Tasks wait for each other in a circle (groups shown as `group X`).
    Cycle {
        /// The tasks on the cycle, in dependency order.
        tasks: Vec<String>,
    },
    /// A dry-run option is unusable (a cap of 0, an outcome for an unknown step).
    Options(String),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::EmptyId { index } => write!(f, "task {index} has no id"),
            ExecError::DuplicateId { id } => {
                write!(f, "task id {id:?} is used twice: ids must be unique")
            }
            ExecError::UnknownDependency { task, dependency } => write!(
                f,
                "task {task:?} depends on {dependency:?}, which is not in the plan"
            ),
            ExecError::UnknownGroup { group, dependency } => write!(
                f,
                "group {group:?} depends on group {dependency:?}, which is not in the plan"
            ),
            ExecError::Cycle { tasks } => {
                let mut ring = tasks.clone();
                if let Some(first) = tasks.first() {
                    ring.push(first.clone());
                }
                write!(f, "dependency cycle: {}", ring.join(" → "))
            }
            ExecError::Options(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for ExecError {}
