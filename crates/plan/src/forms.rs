//! One plan written in every form a user might put in a prompt — its own source, its
//! dialect as pretty and compact JSON, its dialect as TOON (plain TOON of that JSON),
//! the plan model as compact JSON, as TOON and in the prompt form (TOON front matter,
//! the markdown body as written) — to compare their sizes (`toon plan stats`, the plan
//! section of the token report). A plan with a markdown body or a layout also gets a
//! lean form for prompts: the plan model without them ([`lean`]).
//!
//! ```
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
//! ]}"#;
//! let loaded = toon_plan::read(text, &toon_plan::ReadOptions::default())?;
//! let forms = toon_plan::forms::forms(&loaded, text)?;
//! let keys: Vec<_> = forms.iter().map(|f| f.key).collect();
//! assert_eq!(
//!     keys,
//!     ["source", "json_pretty", "json_compact", "toon", "plan_json_compact", "plan_toon", "prompt"]
//! );
//! assert!(forms.iter().all(|f| f.lossless != Some(false)));
//! # Ok::<(), toon_plan::PlanError>(())
//! ```

use serde::Serialize;

pub use crate::conversion::lean;
use crate::conversion::loss::Loss;
use crate::conversion::{Conversion, ConvertOptions, convert};
use crate::dialects::DialectId;
use crate::model::Plan;
use crate::problem::{ErrorKind, PlanError};
use crate::reading::{Loaded, ReadOptions};
use crate::syntax::format::Format;

/// One form of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// A stable key: `source`, `json_pretty`, `json_compact`, `toon`,
    /// `plan_json_compact`, `plan_toon`, `prompt`, `plan_lean`.
    pub key: &'static str,
    /// What the form is, for people (`workflow as TOON`).
    pub label: String,
    /// The text.
    pub text: String,
    /// Whether reading the text back gives the same plan, layout included: the
    /// conversion's round trip (write, read back, compare) reports no loss at all, so
    /// the source converts back from this form byte for byte. `None` for the source,
    /// and for the lean form, which leaves the body out on purpose.
    pub lossless: Option<bool>,
    /// Whether reading the text back gives the same plan content, perhaps without the
    /// layout that writes the source text back byte for byte (see
    /// [`crate::LossReport::keeps_content`]); `None` where `lossless` is.
    pub keeps_content: Option<bool>,
}

impl Form {
    /// A converted form, with what its round trip kept: nothing is kept unless the
    /// text also reads back as `to` without being told its dialect, as a user reads
    /// the file ([`reads_back_as`]).
    fn converted(
        key: &'static str,
        label: String,
        text: String,
        losses: &[Loss],
        (to, format): (DialectId, Format),
    ) -> Form {
        let reads_back = reads_back_as(&text, to, format);
        Form {
            key,
            label,
            lossless: Some(reads_back && losses.is_empty()),
            keeps_content: Some(reads_back && crate::conversion::loss::keeps_content(losses)),
            text,
        }
    }
}

/// Whether `text`, written as `to` in `format`, is read back as `to` when only its
/// format is known (its dialect detected from the content).
pub fn reads_back_as(text: &str, to: DialectId, format: Format) -> bool {
    let options = ReadOptions {
        format: Some(format),
        ..ReadOptions::default()
    };
    crate::reading::read(text, &options).is_ok_and(|back| back.dialect == to)
}

