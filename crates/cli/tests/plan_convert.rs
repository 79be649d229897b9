//! `toon plan convert|validate` as a user runs them: output formats from the file
//! name, TOON recognised on stdin, folders converted keeping each file's name, inputs
//! never written over, files of another dialect reported, TOON errors with a caret.

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

fn toon(args: &[&str], stdin: &str) -> Output {
    common::run_toon(args, stdin.as_bytes())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn testdata(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/plans")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

const WORKFLOW: &str = "workflow/valid/report.json";

#[test]
fn the_output_extension_chooses_the_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("w.toon");
    let o = toon(
        &[
            "plan",
            "convert",
            &testdata(WORKFLOW),
            "--to",
            "workflow",
            "-o",
            path(&out),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(toon::decode_value(&text).is_ok(), "not TOON:\n{text}");
    assert!(
        !text.trim_start().starts_with('{'),
        "JSON written to a .toon file"
    );
    // A --format that contradicts the name is an error, and nothing is written.
    let clash = dir.path().join("w.json");
    let o = toon(
        &[
            "plan",
            "convert",
            &testdata(WORKFLOW),
            "--to",
            "workflow",
            "--format",
            "yaml",
            "-o",
            path(&clash),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--format yaml contradicts the output file"),
        "{}",
        stderr(&o)
    );
    assert!(!clash.exists());
}

#[test]
fn toon_on_stdin_is_read_as_toon() {
    let w = toon(
        &[
            "plan",
            "convert",
            &testdata(WORKFLOW),
            "--to",
            "workflow",
            "--format",
            "toon",
        ],
        "",
    );
    assert!(w.status.success(), "{}", stderr(&w));
    let o = toon(&["plan", "convert", "-", "--to", "plan"], &stdout(&w));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\"title\": \"Weekly sales report\""),
        "{}",
        stdout(&o)
    );
    // The same text in a file without the .toon extension.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("plan.txt");
    std::fs::write(&file, stdout(&w)).unwrap();
    let o = toon(&["plan", "validate", path(&file)], "");
    assert!(
        stdout(&o).contains("ok (workflow toon"),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
}

#[test]
fn toon_errors_in_plans_show_line_column_and_caret() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("bad.toon");
    std::fs::write(&file, "dag[2]{id,tool,query}:\n  a,search,q\n").unwrap();
    let o = toon(&["plan", "validate", path(&file)], "");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("bad.toon: line 2, column 3: invalid TOON: Expected 2 tabular rows, but got 1\n  |\n2 |   a,search,q\n  |   ^"),
        "{err}"
    );
}

#[test]
fn inputs_are_never_written_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("report.json");
    std::fs::copy(testdata(WORKFLOW), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    let o = toon(
        &[
            "plan",
            "convert",
            path(&file),
            "--to",
            "plan",
            "-o",
            path(&file),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("is the input: refusing to write over it"),
        "{}",
        stderr(&o)
    );
    // The output folder is the input folder.
    let o = toon(
        &[
            "plan",
            "convert",
            path(dir.path()),
            "--to",
            "workflow",
            "-o",
            path(dir.path()),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is the input folder"), "{}", stderr(&o));
    // A target that is another source: report.json → out/report.toon, which is itself
    // one of the plans found in the folder.
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let w = toon(
        &[
            "plan",
            "convert",
            path(&file),
            "--to",
            "workflow",
            "-o",
            path(&out.join("report.toon")),
        ],
        "",
    );
    assert!(w.status.success(), "{}", stderr(&w));
    let o = toon(
        &[
            "plan",
            "convert",
            path(dir.path()),
            "--to",
            "workflow",
            "--format",
            "toon",
            "-o",
            path(&out),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("would be written over the input"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).ends_with("nothing written\n"), "{}", stderr(&o));
    // Two sources with one target.
    std::fs::copy(&file, dir.path().join("twin.json")).unwrap();
    std::fs::copy(&file, dir.path().join("twin.yaml")).unwrap();
    let o = toon(
        &[
            "plan",
            "convert",
            path(dir.path()),
            "--to",
            "plan",
            "-o",
            path(&dir.path().join("o2")),
        ],
        "",
    );
    assert!(
        stderr(&o).contains("would both be written to"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
}

#[test]
fn a_folder_round_trip_keeps_every_file_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("plans");
    std::fs::create_dir(&src).unwrap();
    let cursor = testdata("cursor/valid/dark-mode.plan.md");
    std::fs::copy(&cursor, src.join("dark-mode.plan.md")).unwrap();
    std::fs::copy(&cursor, src.join("x-plan.md")).unwrap();
    let toon_dir = dir.path().join("toon");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&src),
            "--to",
            "plan",
            "--format",
            "toon",
            "-o",
            path(&toon_dir),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut names: Vec<String> = std::fs::read_dir(&toon_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["dark-mode.plan.toon", "x-plan.toon"]);
    let back = dir.path().join("back");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&toon_dir),
            "--to",
            "cursor",
            "-o",
            path(&back),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for name in ["dark-mode.plan.md", "x-plan.md"] {
        assert_eq!(
            std::fs::read(back.join(name)).unwrap(),
            std::fs::read(&cursor).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_plan_of_another_dialect_in_a_folder_is_reported_not_converted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("plans");
    std::fs::create_dir(&src).unwrap();
    for name in ["a.plan.md", "b.plan.md"] {
        std::fs::copy(testdata("cursor/valid/dark-mode.plan.md"), src.join(name)).unwrap();
    }
    std::fs::copy(testdata(WORKFLOW), src.join("w.json")).unwrap();
    let out = dir.path().join("out");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&src),
            "--to",
            "plan",
            "-o",
            path(&out),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("w.json: a workflow plan among cursor plans: not converted"),
        "{err}"
    );
    assert!(err.contains("2 of 3 plans converted"), "{err}");
    assert!(!out.join("w.json").exists());
    // Chosen with --from, the odd one out is what is converted (and the others fail).
    let o = toon(
        &[
            "plan",
            "convert",
            path(&src),
            "--from",
            "workflow",
            "--to",
            "plan",
            "-o",
            path(&out),
        ],
        "",
    );
    assert!(out.join("w.json").exists(), "{}", stderr(&o));
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(o)))
}

#[test]
fn validate_show_and_convert_speak_json() {
    let bad = testdata("plandag/invalid/positive-groups.json");
    let o = toon(
        &["plan", "validate", "--json", &testdata(WORKFLOW), &bad],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v[0]["valid"], true);
    assert_eq!(v[0]["dialect"], "workflow");
    assert_eq!(v[1]["valid"], false);
    let p = &v[1]["problems"][0];
    assert_eq!(
        (p["severity"].as_str(), p["rule"].as_str()),
        (Some("error"), Some("positive-groups"))
    );
    assert!(
        p["path"]
            .as_str()
            .is_some_and(|s| s.ends_with("parallel_group")),
        "{p}"
    );

    let o = toon(&["plan", "show", "--json", &testdata(WORKFLOW)], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["title"], "Weekly sales report");
    assert!(v["tasks"].as_array().is_some_and(|t| !t.is_empty()));

    // A conversion that needs a value: refused, with the problem and the derived
    // fields in the report; the text itself is in the JSON when there is no -o.
    let dark = testdata("cursor/valid/dark-mode.plan.md");
    let o = toon(&["plan", "convert", "--json", &dark, "--to", "plandag"], "");
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(
        (v["ok"].as_bool(), v["written"].as_bool()),
        (Some(false), Some(false))
    );
    assert!(v["target_problems"].as_array().is_some_and(|p| {
        p.iter()
            .any(|p| p["path"].as_str().is_some_and(|s| s.ends_with(".action")))
    }));
    let o = toon(
        &[
            "plan",
            "convert",
            "--json",
            &dark,
            "--to",
            "plandag",
            "--set",
            "action=extract",
            "--set",
            "agent_type=api_agent",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    assert!(
        v["text"]
            .as_str()
            .is_some_and(|t| t.contains("\"parallel_group\""))
    );
    let derived = v["losses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["field"] == "parallel_group")
        .expect("a derived parallel_group");
    assert_eq!(
        (derived["change"].as_str(), derived["rule"].as_str()),
        (Some("derived"), Some("schedule wave"))
    );
}

#[test]
fn empty_stdin_is_no_plan() {
    for input in ["", "\n  \n"] {
        let o = toon(&["plan", "convert", "-", "--to", "plan"], input);
        assert_eq!(o.status.code(), Some(1), "{input:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains("error: <stdin>: the input is empty: there is no plan in it"),
            "{input:?}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
}

/// `toon plan convert` and `toon plan validate` of `file` fail with `expected` on
/// stderr and nothing on stdout.
fn convert_and_validate_fail(file: &Path, expected: &str) {
    for args in [
        &["plan", "convert", path(file), "--to", "cursor"][..],
        &["plan", "validate", path(file)],
    ] {
        let o = toon(args, "");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(stderr(&o), expected, "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
}

/// An empty file is said to be empty (in every format, by the plan commands and the
/// codec), and a truncated JSON file's error gives line and column once, before the
/// message.
#[test]
fn empty_and_truncated_files_say_what_is_wrong() {
    let dir = tempfile::tempdir().expect("tempdir");
    for name in [
        "empty.json",
        "empty.yaml",
        "empty.toon",
        "empty.md",
        "blank.json",
    ] {
        let file = dir.path().join(name);
        let text = if name.starts_with("blank") {
            " \n\n"
        } else {
            ""
        };
        std::fs::write(&file, text).unwrap();
        let expected = format!(
            "error: {}: the file is empty: there is no plan in it\n",
            path(&file)
        );
        convert_and_validate_fail(&file, &expected);
        let record = json_of(&toon(&["plan", "validate", "--json", path(&file)], ""));
        let problem = &record[0]["problems"][0];
        assert_eq!(problem["rule"], "empty", "{record}");
        assert_eq!(
            problem["message"], "the file is empty: there is no plan in it",
            "{record}"
        );
    }
    let empty = dir.path().join("empty.json");
    let codec = toon(&[path(&empty)], "");
    assert_eq!(codec.status.code(), Some(1));
    assert_eq!(
        stderr(&codec),
        format!(
            "error: {}: the file is empty: there is no JSON value to encode\n",
            path(&empty)
        )
    );
    let piped = toon(&["-"], "");
    assert_eq!(
        stderr(&piped),
        "error: <stdin>: the input is empty: there is no JSON value to encode\n"
    );
    // Empty TOON is a valid document (the empty object): the codec decodes it.
    let toon_file = dir.path().join("empty.toon");
    let decoded = toon(&[path(&toon_file)], "");
    assert_eq!(
        (decoded.status.code(), stdout(&decoded)),
        (Some(0), "{}\n".to_owned())
    );
    // A blank Cursor plan file is an empty plan.
    let blank_plan = dir.path().join("blank.plan.md");
    std::fs::write(&blank_plan, "").unwrap();
    let o = toon(&["plan", "validate", path(&blank_plan)], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Truncated JSON: `line 1, column 41: …`, not `line 1: … (column 41)`.
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, r#"{"dag": [{"id": "a", "tool": "x", "query""#).unwrap();
    let expected = format!(
        "error: {}: line 1, column 41: invalid JSON: EOF while parsing an object\n",
        path(&truncated)
    );
    convert_and_validate_fail(&truncated, &expected);
    let codec = toon(&[path(&truncated)], "");
    assert!(
        stderr(&codec).starts_with(&format!(
            "error: {}: line 1, column 41: Invalid JSON: EOF while parsing an object\n",
            path(&truncated)
        )),
        "{}",
        stderr(&codec)
    );
}

/// One error style: `error: <stdin>: line …` from the codec and the plan commands.
#[test]
fn stdin_is_named_as_the_codec_names_it() {
    let plan = toon(&["plan", "validate", "-"], "{\"x\": 1");
    assert!(
        stderr(&plan).starts_with("error: <stdin>: line 1"),
        "{}",
        stderr(&plan)
    );
    let codec = toon(&["-d"], "a: \"x");
    assert!(
        stderr(&codec).starts_with("error: <stdin>: line 1"),
        "{}",
        stderr(&codec)
    );
    let plan = std::fs::read_to_string(testdata("cursor/valid/checklist.plan.md")).unwrap();
    let stats = toon(&["plan", "stats", "-"], &plan);
    assert!(
        stdout(&stats).starts_with("<stdin> — cursor plan (md)"),
        "{}",
        stdout(&stats)
    );
    let stats = json_of(&toon(&["plan", "stats", "--json", "-"], &plan));
    assert_eq!(stats["file"], "<stdin>");
}

#[test]
fn help_and_errors_list_every_registered_dialect() {
    let names: Vec<&str> = toon_plan::DialectId::all().map(|d| d.name()).collect();
    let listed = format!("[possible values: {}]", names.join(", "));
    for args in [
        &["plan", "convert", "--help"][..],
        &["plan", "validate", "--help"],
        &["plan", "schema", "--help"],
    ] {
        let o = toon(args, "");
        assert!(stdout(&o).contains(&listed), "{args:?}: {}", stdout(&o));
    }
    let o = toon(&["plan", "convert", "x.json", "--to", "nope"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&listed), "{}", stderr(&o));
}

#[test]
fn toon_in_any_file_and_a_checklist_on_stdin_are_recognised() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = toon(
        &[
            "plan",
            "convert",
            &testdata("cursor/valid/dark-mode.plan.md"),
            "--to",
            "plan",
            "--format",
            "toon",
        ],
        "",
    );
    assert!(model.status.success(), "{}", stderr(&model));
    for name in ["m.yaml", "m.md", "m.json", "m.txt"] {
        let f = dir.path().join(name);
        std::fs::write(&f, &model.stdout).unwrap();
        let o = toon(&["plan", "validate", path(&f)], "");
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("ok (plan toon, 4 tasks)"),
            "{name}: {}",
            stdout(&o)
        );
    }
    let o = toon(
        &["plan", "convert", "-", "--to", "plan", "--format", "json"],
        "- [ ] alpha\n- [x] beta\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["tasks"].as_array().map(Vec::len), Some(2), "{v}");
}

#[test]
fn a_folder_does_not_convert_into_a_file_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("plans");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(
        testdata("cursor/valid/dark-mode.plan.md"),
        src.join("d.plan.md"),
    )
    .unwrap();
    let out = dir.path().join("single.toon");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&src),
            "--to",
            "plan",
            "-o",
            path(&out),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("a folder converts into a folder"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}

#[test]
fn json_records_locate_unreadable_files_and_name_what_set_fills() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("short.toon");
    std::fs::write(&bad, "tasks[2]:\n  - id: a\n").unwrap();
    for args in [
        &["plan", "validate", "--json", path(&bad)][..],
        &["plan", "show", "--json", path(&bad)],
        &["plan", "convert", "--json", path(&bad), "--to", "cursor"],
        &["plan", "stats", "--json", path(&bad)],
        &["plan", "schedule", "--json", path(&bad)],
    ] {
        let o = toon(args, "");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&o))
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)));
        let record = if v.is_array() { &v[0] } else { &v };
        let p = &record["problems"][0];
        assert_eq!(
            (&p["line"], &p["column"]),
            (&2.into(), &3.into()),
            "{args:?}: {v}"
        );
        assert_eq!(p["rule"], "syntax");
        assert!(record["error"].as_str().unwrap().contains("^"), "{v}");
    }
    // A refused conversion names the fields --set fills.
    let o = toon(
        &[
            "plan",
            "convert",
            "--json",
            &testdata("cursor/valid/dark-mode.plan.md"),
            "--to",
            "tooldag",
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["settable"], serde_json::json!(["tool"]), "{v}");
    assert_eq!(v["written"], false);
    // Folder entries say whether each was written, as a single file's record does.
    let src = dir.path().join("plans");
    std::fs::create_dir(&src).unwrap();
    std::fs::copy(
        testdata("cursor/valid/dark-mode.plan.md"),
        src.join("d.plan.md"),
    )
    .unwrap();
    let out = dir.path().join("out");
    let o = toon(
        &[
            "plan",
            "convert",
            "--json",
            path(&src),
            "--to",
            "plan",
            "-o",
            path(&out),
        ],
        "",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let entries = v
        .as_array()
        .map(|a| a.to_vec())
        .or_else(|| v["files"].as_array().cloned())
        .unwrap_or_default();
    assert!(!entries.is_empty(), "{v}");
    assert!(entries.iter().all(|e| e["written"] == true), "{v}");
}

#[test]
fn an_unknown_status_is_a_warning_and_kept() {
    let src = testdata("cursor/valid/unknown-status.plan.md");
    for cmd in ["show", "schedule", "graph", "validate"] {
        let o = toon(&["plan", cmd, &src], "");
        assert!(o.status.success(), "plan {cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("warning: unknown status \"blocked\""),
            "plan {cmd}: {}",
            stderr(&o)
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("p.toon");
    let o = toon(
        &["plan", "convert", &src, "--to", "plan", "-o", path(&out)],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: unknown status"),
        "{}",
        stderr(&o)
    );
    let back = dir.path().join("back.plan.md");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&out),
            "--to",
            "cursor",
            "-o",
            path(&back),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&back).unwrap(),
        std::fs::read_to_string(&src).unwrap()
    );
}

#[test]
fn a_forced_folder_counts_each_file_once_and_says_why_the_target_refuses() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("in");
    std::fs::create_dir(&src).unwrap();
    for f in ["valid/dark-mode.plan.md", "invalid/acyclic.plan.md"] {
        let from = testdata(&format!("cursor/{f}"));
        let name = Path::new(f).file_name().unwrap();
        std::fs::copy(&from, src.join(name)).unwrap();
    }
    let out = dir.path().join("out");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&src),
            "--to",
            "tooldag",
            "-o",
            path(&out),
            "--force",
        ],
        "",
    );
    let err = stderr(&o);
    assert!(
        err.contains("2 of 2 plans converted to tooldag json")
            && err.contains("(2 despite errors); 2 with losses"),
        "{err}"
    );
    // Missing tools are values a setting gives; the cycle is one the source holds.
    assert!(
        err.contains("dark-mode.plan.md: written anyway (--force): as tooldag it fails tooldag's own validation with 4 error(s) (it needs values the source does not give):"),
        "{err}"
    );
    assert!(err.contains("and does not accept some it holds"), "{err}");
}

#[test]
fn a_line_in_a_target_error_is_one_of_the_text_written() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = dir.path().join("cycle.toon");
    let src = testdata("cursor/invalid/acyclic.plan.md");
    let o = toon(
        &[
            "plan",
            "convert",
            &src,
            "--to",
            "plan",
            "-o",
            path(&model),
            "--force",
        ],
        "",
    );
    assert!(model.exists(), "{}", stderr(&o));
    let md = dir.path().join("cycle.plan.md");
    let o = toon(
        &[
            "plan",
            "convert",
            path(&model),
            "--to",
            "cursor",
            "-o",
            path(&md),
            "--force",
        ],
        "",
    );
    assert!(
        stderr(&o).contains("  line 5 of the cursor md written: dependency cycle"),
        "{}",
        stderr(&o)
    );
}
