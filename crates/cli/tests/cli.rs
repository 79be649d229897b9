//! The `toon` command as a user runs it: modes, flags, stdin/stdout, errors, and the
//! guarantee that an existing `-o` file survives any error and that stdout output up to
//! 8 MiB is never partial.

use std::io::Write;

use std::process::{Command, Output, Stdio};

mod common;

fn toon(args: &[&str], stdin: &str) -> Output {
    common::run_toon(args, stdin.as_bytes())
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

#[test]
fn stdin_encodes_by_default_and_decodes_with_d() {
    let o = toon(
        &[],
        r#"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]}"#,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "users[2]{id,name}:\n  1,Ada\n  2,Bob\n");
    let d = toon(&["-d"], &stdout(&o));
    assert!(d.status.success());
    assert_eq!(
        stdout(&d),
        "{\n  \"users\": [\n    {\n      \"id\": 1,\n      \"name\": \"Ada\"\n    },\n    {\n      \"id\": 2,\n      \"name\": \"Bob\"\n    }\n  ]\n}\n"
    );
}

#[test]
fn mode_follows_the_extension_and_flags_override_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let toon_file = dir.path().join("x.toon");
    std::fs::write(&toon_file, "a: 1\n").expect("write");
    let o = toon(&[toon_file.to_str().expect("path")], "");
    assert_eq!(stdout(&o), "{\n  \"a\": 1\n}\n");
    // -e wins over -d and over the extension: the file is read as JSON and fails.
    let o = toon(&["-e", "-d", toon_file.to_str().expect("path")], "");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("Invalid JSON"), "{}", stderr(&o));
}

#[test]
fn delimiter_and_indent_flags() {
    let input = r#"{"t":[{"a":1,"b":"x"},{"a":2,"b":"y"}],"o":{"k":[1,2]}}"#;
    let o = toon(&["--delimiter", "|", "--indent", "4"], input);
    assert_eq!(
        stdout(&o),
        "t[2|]{a|b}:\n    1|x\n    2|y\no:\n    k[2|]: 1|2\n"
    );
    let o = toon(&["--delimiter", "\t"], input);
    assert_eq!(
        stdout(&o),
        "t[2\t]{a\tb}:\n  1\tx\n  2\ty\no:\n  k[2\t]: 1\t2\n"
    );
    let o = toon(&["--delimiter", ";"], input);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("Invalid delimiter"));
    // As in the reference, decoding needs an indent of at least one space per level.
    let o = toon(&["-d", "--indent", "0"], "a[2]: 1,2");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("indent size must be at least 1"));
    let o = toon(&["--indent", "0"], r#"{"a":{"b":1}}"#);
    assert_eq!(stdout(&o), "a:\nb: 1\n");
}

#[test]
fn non_strict_flag_relaxes_counts() {
    let strict = toon(&["-d"], "a[3]: x,y");
    assert!(!strict.status.success());
    assert!(stdout(&strict).is_empty(), "nothing on stdout on error");
    assert!(stderr(&strict).contains("line 1"));
    assert!(stderr(&strict).contains('^'), "caret rendering");
    let lenient = toon(&["-d", "--no-strict"], "a[3]: x,y");
    assert!(lenient.status.success());
    assert_eq!(
        stdout(&lenient),
        "{\n  \"a\": [\n    \"x\",\n    \"y\"\n  ]\n}\n"
    );
}

#[test]
fn an_existing_output_file_survives_every_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out.json");
    std::fs::write(&out, "precious").expect("write");
    let o = toon(&["-d", "-o", out.to_str().expect("path")], "a[2]: 1\n");
    assert!(!o.status.success());
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "precious");
    let o = toon(&["-d", "-o", out.to_str().expect("path")], "a[2]: 1,2\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&out).expect("read"),
        "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(leftovers.len(), 1, "no temporary files left behind");
}

#[test]
fn bad_paths_give_one_line_errors() {
    let o = toon(&["/definitely/not/here.json"], "");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no such file"), "{err}");
    let dir = tempfile::tempdir().expect("tempdir");
    let o = toon(&[dir.path().to_str().expect("path")], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is a directory"));
    assert_eq!(stderr(&o).lines().count(), 1);
}

#[test]
fn empty_and_invalid_inputs() {
    let o = toon(&["-d"], "");
    assert_eq!(stdout(&o), "{}\n");
    let o = toon(&[], "");
    assert!(!o.status.success(), "empty JSON is invalid");
    let o = toon(&["-d"], "a: \"unterminated\n");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("Unterminated string"));
    // Invalid UTF-8 in strict decode names the byte; non-strict replaces it.
    let mut child = Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(["-d"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"a: \xff\n")
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("byte 3"), "{}", stderr(&o));
}

#[test]
fn deep_json_is_an_error_not_a_crash() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let o = toon(&[], &deep);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nesting"), "{}", stderr(&o));
    let ok = format!("{}1{}", "[".repeat(500), "]".repeat(500));
    let o = toon(&["--max-depth", "600"], &ok);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn json_integers_of_any_size_round_trip_exactly() {
    let json =
        r#"{"big":123456789012345678901234567890,"neg":-18446744073709551617,"f":1E2,"z":-0}"#;
    let o = toon(&[], json);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "big: 123456789012345678901234567890\nneg: -18446744073709551617\nf: 100\nz: 0\n"
    );
    let back = toon(&["-d"], &stdout(&o));
    assert_eq!(
        stdout(&back),
        "{\n  \"big\": 123456789012345678901234567890,\n  \"neg\": -18446744073709551617,\n  \"f\": 100,\n  \"z\": 0\n}\n"
    );
    // JSON → TOON → JSON is byte-identical for JSON written as the decoder writes it.
    let exact =
        "{\n  \"big\": 123456789012345678901234567890,\n  \"neg\": -18446744073709551617\n}\n";
    let back = toon(&["-d"], &stdout(&toon(&[], exact)));
    assert_eq!(stdout(&back), exact);
}

#[test]
fn json_numbers_beyond_f64_are_located_errors() {
    let o = toon(&[], "{\"a\": 1e400}");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o)
            .starts_with("error: <stdin>: line 1, column 11: Invalid JSON: number out of range"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn verbose_prints_the_cause_chain() {
    let quiet = toon(&["-d"], "a[2]: 1\n");
    let loud = toon(&["-d", "--verbose"], "a[2]: 1\n");
    assert_eq!(loud.status.code(), Some(1));
    let (quiet, loud) = (stderr(&quiet), stderr(&loud));
    assert!(!quiet.contains("caused by"), "{quiet}");
    assert!(loud.starts_with(&quiet), "{loud}");
    assert!(
        loud.contains("caused by:\n  0: toon::Error Syntax at line 1, column 1: Expected 2"),
        "{loud}"
    );
    assert!(loud.contains("strict: true"), "{loud}");
    let missing = toon(&["--verbose", "no/such/file.json"], "");
    assert!(
        stderr(&missing).contains("0: I/O error NotFound: "),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn version_answers_to_the_reference_s_short_flag_too() {
    for flag in ["-v", "-V", "--version"] {
        let o = toon(&[flag], "");
        assert!(o.status.success(), "{flag}: {}", stderr(&o));
        assert!(stdout(&o).starts_with("toon "), "{flag}: {}", stdout(&o));
    }
}