/// Every form of a loaded plan whose source text is `source`.
///
/// `json_pretty` is the plan written in its own dialect as JSON; `json_compact` the
/// same without white space; `toon` the dialect as TOON, which decodes to exactly that
/// JSON; `plan_json_compact` and `plan_toon` the plan model itself as compact JSON and
/// as TOON (left out when the dialect is the model); `prompt` the plan model in the
/// prompt form ([`Format::Prompt`]: its fields as TOON front matter, its body as
/// written).
pub fn forms(loaded: &Loaded, source: &str) -> Result<Vec<Form>, PlanError> {
    let dialect = loaded.dialect;
    let plan = &loaded.plan;
    let mut out = vec![Form {
        key: "source",
        label: format!("source ({dialect} {})", loaded.format),
        text: source.to_owned(),
        lossless: None,
        keeps_content: None,
    }];
    let json = as_is(plan, dialect, Format::Json)?;
    let compact = compact_json(&json.text)?;
    out.push(Form::converted(
        "json_pretty",
        format!("{dialect} as JSON (pretty)"),
        json.text,
        &json.report.losses,
        (dialect, Format::Json),
    ));
    out.push(Form::converted(
        "json_compact",
        format!("{dialect} as JSON (compact)"),
        compact,
        &json.report.losses,
        (dialect, Format::Json),
    ));
    let toon = as_is(plan, dialect, Format::Toon)?;
    out.push(Form::converted(
        "toon",
        format!("{dialect} as TOON"),
        toon.text,
        &toon.report.losses,
        (dialect, Format::Toon),
    ));
    if dialect != DialectId::PLAN {
        let model_json = as_is(plan, DialectId::PLAN, Format::Json)?;
        out.push(Form::converted(
            "plan_json_compact",
            "plan model as JSON (compact)".to_owned(),
            compact_json(&model_json.text)?,
            &model_json.report.losses,
            (DialectId::PLAN, Format::Json),
        ));
        let model = as_is(plan, DialectId::PLAN, Format::Toon)?;
        out.push(Form::converted(
            "plan_toon",
            "plan model as TOON".to_owned(),
            model.text,
            &model.report.losses,
            (DialectId::PLAN, Format::Toon),
        ));
    }
    let prompt = as_is(plan, DialectId::PLAN, Format::Prompt)?;
    out.push(Form::converted(
        "prompt",
        "plan model, prompt form (TOON front matter, markdown body)".to_owned(),
        prompt.text,
        &prompt.report.losses,
        (DialectId::PLAN, Format::Prompt),
    ));
    if plan.body.is_some() || !plan.layout.entries.is_empty() {
        let model = as_is(&lean(plan), DialectId::PLAN, Format::Toon)?;
        out.push(Form {
            key: "plan_lean",
            label: "plan model as TOON, lean (no body or layout)".to_owned(),
            lossless: None,
            keeps_content: None,
            text: model.text,
        });
    }
    Ok(out)
}

/// `plan` converted to `to` in `format` with the default options.
fn as_is(plan: &Plan, to: DialectId, format: Format) -> Result<Conversion, PlanError> {
    let options = ConvertOptions {
        format: Some(format),
        ..ConvertOptions::default()
    };
    convert(plan, to, &options)
}

/// The size of one form of a plan ([`stats`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FormStats {
    /// A stable key: `source`, `json_pretty`, `json_compact`, `toon`,
    /// `plan_json_compact`, `plan_toon`, `prompt`, `plan_lean` ([`Form::key`]).
    pub key: &'static str,
    /// What the form is, for people (`workflow as TOON`).
    pub label: String,
    /// Its length in bytes (UTF-8).
    pub bytes: usize,
    /// Its length in tokens, as the counter given to [`stats`] counts them.
    pub tokens: usize,
    /// Whether the source converts back from this form unchanged; `None` for the
    /// source itself and the lean form.
    pub lossless: Option<bool>,
    /// Whether the plan's content converts back from this form; `None` where
    /// `lossless` is.
    pub keeps_content: Option<bool>,
}

/// The size of a plan in every form a prompt might hold it ([`forms`]): bytes
/// and tokens, counted by `count_tokens` (an o200k_base counter, say).
///
/// ```
/// use toon_plan::ReadOptions;
/// let text = r#"{"dag": [{"id": "a", "tool": "search", "query": "x", "dependencies": []}]}"#;
/// let loaded = toon_plan::read(text, &ReadOptions::default())?;
/// let words = |s: &str| s.split_whitespace().count();
/// let stats = toon_plan::stats(&loaded, text, &words)?;
/// assert_eq!(stats[0].key, "source");
/// assert_eq!(stats[0].bytes, text.len());
/// assert!(stats.iter().any(|f| f.key == "toon" && f.lossless == Some(true)));
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn stats(
    loaded: &Loaded,
    source: &str,
    count_tokens: &dyn Fn(&str) -> usize,
) -> Result<Vec<FormStats>, PlanError> {
    Ok(forms(loaded, source)?
        .into_iter()
        .map(|f| FormStats {
            key: f.key,
            bytes: f.text.len(),
            tokens: count_tokens(&f.text),
            label: f.label,
            lossless: f.lossless,
            keeps_content: f.keeps_content,
        })
        .collect())
}

