//! Token counts must equal npm `gpt-tokenizer`'s (v4.0.0), the counter of the official
//! TOON benchmarks.
//!
//! The expected numbers below were produced by `gpt-tokenizer` 4.0.0, not by this
//! crate. To reproduce them (in a folder where `npm install gpt-tokenizer` was run):
//!
//! ```sh
//! cargo test -p toon-tokens --test gpt_tokenizer_parity -- --ignored --nocapture \
//!     print_cases_as_json | grep '^\[' > /tmp/texts.json
//! node -e 'const o=require("gpt-tokenizer/encoding/o200k_base"),
//!   c=require("gpt-tokenizer/encoding/cl100k_base"),x={disallowedSpecial:new Set()};
//!   for(const t of JSON.parse(require("fs").readFileSync("/tmp/texts.json","utf8")))
//!   console.log(o.encode(t,x).length,c.encode(t,x).length)'
//! ```
//!
//! Each output line is `o200k_base cl100k_base` for one case, in order.

use toon_tokens::{Bpe, LoadError, Tokenizer};

/// (text, o200k_base count, cl100k_base count), counts from gpt-tokenizer 4.0.0.
fn cases() -> Vec<(String, usize, usize)> {
    vec![
        ("Hello, world!".into(), 4, 4),
        (
            "users[2]{id,name,role}:\n  1,Alice,admin\n  2,Bob,user".into(),
            24,
            24,
        ),
        (
            "{\n  \"name\": \"Zoë\",\n  \"emoji\": \"😎 Awesome\",\n  \"n\": -12.5e3\n}".into(),
            30,
            31,
        ),
        (
            "  leading spaces\n\n\n\ttabs\t\tand trailing   ".into(),
            10,
            10,
        ),
        (
            "日本語のテキストと English mixed, 12345678 numbers.".into(),
            16,
            18,
        ),
        ("items[3\t]{sku\tqty}:\n  A1\t2\n  B2\t1".into(), 21, 21),
        (
            "It's what they've said: we'll see, I'd think. DON'T SHOUT".into(),
            14,
            19,
        ),
        // Special tokens count as ordinary text.
        ("before <|endoftext|> after".into(), 9, 8),
        ("-".repeat(1000), 16, 16),
        ("e\u{301} 👩\u{200d}👩\u{200d}👧 café".into(), 11, 15),
    ]
}

#[test]
fn o200k_base_counts_equal_gpt_tokenizer() -> Result<(), LoadError> {
    let bpe = Bpe::o200k_base()?;
    for (text, expected, _) in cases() {
        assert_eq!(bpe.count(&text), expected, "o200k_base count of {text:?}");
    }
    Ok(())
}

#[test]
fn cl100k_base_counts_equal_gpt_tokenizer() -> Result<(), LoadError> {
    let bpe = Bpe::cl100k_base()?;
    for (text, _, expected) in cases() {
        assert_eq!(bpe.count(&text), expected, "cl100k_base count of {text:?}");
    }
    Ok(())
}

/// Prints the texts as one JSON array line, for the reproduction recipe above.
#[test]
#[ignore = "prints the cases for the node one-liner in the module docs"]
fn print_cases_as_json() {
    let texts: Vec<String> = cases().into_iter().map(|(t, _, _)| t).collect();
    println!("{}", serde_json::Value::from(texts));
}
