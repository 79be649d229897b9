//! The CLI under hostile conditions: an existing `-o` file survives every kind of
//! failure and an interrupted write, and unreadable inputs give one-line errors
//! (never a backtrace) from every subcommand.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod common;

use common::run_toon as toon;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The failure is reported on exactly one line, with no panic or backtrace.
fn one_line_failure(o: &Output) {
    assert_eq!(o.status.code(), Some(1), "{}", stderr(o));
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
}

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).expect("dir").count()
}

#[test]
fn an_existing_output_survives_every_codec_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let out_s = out.to_str().expect("path");
    std::fs::write(&out, "precious").expect("write");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let cases: [(&[&str], &[u8]); 7] = [
        // Encode: invalid JSON, invalid UTF-8, too deep, a bad flag value.
        (&["-o", out_s], b"{\"a\": "),
        (&["-o", out_s], b"{\"a\": \"\xff\"}"),
        (&["-o", out_s], deep.as_bytes()),
        (&["-o", out_s, "--delimiter", ";"], b"{}"),
        // Decode: a count mismatch, invalid UTF-8, an error on the last line.
        (&["-d", "-o", out_s], b"a[3]: 1,2"),
        (&["-d", "-o", out_s], b"a: \xc3\x28"),
        (&["-d", "-o", out_s], b"a: 1\nb: 2\nc: \"open"),
    ];
    for (args, input) in cases {
        let o = toon(args, input);
        assert!(!o.status.success(), "{args:?} should fail");
        assert_eq!(std::fs::read(&out).expect("read"), b"precious", "{args:?}");
        assert_eq!(entries(dir.path()), 1, "{args:?} left a temporary file");
    }
    // A missing input file fails before the output is touched, too.
    let missing = dir.path().join("missing.json");
    let o = toon(&[missing.to_str().expect("path"), "-o", out_s], b"");
    one_line_failure(&o);
    assert_eq!(std::fs::read(&out).expect("read"), b"precious");
}

#[test]
fn an_existing_output_survives_plan_conversion_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("plan.json");
    std::fs::write(&out, "precious").expect("write");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"dag\": [").expect("write");
    let unknown = dir.path().join("unknown.json");
    std::fs::write(&unknown, "{\"nothing\": \"here\"}").expect("write");
    for input in [&bad, &unknown, &dir.path().join("missing.json")] {
        let o = toon(
            &[
                "plan",
                "convert",
                input.to_str().expect("path"),
                "--to",
                "plan",
                "-o",
                out.to_str().expect("path"),
            ],
            b"",
        );
        assert!(!o.status.success(), "{}", input.display());
        assert_eq!(std::fs::read(&out).expect("read"), b"precious");
    }
    assert_eq!(entries(dir.path()), 3, "no temporary files left behind");
}

/// A 20 MB JSON array: big enough that a kill can land in the middle of the write.
fn big_json() -> Vec<u8> {
    let mut s = String::from("[");
    for i in 0..400_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!("{{\"id\":{i},\"name\":\"item number {i}\"}}"));
    }
    s.push(']');
    s.into_bytes()
}

