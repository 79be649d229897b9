//! A failed command's error: the one-line message every run prints, and the causes
//! `--verbose` adds (the I/O error beneath it, the decoder's error kind and position,
//! the options in effect), as the reference CLI's `--verbose` prints a cause chain.

use std::fmt;

/// A command's failure.
#[derive(Debug)]
pub struct Failure {
    message: String,
    causes: Vec<String>,
}

impl Failure {
    /// A failure with no further causes.
    pub fn new(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            causes: Vec::new(),
        }
    }

    /// Adds `cause` and every error beneath it (`source()`), each as one line.
    pub fn caused_by(mut self, cause: &(dyn std::error::Error + 'static)) -> Failure {
        let mut next = Some(cause);
        while let Some(e) = next {
            self.causes.push(describe(e));
            next = e.source();
        }
        self
    }

    /// Adds a line of context (what was being done, with which options).
    pub fn context(mut self, note: impl Into<String>) -> Failure {
        self.causes.push(note.into());
        self
    }

    /// What to print on stderr: `error: message`, then with `verbose` the causes.
    pub fn report(&self, verbose: bool) -> String {
        let mut out = format!("error: {}", self.message);
        if verbose && !self.causes.is_empty() {
            out.push_str("\n\ncaused by:");
            for (i, cause) in self.causes.iter().enumerate() {
                out.push_str(&format!("\n  {i}: {cause}"));
            }
        }
        out
    }
}

/// One line for one error of the chain: a TOON or JSON error by its kind and position,
/// an I/O error by its kind and the operating system's own words.
fn describe(e: &(dyn std::error::Error + 'static)) -> String {
    if let Some(t) = e.downcast_ref::<toon::Error>() {
        let at = match (t.line(), t.column()) {
            (Some(l), Some(c)) => format!(" at line {l}, column {c}"),
            (Some(l), None) => format!(" at line {l}"),
            _ => String::new(),
        };
        let offset = t
            .byte_offset()
            .map(|o| format!(" (byte {o})"))
            .unwrap_or_default();
        return format!("toon::Error {:?}{at}{offset}: {}", t.kind(), t.message());
    }
    if let Some(io) = e.downcast_ref::<std::io::Error>() {
        return format!("I/O error {:?}: {io}", io.kind());
    }
    e.to_string()
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::new(message)
    }
}

impl From<Failure> for String {
    fn from(f: Failure) -> String {
        f.message
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbose_report_lists_the_chain() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let f = Failure::new("x.json: no such file")
            .caused_by(&io)
            .context("reading the input");
        assert_eq!(f.report(false), "error: x.json: no such file");
        assert_eq!(
            f.report(true),
            "error: x.json: no such file\n\ncaused by:\n  0: I/O error NotFound: gone\n  1: reading the input"
        );
    }

    #[test]
    fn toon_errors_show_kind_and_position() {
        let e = toon::decode_value("a[2]: 1").unwrap_err();
        let f = Failure::new("m").caused_by(&e);
        assert!(
            f.report(true).contains(
                "0: toon::Error Syntax at line 1, column 1: Expected 2 inline-form values"
            ),
            "{}",
            f.report(true)
        );
    }

    /// A writer whose every write fails as a closed pipe does.
    struct ClosedPipe;

    impl std::io::Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "pipe closed",
            ))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn io_errors_inside_toon_errors_show_beneath_them() {
        let e = toon::to_writer(ClosedPipe, &vec![1, 2, 3]).unwrap_err();
        let report = Failure::new("m").caused_by(&e).report(true);
        assert!(
            report.contains(
                "\n  0: toon::Error Io: pipe closed\n  1: I/O error BrokenPipe: pipe closed"
            ),
            "{report}"
        );
    }
}
