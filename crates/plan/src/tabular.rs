//! A lossless, token-smart TOON layout for any dialect's tree: every top-level list of
//! objects with unique ids becomes a TOON table of its scalar fields, and each
//! list-valued field moves into its own two-column table (`steps.dependencies[N]{id,value}`),
//! so every array stays tabular. Object-valued fields, and fields some items lack,
//! move into a map keyed by id (`steps.parameters: {step_1: {...}}`). The key
//! `toon_tables` names the lists laid out this way, and [`unflatten`] puts them back.
//!
//! Seed 002's own TOON example drops its list-valued columns; this layout keeps them.
//! `toon_tables` is therefore a reserved top-level key in TOON plan documents.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

/// The key naming the lists that were laid out as tables.
pub const MARKER: &str = "toon_tables";
const ID_KEYS: &[&str] = &["id", "step_id"];

fn is_primitive(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

/// The id key shared by all items, when its values are unique non-empty strings.
fn id_key(items: &[Value]) -> Option<&'static str> {
    ID_KEYS.iter().copied().find(|k| {
        let mut seen = HashSet::new();
        items.iter().all(|it| {
            it.get(*k)
                .and_then(Value::as_str)
                .is_some_and(|id| !id.is_empty() && seen.insert(id))
        })
    })
}

