//! Runs the benchmark with glibc's fastbins off (`glibc.malloc.mxfast=0`).
//!
//! With glibc's default fastbins, timings of allocation-heavy code on this kind of
//! machine swing by up to 3x from run to run depending on heap layout; with them off
//! they are stable. glibc reads tunables only at start-up, so a program that finds the
//! variable unset re-executes itself with it set.

use std::ffi::OsString;

/// The environment variable glibc reads its tunables from.
pub const VARIABLE: &str = "GLIBC_TUNABLES";
/// The tunable every timing runs with.
pub const TUNABLE: &str = "glibc.malloc.mxfast=0";
/// Set in the re-executed process, so it never re-executes again.
const GUARD: &str = "TOON_BENCH_REEXECUTED";

/// The value `GLIBC_TUNABLES` should have, given its current value: `current` with
/// [`TUNABLE`] appended unless `mxfast` is already set.
pub fn wanted(current: Option<&str>) -> Option<String> {
    match current {
        None | Some("") => Some(TUNABLE.to_owned()),
        Some(value) if value.contains("glibc.malloc.mxfast") => None,
        Some(value) => Some(format!("{value}:{TUNABLE}")),
    }
}

/// Re-executes this program with `GLIBC_TUNABLES` set to include [`TUNABLE`], unless
/// it already does; returns only if nothing needed doing or the re-execution failed
/// (then a warning says the timings run with glibc's defaults).
pub fn ensure() {
    let current: Option<OsString> = std::env::var_os(VARIABLE);
    let current = current.as_ref().and_then(|v| v.to_str());
    let Some(value) = wanted(current) else {
        return;
    };
    if std::env::var_os(GUARD).is_some() {
        eprintln!("warning: {VARIABLE} could not be set; timing with glibc's defaults");
        return;
    }
    reexecute(&value);
}

#[cfg(unix)]
fn reexecute(value: &str) {
    use std::os::unix::process::CommandExt;
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(error) => {
            eprintln!("warning: cannot find this program ({error}); timing with glibc's defaults");
            return;
        }
    };
    let error = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(VARIABLE, value)
        .env(GUARD, "1")
        .exec();
    eprintln!("warning: cannot re-execute with {VARIABLE} ({error}); timing with glibc's defaults");
}

#[cfg(not(unix))]
fn reexecute(_value: &str) {}
