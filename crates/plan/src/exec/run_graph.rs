//! The dependency graph a plan runs by: each task's own dependencies plus, for plans
//! whose groups depend on groups (workflow tasks in seed 002), a barrier per such
//! group, so every step of a group waits for every step of the groups it depends on
//! without one edge per pair of steps.

use std::collections::{HashMap, HashSet};

use super::error::ExecError;
use crate::model::Plan;
use crate::model::graph::Graph;

/// Nodes `0..tasks` are the plan's tasks in plan order; nodes after them are group
/// barriers (done when every task of their group is done).
#[derive(Debug)]
pub(crate) struct RunGraph {
    /// Number of task nodes.
    pub tasks: usize,
    /// For each node, the nodes it waits for.
    pub deps: Vec<Vec<usize>>,
    /// For each node, the nodes waiting for it.
    pub dependents: Vec<Vec<usize>>,
    /// Every node, dependencies first (ties in node order).
    pub order: Vec<usize>,
    /// Group id of each barrier node (index `node - tasks`).
    pub barrier_groups: Vec<String>,
}

impl RunGraph {
    /// Builds and checks the graph: ids present and unique, dependencies known, no
    /// cycle.
    pub fn build(plan: &Plan) -> Result<Self, ExecError> {
        let n = plan.tasks.len();
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(n);
        for (i, t) in plan.tasks.iter().enumerate() {
            if t.id.is_empty() {
                return Err(ExecError::EmptyId { index: i });
            }
            if index.insert(t.id.as_str(), i).is_some() {
                return Err(ExecError::DuplicateId { id: t.id.clone() });
            }
        }
        let mut deps: Vec<Vec<usize>> = Vec::with_capacity(n);
        for t in &plan.tasks {
            let mut mine = Vec::new();
            let mut seen = HashSet::new();
            for d in t.dependencies.iter().flatten() {
                let Some(&j) = index.get(d.as_str()) else {
                    return Err(ExecError::UnknownDependency {
                        task: t.id.clone(),
                        dependency: d.clone(),
                    });
                };
                if seen.insert(j) {
                    mine.push(j);
                }
            }
            deps.push(mine);
        }
        // Group barriers, only for groups some group depends on.
        let groups: HashMap<&str, usize> = plan
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| (g.id.as_str(), i))
            .collect();
        let mut barrier_of: HashMap<&str, usize> = HashMap::new();
        let mut barrier_groups = Vec::new();
        for g in &plan.groups {
            for d in g.dependencies.iter().flatten() {
                if !groups.contains_key(d.as_str()) {
                    return Err(ExecError::UnknownGroup {
                        group: g.id.clone(),
                        dependency: d.clone(),
                    });
                }
                if !barrier_of.contains_key(d.as_str()) {
                    barrier_of.insert(d.as_str(), n + barrier_groups.len());
                    barrier_groups.push(d.clone());
                }
            }
        }
        deps.extend(barrier_groups.iter().map(|_| Vec::new()));
        for (i, t) in plan.tasks.iter().enumerate() {
            let Some(g) = t.group.as_deref() else {
                continue;
            };
            if let Some(&b) = barrier_of.get(g) {
                deps[b].push(i);
            }
            if let Some(&gi) = groups.get(g) {
                let mut seen = HashSet::new();
                for d in plan.groups[gi].dependencies.iter().flatten() {
                    if let Some(&b) = barrier_of.get(d.as_str())
                        && seen.insert(b)
                    {
                        deps[i].push(b);
                    }
                }
            }
        }
        let graph = Graph { deps };
        let levels = graph.levels();
        if levels.iter().any(Option::is_none) {
            let cycle = graph.cycles().into_iter().next().unwrap_or_default();
            let name = |node: usize| match plan.tasks.get(node) {
                Some(t) => t.id.clone(),
                None => format!("group {}", barrier_groups[node - n]),
            };
            // `cycles` lists nodes along dependency edges; show them in run order.
            let mut tasks: Vec<String> = cycle.into_iter().map(name).collect();
            tasks.reverse();
            return Err(ExecError::Cycle { tasks });
        }
        let mut order: Vec<usize> = (0..graph.deps.len()).collect();
        order.sort_by_key(|&i| (levels[i].unwrap_or(0), i));
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); graph.deps.len()];
        for (i, ds) in graph.deps.iter().enumerate() {
            for &d in ds {
                dependents[d].push(i);
            }
        }
        Ok(RunGraph {
            tasks: n,
            deps: graph.deps,
            dependents,
            order,
            barrier_groups,
        })
    }

    /// Whether a node is a task (not a group barrier).
    pub fn is_task(&self, node: usize) -> bool {
        node < self.tasks
    }

    /// The tasks a task waits for directly, and the groups it waits for (all their
    /// tasks), in order.
    pub fn direct_deps(&self, task: usize) -> (Vec<usize>, Vec<usize>) {
        self.deps[task].iter().partition(|&&d| self.is_task(d))
    }
}
