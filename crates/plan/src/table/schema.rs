//! The JSON Schema (draft 2020-12) of a table: the same keys, kinds, required keys
//! and checks [`super::check`] applies, so the schema and the validator accept and
//! reject the same objects field by field.

use serde_json::{Map, Value, json};

use super::{Check, Field, Kind, Table};

/// The schema of a dialect's root object, with `$schema`, `title` and `description`.
pub fn of(table: &Table) -> Value {
    let mut out = Map::new();
    out.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    out.insert("title".into(), table.title.into());
    if let Value::Object(body) = object(table) {
        out.extend(body);
    }
    Value::Object(out)
}

/// The schema of an object: its properties, required keys, any other key allowed.
fn object(table: &Table) -> Value {
    let mut props = Map::new();
    for f in table.fields {
        props.insert(f.key.into(), field(f));
    }
    let required: Vec<Value> = table
        .fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.key.into())
        .collect();
    let mut out = Map::new();
    out.insert("description".into(), table.doc.into());
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    Value::Object(out)
}

/// The schema of one field's value; an optional field may also be `null`, which the
/// validator reads as absent.
fn field(f: &Field) -> Value {
    let mut s = match &f.kind {
        Kind::Str => scalar("string", &f.check),
        Kind::Strings => json!({"type": "array", "items": scalar("string", &f.check)}),
        Kind::Number => scalar("number", &f.check),
        Kind::Integer => scalar("integer", &f.check),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::Object => json!({"type": "object"}),
        Kind::StringsOrCount => json!({"oneOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": "integer", "minimum": 0}
        ]}),
        Kind::StringsCountOrCell => json!({"oneOf": [
            {"type": "array", "items": {"type": "string"}},
            {"type": "integer", "minimum": 0},
            {"type": "string"}
        ]}),
        Kind::Id => json!({"type": ["number", "string"]}),
        Kind::Ids => json!({"type": "array", "items": {"type": ["number", "string"]}}),
        Kind::Lines => json!({"oneOf": [
            {"type": "string"},
            {"type": "array", "items": {"type": "string"}}
        ]}),
        Kind::Any => any(f),
        Kind::Nested(inner) => object(inner),
        Kind::Items(inner) => json!({"type": "array", "items": object(inner)}),
    };
    let Value::Object(o) = &mut s else {
        return s;
    };
    if !f.required {
        if let Some(Value::String(t)) = o.get("type").cloned() {
            o.insert("type".into(), json!([t, "null"]));
        } else if let Some(Value::Array(types)) = o.get_mut("type") {
            types.push(json!("null"));
        } else if let Some(Value::Array(one_of)) = o.get_mut("oneOf") {
            one_of.push(json!({"type": "null"}));
        }
    }
    // The field's own description comes first, for people reading the schema.
    let mut out = Map::new();
    out.insert("description".into(), f.doc.into());
    for (k, v) in std::mem::take(o) {
        if k != "description" || f.doc.is_empty() {
            out.insert(k, v);
        }
    }
    Value::Object(out)
}

/// Any value (a string passing the field's check); `null` only when optional, as the
/// validator reads `null` as absent.
fn any(f: &Field) -> Value {
    let mut s = Map::new();
    if !matches!(f.check, Check::None) {
        s.insert("if".into(), json!({"type": "string"}));
        s.insert("then".into(), scalar("string", &f.check));
    }
    if f.required {
        s.insert("not".into(), json!({"type": "null"}));
    }
    Value::Object(s)
}

/// A string or number schema with its check.
fn scalar(ty: &str, check: &Check) -> Value {
    let mut s = json!({ "type": ty });
    let o = s.as_object_mut();
    let Some(o) = o else { return s };
    match check {
        Check::None => {}
        Check::Known(choices) => {
            let known: Vec<Value> = choices.iter().map(|c| c.value.into()).collect();
            o.insert("examples".into(), Value::Array(known));
        }
        Check::OneOf(choices) => {
            o.remove("type");
            let one_of: Vec<Value> = choices
                .iter()
                .map(|c| json!({"const": c.value, "description": c.doc}))
                .collect();
            o.insert("oneOf".into(), Value::Array(one_of));
        }
        Check::NonBlank => {
            o.insert("pattern".into(), r"\S".into());
        }
        Check::Slug => {
            o.insert("pattern".into(), super::SLUG_PATTERN.into());
        }
        Check::Positive => {
            o.insert("type".into(), "integer".into());
            o.insert("minimum".into(), 1.into());
        }
        Check::NotNegative => {
            o.insert("minimum".into(), 0.into());
        }
    }
    s
}
