//! Where a missed target's time goes: for each target the timings miss, the
//! instructions of ours and of the implementation compared with, counted by callgrind
//! inside the `profile_codec` operation (independent of the machine's load), and the
//! functions where ours spends the most. `benches/callgrind-where.sh` takes each
//! profile; the `profile_codec` binary it runs is named by `TOON_PROFILE_CODEC`
//! (`benches/run-throughput.sh` builds it first: cargo cannot build while this bench
//! runs under it).

use std::collections::HashMap;
use std::process::Command;

use toon_benches::report::workspace_root;

use crate::results::Imp;
use crate::targets::{Direction, Miss};

/// The environment variable naming the `profile_codec` binary.
pub const BINARY_VAR: &str = "TOON_PROFILE_CODEC";

/// How many functions each profile lists.
const TOP: usize = 8;

/// One missed target's profile.
pub struct Profile {
    /// The target missed and where.
    pub miss: Miss,
    /// Ours, counted with its top functions, or why not.
    pub ours: Result<Counted, String>,
    /// The implementation compared with, counted, or why not.
    pub other: Result<Counted, String>,
}

/// One operation counted by callgrind.
#[derive(Clone)]
pub struct Counted {
    /// The `profile_codec` operation.
    pub operation: &'static str,
    /// Millions of instructions.
    pub millions: f64,
    /// Markdown table rows `| self (M) | share | function |`, largest first.
    pub top: Vec<String>,
}

/// The `profile_codec` operation that does what `imp` does in `direction`, if there is
/// one (the TypeScript reference runs in Node, outside callgrind's reach here).
pub fn operation(imp: Imp, direction: Direction) -> Option<&'static str> {
    Some(match (direction, imp) {
        (Direction::Decode, Imp::OursValue) => "decode",
        (Direction::Decode, Imp::OursTyped) => "decode-typed",
        (Direction::Decode, Imp::OursSerdeValue) => "decode-serde-value",
        (Direction::Decode, Imp::SerdeValue) => "json-decode",
        (Direction::Decode, Imp::SerdeTyped) => "json-typed",
        (Direction::Decode, Imp::Peer) => "toonformat-decode",
        (Direction::Encode, Imp::OursValue) => "encode",
        (Direction::Encode, Imp::OursTyped) => "encode-typed",
        (Direction::Encode, Imp::OursSerdeValue) => "encode-serde-value",
        (Direction::Encode, Imp::SerdeValue) => "json-encode",
        (Direction::Encode, Imp::SerdeTyped) => "json-encode-typed",
        (Direction::Encode, Imp::Peer) => "toonformat-encode",
        (_, Imp::Ts) => return None,
    })
}

/// Profiles of every miss, on datasets of `bytes` bytes; `Err` when they cannot be
/// taken at all (no binary named, no valgrind).
pub fn take(misses: Vec<Miss>, bytes: usize) -> Result<Vec<Profile>, String> {
    let binary = std::env::var_os(BINARY_VAR).ok_or_else(|| {
        format!("not taken: {BINARY_VAR} is not set (run benches/run-throughput.sh)")
    })?;
    let valgrind = Command::new("valgrind").arg("--version").output();
    if !valgrind.is_ok_and(|o| o.status.success()) {
        return Err("not taken: valgrind is not installed".to_owned());
    }
    let script = workspace_root().join("benches/callgrind-where.sh");
    let count = |imp: Imp, miss: &Miss, top: usize| -> Result<Counted, String> {
        let operation = operation(imp, miss.direction)
            .ok_or_else(|| format!("{} has no profile_codec operation", imp.label()))?;
        eprintln!("  profiling {operation} on {}", miss.dataset);
        let out = Command::new("bash")
            .arg(&script)
            .args(["--bytes", &bytes.to_string(), "--top", &top.to_string()])
            .args([operation, miss.dataset])
            .env(BINARY_VAR, &binary)
            .output()
            .map_err(|e| format!("{}: {e}", script.display()))?;
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            let first = why.lines().next().unwrap_or("failed");
            return Err(format!("{operation}: {first}"));
        }
        parse(operation, &String::from_utf8_lossy(&out.stdout))
    };
    // One operation on one dataset is often the other side (or ours) of several
    // targets: each is counted once.
    let mut counted: HashMap<(Imp, Direction, &str, usize), Result<Counted, String>> =
        HashMap::new();
    let mut count_once = |imp: Imp, miss: &Miss, top: usize| {
        counted
            .entry((imp, miss.direction, miss.dataset, top))
            .or_insert_with(|| count(imp, miss, top))
            .clone()
    };
    eprintln!("profiling {} missed targets", misses.len());
    Ok(misses
        .into_iter()
        .map(|miss| Profile {
            ours: count_once(miss.target.ours, &miss, TOP),
            other: count_once(miss.target.other, &miss, 0),
            miss,
        })
        .collect())
}

/// Reads `callgrind-where.sh`'s output: `OPERATION on DATASET: 12.34 M instructions`,
/// then a markdown table.
fn parse(operation: &'static str, text: &str) -> Result<Counted, String> {
    let millions = text
        .lines()
        .next()
        .and_then(|l| l.rsplit_once(": "))
        .and_then(|(_, count)| count.strip_suffix(" M instructions"))
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| format!("{operation}: no instruction count in {text:?}"))?;
    let top = text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| self") && !l.starts_with("| ---"))
        .map(str::to_owned)
        .collect();
    Ok(Counted {
        operation,
        millions,
        top,
    })
}
