//! Tabular detection (spec §9.3) and keyed tabular detection (§9.5).
//!
//! The field list is determined by the first row: a primitive value makes a leaf
//! field, a non-empty object makes a nested field group of that object's keys, and
//! anything else (an array, an empty object) rules the table out. Every other row must
//! then have exactly the same key set and the same shape at every level. This is the
//! reference's column classification, evaluated row by row instead of column by
//! column, which lets the encoder check each row just before writing it (one pass
//! over the data) and take the table back if a later row does not fit.

use crate::fields::Field;
use crate::stack::guarded;
use crate::{Map, Value};

/// The value of field `name`, expected at position `index` of `row` (the usual case
/// when every row has the first row's key order); a hash look-up otherwise, which
/// clears `ordered`.
#[inline]
fn lookup<'a>(row: &'a Map, index: usize, name: &str, ordered: &mut bool) -> Option<&'a Value> {
    match row.get_index(index) {
        Some((k, v)) if k == name => Some(v),
        _ => {
            *ordered = false;
            row.get(name)
        }
    }
}

/// The value of `field` in a row that [`row_matches`] accepted: by position when the
/// row is `ordered`, else by key.
#[inline]
pub(crate) fn cell<'a>(row: &'a Map, index: usize, field: &Field<'_>, ordered: bool) -> &'a Value {
    static NULL: Value = Value::Null;
    let found = if ordered {
        row.get_index(index).map(|(_, v)| v)
    } else {
        row.get(field.name.as_ref())
    };
    found.unwrap_or(&NULL)
}

/// The field list that `first`, the first row of a would-be table at nesting level
/// `row_level`, prescribes; `None` if it is not a non-empty object, holds an array or
/// an empty object at any level, or a nested group would pass `max_depth`.
pub(crate) fn first_row_fields<'a>(
    first: &'a Value,
    row_level: usize,
    max_depth: usize,
) -> Option<Vec<Field<'a>>> {
    match first {
        Value::Object(row) if !row.is_empty() && row_level <= max_depth => {
            template(row, row_level, max_depth)
        }
        _ => None,
    }
}

fn template<'a>(obj: &'a Map, level: usize, max_depth: usize) -> Option<Vec<Field<'a>>> {
    let mut fields = Vec::with_capacity(obj.len());
    for (name, value) in obj {
        fields.push(match value {
            Value::Object(child) if !child.is_empty() && level < max_depth => Field::group(
                name.as_str(),
                guarded(|| template(child, level + 1, max_depth))?,
            ),
            Value::Object(_) | Value::Array(_) => return None,
            _ => Field::leaf(name.as_str()),
        });
    }
    Some(fields)
}

/// If `row` fits `fields` (exactly the same keys, primitives at the leaves, objects of
/// the same shape at the groups), returns whether its keys are in field order at
/// every level.
pub(crate) fn row_matches(fields: &[Field<'_>], row: &Value) -> Option<bool> {
    let Value::Object(row) = row else {
        return None;
    };
    let mut ordered = true;
    matches(fields, row, &mut ordered).then_some(ordered)
}

fn matches(fields: &[Field<'_>], row: &Map, ordered: &mut bool) -> bool {
    if row.len() != fields.len() {
        return false;
    }
    for (i, f) in fields.iter().enumerate() {
        let ok = match (lookup(row, i, &f.name, ordered), &f.children) {
            (Some(Value::Array(_) | Value::Object(_)), None) | (None, _) => false,
            (Some(_), None) => true,
            (Some(Value::Object(child)), Some(group)) => guarded(|| matches(group, child, ordered)),
            (Some(_), Some(_)) => false,
        };
        if !ok {
            return false;
        }
    }
    true
}
