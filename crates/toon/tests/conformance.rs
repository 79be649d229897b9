//! Conformance cases against the library: every encode case must give the expected
//! text byte for byte, every decode case the expected value, and every error case an
//! error (for our own cases, with the reference's message and line).
//!
//! Our own cases (`testdata/conformance`, one file per spec section) run in every
//! `cargo test`. The official spec fixtures (v4.0, judged as the reference 4.4 judges
//! them) are read from `$TOON_SPEC_DIR` (default: `shared/toon-spec` beside the
//! repository) by an ignored test: `cargo test -p toon --test conformance --
//! --include-ignored` runs it (`TOON_CONFORMANCE_ONLY=encode` or `=decode` runs one
//! half); see the `toon-conformance` crate.

use toon::{DecodeOptions, Delimiter, EncodeOptions, Value};
use toon_conformance::{Case, CaseOptions, Category, announce_skipped, run_own_suite, run_suite};

fn encode_options(o: &CaseOptions) -> Result<EncodeOptions, String> {
    let mut opts = EncodeOptions::default();
    if let Some(n) = o.indent {
        opts.indent_size = n;
    }
    if let Some(d) = &o.delimiter {
        opts.delimiter = d
            .parse::<Delimiter>()
            .map_err(|e| format!("delimiter: {e}"))?;
    }
    Ok(opts)
}

fn decode_options(o: &CaseOptions) -> DecodeOptions {
    let mut opts = DecodeOptions::default();
    if let Some(n) = o.indent {
        opts.indent_size = n;
    }
    if let Some(s) = o.strict {
        opts.strict = s;
    }
    opts
}

fn check(case: &Case) -> Result<(), String> {
    let outcome = match case.category {
        Category::Encode => {
            let value = Value::from(case.input.clone());
            toon::encode_value_with(&value, &encode_options(&case.options)?)
                .map(|text| (text == case.expected_toon(), format!("{text:?}")))
        }
        Category::Decode => {
            toon::decode_value_with(case.toon_input(), &decode_options(&case.options)).map(|v| {
                let same = v == Value::from(case.expected.clone());
                (same, toon::value::to_json_string(&v, 0))
            })
        }
    };
    match outcome {
        Ok((true, _)) if !case.should_error => Ok(()),
        Ok((_, got)) => Err(got),
        Err(e) if case.should_error => same_message(&e, case.reference_error.as_deref()),
        Err(e) => Err(format!("error: {e}")),
    }
}

/// Where a case records the reference's error (`Line N: message`), ours must read the
/// same.
fn same_message(e: &toon::Error, reference: Option<&str>) -> Result<(), String> {
    let ours = match e.line() {
        Some(l) => format!("Line {l}: {}", e.message()),
        None => e.message().to_owned(),
    };
    match reference {
        Some(r) if r != ours => Err(format!("error {ours:?}, reference says {r:?}")),
        _ => Ok(()),
    }
}

#[test]
fn own_cases() {
    run_own_suite("library", check);
}

#[test]
#[ignore = "needs the TOON spec fixtures: set TOON_SPEC_DIR and run with --include-ignored (.ci/run does)"]
fn spec_fixtures() {
    run_suite("library", check);
}

#[test]
fn spec_fixtures_skipped_notice() {
    announce_skipped("library", "cargo test -p toon --test conformance");
}
