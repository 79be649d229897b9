//! What agents use: the prompt block of every dialect (its example validates, it names
//! every field and closed vocabulary) and the reading of model answers in the shapes
//! models write them (`testdata/model-output`, expected results in `expected.json`).

use std::path::Path;

use toon_plan::table::{Kind, Table};
use toon_plan::{DialectId, instructions, read_model_output};

fn all_tables(root: &'static Table) -> Vec<&'static Table> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        for f in out[i].fields {
            if let Kind::Items(t) | Kind::Nested(t) = f.kind {
                out.push(t);
            }
        }
        i += 1;
    }
    out
}

#[test]
fn every_dialects_instructions_name_its_fields_and_their_example_validates() {
    for dialect in DialectId::all() {
        let Some(root) = dialect.dialect().table() else {
            continue;
        };
        let ins = instructions(dialect).unwrap_or_else(|e| panic!("{dialect}: {e}"));
        for t in all_tables(root) {
            for f in t
                .fields
                .iter()
                .filter(|f| toon_plan::instructions::taught(f))
            {
                assert!(
                    ins.text.contains(&format!("  {},", f.key)),
                    "{dialect}: field {} missing",
                    f.key
                );
                for c in f.choices() {
                    assert!(
                        ins.text.contains(c.value),
                        "{dialect}: {} value {}",
                        f.key,
                        c.value
                    );
                }
            }
        }
        // The example, answered the way a model would, reads back valid.
        let answer = format!("Here is the plan.\n\n```toon\n{}```\n", ins.example);
        let read = read_model_output(&answer, dialect);
        assert!(
            read.valid,
            "{dialect}: example invalid: {:?}\n{}",
            read.lines, ins.example
        );
        assert!(read.lines.is_empty(), "{dialect}: {:?}", read.lines);
        let tasks = read.plan.expect("a plan").tasks.len();
        assert!(tasks >= 2, "{dialect}: {tasks} tasks in the example");
        assert!(
            ins.text.contains(&ins.example),
            "{dialect}: the example is in the block"
        );
    }
}

#[test]
fn model_answers_read_as_documented() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/model-output");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let cases = expected.as_object().unwrap();
    let files = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name() != "expected.json")
        .count();
    assert_eq!(files, cases.len(), "every answer has an expected result");
    for (file, want) in cases {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let dialect: DialectId = want["dialect"].as_str().unwrap().parse().unwrap();
        let got = read_model_output(&text, dialect);
        let got_json = serde_json::json!({
            "dialect": got.dialect,
            "found": got.found,
            "first_line": got.first_line,
            "valid": got.valid,
            "tasks": got.plan.as_ref().map(|p| p.tasks.len()),
            "lines": got.lines,
        });
        assert_eq!(&got_json, want, "{file}");
    }
}

#[test]
fn an_empty_answer_says_so_for_every_dialect() {
    for dialect in DialectId::all() {
        let got = read_model_output(" \n\n", dialect);
        assert!(!got.valid, "{dialect}");
        assert!(got.plan.is_none(), "{dialect}");
        assert_eq!(
            got.lines,
            ["(document): error: the answer is empty: there is no plan in it [empty]"],
            "{dialect}"
        );
    }
}
