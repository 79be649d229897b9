//! Rule checks shared by the validators: unique ids, known references, no cycles,
//! required fields. They work on located ids so every problem has a place.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::model::graph::Graph;
use crate::problem::{PathBuf, Problem};

/// A node of a dependency graph as written in the source.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    /// Its id.
    pub id: &'a str,
    /// Where the node is (e.g. `steps[2]`).
    pub path: PathBuf,
    /// Its dependencies, each with where it is written.
    pub deps: Vec<(&'a str, PathBuf)>,
}

/// Reports every id that was already used earlier.
pub fn unique_ids(nodes: &[Node<'_>], rule: &'static str, what: &str) -> Vec<Problem> {
    let mut seen: HashMap<&str, &PathBuf> = HashMap::new();
    let mut out = Vec::new();
    for n in nodes {
        if let Some(first) = seen.get(n.id) {
            out.push(Problem::error(
                rule,
                n.path.loc(),
                format!(
                    "duplicate {what} id {:?} (first at {})",
                    n.id,
                    first.as_str()
                ),
            ));
        } else {
            seen.insert(n.id, &n.path);
        }
    }
    out
}

/// Reports every dependency that names no node.
pub fn known_refs(nodes: &[Node<'_>], rule: &'static str, what: &str) -> Vec<Problem> {
    let ids: HashSet<&str> = nodes.iter().map(|n| n.id).collect();
    let mut out = Vec::new();
    for n in nodes {
        for (d, p) in &n.deps {
            if !ids.contains(d) {
                out.push(Problem::error(
                    rule,
                    p.loc(),
                    format!("{what} {:?} depends on unknown {what} {d:?}", n.id),
                ));
            }
        }
    }
    out
}

/// Reports each dependency cycle once, at its first node.
pub fn acyclic(nodes: &[Node<'_>], rule: &'static str) -> Vec<Problem> {
    let graph = graph_of(nodes);
    graph
        .cycles()
        .into_iter()
        .filter_map(|cycle| {
            let first = *cycle.first()?;
            let mut names: Vec<&str> = cycle.iter().map(|&i| nodes[i].id).collect();
            names.push(nodes[first].id);
            Some(Problem::error(
                rule,
                nodes[first].path.loc(),
                format!(
                    "dependency cycle (each waits on the next): {}",
                    names.join(" → ")
                ),
            ))
        })
        .collect()
}

/// The dependency graph of located nodes.
pub fn graph_of(nodes: &[Node<'_>]) -> Graph {
    Graph::build(
        nodes
            .iter()
            .map(|n| (n.id, n.deps.iter().map(|(d, _)| *d).collect::<Vec<_>>())),
    )
}

/// Reads the items of an array of objects as nodes: `id_key` names the id and
/// `deps_key` the dependency list. Items that are not objects or lack a string id are
/// skipped (the schema check reports them).
pub fn nodes_of<'a>(
    items: &'a [Value],
    base: &PathBuf,
    id_key: &str,
    deps_key: &str,
) -> Vec<Node<'a>> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let obj = item.as_object()?;
            let id = obj.get(id_key)?.as_str()?;
            let path = base.index(i);
            let deps = match obj.get(deps_key).and_then(Value::as_array) {
                Some(arr) => arr
                    .iter()
                    .enumerate()
                    .filter_map(|(j, d)| Some((d.as_str()?, path.key(deps_key).index(j))))
                    .collect(),
                None => Vec::new(),
            };
            Some(Node { id, path, deps })
        })
        .collect()
}

/// The object at the root, or a problem saying it is not one.
pub fn root_object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, Problem> {
    v.as_object().ok_or_else(|| {
        Problem::error(
            "schema",
            PathBuf::root().loc(),
            format!("a {what} must be an object"),
        )
    })
}

impl PathBuf {
    /// The location of a key under this path.
    pub fn key_loc(&self, key: &str) -> crate::problem::Location {
        self.key(key).loc()
    }
}
