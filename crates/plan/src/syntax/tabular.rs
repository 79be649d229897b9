//! Reading TOON plan files written with the side-table layout of toonkit 0.1, which
//! this crate no longer writes: every top-level list of objects with unique ids was a
//! table of its scalar fields, each list-valued field moved into its own two-column
//! table (`steps.dependencies[N]{id,value}`), object-valued fields and fields some
//! items lacked into a map keyed by id, and the key `toon_tables` named the lists laid
//! out this way. Such a file means something else to any other TOON decoder; TOON
//! plans are now written as plain TOON of the dialect's JSON form, and [`unflatten`]
//! turns an old file's tree back into that form when it is read.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

/// The key naming the lists that were laid out as tables.
pub const MARKER: &str = "toon_tables";
const ID_KEYS: &[&str] = &["id", "step_id"];

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

/// Puts lists laid out as side tables (marked by `toon_tables`) back together. Trees
/// without the marker are returned as they are.
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
    fn an_old_side_table_file_reads_as_the_plain_tree() {
        // As toonkit 0.1 wrote it.
        let old = "metadata:\n  title: T\ntasks[2]{id,name,est}:\n  a,A,5\n  b,B,2\n\
                   steps[2]{id,timeout}:\n  s1,30\n  s2,60\n\
                   tasks.steps[3]{id,value}:\n  a,s1\n  a,s2\n  b,s3\n\
                   tasks.dependencies[1]{id,value}:\n  b,a\n\
                   steps.parameters:\n  s1:\n    file: x\n  s2:\n\
                   steps.retry:\n  s2: 1\ntoon_tables[2]: tasks,steps";
        let tree = serde_json::Value::from(toon::decode_value(old).unwrap());
        let back = unflatten(tree);
        let expected = json!({
            "metadata": {"title": "T"},
            "tasks": [
                {"id": "a", "name": "A", "est": 5, "steps": ["s1", "s2"], "dependencies": []},
                {"id": "b", "name": "B", "est": 2, "steps": ["s3"], "dependencies": ["a"]}
            ],
            "steps": [
                {"id": "s1", "timeout": 30, "parameters": {"file": "x"}},
                {"id": "s2", "timeout": 60, "parameters": {}, "retry": 1}
            ]
        });
        assert!(
            crate::conversion::loss::same_value(&back, &expected),
            "{back}"
        );
    }

    #[test]
    fn a_tree_without_the_marker_is_left_as_it_is() {
        let plain = json!({"rows": [{"id": "a", "n": 1}], "rows.x": [1]});
        assert_eq!(unflatten(plain.clone()), plain);
    }
}
