//! A plan as the plan model's JSON, to edit in tests, and that JSON written back in a
//! dialect's markdown.

use serde_json::Value;
use toon_plan::{DialectId, Format, Plan};

/// The plan model of a plan, as JSON.
pub fn of(plan: &Plan) -> Value {
    let out = toon_plan::convert(
        plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .unwrap();
    serde_json::from_str(&out.text).unwrap()
}

/// Plan-model JSON read back and written in `dialect`'s markdown.
pub fn to_markdown(plan: &Value, dialect: DialectId) -> String {
    let loaded = toon_plan::read(
        &plan.to_string(),
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::PLAN),
            format: Some(Format::Json),
            ..Default::default()
        },
    )
    .unwrap();
    toon_plan::convert(
        &loaded.plan,
        dialect,
        &toon_plan::ConvertOptions {
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .map(|c| c.text)
    .unwrap()
}
