//! # toon-conformance — conformance cases as tests
//!
//! Two sets of cases in one format (the spec fixtures' JSON: `{category, tests: [{name,
//! input, expected, options, shouldError}]}`):
//!
//! - **The official suite**: the language-agnostic fixtures of the TOON spec (v4.0), in
//!   `tests/fixtures/encode` and `tests/fixtures/decode` of the public `toon-format/spec`
//!   repository. They are not part of this repository: the folder that holds
//!   `tests/fixtures` comes from `$TOON_SPEC_DIR`, by default `shared/toon-spec` beside
//!   the checkout (where CI keeps it). Judged as the reference implementation 4.4
//!   judges them (DELTA-4.4.md §1): the four "optional leniency" fixtures listed in
//!   [`MUST_ERROR`] must be errors. The tests that run it are `#[ignore]`d, so a plain
//!   `cargo test` passes on a fresh clone; `.ci/run` runs them with `--include-ignored`,
//!   and [`run_suite`] fails loudly when the fixtures are missing.
//! - **Our own cases**: `testdata/conformance/{encode,decode}/*.json`, one file per
//!   spec section, inputs written for this project and expected results generated from
//!   the reference (`scripts/fixtures/generate-own.mjs`). [`run_own_suite`] runs them in
//!   every plain `cargo test`.
//!
//! ```no_run
//! use toon_conformance::{Category, run_own_suite};
//!
//! run_own_suite("example", |case| match case.category {
//!     Category::Encode => Err("not implemented".to_owned()),
//!     Category::Decode => Err("not implemented".to_owned()),
//! });
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::fmt;
use std::path::{Path, PathBuf};

/// Number of cases in the v4.0 suite (173 encode + 343 decode).
pub const EXPECTED_TOTAL: usize = 516;

/// Non-strict decode fixtures that expect a malformed header to become a literal key;
/// the reference 4.4 rejects them (DELTA-4.4.md §1), so they count as must-error.
pub const MUST_ERROR: [&str; 4] = [
    "treats extra brackets after valid array segment as literal key (non-strict)",
    "treats bracket segment without a length as literal key (non-strict)",
    "treats non-integer bracket content as literal key (non-strict)",
    "treats text between bracket segment and colon as literal key (non-strict)",
];

/// The folder holding `tests/fixtures`.
pub const DIR_VAR: &str = "TOON_SPEC_DIR";
/// `encode` or `decode`: run one half only.
pub const ONLY_VAR: &str = "TOON_CONFORMANCE_ONLY";

/// Which half of the suite a case belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// JSON input, expected TOON text.
    Encode,
    /// TOON text input, expected JSON value (or an error).
    Decode,
}

impl Category {
    /// The fixture folder's name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Encode => "encode",
            Category::Decode => "decode",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A case's options, as the fixture gives them (absent = the codec's default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseOptions {
    /// `delimiter`: `","`, `"\t"` or `"|"`.
    pub delimiter: Option<String>,
    /// `indentSize` (or `indent`).
    pub indent: Option<usize>,
    /// `strict` (decode only).
    pub strict: Option<bool>,
}

impl CaseOptions {
    fn from_json(o: &serde_json::Value) -> CaseOptions {
        CaseOptions {
            delimiter: o
                .get("delimiter")
                .and_then(|v| v.as_str())
                .map(str::to_owned),
            indent: o
                .get("indentSize")
                .or_else(|| o.get("indent"))
                .and_then(|v| v.as_u64())
                .and_then(|n| usize::try_from(n).ok()),
            strict: o.get("strict").and_then(|v| v.as_bool()),
        }
    }
}

/// One fixture case.
#[derive(Clone, Debug)]
pub struct Case {
    /// Encode or decode.
    pub category: Category,
    /// The fixture file's stem (`arrays-tabular`).
    pub file: String,
    /// The case's name.
    pub name: String,
    /// JSON value to encode, or a JSON string holding the TOON text to decode.
    pub input: serde_json::Value,
    /// The expected TOON text (a JSON string) or the expected decoded value.
    pub expected: serde_json::Value,
    /// The options.
    pub options: CaseOptions,
    /// Whether the case must fail (the fixture's `shouldError`, or [`MUST_ERROR`]).
    pub should_error: bool,
    /// The reference's error message (`Line N: …`), where the fixture records it.
    pub reference_error: Option<String>,
}

impl Case {
    /// The TOON text of a decode case (empty for an encode case).
    pub fn toon_input(&self) -> &str {
        self.input.as_str().unwrap_or_default()
    }

    /// The expected TOON text of an encode case (empty for a decode case).
    pub fn expected_toon(&self) -> &str {
        self.expected.as_str().unwrap_or_default()
    }
}

/// The fixture root: `$TOON_SPEC_DIR`, else `shared/toon-spec` beside the checkout.
pub fn spec_dir() -> PathBuf {
    match std::env::var_os(DIR_VAR) {
        Some(dir) => PathBuf::from(dir),
        // crates/conformance → the folder holding the checkout.
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(3)
            .unwrap_or(Path::new("."))
            .join("shared/toon-spec"),
    }
}

/// The folder of our own cases: `testdata/conformance` of this repository.
pub fn own_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/conformance")
}

/// Every official case of one category, files in name order, cases in file order.
pub fn load_cases(spec_dir: &Path, category: Category) -> Result<Vec<Case>, String> {
    load_cases_in(&spec_dir.join("tests/fixtures"), category)
}

