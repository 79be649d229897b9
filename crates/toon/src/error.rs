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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    line: Option<usize>,
    column: Option<usize>,
    source_line: Option<String>,
    byte_offset: Option<usize>,
}

/// `Result` with the codec's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind` with a message and no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            line: None,
            column: None,
            source_line: None,
            byte_offset: None,
        }
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
        self.line = Some(line);
        self.column = Some(column.max(1));
        self.source_line = Some(source_line.to_owned());
        self
    }

    /// The same error as another kind (e.g. a nesting limit found by the tokenizer).
    pub(crate) fn with_kind(mut self, kind: ErrorKind) -> Error {
        self.kind = kind;
        self
    }

    /// Attaches the byte offset into the input (used for invalid UTF-8).
    pub fn with_byte_offset(mut self, offset: usize) -> Error {
        self.byte_offset = Some(offset);
        self
    }

    /// What kind of error this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message without location, e.g. `Expected 2 tabular row values, but got 1`.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The 1-based line, if the error has a location.
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The 1-based column (in characters), if the error has a location.
    pub fn column(&self) -> Option<usize> {
        self.column
    }

    /// The text of the offending line, if known.
    pub fn source_line(&self) -> Option<&str> {
        self.source_line.as_deref()
    }

    /// The byte offset into the input, for errors found in raw bytes.
    pub fn byte_offset(&self) -> Option<usize> {
        self.byte_offset
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(col)) => write!(f, "line {line}, column {col}: {}", self.message)?,
            (Some(line), None) => write!(f, "line {line}: {}", self.message)?,
            _ => match self.byte_offset {
                Some(off) => write!(f, "byte {off}: {}", self.message)?,
                None => f.write_str(&self.message)?,
            },
        }
        if let (Some(line), Some(col), Some(src)) = (self.line, self.column, &self.source_line) {
            let num = line.to_string();
            let pad = " ".repeat(num.len());
            // Show at most 120 characters around the column so huge lines stay readable.
            let chars: Vec<char> = src.chars().collect();
            let start = col.saturating_sub(60).min(chars.len());
            let end = (start + 120).min(chars.len());
            let shown: String = chars[start..end]
                .iter()
                .map(|&c| if c == '\t' { ' ' } else { c })
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

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io, e.to_string())
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
