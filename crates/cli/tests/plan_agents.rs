//! `toon plan instructions` and `--model-output` through the binary: every dialect's
//! block has an example that `toon plan validate` accepts and a token count; the answers
//! of `testdata/model-output` validate (or fail) as `expected.json` says, with its lines
//! on stderr; `convert --model-output` writes the converted plan and never over its input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn toon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(args)
        .output()
        .expect("runs")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_dialects_instructions_example_validates() {
    let dir = tempfile::tempdir().unwrap();
    for dialect in [
        "cursor",
        "plandag",
        "composite",
        "workflow",
        "staged",
        "tooldag",
        "plan",
    ] {
        let out = toon(&["plan", "instructions", "--to", dialect]);
        assert!(out.status.success(), "{dialect}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let tokens: usize = stderr
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or_else(|| panic!("{dialect}: no token count in {stderr:?}"));
        assert!((200..2000).contains(&tokens), "{dialect}: {tokens} tokens");
        let example = text
            .split("```toon\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .unwrap_or_else(|| panic!("{dialect}: no example"));
        let file = dir.path().join(format!("{dialect}.toon"));
        std::fs::write(&file, example).unwrap();
        let check = toon(&[
            "plan",
            "validate",
            "--from",
            dialect,
            file.to_str().unwrap(),
        ]);
        assert!(check.status.success(), "{dialect}: {check:?}\n{example}");
        // The answer with the whole block around it reads the same.
        let answer = dir.path().join(format!("{dialect}.md"));
        std::fs::write(&answer, format!("Sure.\n\n{text}\nAnything else?\n")).unwrap();
        let read = toon(&[
            "plan",
            "validate",
            "--model-output",
            "--from",
            dialect,
            answer.to_str().unwrap(),
        ]);
        assert!(read.status.success(), "{dialect}: {read:?}");
    }
}

#[test]
fn model_answers_validate_as_expected() {
    let dir = root().join("testdata/model-output");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    for (file, want) in expected.as_object().unwrap() {
        let path = dir.join(file);
        let out = toon(&[
            "plan",
            "validate",
            "--model-output",
            "--from",
            want["dialect"].as_str().unwrap(),
            path.to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.success(),
            want["valid"] == true,
            "{file}: {out:?}"
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        for line in want["lines"].as_array().unwrap() {
            let line = format!("{}: {}", path.display(), line.as_str().unwrap());
            assert!(stderr.contains(&line), "{file}: {line:?} not in {stderr:?}");
        }
        let json = toon(&[
            "plan",
            "validate",
            "--model-output",
            "--json",
            "--from",
            want["dialect"].as_str().unwrap(),
            path.to_str().unwrap(),
        ]);
        let record: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(record["lines"], want["lines"], "{file}");
        assert_eq!(record["first_line"], want["first_line"], "{file}");
    }
}

#[test]
fn convert_model_output_writes_the_plan_and_refuses_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.md");
    std::fs::copy(root().join("testdata/model-output/crlf.md"), &answer).unwrap();
    let out = dir.path().join("plan.json");
    let o = toon(&[
        "plan",
        "convert",
        "--model-output",
        "--from",
        "composite",
        "--to",
        "tooldag",
        "--set",
        "tool=editor",
        answer.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{o:?}");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written["dag"][1]["dependencies"][0], "schema");
    let before = std::fs::read(&answer).unwrap();
    let o = toon(&[
        "plan",
        "convert",
        "--model-output",
        "--from",
        "composite",
        "--to",
        "composite",
        answer.to_str().unwrap(),
        "-o",
        answer.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(&answer).unwrap(), before);
    // An answer with errors is not converted.
    let bad = root().join("testdata/model-output/missing-field.md");
    let o = toon(&[
        "plan",
        "convert",
        "--model-output",
        "--from",
        "tooldag",
        "--to",
        "composite",
        bad.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(o.stdout.is_empty());
}
