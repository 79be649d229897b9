//! Decoding through the streaming path: large inputs stream from stdin to stdout,
//! `--jsonl`, located errors, atomic `-o` files kept on error, and the stdout hold
//! threshold (small output all-or-nothing, large output streams). The CLI decodes
//! inputs up to `TOON_WHOLE_TEXT_LIMIT` bytes (8 MiB by default) as one text; these
//! tests lower it so that their inputs take the streaming path.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

mod common;

/// Runs `toon` on the streaming path.
fn run_toon(args: &[&str], stdin: &[u8]) -> std::process::Output {
    common::run_toon_env(args, stdin, &[("TOON_WHOLE_TEXT_LIMIT", "0")])
}

/// A table of `n` rows: `rows[n]{id,name,flag}:`.
fn table(n: usize) -> String {
    let mut s = format!("rows[{n}]{{id,name,flag}}:\n");
    for i in 0..n {
        s.push_str(&format!("  {i},name {i},{}\n", i % 2 == 0));
    }
    s
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Output appears on stdout while stdin is still open: the first part of the input is
/// written, then the test waits for output before writing the rest. A decoder that
/// read the whole input first would never answer (and the test fails on the timeout).
#[test]
fn large_input_streams_from_stdin_to_stdout() {
    let rows = 400_000;
    let mut child = Command::new(env!("CARGO_BIN_EXE_toon"))
        .arg("-d")
        // The first part written (about 4 MB) passes this: decoding starts streaming
        // before the input ends.
        .env("TOON_WHOLE_TEXT_LIMIT", "1048576")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toon");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = child.stdout.take().expect("stdout");
    let (got_output, wait_output) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        let mut signalled = false;
        loop {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    all.extend_from_slice(&buf[..n]);
                    if !signalled {
                        signalled = true;
                        let _ = got_output.send(());
                    }
                }
            }
        }
        all
    });
    let text = table(rows);
    // About 90 bytes of JSON per row: 150,000 rows pass the 8 MiB hold.
    let split = text
        .match_indices('\n')
        .nth(150_000)
        .map_or(text.len(), |(i, _)| i + 1);
    stdin
        .write_all(&text.as_bytes()[..split])
        .expect("write first part");
    stdin.flush().expect("flush");
    let streamed = wait_output.recv_timeout(Duration::from_secs(120)).is_ok();
    stdin
        .write_all(&text.as_bytes()[split..])
        .expect("write the rest");
    drop(stdin);
    let status = child.wait().expect("wait");
    let out = reader.join().expect("reader");
    assert!(streamed, "no output before the input ended: not streaming");
    assert!(status.success());
    let mut want = Vec::new();
    toon::decode::to_json_writer(&text, &toon::DecodeOptions::default(), &mut want, 2)
        .expect("valid");
    want.push(b'\n');
    assert!(
        out == want,
        "output differs ({} vs {} bytes)",
        out.len(),
        want.len()
    );
}

#[test]
fn jsonl_writes_one_record_per_line() {
    let o = run_toon(&["-d", "--jsonl"], table(3).as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"id\":0,\"name\":\"name 0\",\"flag\":true}\n\
         {\"id\":1,\"name\":\"name 1\",\"flag\":false}\n\
         {\"id\":2,\"name\":\"name 2\",\"flag\":true}\n"
    );
    let o = run_toon(&["-d", "--jsonl"], b"[3]:\n  - a: 1\n  - [2]: x,y\n  - 7\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "{\"a\":1}\n[\"x\",\"y\"]\n7\n"
    );
    let o = run_toon(
        &["-d", "--jsonl", "--no-strict"],
        b"[1]:\n  - a: 1\n    a: 2\n",
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout), "{\"a\":2}\n");
    // Not an array (nothing printed), a second root key, encoding.
    for (args, input) in [
        (&["-d", "--jsonl"][..], &b"a: 1\n"[..]),
        (&["-d", "--jsonl"][..], b"a[1]: 1\nb: 2\n"),
        (&["-e", "--jsonl"][..], b"[1,2]"),
    ] {
        let o = run_toon(args, input);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    }
}

#[test]
fn errors_in_large_inputs_are_located_and_print_nothing() {
    let mut text = table(50_000);
    text = text.replace("  40000,name 40000,true\n", "  40000,name 40000\n");
    let o = run_toon(&["-d"], text.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "small output is all or nothing");
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "error: <stdin>: line 40002, column 3: Expected 3 tabular row values, but got 2"
        ),
        "{err}"
    );
    assert!(err.contains("40002 |   40000,name 40000\n"), "{err}");
    // Strict UTF-8 errors, with byte offsets.
    let o = run_toon(&["-d"], b"a: 1\nb: \xff\n");
    assert!(
        stderr(&o).contains("line 2, column 4: Invalid UTF-8 at byte 8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn output_files_are_atomic_and_survive_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("big.toon");
    let output = dir.path().join("out.json");
    std::fs::write(&output, "old").expect("write");
    // Output far beyond the stdout hold, then an error at the end.
    let mut text = table(400_000);
    text.push_str("  oops\n");
    std::fs::write(&input, &text).expect("write");
    let o = run_toon(
        &[input.to_str().unwrap(), "-o", output.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 400002"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&output).expect("read"), "old");
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
    assert_eq!(names.len(), 2, "temporary file left behind");
    // The same without the error replaces the file.
    std::fs::write(&input, table(400_000)).expect("write");
    let o = run_toon(
        &[input.to_str().unwrap(), "-o", output.to_str().unwrap()],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&output).expect("read")).expect("JSON");
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(400_000));
}

/// Beyond the hold, stdout streams: an error found after that leaves the output
/// partial (and exit code 1 with the error on stderr).
#[test]
fn large_stdout_output_streams_and_an_error_leaves_it_partial() {
    let mut text = table(400_000);
    text.push_str("  oops\n");
    let o = run_toon(&["-d"], text.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.len() > 8 * 1024 * 1024, "{} bytes", o.stdout.len());
    assert!(
        stderr(&o).starts_with("error: <stdin>: line 400002"),
        "{}",
        stderr(&o)
    );
}
