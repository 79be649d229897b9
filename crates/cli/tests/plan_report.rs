//! `toon plan convert --json` is the library's report, serialised: for every testdata
//! plan and every target dialect, the record the command prints holds exactly what
//! `toon_plan::convert`'s [`toon_plan::ConversionReport`] serialises to, the source's
//! problems as `toon_plan::validate` gives them, and the converted text.

use std::path::{Path, PathBuf};

use serde_json::Value;
use toon_plan::{ConvertOptions, DialectId, ReadOptions};

mod common;

/// Every plan file under `testdata/plans`, in name order.
fn plan_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("testdata folder")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans"),
        &mut out,
    );
    out
}

#[test]
fn the_json_report_is_the_librarys_report() {
    let mut compared = 0;
    for path in plan_files() {
        let Ok(loaded) = toon_plan::read_file(&path, &ReadOptions::default()) else {
            continue;
        };
        let problems = serde_json::to_value(toon_plan::validate(&loaded)).expect("serialise");
        for to in DialectId::all() {
            let file = path.to_str().expect("utf-8 path");
            let o = common::run_toon(
                &[
                    "plan",
                    "convert",
                    file,
                    "--to",
                    to.name(),
                    "--force",
                    "--json",
                ],
                b"",
            );
            let record: Value = serde_json::from_slice(&o.stdout)
                .unwrap_or_else(|e| panic!("{file} → {to}: not JSON ({e})"));
            let options = ConvertOptions {
                source_name: toon_plan::source_name(&path),
                ..ConvertOptions::default()
            };
            let conv = toon_plan::convert(&loaded.plan, to, &options)
                .unwrap_or_else(|e| panic!("{file} → {to}: {e}"));
            let report = serde_json::to_value(&conv.report).expect("serialise");
            let Value::Object(report) = report else {
                panic!("{file} → {to}: the report is not an object");
            };
            for (key, value) in &report {
                assert_eq!(&record[key], value, "{file} → {to}: `{key}`");
            }
            assert_eq!(record["problems"], problems, "{file} → {to}: `problems`");
            assert_eq!(record["text"], conv.text.as_str(), "{file} → {to}: `text`");
            compared += 1;
        }
    }
    // Every dialect's files take part, not a few.
    assert!(compared >= 7 * 40, "only {compared} conversions compared");
}
