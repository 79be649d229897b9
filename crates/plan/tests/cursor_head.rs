//! A Cursor plan's front matter is stored once: as the plan's structured fields, plus
//! (when the file is not written the canonical way) only the lines where its head
//! differs, never the whole head beside the fields.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use toon_plan::{DialectId, Format};

mod model_json;

fn cursor_files() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans/cursor");
    let mut out = Vec::new();
    for dir in ["valid", "messy"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out.sort();
    out
}

fn read(p: &Path) -> (String, toon_plan::Loaded) {
    let text = std::fs::read_to_string(p).unwrap();
    let loaded = toon_plan::read(
        &text,
        &toon_plan::ReadOptions {
            file_name: Some(std::path::PathBuf::from(p)),
            ..Default::default()
        },
    )
    .unwrap();
    (text, loaded)
}

/// The plan model of a loaded plan as JSON.
fn plan_json(loaded: &toon_plan::Loaded) -> Value {
    model_json::of(&loaded.plan)
}

fn to_cursor(plan: &Value) -> String {
    model_json::to_markdown(plan, DialectId::CURSOR)
}

/// The head of a Cursor file: its front matter with the fences.
fn head_of(text: &str) -> &str {
    let t = text.trim_start_matches('\u{feff}');
    if !t.starts_with("---") {
        return "";
    }
    let end = t[3..].find("\n---").map_or(t.len(), |i| i + 3 + 4);
    let end = t[end..].find('\n').map_or(t.len(), |i| end + i + 1);
    &t[..end]
}

#[test]
fn no_plan_keeps_its_whole_head_and_every_file_comes_back() {
    let mut patched = 0;
    for p in cursor_files() {
        let (text, loaded) = read(&p);
        let plan = plan_json(&loaded);
        let layout = plan.get("layout").cloned().unwrap_or(json!({}));
        assert!(
            layout.get("cursor.head").is_none(),
            "{}: the whole head is stored beside its fields",
            p.display()
        );
        if let Some(hunks) = layout.get("cursor.head_patch") {
            patched += 1;
            let kept: usize = hunks
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["text"].as_str().unwrap().len())
                .sum();
            // Where the plan's fields render no head at all (all empty), the head
            // is all there is to keep; otherwise the patch is smaller than the head.
            let mut bare = plan.clone();
            bare["layout"]
                .as_object_mut()
                .unwrap()
                .shift_remove("cursor.head_patch");
            let lf = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
            let body = plan["body"].as_str().unwrap_or("");
            let head = lf.strip_suffix(body).unwrap_or(&lf);
            assert!(
                head_of(&to_cursor(&bare)).is_empty() || kept < head.len(),
                "{}: the patch keeps {kept} bytes of a {}-byte head",
                p.display(),
                head.len()
            );
        }
        assert_eq!(to_cursor(&plan), text, "{}", p.display());
    }
    assert!(patched >= 5, "only {patched} files needed a patch");
}

#[test]
fn a_head_kept_whole_by_an_older_writer_is_still_written_back() {
    let text =
        "---\nname: 'Search page'\noverview: Find plans by title.\n---\n\n- [ ] Index titles\n";
    let loaded = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    let mut plan = plan_json(&loaded);
    let layout = plan["layout"].as_object_mut().unwrap();
    assert!(layout.shift_remove("cursor.head_styles").is_some());
    assert_ne!(
        to_cursor(&plan),
        text,
        "without its patch the head is canonical"
    );
    plan["layout"]["cursor.head"] = Value::String(head_of(text).to_owned());
    assert_eq!(to_cursor(&plan), text);
}

#[test]
fn an_edited_title_wins_over_the_patch() {
    let text = "---\nname: 'Fix login'\noverview: Retry once\ntodos:\n  - id: a\n    content: A\n    status: pending\n---\nBody\n";
    let loaded = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    let mut plan = plan_json(&loaded);
    // A line that differs only in its quoting is kept as its number, not its text.
    assert_eq!(plan["layout"]["cursor.head_styles"], json!({"single": [2]}));
    assert_eq!(plan["layout"].get("cursor.head_patch"), None);
    assert_eq!(to_cursor(&plan), text);
    // The edited value wins; its line keeps its style.
    plan["title"] = json!("Fix logout");
    let edited = to_cursor(&plan);
    assert!(
        edited.starts_with("---\nname: 'Fix logout'\noverview: Retry once\n"),
        "{edited}"
    );
    // The lines the patch did not touch still follow the plan.
    plan["tasks"][0]["description"] = json!("B");
    plan["title"] = json!("Fix login");
    let edited = to_cursor(&plan);
    assert!(edited.contains("name: 'Fix login'\n"), "{edited}");
    assert!(edited.contains("    content: B\n"), "{edited}");
}

#[test]
fn a_patch_that_does_not_fit_falls_back_to_the_canonical_head() {
    let text = "---\nname: 'Fix login'\n---\nBody\n";
    let loaded = toon_plan::read(
        text,
        &toon_plan::ReadOptions {
            dialect: Some(DialectId::CURSOR),
            format: Some(Format::Md),
            ..Default::default()
        },
    )
    .unwrap();
    let mut plan = plan_json(&loaded);
    plan["layout"]["cursor.head_patch"] = json!([{"line": 40, "cut": 3, "text": "x: 1\n"}]);
    // A head without `todos` keeps none: the plan's tasks are its body's (none here).
    let canonical = "---\nname: Fix login\n---\nBody\n";
    assert_eq!(to_cursor(&plan), canonical);
    plan["layout"]["cursor.head_patch"] = json!("not a patch");
    assert_eq!(to_cursor(&plan), canonical);
}
