//! Shared by the CLI test files: running the `toon` binary with arguments and stdin.

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `toon` with `args`, writes `stdin` to it and waits for it to finish.
///
/// The command may reject its arguments and exit before reading stdin: a closed pipe
/// is then expected, not a test failure.
pub fn run_toon<S: AsRef<OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toon");
    let mut pipe = child.stdin.take().expect("stdin");
    if let Err(e) = pipe.write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    drop(pipe);
    child.wait_with_output().expect("wait for toon")
}
