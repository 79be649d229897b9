//! Dependency-graph checks shared by the validators: cycles, reachability, levels.

use indexmap::IndexMap;

/// A dependency graph over node indices: `deps[i]` are the nodes `i` waits for.
/// Unknown dependency names are not edges; callers report them themselves.
#[derive(Debug, Default)]
pub struct Graph {
    /// For each node, indices of the nodes it depends on.
    pub deps: Vec<Vec<usize>>,
}

impl Graph {
    /// Builds the graph from `(id, dependency ids)` pairs. Duplicate ids: the first wins.
    pub fn build<'a, I, D>(nodes: I) -> Self
    where
        I: IntoIterator<Item = (&'a str, D)>,
        D: IntoIterator<Item = &'a str>,
    {
        let nodes: Vec<(&str, Vec<&str>)> = nodes
            .into_iter()
            .map(|(id, d)| (id, d.into_iter().collect()))
            .collect();
        let mut index: IndexMap<&str, usize> = IndexMap::new();
        for (i, (id, _)) in nodes.iter().enumerate() {
            index.entry(*id).or_insert(i);
        }
        let deps = nodes
            .iter()
            .map(|(_, d)| d.iter().filter_map(|x| index.get(x).copied()).collect())
            .collect();
        Graph { deps }
    }

    /// Nodes on at least one cycle, each cycle reported once as the list of its nodes
    /// in dependency order (iterative, no recursion).
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let n = self.deps.len();
        // 0 = new, 1 = on stack, 2 = done
        let mut state = vec![0u8; n];
        let mut cycles = Vec::new();
        let mut seen_in_cycle = vec![false; n];
        for start in 0..n {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            let mut path: Vec<usize> = vec![start];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if let Some(&d) = self.deps[node].get(*next) {
                    *next += 1;
                    match state[d] {
                        0 => {
                            state[d] = 1;
                            stack.push((d, 0));
                            path.push(d);
                        }
                        1 => {
                            if let Some(pos) = path.iter().position(|&p| p == d) {
                                let cyc: Vec<usize> = path[pos..].to_vec();
                                if !cyc.iter().all(|&c| seen_in_cycle[c]) {
                                    for &c in &cyc {
                                        seen_in_cycle[c] = true;
                                    }
                                    cycles.push(cyc);
                                }
                            }
                        }
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                    path.pop();
                }
            }
        }
        cycles
    }

    /// For each node, its level: 0 for nodes without dependencies, else one more than
    /// its deepest dependency. `None` for nodes on or behind a cycle. Linear time.
    pub fn levels(&self) -> Vec<Option<usize>> {
        let n = self.deps.len();
        let mut waiting: Vec<usize> = self.deps.iter().map(Vec::len).collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, deps) in self.deps.iter().enumerate() {
            for &d in deps {
                dependents[d].push(i);
            }
        }
        let mut level: Vec<Option<usize>> = vec![None; n];
        let mut ready: Vec<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
        for &i in &ready {
            level[i] = Some(0);
        }
        while let Some(i) = ready.pop() {
            let here = level[i].unwrap_or(0);
            for &j in &dependents[i] {
                level[j] = Some(level[j].map_or(here + 1, |l| l.max(here + 1)));
                waiting[j] -= 1;
                if waiting[j] == 0 {
                    ready.push(j);
                }
            }
        }
        // Nodes still waiting are on or behind a cycle.
        for i in 0..n {
            if waiting[i] > 0 {
                level[i] = None;
            }
        }
        level
    }

    /// Nodes that depend, directly or not, on any of `start` (not including them
    /// unless they are reached again). Linear time.
    pub fn downstream(&self, start: &[usize]) -> Vec<bool> {
        let n = self.deps.len();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, deps) in self.deps.iter().enumerate() {
            for &d in deps {
                dependents[d].push(i);
            }
        }
        let mut seen = vec![false; n];
        let mut stack: Vec<usize> = start.to_vec();
        while let Some(i) = stack.pop() {
            for &j in &dependents[i] {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_cycles_and_levels() {
        let g = Graph::build([
            ("a", vec![]),
            ("b", vec!["a", "d"]),
            ("c", vec!["b"]),
            ("d", vec!["c"]),
            ("e", vec!["a"]),
        ]);
        let cycles = g.cycles();
        assert_eq!(cycles.len(), 1);
        let mut c = cycles[0].clone();
        c.sort();
        assert_eq!(c, vec![1, 2, 3]);
        assert_eq!(g.levels(), vec![Some(0), None, None, None, Some(1)]);
        assert_eq!(g.downstream(&[0]), vec![false, true, true, true, true]);
    }

    #[test]
    fn long_chains_are_fast_in_any_order() {
        let n = 20_000;
        let names: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
        // Listed last-first: each task depends on the one after it in the list.
        let g = Graph::build((0..n).map(|i| {
            let deps: Vec<&str> = if i + 1 < n {
                vec![names[i + 1].as_str()]
            } else {
                vec![]
            };
            (names[i].as_str(), deps)
        }));
        let levels = g.levels();
        assert_eq!(levels[0], Some(n - 1));
        assert_eq!(levels[n - 1], Some(0));
        assert!(g.cycles().is_empty());
    }

    #[test]
    fn self_loop_is_a_cycle() {
        let g = Graph::build([("a", vec!["a"])]);
        assert_eq!(g.cycles(), vec![vec![0]]);
    }
}
