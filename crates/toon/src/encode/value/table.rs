//! Tabular detection (spec §9.3) and keyed tabular detection (§9.5).
//!
//! The rules are [`form`]'s (the first row's template, later rows fitting it); this
//! module applies them to `Value` rows. It is the reference's column classification,
//! evaluated row by row instead of column by column, which lets the encoder check
//! each row just before writing it (one pass over the data) and take the table back
//! if a later row does not fit.

use crate::encode::form::{self, Kind, Template};
use crate::fields::{Field, same_name};
use crate::stack::guarded;
use crate::{Map, Value};

/// Whether every row is an object with as many entries as the first, which is
/// non-empty: the cheap condition every table (§9.3) and keyed table (§9.5) meets,
/// checked before anything is built or written.
pub(crate) fn same_sizes<'a>(mut rows: impl Iterator<Item = &'a Value>) -> bool {
    let Some(Value::Object(first)) = rows.next() else {
        return false;
    };
    let n = first.len();
    n > 0 && rows.all(|row| matches!(row, Value::Object(m) if m.len() == n))
}

/// What `value` is, as the table rules ([`form`]) see it.
#[inline]
pub(crate) fn kind(value: &Value) -> Kind {
    match value {
        Value::Object(map) if !map.is_empty() => Kind::Object,
        Value::Object(_) | Value::Array(_) => Kind::Other,
        _ => Kind::Primitive,
    }
}

/// The field list that `first`, the first row of a would-be table at nesting level
/// `row_level`, prescribes ([`form::template`]); `None` if the rules rule the table
/// out.
pub(crate) fn first_row_fields<'a>(
    first: &'a Value,
    row_level: usize,
    max_depth: usize,
) -> Option<Vec<Field<'a>>> {
    match (first, form::template(kind(first), row_level, max_depth)) {
        (Value::Object(row), Template::Group) => template(row, row_level, max_depth),
        _ => None,
    }
}

fn template<'a>(obj: &'a Map, level: usize, max_depth: usize) -> Option<Vec<Field<'a>>> {
    let mut fields = Vec::with_capacity(obj.len());
    for (name, value) in obj {
        fields.push(
            match (value, form::template(kind(value), level + 1, max_depth)) {
                (_, Template::Leaf) => Field::leaf(name.as_str()),
                (Value::Object(child), Template::Group) => Field::group(
                    name.as_str(),
                    guarded(|| template(child, level + 1, max_depth))?,
                ),
                _ => return None,
            },
        );
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

/// Whether `value` fits `field`: of the field's kind ([`form::kind_fits`]), and for
/// a group an object whose entries fit the group.
fn fits(field: &Field<'_>, value: &Value, ordered: &mut bool) -> bool {
    if !form::kind_fits(field, kind(value)) {
        return false;
    }
    match (value, &field.children) {
        (Value::Object(child), Some(group)) => guarded(|| matches(group, child, ordered)),
        _ => true,
    }
}

fn matches(fields: &[Field<'_>], row: &Map, ordered: &mut bool) -> bool {
    if row.len() != fields.len() {
        return false;
    }
    // The usual case: the row's keys come in field order.
    let mut in_order = true;
    for ((key, value), field) in row.iter().zip(fields) {
        if !same_name(&field.name, key) {
            in_order = false;
            break;
        }
        if !fits(field, value, ordered) {
            return false;
        }
    }
    if in_order {
        return true;
    }
    *ordered = false;
    fields.iter().all(|field| {
        row.get(field.name.as_ref())
            .is_some_and(|v| fits(field, v, ordered))
    })
}