/// Whether TOON already writes the list as a table.
fn already_tabular(items: &[Value]) -> bool {
    let Some(Value::Object(first)) = items.first() else {
        return false;
    };
    items.iter().all(|it| match it {
        Value::Object(o) => {
            o.len() == first.len()
                && o.keys().zip(first.keys()).all(|(a, b)| a == b)
                && o.values().all(is_primitive)
        }
        _ => false,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Column,
    Edges,
    Map,
}

/// Lays out the tree's top-level lists of objects as tables. Returns the tree as is
/// when nothing needs it.
pub fn flatten(tree: &Value) -> Value {
    let Value::Object(top) = tree else {
        return tree.clone();
    };
    if top.contains_key(MARKER) {
        return tree.clone();
    }
    let mut out = Map::new();
    let mut laid_out = Vec::new();
    let mut derived: Vec<(String, Value)> = Vec::new();
    for (key, value) in top {
        let Value::Array(items) = value else {
            out.insert(key.clone(), value.clone());
            continue;
        };
        let usable = !items.is_empty()
            && items.iter().all(Value::is_object)
            && !already_tabular(items)
            && !key.contains('.');
        let id = if usable { id_key(items) } else { None };
        let Some(id) = id else {
            out.insert(key.clone(), value.clone());
            continue;
        };
        let (rows, tables) = flatten_list(key, items, id);
        if tables.iter().any(|(name, _)| top.contains_key(name)) {
            out.insert(key.clone(), value.clone());
            continue;
        }
        out.insert(key.clone(), Value::Array(rows));
        derived.extend(tables);
        laid_out.push(Value::String(key.clone()));
    }
    if laid_out.is_empty() {
        return tree.clone();
    }
    for (k, v) in derived {
        out.insert(k, v);
    }
    out.insert(MARKER.to_owned(), Value::Array(laid_out));
    Value::Object(out)
}

fn flatten_list(list: &str, items: &[Value], id: &str) -> (Vec<Value>, Vec<(String, Value)>) {
    // Each field's kind, in first-seen order.
    let mut fields: Vec<(String, Kind)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for it in items {
        if let Value::Object(o) = it {
            for (k, v) in o {
                let kind = if is_primitive(v) {
                    Kind::Column
                } else if v.as_array().is_some_and(|a| a.iter().all(is_primitive)) {
                    Kind::Edges
                } else {
                    Kind::Map
                };
                match index.get(k) {
                    Some(&i) => {
                        if fields[i].1 != kind {
                            fields[i].1 = Kind::Map;
                        }
                    }
                    None => {
                        index.insert(k.clone(), fields.len());
                        fields.push((k.clone(), kind));
                    }
                }
            }
        }
    }
    // A field some items lack goes to the map, which keeps absence.
    for (k, kind) in &mut fields {
        if k != id && items.iter().any(|it| it.get(k.as_str()).is_none()) {
            *kind = Kind::Map;
        }
    }
    let mut rows = Vec::with_capacity(items.len());
    let mut tables: Vec<(String, Value)> = Vec::new();
    let mut edges: HashMap<&str, Vec<Value>> = HashMap::new();
    let mut maps: HashMap<&str, Map<String, Value>> = HashMap::new();
    for it in items {
        let Value::Object(o) = it else { continue };
        let owner = o.get(id).cloned().unwrap_or(Value::Null);
        let owner_key = owner.as_str().unwrap_or("").to_owned();
        let mut row = Map::new();
        for (k, kind) in &fields {
            let Some(v) = o.get(k) else { continue };
            match kind {
                Kind::Column => {
                    row.insert(k.clone(), v.clone());
                }
                Kind::Edges => {
                    for item in v.as_array().into_iter().flatten() {
                        let mut e = Map::new();
                        e.insert("id".into(), owner.clone());
                        e.insert("value".into(), item.clone());
                        edges.entry(k).or_default().push(Value::Object(e));
                    }
                }
                Kind::Map => {
                    maps.entry(k)
                        .or_default()
                        .insert(owner_key.clone(), v.clone());
                }
            }
        }
        rows.push(Value::Object(row));
    }
    for (k, kind) in &fields {
        let name = format!("{list}.{k}");
        match kind {
            Kind::Edges => {
                tables.push((
                    name,
                    Value::Array(edges.remove(k.as_str()).unwrap_or_default()),
                ));
            }
            Kind::Map => {
                tables.push((
                    name,
                    Value::Object(maps.remove(k.as_str()).unwrap_or_default()),
                ));
            }
            Kind::Column => {}
        }
    }
    (rows, tables)
}

/// Puts lists laid out by [`flatten`] back together. Trees without the marker are
/// returned as they are.
pub fn unflatten(tree: Value) -> Value {
    let Value::Object(mut top) = tree else {
        return tree;
    };
    let Some(Value::Array(lists)) = top.shift_remove(MARKER) else {
        return Value::Object(top);
    };
    for list in lists.iter().filter_map(Value::as_str) {
        let prefix = format!("{list}.");
        let tables: Vec<String> = top
            .keys()
            .filter(|k| k.starts_with(&prefix))
            .cloned()
            .collect();
        let Some(Value::Array(mut rows)) = top.shift_remove(list) else {
            continue;
        };
        let id = id_key(&rows).unwrap_or("id");
        let positions: HashMap<String, usize> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((r.get(id)?.as_str()?.to_owned(), i)))
            .collect();
        for name in tables {
            let field = name[prefix.len()..].to_owned();
            match top.shift_remove(&name) {
                Some(Value::Array(edges)) => {
                    // Every row had the list: those without edges had it empty.
                    for r in rows.iter_mut() {
                        if let Value::Object(o) = r {
                            o.insert(field.clone(), Value::Array(Vec::new()));
                        }
                    }
                    for e in edges {
                        let owner = e.get("id").and_then(Value::as_str);
                        if let Some(&i) = owner.and_then(|o| positions.get(o))
                            && let Some(Value::Array(list)) = rows[i].get_mut(&field)
                        {
                            list.push(e.get("value").cloned().unwrap_or(Value::Null));
                        }
                    }
                }
                Some(Value::Object(map)) => {
                    for (owner, v) in map {
                        if let Some(&i) = positions.get(&owner)
                            && let Value::Object(o) = &mut rows[i]
                        {
                            o.insert(field.clone(), v);
                        }
                    }
                }
                Some(other) => {
                    top.insert(name, other);
                }
                None => {}
            }
        }
        top.insert(list.to_owned(), Value::Array(rows));
    }
    Value::Object(top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_become_tables_and_come_back() {
        let tree = json!({
            "metadata": {"title": "T"},
            "tasks": [
                {"id": "a", "name": "A", "steps": ["s1", "s2"], "dependencies": [], "est": 5.0},
                {"id": "b", "name": "B", "steps": ["s3"], "dependencies": ["a"], "est": 2}
            ],
            "steps": [
                {"id": "s1", "parameters": {"file": "x"}, "timeout": 30},
                {"id": "s2", "parameters": {}, "timeout": 60, "retry": 1}
            ]
        });
        let flat = flatten(&tree);
        let text = toon::encode_value(&toon::Value::from(flat.clone()));
        assert!(text.contains("tasks[2]{id,name,est}:"), "{text}");
        assert!(text.contains("tasks.steps[3]{id,value}:"), "{text}");
        assert!(text.contains("tasks.dependencies[1]{id,value}:"), "{text}");
        assert!(text.contains("steps[2]{id,timeout}:"), "{text}");
        let back = unflatten(serde_json::Value::from(toon::decode_value(&text).unwrap()));
        assert!(crate::loss::same_value(&back, &tree), "{back}");
    }

    #[test]
    fn lists_without_unique_ids_stay_as_they_are() {
        let tree = json!({"dag": [{"id": "a", "deps": ["x"]}, {"id": "a", "deps": []}]});
        assert_eq!(flatten(&tree), tree);
        let plain = json!({"rows": [{"id": "a", "n": 1}]});
        assert_eq!(flatten(&plain), plain);
    }
}
