//! The spec's conformance fixtures run through the `toon` binary, as a user runs it:
//! encode cases pipe the JSON into `toon -e` and expect the fixture's text (plus the
//! final newline the CLI prints); decode cases pipe the TOON text into `toon -d` and
//! expect the fixture's value as JSON, or, for error cases, exit code 1, an empty
//! stdout and an error on stderr. Every decode case runs twice: as the CLI decodes an
//! input of ordinary size (the JSON writer over the whole text) and with
//! `TOON_WHOLE_TEXT_LIMIT=0`, over the streamed input as it reads large inputs (the
//! same decoder over a reader instead of a text).
//!
//! Our own cases (`testdata/conformance`) run in every `cargo test`; the official
//! fixtures need `$TOON_SPEC_DIR` and `--include-ignored` (see `crates/toon/tests/conformance.rs`).

use toon_conformance::{Case, Category, announce_skipped, run_own_suite, run_suite};

mod common;

use common::run_toon_env;

fn args(case: &Case) -> Vec<String> {
    let mut args = vec![match case.category {
        Category::Encode => "-e".to_owned(),
        Category::Decode => "-d".to_owned(),
    }];
    if let Some(d) = &case.options.delimiter {
        args.extend(["--delimiter".to_owned(), d.clone()]);
    }
    if let Some(n) = case.options.indent {
        args.extend(["--indent".to_owned(), n.to_string()]);
    }
    if case.options.strict == Some(false) {
        args.push("--no-strict".to_owned());
    }
    args
}

fn check(case: &Case) -> Result<(), String> {
    check_with(case, &[])?;
    if case.category == Category::Decode {
        check_with(case, &[("TOON_WHOLE_TEXT_LIMIT", "0")])
            .map_err(|e| format!("streaming: {e}"))?;
    }
    Ok(())
}

fn check_with(case: &Case, env: &[(&str, &str)]) -> Result<(), String> {
    let stdin = match case.category {
        Category::Encode => serde_json::to_vec(&case.input).map_err(|e| e.to_string())?,
        Category::Decode => case.toon_input().as_bytes().to_vec(),
    };
    let out = run_toon_env(&args(case), &stdin, env);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if case.should_error {
        return match (
            out.status.code(),
            stdout.is_empty(),
            stderr.starts_with("error: "),
        ) {
            (Some(1), true, true) => Ok(()),
            _ => Err(format!(
                "exit {:?}, stdout {stdout:?}, stderr {stderr:?}",
                out.status.code()
            )),
        };
    }
    if !out.status.success() {
        return Err(format!("exit {:?}: {stderr}", out.status.code()));
    }
    let same = match case.category {
        Category::Encode => stdout == format!("{}\n", case.expected_toon()),
        Category::Decode => {
            let got: serde_json::Value = serde_json::from_str(&stdout)
                .map_err(|e| format!("stdout is not JSON ({e}): {stdout}"))?;
            toon::Value::from(got) == toon::Value::from(case.expected.clone())
        }
    };
    if same {
        Ok(())
    } else {
        Err(stdout.into_owned())
    }
}

#[test]
fn own_cases_through_the_cli() {
    run_own_suite("toon CLI", check);
}

#[test]
#[ignore = "needs the TOON spec fixtures: set TOON_SPEC_DIR and run with --include-ignored (.ci/run does)"]
fn spec_fixtures_through_the_cli() {
    run_suite("toon CLI", check);
}

#[test]
fn spec_fixtures_skipped_notice() {
    announce_skipped("toon CLI", "cargo test -p toon-cli --test conformance_cli");
}
