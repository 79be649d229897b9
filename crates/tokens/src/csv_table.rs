//! CSV text of flat data: rows of primitives under one set of keys.

use toon::{Map, Value};

/// The rows of `value` if it is flat: a non-empty array of objects whose values are all
/// primitives and whose keys are the same (in any order), or an object with a single
/// key holding such an array. Anything else has no faithful CSV form.
pub fn flat_rows(value: &Value) -> Option<&[Value]> {
    let rows = match value {
        Value::Array(rows) => rows,
        Value::Object(map) if map.len() == 1 => map.values().next()?.as_array()?,
        _ => return None,
    };
    let first = rows.first()?.as_object()?;
    if first.is_empty() {
        return None;
    }
    let uniform = rows.iter().all(|row| {
        row.as_object().is_some_and(|obj| {
            obj.len() == first.len()
                && obj.values().all(Value::is_primitive)
                && first.keys().all(|k| obj.contains_key(k))
        })
    });
    uniform.then_some(rows.as_slice())
}

/// The CSV text of `value` when it is flat (see [`flat_rows`]): a header of the first
/// row's keys, then one record per row; `null` is an empty cell. Records end with `\n`
/// except the last, as the other formats have no trailing newline.
pub fn to_csv(value: &Value) -> Result<Option<String>, String> {
    let Some(rows) = flat_rows(value) else {
        return Ok(None);
    };
    let Some(header) = rows.first().and_then(Value::as_object) else {
        return Ok(None);
    };
    let keys: Vec<&str> = header.keys().map(|k| k.as_str()).collect();
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    writer.write_record(&keys).map_err(|e| e.to_string())?;
    let mut cells: Vec<String> = Vec::with_capacity(keys.len());
    for row in rows {
        let obj: &Map = row.as_object().ok_or("a row is not an object")?;
        cells.clear();
        for key in &keys {
            cells.push(obj.get(key).map(cell).unwrap_or_default());
        }
        writer.write_record(&cells).map_err(|e| e.to_string())?;
    }
    let bytes = writer.into_inner().map_err(|e| e.to_string())?;
    let mut text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
    if text.ends_with('\n') {
        text.pop();
    }
    Ok(Some(text))
}

fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let mut out = String::new();
            n.write_canonical(&mut out);
            out
        }
        Value::String(s) => s.clone(),
        Value::Array(_) | Value::Object(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_of_flat_objects_is_a_table() -> Result<(), String> {
        let v = toon::toon!([{"id": 1, "name": "Ada, Countess"}, {"name": "Bob", "id": 2.5}]);
        assert_eq!(
            to_csv(&v)?.as_deref(),
            Some("id,name\n1,\"Ada, Countess\"\n2.5,Bob")
        );
        Ok(())
    }

    #[test]
    fn object_with_one_table_is_a_table() -> Result<(), String> {
        let v = toon::toon!({"rows": [{"a": null, "b": true}]});
        assert_eq!(to_csv(&v)?.as_deref(), Some("a,b\n,true"));
        Ok(())
    }

    #[test]
    fn nested_or_ragged_data_is_not_flat() -> Result<(), String> {
        for v in [
            toon::toon!([{"a": 1}, {"b": 1}]),
            toon::toon!([{"a": 1}, {"a": 1, "b": 2}]),
            toon::toon!([{"a": [1]}]),
            toon::toon!([{"a": 1}, 3]),
            toon::toon!({"rows": [{"a": 1}], "other": 1}),
            toon::toon!([]),
            toon::toon!([{}]),
            toon::toon!("text"),
        ] {
            assert_eq!(to_csv(&v)?, None, "{v:?}");
        }
        Ok(())
    }

    #[test]
    fn quotes_newlines_and_quotes() -> Result<(), String> {
        let v = toon::toon!([{"s": "say \"hi\"\nbye"}]);
        assert_eq!(to_csv(&v)?.as_deref(), Some("s\n\"say \"\"hi\"\"\nbye\""));
        Ok(())
    }
}
