//! One plan written in every form a user might put in a prompt — its own source, its
//! dialect as pretty and compact JSON, its dialect as TOON (plain TOON of that JSON),
//! and the plan model as TOON — to compare their sizes (`toon plan stats`, the plan
//! section of the token report).
//!
//! ```
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
//! ]}"#;
//! let loaded = toon_plan::load(text, None, None, None)?;
//! let forms = toon_plan::forms::forms(&loaded, text)?;
//! let keys: Vec<_> = forms.iter().map(|f| f.key).collect();
//! assert_eq!(keys, ["source", "json_pretty", "json_compact", "toon", "plan_toon"]);
//! assert!(forms.iter().all(|f| f.lossless != Some(false)));
//! # Ok::<(), toon_plan::PlanError>(())
//! ```

use crate::{DialectId, Format, Loaded, PlanError, convert};

/// One form of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// A stable key: `source`, `json_pretty`, `json_compact`, `toon`, `plan_toon`.
    pub key: &'static str,
    /// What the form is, for people (`workflow as TOON`).
    pub label: String,
    /// The text.
    pub text: String,
    /// Whether reading the text back gives the same plan (`None` for the source).
    pub lossless: Option<bool>,
}

/// Every form of a loaded plan whose source text is `source`.
///
/// `json_pretty` is the plan written in its own dialect as JSON; `json_compact` the
/// same without white space; `toon` the dialect as TOON, which decodes to exactly that
/// JSON; `plan_toon` the plan model itself as TOON (left out when the dialect is the
/// model).
pub fn forms(loaded: &Loaded, source: &str) -> Result<Vec<Form>, PlanError> {
    let dialect = loaded.dialect;
    let plan = &loaded.plan;
    let mut out = vec![Form {
        key: "source",
        label: format!("source ({dialect} {})", loaded.format),
        text: source.to_owned(),
        lossless: None,
    }];
    let json = convert(plan, dialect, Some(Format::Json))?;
    let json_lossless = json.report.is_empty();
    let tree: serde_json::Value = serde_json::from_str(&json.text)
        .map_err(|e| PlanError::doc(format!("cannot re-read the JSON form: {e}")))?;
    let compact = serde_json::to_string(&tree)
        .map_err(|e| PlanError::doc(format!("cannot write compact JSON: {e}")))?;
    out.push(Form {
        key: "json_pretty",
        label: format!("{dialect} as JSON (pretty)"),
        text: json.text,
        lossless: Some(json_lossless),
    });
    out.push(Form {
        key: "json_compact",
        label: format!("{dialect} as JSON (compact)"),
        text: compact,
        lossless: Some(json_lossless),
    });
    let toon = convert(plan, dialect, Some(Format::Toon))?;
    out.push(Form {
        key: "toon",
        label: format!("{dialect} as TOON"),
        lossless: Some(toon.report.is_empty()),
        text: toon.text,
    });
    if dialect != DialectId::Plan {
        let model = convert(plan, DialectId::Plan, Some(Format::Toon))?;
        out.push(Form {
            key: "plan_toon",
            label: "plan model as TOON".to_owned(),
            lossless: Some(model.report.is_empty()),
            text: model.text,
        });
    }
    Ok(out)
}
