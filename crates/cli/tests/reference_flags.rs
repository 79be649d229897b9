//! The reference CLI's spellings, taken as it takes them, without the reference
//! installed (`cli_parity.rs` runs both side by side): switch values, empty values,
//! `--no-` forms, negative indents, usage errors exiting 1, files named like
//! subcommands, the success line after `-o`, and the messages the issue list named.

mod common;

use common::run_toon;

fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn switches_take_values_and_no_forms() {
    let loose = b"a[3]: 1,2\n";
    for args in [
        &["-d", "--strict=false"][..],
        &["-d", "--no-strict"],
        &["--decode=true", "--strict=0"],
    ] {
        let strictness = args
            .iter()
            .any(|a| a.contains("false") || a.contains("no-"));
        let o = run_toon(args, loose);
        assert_eq!(o.status.success(), strictness, "{args:?}: {}", err(&o));
    }
    // `--decode=false` leaves the mode to the input: stdin encodes.
    let o = run_toon(&["--decode=false"], br#"{"a":1}"#);
    assert_eq!(out(&o), "a: 1\n");
    let o = run_toon(&["--stats=false"], br#"{"a":1}"#);
    assert!(o.status.success() && err(&o).is_empty(), "{}", err(&o));
    let o = run_toon(&["--no-stats", "--stats"], br#"{"a":1}"#);
    assert!(
        err(&o).contains("Token counts"),
        "the last one wins: {}",
        err(&o)
    );
}

#[test]
fn empty_values_take_the_defaults_and_indents_read_as_parse_int() {
    let data = br#"{"a":{"b":[1,2]}}"#;
    let plain = out(&run_toon::<&str>(&[], data));
    for args in [
        &["--delimiter="][..],
        &["--indent="],
        &["--indent=2.9"],
        &["--indent", " 2"],
        &["-o"],
    ] {
        let o = run_toon(args, data);
        assert!(o.status.success(), "{args:?}: {}", err(&o));
        assert_eq!(out(&o), plain, "{args:?}");
    }
    let o = run_toon(&["--indent", "4"], data);
    assert_eq!(out(&o), "a:\n    b[2]: 1,2\n");
    for bad in ["-1", "abc", "=1"] {
        let o = run_toon(&["--indent", bad], data);
        assert_eq!(o.status.code(), Some(1), "{bad}");
        assert!(
            err(&o).contains("Invalid indent value"),
            "{bad}: {}",
            err(&o)
        );
    }
}

#[test]
fn usage_errors_exit_1_and_say_what_is_wrong() {
    let o = run_toon(&["a.json", "b.json"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("unexpected argument 'b.json': toon converts one input at a time"),
        "{}",
        err(&o)
    );
    let o = run_toon(&["--bogus"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("Usage: toon [INPUT] [-o FILE]"),
        "{}",
        err(&o)
    );
    let o = run_toon(&["--help"], b"");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn a_file_named_like_a_subcommand_is_converted() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["stats", "plan", "help"] {
        std::fs::write(dir.path().join(name), format!(r#"{{"named":"{name}"}}"#)).unwrap();
    }
    let toon = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_toon"))
            .args(args)
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    for name in ["stats", "plan", "help"] {
        let o = toon(&[name]);
        assert_eq!(out(&o), format!("named: {name}\n"), "{}", err(&o));
        let o = toon(&[name, "-o", "x.toon"]);
        assert!(o.status.success(), "{}", err(&o));
        assert_eq!(err(&o), format!("✔ Encoded `{name}` → `x.toon`\n"));
    }
    // With the subcommand's own arguments, it stays the subcommand.
    let o = toon(&["stats", "stats", "--json"]);
    assert!(out(&o).contains("\"json_compact\""), "{}", err(&o));
    let o = toon(&["help", "plan"]);
    assert!(out(&o).contains("Usage: toon plan"), "{}", out(&o));
}

#[test]
fn messages_locate_and_explain() {
    let o = run_toon(&["-e"], b"{\"a\": \"\xe9\"}");
    assert!(
        err(&o).contains("line 1, column 8: input is not valid UTF-8"),
        "{}",
        err(&o)
    );
    let o = run_toon(&["-e"], b"{'a': 1}");
    assert!(err(&o).contains("single quotes"), "{}", err(&o));
    let o = run_toon(&["-e"], b"{\n  // note\n  \"a\": 1\n}");
    assert!(
        err(&o).contains("line 2, column 3") && err(&o).contains("no comments"),
        "{}",
        err(&o)
    );
    let o = run_toon(&["-d"], b"a:\n\tb: 1\n");
    assert!(
        err(&o).contains("2 | \u{2192}b: 1"),
        "the tab shows: {}",
        err(&o)
    );
}
