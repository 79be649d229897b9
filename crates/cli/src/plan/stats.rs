//! `toon plan stats FILE`: bytes and exact o200k_base tokens of one plan in its own
//! source, its dialect as JSON and as TOON, and the plan model as TOON.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::json;
use toon_plan::{DialectId, FormStats, Format};
use toon_tokens::{Bpe, Tokenizer, percent_change, thousands};

/// Arguments of `toon plan stats`.
#[derive(clap::Args, Debug)]
pub struct PlanStatsArgs {
    /// The plan file.
    pub file: PathBuf,
    /// Dialect of the file; detected from the content when absent.
    #[arg(long, value_name = "DIALECT", value_parser = super::dialect_parser())]
    pub from: Option<DialectId>,
    /// Format of the file (json, yaml, toon, md); from the extension when absent.
    #[arg(long, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Print the figures as JSON (`{file, dialect, format, tokenizer, forms: {key:
    /// {label, bytes, tokens, lossless, keeps_content}}}`; `lossless`: the
    /// source converts back from the form unchanged, `keeps_content`: its content does).
    #[arg(long)]
    pub json: bool,
}

/// Runs `toon plan stats`, printing its own errors to stderr.
pub fn run(args: &PlanStatsArgs) -> ExitCode {
    let (text, loaded) = match super::load_with_text(&args.file, args.from, args.format) {
        Ok(x) => x,
        Err(e) => {
            e.report(&args.file, args.json);
            return ExitCode::FAILURE;
        }
    };
    let result = Bpe::o200k_base()
        .map_err(|e| format!("cannot count tokens: {e}"))
        .and_then(|bpe| stats(args, &text, &loaded, &bpe));
    match result.and_then(|out| {
        crate::output::emit(None, format!("{out}\n").as_bytes())
            .map_err(|e| format!("cannot write stdout: {}", crate::output::describe_io(&e)))
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            errln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn stats(
    args: &PlanStatsArgs,
    text: &str,
    loaded: &toon_plan::Loaded,
    tokenizer: &dyn Tokenizer,
) -> Result<String, String> {
    let count = |s: &str| tokenizer.count(s);
    let rows = toon_plan::stats(loaded, text, &count)
        .map_err(|e| format!("{}: {e}", crate::output::input_name(Some(&args.file))))?;
    Ok(if args.json {
        to_json(&args.file, loaded, &rows, tokenizer.name())
    } else {
        table(&args.file, loaded, &rows, tokenizer.name())
    })
}

/// The library's figures as JSON, the forms by key.
fn to_json(file: &Path, loaded: &toon_plan::Loaded, rows: &[FormStats], tokenizer: &str) -> String {
    let forms: serde_json::Map<String, serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut figures = super::json::value(r);
            if let Some(o) = figures.as_object_mut() {
                o.remove("key");
            }
            (r.key.to_owned(), figures)
        })
        .collect();
    json!({
        "file": crate::output::input_name(Some(file)),
        "dialect": loaded.dialect.name(),
        "format": loaded.format.name(),
        "tokenizer": tokenizer,
        "forms": forms,
    })
    .to_string()
}

fn table(file: &Path, loaded: &toon_plan::Loaded, rows: &[FormStats], tokenizer: &str) -> String {
    let mut out = format!(
        "{} — {} plan ({}), {} tasks — exact {tokenizer} token counts\n\n",
        crate::output::input_name(Some(file)),
        loaded.dialect,
        loaded.format,
        loaded.plan.tasks.len()
    );
    let width = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(4);
    let _ = writeln!(
        out,
        "{:<width$} {:>10} {:>10} {:>10}  lossless",
        "form", "bytes", "tokens", "vs source"
    );
    let source = rows.first().map_or(0, |r| r.tokens);
    for (i, r) in rows.iter().enumerate() {
        let change = if i == 0 {
            "baseline".to_owned()
        } else {
            percent_change(source, r.tokens)
        };
        let lossless = match (r.lossless, r.keeps_content) {
            (None, _) => "",
            (Some(true), _) => "yes",
            (Some(false), Some(true)) => "content only (not the source's layout)",
            (Some(false), _) => "no (see toon plan convert)",
        };
        let line = format!(
            "{:<width$} {:>10} {:>10} {:>10}  {lossless}",
            r.label,
            thousands(r.bytes),
            thousands(r.tokens),
            change
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    // The smallest form that holds the whole plan (the lean form leaves the body out),
    // and a smaller one that holds its content when there is one.
    let smallest =
        |keep: fn(&FormStats) -> bool| rows.iter().filter(|r| keep(r)).min_by_key(|r| r.tokens);
    let lossless = smallest(|f| f.lossless == Some(true));
    let content = smallest(|f| f.keeps_content == Some(true))
        .filter(|c| lossless.is_none_or(|l| c.tokens < l.tokens));
    for (what, best) in [
        ("smallest lossless", lossless),
        (
            "smallest keeping the content (not the source's layout)",
            content,
        ),
    ] {
        if let Some(best) = best {
            let _ = write!(
                out,
                "\n{what}: {} ({} tokens, {} against the source)",
                best.label,
                thousands(best.tokens),
                percent_change(source, best.tokens)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`stats`] of the file `args` names.
    fn stats_file(args: &PlanStatsArgs, tokenizer: &dyn Tokenizer) -> Result<String, String> {
        let (text, loaded) = super::super::load_with_text(&args.file, args.from, args.format)?;
        stats(args, &text, &loaded, tokenizer)
    }

    /// One token per whitespace-separated word: simple enough to check by hand.
    struct Words;
    impl Tokenizer for Words {
        fn name(&self) -> &'static str {
            "words"
        }
        fn count(&self, text: &str) -> usize {
            text.split_whitespace().count()
        }
    }

    const TOOLDAG: &str = r#"{"dag": [
  {"id": "a", "tool": "search", "query": "rust-toon", "dependencies": []},
  {"id": "b", "tool": "calc", "query": "{{a.result}}+1", "dependencies": ["a"]}
]}"#;

    fn args(dir: &tempfile::TempDir, json: bool) -> PlanStatsArgs {
        let file = dir.path().join("dag.json");
        std::fs::write(&file, TOOLDAG).expect("write plan");
        PlanStatsArgs {
            file,
            from: None,
            format: None,
            json,
        }
    }

    #[test]
    fn json_output_counts_every_form_with_the_tokenizer() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = stats_file(&args(&dir, true), &Words)?;
        let v: serde_json::Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
        assert_eq!(v["dialect"], "tooldag");
        assert_eq!(v["tokenizer"], "words");
        let forms = v["forms"].as_object().ok_or("no forms")?;
        let keys: Vec<&str> = forms.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "source",
                "json_pretty",
                "json_compact",
                "toon",
                "plan_json_compact",
                "plan_toon",
                "prompt"
            ]
        );
        // The source's counts are those of the file as written.
        assert_eq!(forms["source"]["bytes"], TOOLDAG.len());
        assert_eq!(
            forms["source"]["tokens"],
            TOOLDAG.split_whitespace().count()
        );
        assert_eq!(forms["source"]["lossless"], serde_json::Value::Null);
        // Compact JSON has no white space at all: one "word".
        assert_eq!(forms["json_compact"]["tokens"], 1);
        assert_eq!(forms["plan_json_compact"]["tokens"], 1);
        for key in ["json_pretty", "toon", "plan_json_compact", "plan_toon"] {
            assert_eq!(forms[key]["lossless"], true, "{key}");
        }
        Ok(())
    }

    #[test]
    fn table_names_the_plan_and_the_smallest_form() -> Result<(), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = stats_file(&args(&dir, false), &Words)?;
        assert!(out.contains("tooldag plan (json), 2 tasks"), "{out}");
        assert!(out.contains("baseline"), "{out}");
        assert!(out.contains("tooldag as TOON "), "{out}");
        assert!(
            out.contains("\nsmallest lossless: tooldag as JSON (compact) (1 tokens"),
            "{out}"
        );
        Ok(())
    }

    /// A workflow markdown file in its own style: the workflow JSON and TOON forms
    /// drop its `workflow.md_patch`, so they are not lossless, and the advice names a
    /// form the file converts back from unchanged.
    #[test]
    fn lossless_forms_are_those_the_source_converts_back_from() -> Result<(), String> {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/plans/workflow/valid/onboarding.md");
        let mut a = PlanStatsArgs {
            file,
            from: None,
            format: None,
            json: true,
        };
        let v: serde_json::Value =
            serde_json::from_str(&stats_file(&a, &Words)?).map_err(|e| e.to_string())?;
        for key in ["json_pretty", "json_compact", "toon"] {
            assert_eq!(v["forms"][key]["lossless"], false, "{key}");
            assert_eq!(v["forms"][key]["keeps_content"], true, "{key}");
        }
        for key in ["plan_json_compact", "plan_toon"] {
            assert_eq!(v["forms"][key]["lossless"], true, "{key}");
        }
        a.json = false;
        let out = stats_file(&a, &Words)?;
        assert!(
            out.contains("workflow as JSON (compact)") && out.contains("content only"),
            "{out}"
        );
        let advice = out
            .split("\nsmallest lossless: ")
            .nth(1)
            .ok_or(out.clone())?;
        assert!(advice.starts_with("plan model as "), "{out}");
        Ok(())
    }

    #[test]
    fn unreadable_plans_are_errors_naming_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join("x.json");
        std::fs::write(&file, "{\"nothing\": 1}").expect("write");
        let err = stats_file(
            &PlanStatsArgs {
                file: file.clone(),
                from: None,
                format: None,
                json: false,
            },
            &Words,
        )
        .expect_err("not a plan");
        assert!(err.contains(&file.display().to_string()), "{err}");
    }
}
