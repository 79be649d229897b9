//! Arbitrary bytes → strict and non-strict decode (to a `Value` and as streamed JSON):
//! never a panic, a hang or unbounded memory; both paths agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toon::DecodeOptions;

fuzz_target!(|data: &[u8]| {
    let indent = 1 + usize::from(data.first().copied().unwrap_or(0) % 4);
    for strict in [true, false] {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_indent_size(indent)
            .with_max_depth(64);
        let value = toon::decode_slice_with(data, &options);
        let Ok(text) = toon::decode::text_from_bytes(data, strict) else {
            assert!(value.is_err());
            continue;
        };
        let mut json = Vec::new();
        let streamed = toon::decode::to_json_writer(&text, &options, &mut json, 2);
        match (&value, streamed) {
            (Ok(v), Ok(())) => {
                // Integers beyond 128 bits are exact in the Value, f64 in the stream.
                if !has_huge_integer(&text) {
                    assert_eq!(toon::value::to_json_string(v, 2).as_bytes(), &json[..]);
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.message(), b.message()),
            (a, b) => panic!("paths disagree: value {a:?}, stream {b:?}"),
        }
    }
});

/// A run of 39 or more digits: an integer beyond 128 bits.
fn has_huge_integer(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() >= 39)
}
