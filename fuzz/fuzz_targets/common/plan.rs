//! The body shared by the plan targets: arbitrary text → load, validate and convert
//! never panic; a valid plan converts without loss to the plan model and to its own
//! dialect and format, and the plan model's text reads back as the same plan.

use toon_plan::{DialectId, Format, PlanError, Severity};

/// A conversion may fail only because the plan nests deeper than a reader allows
/// (serde_json stops at 128 levels, the YAML reader at 64, TOON at 1000): a clean error.
fn nesting_limit(e: &PlanError) -> bool {
    let m = e.to_string();
    ["budget breached", "recursion limit", "nest", "deeper than"]
        .iter()
        .any(|k| m.contains(k))
}

/// Converts, tolerating only nesting-limit errors (`None` then).
fn convert(
    plan: &toon_plan::Plan,
    to: DialectId,
    format: Option<Format>,
) -> Option<toon_plan::Conversion> {
    match toon_plan::convert(
        plan,
        to,
        &toon_plan::ConvertOptions {
            format,
            ..Default::default()
        },
    ) {
        Ok(c) => Some(c),
        Err(e) if nesting_limit(&e) => None,
        Err(e) => panic!("→ {to} {format:?} fails: {e}"),
    }
}

/// The format for a JSON/YAML/TOON dialect target, chosen by the input's first byte;
/// the rest of the input is the text (`'0'` JSON, `'1'` YAML, `'2'` TOON, `'3'` sniffed).
#[allow(dead_code)] // the markdown targets do not split
pub fn split_format(data: &[u8]) -> Option<(Format, &str)> {
    let (&first, rest) = data.split_first()?;
    let format = match first % 4 {
        0 => Format::Json,
        1 => Format::Yaml,
        2 => Format::Toon,
        _ => {
            return std::str::from_utf8(rest)
                .ok()
                .map(|t| (Format::sniff(t), t));
        }
    };
    std::str::from_utf8(rest).ok().map(|t| (format, t))
}

/// Loads `text` as `dialect` in `format` (either detected when `None`) and checks it.
pub fn check(text: &str, dialect: Option<DialectId>, format: Option<Format>) {
    let Ok(loaded) = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect,
            format,
            ..Default::default()
        },
    ) else {
        return;
    };
    let problems = toon_plan::validate(&loaded);
    for p in &problems {
        let _ = p.to_string();
    }
    let plan = &loaded.plan;
    // Every dialect can write any plan in its natural format.
    for to in DialectId::all() {
        if let Some(conv) = convert(plan, to, None) {
            let _ = conv.report.to_string();
        }
    }
    // The plan model holds every plan, in every tree format.
    for fmt in [Format::Json, Format::Yaml, Format::Toon] {
        let Some(conv) = convert(plan, DialectId::PLAN, Some(fmt)) else {
            continue;
        };
        assert!(
            conv.report.is_lossless(),
            "→ plan {fmt} loses: {}\n{}",
            conv.report,
            conv.text
        );
        let back = toon_plan::read(
            &conv.text,
            &toon_plan::ReadOptions {
                dialect: Some(DialectId::PLAN),
                format: Some(fmt),
                ..Default::default()
            },
        )
        .unwrap_or_else(|e| panic!("plan {fmt} does not read back: {e}\n{}", conv.text));
        // Numbers compare as JSON numbers (`30.0` is written and read back as `30`).
        let diff = toon_plan::LossReport::between(plan, &back.plan);
        assert!(diff.is_empty(), "plan {fmt} reads back differently: {diff}");
    }
    let valid = !problems.iter().any(|p| p.severity == Severity::Error);
    if valid {
        // A valid plan round-trips through its own dialect and format.
        let Some(same) = convert(plan, loaded.dialect, Some(loaded.format)) else {
            return;
        };
        assert!(
            same.report.is_lossless(),
            "{} {} → itself loses: {}\n{}",
            loaded.dialect,
            loaded.format,
            same.report,
            same.text
        );
    }
}
