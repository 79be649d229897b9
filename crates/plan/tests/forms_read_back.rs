//! Every form `toon plan stats` lists reads back, without being told its dialect, as the
//! plan it was written from: over every test plan (valid and messy) and every form.

use std::path::{Path, PathBuf};

use toon_plan::forms::{Form, forms};
use toon_plan::{DialectId, Format, LossReport, Plan, ReadOptions};

fn plans() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans");
    let mut out = Vec::new();
    for dialect in std::fs::read_dir(&root).unwrap() {
        let dialect = dialect.unwrap().path();
        for kind in ["valid", "messy"] {
            if let Ok(entries) = std::fs::read_dir(dialect.join(kind)) {
                out.extend(entries.map(|e| e.unwrap().path()));
            }
        }
    }
    out.sort();
    out
}

/// The dialect and format a form is written in.
fn written_as(form: &Form, source: DialectId) -> (DialectId, Format) {
    match form.key {
        "prompt" => (DialectId::PLAN, Format::Prompt),
        "plan_json_compact" => (DialectId::PLAN, Format::Json),
        "plan_toon" | "plan_lean" => (DialectId::PLAN, Format::Toon),
        "json_pretty" | "json_compact" => (source, Format::Json),
        "toon" => (source, Format::Toon),
        other => panic!("unknown form {other}"),
    }
}

/// A plan as the model compares it: the dialect it came from is not part of it.
/// What a form must give back: the plan, without the dialect it was read from; for a
/// dialect's own forms also without its layout (how the text was laid out: a compact
/// JSON form of a Task Master file is laid out otherwise than the file), which only
/// the plan model's forms carry.
fn content(plan: &Plan, with_layout: bool) -> Plan {
    let mut p = plan.clone();
    p.set_source_dialect(None);
    if !with_layout {
        p.layout = toon_plan::Layout::default();
    }
    p
}

fn check(path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    let options = ReadOptions {
        file_name: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    let loaded = toon_plan::read(&text, &options).unwrap();
    let name = path.display();
    let all = forms(&loaded, &text).unwrap();
    assert!(
        all.iter().any(|f| f.key == "prompt"),
        "{name}: no prompt form"
    );
    for form in &all[1..] {
        let (dialect, format) = written_as(form, loaded.dialect);
        let back = toon_plan::read(
            &form.text,
            &ReadOptions {
                format: Some(format),
                ..ReadOptions::default()
            },
        )
        .unwrap_or_else(|e| panic!("{name}: {} does not read back: {e}", form.key));
        assert_eq!(back.dialect, dialect, "{name}: {} read as", form.key);
        // The prompt form is told from its text alone.
        if format == Format::Prompt {
            assert_eq!(Format::sniff(&form.text), format, "{name}");
        }
        if form.key == "plan_lean" {
            assert_eq!(form.lossless, None, "{name}");
            continue;
        }
        if form.key.starts_with("plan_") || form.key == "prompt" {
            // The plan model holds everything: it is lossless.
            assert_eq!(form.lossless, Some(true), "{name}: {}", form.key);
        }
        if form.lossless == Some(true) {
            // Lossless: the very plan comes back (numbers compared as numbers: TOON
            // writes `30.0` as `30`).
            let model = form.key.starts_with("plan_") || form.key == "prompt";
            let diff =
                LossReport::between(&content(&loaded.plan, model), &content(&back.plan, model));
            assert!(diff.is_empty(), "{name}: {}: {diff:?}", form.key);
        }
    }
}

#[test]
fn every_form_of_every_test_plan_reads_back() {
    let paths = plans();
    assert!(paths.len() > 20, "{} plans", paths.len());
    for path in paths {
        check(&path);
    }
}

#[test]
fn cursor_trees_without_name_or_todos_are_read_as_cursor() {
    let text = "---\nStatus: shipped\n---\n\n# Notes\n\nSome text.\n";
    let loaded = toon_plan::read(text, &ReadOptions::dialect(DialectId::CURSOR)).unwrap();
    for format in [Format::Json, Format::Yaml, Format::Toon] {
        let out = toon_plan::convert(
            &loaded.plan,
            DialectId::CURSOR,
            &toon_plan::ConvertOptions {
                format: Some(format),
                ..Default::default()
            },
        )
        .unwrap();
        let back = toon_plan::read(&out.text, &ReadOptions::default()).unwrap();
        assert_eq!(back.dialect, DialectId::CURSOR, "{format}: {}", out.text);
        assert_eq!(back.plan.body, loaded.plan.body, "{format}");
        assert_eq!(back.plan.extra, loaded.plan.extra, "{format}");
    }
    let stats = toon_plan::stats(&loaded, text, &|s: &str| s.len()).unwrap();
    for key in ["json_pretty", "json_compact", "toon"] {
        let form = stats.iter().find(|f| f.key == key).unwrap();
        assert_eq!(form.lossless, Some(true), "{key}");
    }
}

#[test]
fn the_prompt_form_is_toon_front_matter_and_the_body_as_written() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans/cursor/messy/restyled-scalars.plan.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let loaded = toon_plan::read(&text, &ReadOptions::default()).unwrap();
    let out = toon_plan::convert(
        &loaded.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Prompt),
            ..Default::default()
        },
    )
    .unwrap();
    let body = loaded.plan.body.as_deref().unwrap();
    assert!(
        out.text.starts_with("---\nschema: toon-plan/1\n"),
        "{}",
        out.text
    );
    assert!(
        out.text.ends_with(&format!("\n---\n{body}")),
        "{}",
        out.text
    );
    // The front matter is plain TOON: the TOON decoder reads it.
    let front = &out.text[4..out.text.len() - body.len() - 4];
    let tree = toon::decode_value(front).unwrap();
    assert!(
        !format!("{tree:?}").contains("hotfix lane ships"),
        "no body in it"
    );
    // Broken prompt forms are errors with a line.
    let unclosed = out.text.replace("\n---\n", "\n--\n");
    let e = toon_plan::read(
        &unclosed,
        &ReadOptions {
            format: Some(Format::Prompt),
            ..ReadOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.location, toon_plan::Location::Line(1), "{e}");
    let bad = out
        .text
        .replacen("schema: toon-plan/1\n", "schema: toon-plan/1\n  x: [\n", 1);
    let e = toon_plan::read(&bad, &ReadOptions::default()).unwrap_err();
    assert!(
        matches!(e.location, toon_plan::Location::Line(n) if n >= 3),
        "{e}"
    );
}

#[test]
fn plan_toon_writes_a_body_as_its_lines_and_reads_either() {
    let text = "---\nname: x\n---\n\n# T\n\n- a, \"b\"\n";
    let loaded = toon_plan::read(text, &ReadOptions::dialect(DialectId::CURSOR)).unwrap();
    let toon = toon_plan::convert(
        &loaded.plan,
        DialectId::PLAN,
        &toon_plan::ConvertOptions {
            format: Some(Format::Toon),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(toon.text.contains("body[5]: "), "{}", toon.text);
    let json = toon_plan::convert(&loaded.plan, DialectId::PLAN, &Default::default()).unwrap();
    assert!(
        json.text.contains("\"body\": [\n    \"\",\n    \"# T\","),
        "{}",
        json.text
    );
    for out in [toon.text, json.text] {
        let back = toon_plan::read(&out, &ReadOptions::default()).unwrap();
        assert_eq!(back.plan.body, loaded.plan.body);
        assert!(toon_plan::validate(&back).is_empty(), "{out}");
    }
}
