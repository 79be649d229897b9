//! The spec's conformance fixtures (v4.0, judged as the reference 4.4 judges them) run
//! against the library: every encode case must give the expected text byte for byte,
//! every decode case the expected value, and every error case an error.
//!
//! The fixtures are read from `$TOON_SPEC_DIR` (default: `shared/toon-spec` beside the
//! repository); see the `toon-conformance` crate. `TOON_SKIP_CONFORMANCE=1` skips the
//! run (saying so); `TOON_CONFORMANCE_ONLY=encode` or `=decode` runs one half.

use toon::{DecodeOptions, Delimiter, EncodeOptions, Value};
use toon_conformance::{Case, CaseOptions, Category, run_suite};

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
        Err(_) if case.should_error => Ok(()),
        Err(e) => Err(format!("error: {e}")),
    }
}

#[test]
fn spec_fixtures() {
    run_suite("library", check);
}
