//! The one error type of the codec: where it happened, what went wrong, and the line.

use std::fmt;

/// What kind of failure an [`Error`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The TOON text breaks the grammar or a strict-mode rule (spec §14).
    Syntax,
    /// Nesting went deeper than the configured `max_depth`.
    Depth,
    /// The input bytes are not valid UTF-8 (strict mode).
    Utf8,
    /// Reading or writing failed.
    Io,
    /// A value cannot be encoded (for example a map key that is not a string).
    Encode,
    /// The decoded data does not fit the requested Rust type.
    Data,
    /// An option is out of range.
    Options,
}

/// An encoding or decoding error.
///
/// Decoding errors carry the 1-based line and column and the offending line, and
/// `Display` renders them with a caret under the column:
///
/// ```text
/// line 2, column 3: Expected 2 tabular row values, but got 1
///   |
/// 2 |   1
///   |   ^
/// ```
///
/// [`Error::message`] gives the bare message, worded as the reference implementation
/// words it.
///
/// The error is one pointer wide (its details are boxed), so `Result<T, Error>` stays
/// small on the hot paths; an I/O failure keeps the `io::Error` as its
/// [`source`](std::error::Error::source).
#[derive(Clone, Debug)]
pub struct Error(Box<Details>);

#[derive(Clone, Debug)]
struct Details {
    kind: ErrorKind,
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    source_line: Option<String>,
    byte_offset: Option<usize>,
    io: Option<std::sync::Arc<std::io::Error>>,
}

/// Errors are equal when they say the same thing at the same place (an I/O source is
/// not compared).
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        let (a, b) = (&*self.0, &*other.0);
        a.kind == b.kind
            && a.message == b.message
            && a.line == b.line
            && a.column == b.column
            && a.source_line == b.source_line
            && a.byte_offset == b.byte_offset
    }
}

impl Eq for Error {}

/// `Result` with the codec's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with a message and no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(Details {
            kind,
            message: message.into(),
            line: None,
            column: None,
            source_line: None,
            byte_offset: None,
            io: None,
        }))
    }

    /// A syntax error at a 1-based line and column, with the text of that line.
    pub fn syntax(
        message: impl Into<String>,
        line: usize,
        column: usize,
        source_line: &str,
    ) -> Error {
        Error::new(ErrorKind::Syntax, message).at(line, column, source_line)
    }

    /// Attaches a location (1-based line and column) and the line's text.
    pub fn at(mut self, line: usize, column: usize, source_line: &str) -> Error {
        self.0.line = Some(line);
        self.0.column = Some(column.max(1));
        self.0.source_line = Some(source_line.to_owned());
        self
    }

    /// The same error as another kind (e.g. a nesting limit found by the tokenizer).
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.0.kind = kind;
        self
    }

    /// Attaches the byte offset into the input (used for invalid UTF-8).
    pub fn with_byte_offset(mut self, offset: usize) -> Error {
        self.0.byte_offset = Some(offset);
        self
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// The message without location, e.g. `Expected 2 tabular row values, but got 1`.
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The 1-based line, if the error has a location.
    pub fn line(&self) -> Option<usize> {
        self.0.line
    }

    /// The 1-based column (in characters), if the error has a location.
    pub fn column(&self) -> Option<usize> {
        self.0.column
    }

    /// The text of the offending line, if known.
    pub fn source_line(&self) -> Option<&str> {
        self.0.source_line.as_deref()
    }

    /// The byte offset into the input, for errors found in raw bytes.
    pub fn byte_offset(&self) -> Option<usize> {
        self.0.byte_offset
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0.line, self.0.column) {
            (Some(line), Some(col)) => write!(f, "line {line}, column {col}: {}", self.0.message)?,
            (Some(line), None) => write!(f, "line {line}: {}", self.0.message)?,
            _ => match self.0.byte_offset {
                Some(off) => write!(f, "byte {off}: {}", self.0.message)?,
                None => f.write_str(&self.0.message)?,
            },
        }
        if let (Some(line), Some(col), Some(src)) =
            (self.0.line, self.0.column, &self.0.source_line)
        {
            let num = line.to_string();
            let pad = " ".repeat(num.len());
            // Show at most 120 characters around the column so huge lines stay readable;
            // a tab shows as `→` (one column, so the caret stays under its character).
            let chars: Vec<char> = src.chars().collect();
            let start = col.saturating_sub(60).min(chars.len());
            let end = (start + 120).min(chars.len());
            let shown: String = chars[start..end]
                .iter()
                .map(|&c| if c == '\t' { '→' } else { c })
                .collect();
            let caret_at = col.saturating_sub(1).saturating_sub(start);
            write!(
                f,
                "\n{pad} |\n{num} | {}{shown}\n{pad} | {}^",
                if start > 0 { "…" } else { "" },
                " ".repeat(caret_at + usize::from(start > 0))
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .io
            .as_deref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        let mut err = Error::new(ErrorKind::Io, e.to_string());
        err.0.io = Some(std::sync::Arc::new(e));
        err
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Encode, msg.to_string())
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Data, msg.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_is_one_pointer_and_keeps_its_io_source() {
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        let io = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "pipe closed");
        let e = Error::from(io);
        assert_eq!(e.kind(), ErrorKind::Io);
        let source = std::error::Error::source(&e).expect("the io::Error");
        assert_eq!(source.to_string(), "pipe closed");
        assert_eq!(e.clone(), e);
    }
}
