//! Temporary output files that must not outlive the run: removed when they are dropped
//! (any error) and when SIGINT, SIGTERM or SIGHUP ends the process.
//!
//! The first temporary file starts one thread that waits for those signals (through
//! `signal-hook`, so nothing runs inside a signal handler). On a signal it takes the
//! registry's lock — waiting for a commit in progress to finish, so an output file is
//! never left half-copied — removes every registered file, and ends the process as the
//! signal would have (the shell sees "killed by SIGTERM", exit status 128 + N).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The temporary files alive now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Whether the signal thread runs (started once, with the first temporary file).
static WATCHING: OnceLock<bool> = OnceLock::new();

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts the signal thread if it is not running. Without it (the signals cannot be
/// watched), temporary files are still removed on every error, just not on a signal.
fn watch_signals() {
    WATCHING.get_or_init(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return false;
        };
        std::thread::Builder::new()
            .name("toon-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    let paths = live();
                    for path in paths.iter() {
                        let _ = std::fs::remove_file(path);
                    }
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            })
            .is_ok()
    });
}

/// A registered temporary path: taken out of the registry when dropped or finished.
/// Whoever holds it deletes (or renames) the file itself.
#[derive(Debug)]
pub(super) struct Registration {
    /// `None` once finished.
    path: Option<PathBuf>,
}

impl Registration {
    /// Registers `path` for removal on a signal.
    pub(super) fn new(path: &Path) -> Registration {
        watch_signals();
        live().push(path.to_owned());
        Registration {
            path: Some(path.to_owned()),
        }
    }

    /// Runs `work` (the commit: a rename, or a copy into the output file) with the
    /// signal cleanup held off, then takes the path out of the registry. A signal
    /// arriving meanwhile is acted on (cleanup, exit) only once `work` has finished, so
    /// an output file is either untouched or whole.
    pub(super) fn finish<T>(mut self, work: impl FnOnce() -> T) -> T {
        let mut paths = live();
        let out = work();
        if let Some(path) = self.path.take() {
            forget(&mut paths, &path);
        }
        out
    }
}

fn forget(paths: &mut Vec<PathBuf>, path: &Path) {
    if let Some(i) = paths.iter().rposition(|p| p == path) {
        paths.swap_remove(i);
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        if let Some(path) = self.path.take() {
            forget(&mut live(), &path);
        }
    }
}