/// Every case of one category in `root/<category>/*.json`, files in name order, cases
/// in file order.
pub fn load_cases_in(root: &Path, category: Category) -> Result<Vec<Case>, String> {
    let dir = root.join(category.name());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let doc: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tests = doc["tests"]
            .as_array()
            .ok_or_else(|| format!("{}: no tests array", path.display()))?;
        for case in tests {
            let name = case["name"].as_str().unwrap_or("<unnamed>").to_owned();
            let should_error = case["shouldError"].as_bool().unwrap_or(false)
                || (category == Category::Decode && MUST_ERROR.contains(&name.as_str()));
            cases.push(Case {
                category,
                file: file.clone(),
                name,
                input: case["input"].clone(),
                expected: case["expected"].clone(),
                options: CaseOptions::from_json(&case["options"]),
                should_error,
                reference_error: case["referenceError"].as_str().map(str::to_owned),
            });
        }
    }
    Ok(cases)
}

/// Runs our own cases (`testdata/conformance`) through `check`, which returns
/// `Err(what it got)` when the codec does not do what the case says.
///
/// Panics — failing the test — when any case fails (listing each) or when the cases
/// cannot be read.
pub fn run_own_suite(label: &str, check: impl FnMut(&Case) -> Result<(), String>) {
    let root = own_dir();
    let mut cases = Vec::new();
    for category in [Category::Encode, Category::Decode] {
        cases.extend(load_cases_in(&root, category).unwrap_or_else(|e| panic!("{e}")));
    }
    assert!(
        cases.len() >= 100,
        "only {} own conformance cases in {}",
        cases.len(),
        root.display()
    );
    run_cases(&format!("own cases, {label}"), &cases, check);
}

/// Runs the official spec fixtures through `check`, which returns `Err(what it got)`
/// when the codec does not do what the case says (including succeeding where it must
/// error).
///
/// Panics — failing the test — when the fixtures are missing (with how to get them),
/// when any case fails (listing each with input, options, expected and got), or when
/// the number of cases is not [`EXPECTED_TOTAL`]. `TOON_CONFORMANCE_ONLY=encode` or
/// `=decode` runs one half.
pub fn run_suite(label: &str, check: impl FnMut(&Case) -> Result<(), String>) {
    let dir = spec_dir();
    assert!(
        dir.join("tests/fixtures").is_dir(),
        "\n\nTHE TOON CONFORMANCE SUITE ({label}) DID NOT RUN: no fixtures at {}.\n\
         Get them from the public toon-format/spec repository (folder tests/fixtures) and \
         set {DIR_VAR} to the checkout's root, the folder that holds tests/fixtures \
         (or keep shared/toon-spec beside this checkout, as CI does).\n",
        dir.join("tests/fixtures").display()
    );
    let only = std::env::var(ONLY_VAR).ok();
    let mut cases = Vec::new();
    for category in [Category::Encode, Category::Decode] {
        if only.as_deref().is_none_or(|o| o == category.name()) {
            cases.extend(load_cases(&dir, category).unwrap_or_else(|e| panic!("{e}")));
        }
    }
    run_cases(label, &cases, check);
    if only.is_none() {
        assert_eq!(cases.len(), EXPECTED_TOTAL, "fixture count changed");
        let must_error_seen = cases
            .iter()
            .filter(|c| c.category == Category::Decode && MUST_ERROR.contains(&c.name.as_str()))
            .count();
        assert_eq!(
            must_error_seen,
            MUST_ERROR.len(),
            "not every must-error fixture was found by name"
        );
    }
}

fn run_cases(label: &str, cases: &[Case], mut check: impl FnMut(&Case) -> Result<(), String>) {
    let mut failures = Vec::new();
    for case in cases {
        if let Err(got) = check(case) {
            let expected = if case.should_error {
                "an error".to_owned()
            } else {
                case.expected.to_string()
            };
            failures.push(format!(
                "[{}/{}] {}\n  input:    {}\n  options:  {:?}\n  expected: {expected}\n  got:      {}",
                case.category,
                case.file,
                case.name,
                case.input,
                case.options,
                got.replace('\n', "\n            ")
            ));
        }
    }
    let total = cases.len();
    eprintln!(
        "conformance ({label}): {total} cases, {} passed, {} failed",
        total - failures.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} conformance cases failed ({label}):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Says, on the test binary's standard error (past the test harness's capture), that
/// the official suite of `label` was skipped in this run: how many fixtures, where they
/// were looked for, and the command that runs them. Says nothing when the run includes
/// ignored tests, where the suite itself runs.
///
/// `command` is the cargo invocation of the ignored test, e.g.
/// `cargo test -p toon --test conformance`.
pub fn announce_skipped(label: &str, command: &str) {
    use std::io::Write;
    if std::env::args().any(|a| a == "--include-ignored" || a == "--ignored") {
        return;
    }
    let dir = spec_dir();
    let dir = dir.canonicalize().unwrap_or(dir);
    let count: Option<usize> = [Category::Encode, Category::Decode]
        .into_iter()
        .map(|c| load_cases(&dir, c).map(|cases| cases.len()).ok())
        .sum();
    let (count, place) = match count {
        Some(n) => (n, format!("found at {}", dir.display())),
        None => (EXPECTED_TOTAL, format!("not found at {}", dir.display())),
    };
    let note = format!(
        "note: {count} official TOON spec fixtures skipped ({label}; fixtures {place}); \
         run them with `{DIR_VAR}=/path/to/toon-spec {command} -- --include-ignored`\n"
    );
    // Written to the stream itself: the harness captures `eprintln!` of passing tests.
    let _ = std::io::stderr().write_all(note.as_bytes());
}
