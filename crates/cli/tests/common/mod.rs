//! Shared by the CLI test files: running the `toon` binary with arguments and stdin.

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `toon` with `args`, writes `stdin` to it and waits for it to finish.
///
/// The command may reject its arguments and exit before reading stdin: a closed pipe
/// is then expected, not a test failure.
#[allow(dead_code)] // Not every test file that shares this module uses both runners.
pub fn run_toon<S: AsRef<OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    run_toon_env(args, stdin, &[])
}

/// [`run_toon`] with extra environment variables. Stdin is written from a thread, so
/// output that fills the stdout pipe before all input is written (streamed decoding)
/// cannot deadlock.
#[allow(dead_code)] // Not every test file that shares this module sets variables.
pub fn run_toon_env<S: AsRef<OsStr>>(args: &[S], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toon"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn toon");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let feeder = std::thread::spawn(move || match pipe.write_all(&input) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e),
        _ => Ok(()),
    });
    let out = child.wait_with_output().expect("wait for toon");
    feeder
        .join()
        .expect("stdin feeder")
        .unwrap_or_else(|e| panic!("write stdin: {e}"));
    out
}
