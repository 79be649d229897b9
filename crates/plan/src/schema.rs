//! A JSON Schema (draft 2020-12) for every dialect, so a planner can ask a language
//! model for structured output that the dialect's validator accepts.
//!
//! Each dialect's schema is generated from its field tables (see [`crate::table`]):
//! the JSON tree of the dialect (for Cursor plans: the front matter keys plus `body`,
//! as `toon plan convert --to cursor --format json` writes them) with the field types,
//! required fields and known values the validator checks from the same tables, so a
//! document's fields pass the schema exactly when they pass `toon plan validate`.
//! Rules that span several items — unique ids, dependencies that name existing tasks,
//! no cycles, uniform workflow arrays — are not expressible in JSON Schema and remain
//! the validator's.
//!
//! Keys a dialect does not name are allowed by both: the readers keep them in the
//! plan's `extra` maps and the writers write them back. The plan model's own document
//! follows the same rule, described by its tables in `dialects::plan_model::table`.

use serde_json::Value;

use crate::dialects::DialectId;
use crate::table::{self, Table};

/// The JSON Schema of a dialect.
pub fn schema(dialect: DialectId) -> Value {
    let Some(table) = fields_table(dialect) else {
        return Value::Bool(true);
    };
    let mut s = table::schema::of(table);
    if dialect == DialectId::PLAN
        && let Some(Value::Object(tasks)) = s.pointer_mut("/properties/tasks")
    {
        tasks.insert("anyOf".into(), ids_given_or_from_titles());
    }
    if dialect == DialectId::TASKMASTER {
        return tagged_or_not(s);
    }
    s
}

/// A Task Master file: one task list (`list`, the legacy form), or an object of tags,
/// each a task list.
fn tagged_or_not(mut list: Value) -> Value {
    let Value::Object(o) = &mut list else {
        return list;
    };
    // The root keywords stay at the root; the list's own schema is one alternative.
    let mut root = serde_json::Map::new();
    for k in ["$schema", "$id", "title", "description"] {
        if let Some(v) = o.remove(k) {
            root.insert(k.into(), v);
        }
    }
    root.insert("type".into(), "object".into());
    root.insert(
        "anyOf".into(),
        serde_json::json!([
            list,
            {
                "description": "A tagged file: each key a tag, each value its task list.",
                "minProperties": 1,
                "additionalProperties": list,
            }
        ]),
    );
    Value::Object(root)
}

/// The field table of a dialect's root object.
pub fn fields_table(dialect: DialectId) -> Option<&'static Table> {
    dialect.dialect().table()
}

/// The schema of a dialect as pretty JSON text, ending in a newline.
pub fn schema_text(dialect: DialectId) -> String {
    let mut s = serde_json::to_string_pretty(&schema(dialect)).unwrap_or_default();
    s.push('\n');
    s
}

/// Every task row has an `id`, or none has and every row has a `title` (the ids are
/// then the ones the titles give).
fn ids_given_or_from_titles() -> Value {
    serde_json::json!([
        { "items": { "required": ["id"] } },
        {
            "items": { "required": ["title"], "not": { "required": ["id"] } },
            "minItems": 1
        }
    ])
}
