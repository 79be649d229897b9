//! # toon-tokens — exact token counts for TOON and the formats it replaces
//!
//! Counts tokens with the `o200k_base` encoding (the one the official TOON benchmarks
//! count with, via npm `gpt-tokenizer`; our counts equal its counts), and measures one
//! value as pretty and compact JSON, YAML, TOON with each delimiter, and CSV when the
//! data is flat.
//!
//! ```
//! use toon_tokens::{Bpe, Tokenizer, compare};
//!
//! let tokenizer = Bpe::o200k_base()?;
//! assert_eq!(tokenizer.count("Hello, world!"), 4);
//!
//! let value = toon::toon!({"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]});
//! let sizes = compare(&value, &tokenizer)?;
//! println!("TOON: {} tokens, pretty JSON: {}", sizes.toon.tokens, sizes.json_pretty.tokens);
//! println!("{}", sizes.advice());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod compare;
pub mod csv_table;
mod display;
mod format;
mod tokenizer;
mod yaml;

pub use compare::{Comparison, Size, compare};
pub use display::{percent_change, savings_percent, thousands, tokens};
pub use format::{Format, RenderError, render};
pub use tokenizer::{Bpe, Encoding, LoadError, Tokenizer};
pub use yaml::to_yaml;
