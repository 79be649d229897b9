//! Encoder and decoder options.

use std::fmt;
use std::str::FromStr;

/// The default nesting limit of encoder and decoder: far above any real document,
/// low enough that hostile input errors long before the stack runs out.
pub const DEFAULT_MAX_DEPTH: usize = 1000;

/// The delimiter between array items and table cells (spec §11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Delimiter {
    /// `,` (the default; not written in headers)
    #[default]
    Comma,
    /// A tab character
    Tab,
    /// `|`
    Pipe,
}

impl Delimiter {
    /// The delimiter character.
    pub fn as_char(self) -> char {
        match self {
            Delimiter::Comma => ',',
            Delimiter::Tab => '\t',
            Delimiter::Pipe => '|',
        }
    }

    /// The delimiter byte.
    pub fn as_byte(self) -> u8 {
        self.as_char() as u8
    }

    /// The delimiter for a character, if it is one of the three.
    pub fn from_char(c: char) -> Option<Delimiter> {
        match c {
            ',' => Some(Delimiter::Comma),
            '\t' => Some(Delimiter::Tab),
            '|' => Some(Delimiter::Pipe),
            _ => None,
        }
    }
}

impl fmt::Display for Delimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Delimiter::Comma => ",",
            Delimiter::Tab => "\\t",
            Delimiter::Pipe => "|",
        })
    }
}

impl FromStr for Delimiter {
    type Err = String;

    /// Accepts `,`, `|`, a real tab, and the names `comma`, `tab` (also `\t`), `pipe`.
    fn from_str(s: &str) -> Result<Delimiter, String> {
        match s {
            "," | "comma" => Ok(Delimiter::Comma),
            "\t" | "\\t" | "tab" | "TAB" => Ok(Delimiter::Tab),
            "|" | "pipe" => Ok(Delimiter::Pipe),
            other => Err(format!(
                "Invalid delimiter {other:?}. Valid delimiters are: comma (,), tab (\\t), pipe (|)"
            )),
        }
    }
}

/// Options of the encoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Spaces per indentation level (default 2).
    pub indent_size: usize,
    /// Delimiter of inline arrays and tables (default comma).
    pub delimiter: Delimiter,
    /// Deepest nesting encoded before [`ErrorKind::Depth`](crate::ErrorKind::Depth).
    pub max_depth: usize,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            indent_size: 2,
            delimiter: Delimiter::Comma,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl EncodeOptions {
    /// Sets the indent size.
    pub fn with_indent_size(mut self, n: usize) -> Self {
        self.indent_size = n;
        self
    }

    /// Sets the delimiter.
    pub fn with_delimiter(mut self, d: Delimiter) -> Self {
        self.delimiter = d;
        self
    }

    /// Sets the depth limit.
    pub fn with_max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }
}

/// Options of the decoder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Spaces per indentation level (default 2).
    pub indent_size: usize,
    /// Strict mode (default `true`): enforce counts, indentation and the other rules
    /// of spec §14. Non-strict mode recovers only from the five conditions the
    /// reference 4.4 recovers from.
    pub strict: bool,
    /// Deepest nesting decoded before [`ErrorKind::Depth`](crate::ErrorKind::Depth).
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            indent_size: 2,
            strict: true,
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

impl DecodeOptions {
    /// Sets the indent size.
    pub fn with_indent_size(mut self, n: usize) -> Self {
        self.indent_size = n;
        self
    }

    /// Sets strict mode.
    pub fn with_strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Sets the depth limit.
    pub fn with_max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }
}
