//! What the report says about the machine and the time it ran.

use std::time::{SystemTime, UNIX_EPOCH};

use toon_benches::calendar;

/// The machine and moment of a run.
pub struct Machine {
    /// `model name` from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical CPUs available to this process.
    pub cpus: usize,
    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub date: String,
    /// `rustc --version`, if it runs.
    pub rustc: String,
    /// `GLIBC_TUNABLES` as the timings saw it.
    pub tunables: String,
}

impl Machine {
    /// Reads it all now.
    pub fn now() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines().find_map(|l| {
                    l.strip_prefix("model name")?
                        .split_once(':')
                        .map(|(_, v)| v.trim().to_owned())
                })
            })
            .unwrap_or_else(|| "unknown CPU".to_owned());
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let rustc =
            std::process::Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
                .arg("--version")
                .output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| "rustc (version unknown)".to_owned());
        Machine {
            cpu,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            date: calendar::timestamp(seconds),
            rustc,
            tunables: std::env::var("GLIBC_TUNABLES").unwrap_or_else(|_| "(unset)".to_owned()),
        }
    }
}

/// The 1, 5 and 15 minute load averages from `/proc/loadavg`, as written there.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "unknown".to_owned())
}