#[cfg(unix)]
#[test]
fn an_interrupted_write_leaves_the_old_file_or_the_new_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("in.json");
    std::fs::write(&input, big_json()).expect("write");
    let out = dir.path().join("out.toon");
    // The complete output, for comparison.
    let full = toon(&[input.to_str().expect("path")], b"");
    assert!(full.status.success(), "{}", stderr(&full));
    // Interrupt runs at different moments (the assertion holds whenever the signal
    // lands): before reading, while encoding, while writing, after renaming.
    for delay_ms in [0, 5, 20, 50, 100, 200, 400] {
        std::fs::write(&out, "old").expect("write");
        let child = Command::new(env!("CARGO_BIN_EXE_toon"))
            .args([
                input.to_str().expect("path"),
                "-o",
                out.to_str().expect("path"),
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        std::thread::sleep(Duration::from_millis(delay_ms));
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill");
        let _ = status;
        let o = child.wait_with_output().expect("wait");
        let now = std::fs::read(&out).expect("the output file is never removed");
        assert!(
            now == b"old" || now == full.stdout,
            "delay {delay_ms} ms (exit {:?}): a partial file of {} bytes",
            o.status,
            now.len()
        );
    }
}

#[test]
fn unreadable_inputs_give_one_line_errors_everywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path().to_str().expect("path");
    let missing = dir.path().join("nope.toon");
    let m = missing.to_str().expect("path");
    for args in [
        vec![m],
        vec![d],
        vec!["-d", m],
        vec!["-d", d],
        vec!["stats", m],
        vec!["stats", d],
        vec!["plan", "validate", m],
        vec!["plan", "convert", m, "--to", "plan"],
    ] {
        let o = toon(&args, b"");
        one_line_failure(&o);
        let err = stderr(&o);
        assert!(
            err.contains("no such file") || err.contains("directory"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn output_onto_a_directory_is_a_one_line_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let o = toon(&["-o", dir.path().to_str().expect("path")], b"{\"a\": 1}");
    one_line_failure(&o);
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
    assert_eq!(entries(dir.path()), 0);
}

/// Diagnostics to a stderr (or results to a stdout) that cannot be written — a full
/// device here, a pipe closed by `head` in a shell — never turn into a panic: the exit
/// code still says what happened.
#[test]
fn an_unwritable_stderr_or_stdout_is_no_panic() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.toon");
    std::fs::write(&bad, "a:\n   b: 1\n").unwrap();
    let good = dir.path().join("good.json");
    std::fs::write(
        &good,
        r#"{"dag":[{"id":"a","tool":"t","query":"q","dependencies":[]}]}"#,
    )
    .unwrap();
    let full = || std::fs::File::create("/dev/full").expect("/dev/full");
    for (args, code) in [
        (vec!["plan", "validate", bad.to_str().unwrap()], 1),
        (vec!["plan", "validate", good.to_str().unwrap()], 0),
        (
            vec!["plan", "convert", good.to_str().unwrap(), "--to", "cursor"],
            0,
        ),
        (vec!["-d", bad.to_str().unwrap()], 1),
        (vec!["stats", good.to_str().unwrap()], 0),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_toon"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(full())
            .output()
            .expect("run toon");
        assert_eq!(o.status.code(), Some(code), "{args:?} with stderr full");
    }
    let o = Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(["plan", "validate", good.to_str().unwrap()])
        .stdin(Stdio::null())
        .stdout(full())
        .stderr(Stdio::piped())
        .output()
        .expect("run toon");
    assert_ne!(o.status.code(), Some(101), "stdout full: {}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

/// `-o` naming a device or pipe (`/dev/null`, `/dev/stdout`, a FIFO) writes into it: a
/// file renamed over it would replace the device itself.
#[cfg(unix)]
#[test]
fn an_output_that_is_a_pipe_is_written_in_place() {
    use std::io::Read;
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("out.fifo");
    if !Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        return;
    }
    // Opened for reading and writing, the pipe neither blocks this open nor the writer's.
    let mut pipe = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .expect("open fifo");
    let input = dir.path().join("x.json");
    std::fs::write(&input, r#"{"a":1}"#).unwrap();
    let plan = dir.path().join("p.json");
    std::fs::write(
        &plan,
        r#"{"dag":[{"id":"a","tool":"t","query":"q","dependencies":[]}]}"#,
    )
    .unwrap();
    for args in [
        vec![input.to_str().unwrap(), "-o", fifo.to_str().unwrap()],
        vec![
            "plan",
            "convert",
            plan.to_str().unwrap(),
            "--to",
            "plan",
            "--format",
            "toon",
            "-o",
            fifo.to_str().unwrap(),
        ],
    ] {
        let o = toon(&args, b"");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "{args:?} replaced the pipe");
        let mut buf = vec![0u8; 4096];
        let n = pipe.read(&mut buf).expect("read the pipe");
        assert!(n > 0, "{args:?}: nothing written");
    }
}