/// JSON text without white space.
fn compact_json(text: &str) -> Result<String, PlanError> {
    let tree: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        PlanError::new(
            ErrorKind::Syntax,
            format!("cannot re-read the JSON form: {e}"),
        )
    })?;
    serde_json::to_string(&tree)
        .map_err(|e| PlanError::new(ErrorKind::Shape, format!("cannot write compact JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_with_a_body_has_a_lean_form_without_it() -> Result<(), PlanError> {
        let text = "---\nname: Ship\noverview: Ship it\ntodos:\n  - id: a\n    content: Build\n    status: pending\n---\n\n# Ship\n\nA long body that a prompt does not need.\n";
        let loaded = crate::read(
            text,
            &crate::ReadOptions {
                dialect: Some(DialectId::CURSOR),
                format: Some(Format::Md),
                ..Default::default()
            },
        )?;
        let all = forms(&loaded, text)?;
        let lean_form = all
            .iter()
            .find(|f| f.key == "plan_lean")
            .ok_or_else(|| PlanError::new(crate::ErrorKind::Shape, "no lean form"))?;
        let full = all
            .iter()
            .find(|f| f.key == "plan_toon")
            .ok_or_else(|| PlanError::new(crate::ErrorKind::Shape, "no plan form"))?;
        assert!(!lean_form.text.contains("long body"), "{}", lean_form.text);
        assert!(lean_form.text.contains("Build"), "{}", lean_form.text);
        assert!(lean_form.text.len() < full.text.len());
        // Reading it back gives the plan without its body.
        let back = crate::read(
            &lean_form.text,
            &crate::ReadOptions {
                format: Some(Format::Toon),
                ..Default::default()
            },
        )?;
        assert_eq!(back.plan.tasks, loaded.plan.tasks);
        assert_eq!(back.plan.body, None);
        Ok(())
    }

    #[test]
    fn a_lean_conversion_fills_what_the_body_held_and_reports_the_body() -> Result<(), PlanError> {
        let text = "---\nname: Ship\n---\n\n- [x] **Build** — the binary\n- [ ] Test it\n";
        let loaded = crate::read(
            text,
            &crate::ReadOptions {
                dialect: Some(DialectId::CURSOR),
                format: Some(Format::Md),
                ..Default::default()
            },
        )?;
        let lean = ConvertOptions {
            format: Some(Format::Md),
            lean: true,
            ..ConvertOptions::default()
        };
        let c = convert(&loaded.plan, DialectId::CURSOR, &lean)?;
        // Every todo has its words: the body that held them is gone.
        assert!(c.text.contains("content: the binary"), "{}", c.text);
        assert!(c.text.contains("content: Test it"), "{}", c.text);
        assert!(!c.text.contains("- [x]"), "{}", c.text);
        let dropped: Vec<&str> = c.report.dropped().map(|l| l.field.as_str()).collect();
        assert_eq!(
            dropped[..2],
            ["body", "layout.cursor.body_tasks"],
            "{dropped:?}"
        );
        // To the plan model too, the body is reported.
        let lean = ConvertOptions {
            lean: true,
            ..ConvertOptions::default()
        };
        let m = convert(&loaded.plan, DialectId::PLAN, &lean)?;
        assert!(
            m.report.dropped().any(|l| l.field == "body"),
            "{:#?}",
            m.report
        );
        Ok(())
    }

    /// A workflow markdown file written in its own style: its dialect's JSON and TOON
    /// forms keep the content but not the style, so they are not lossless; the plan
    /// model's forms keep the style and are.
    #[test]
    fn lossless_means_the_round_trip_reports_nothing() -> Result<(), PlanError> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/plans/workflow/valid/onboarding.md"
        );
        let text = std::fs::read_to_string(path)
            .map_err(|e| PlanError::new(crate::ErrorKind::Shape, e.to_string()))?;
        let loaded = crate::read(&text, &crate::ReadOptions::default())?;
        assert!(loaded.plan.layout.entries.contains_key("workflow.md_patch"));
        let all = forms(&loaded, &text)?;
        for f in &all[1..] {
            if f.key == "plan_lean" {
                continue;
            }
            let target = if f.key.starts_with("plan_") || f.key == "prompt" {
                DialectId::PLAN
            } else {
                DialectId::WORKFLOW
            };
            let format = if f.key.contains("json") {
                Format::Json
            } else if f.key == "prompt" {
                Format::Prompt
            } else {
                Format::Toon
            };
            // The round trip by hand: read the form back, write the source again.
            let back = crate::read(
                &f.text,
                &crate::ReadOptions {
                    dialect: Some(target),
                    format: Some(format),
                    ..Default::default()
                },
            )?;
            let again = crate::convert(
                &back.plan,
                DialectId::WORKFLOW,
                &crate::ConvertOptions {
                    format: Some(Format::Md),
                    ..Default::default()
                },
            )
            .map(|c| c.text)?;
            assert_eq!(f.lossless, Some(again == text), "{}", f.key);
            assert_eq!(f.keeps_content, Some(true), "{}", f.key);
        }
        let lossless: Vec<&str> = all
            .iter()
            .filter(|f| f.lossless == Some(true))
            .map(|f| f.key)
            .collect();
        assert_eq!(lossless, ["plan_json_compact", "plan_toon", "prompt"]);
        Ok(())
    }
}
