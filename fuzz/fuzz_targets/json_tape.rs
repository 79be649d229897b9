//! Arbitrary text as JSON → `JsonTape` (the CLI's JSON reader) encoded through the
//! direct serializer gives exactly the TOON text of the tree route (`from_json_str`,
//! then `encode_value_with`), or the same error; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toon::value::{JsonTape, from_json_str};
use toon::{Delimiter, EncodeOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let pick = data.first().copied().unwrap_or(0);
    let delimiter = [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe][usize::from(pick % 3)];
    let options = EncodeOptions::default()
        .with_delimiter(delimiter)
        .with_indent_size(usize::from(pick / 3 % 4))
        .with_max_depth(64);
    let tree = from_json_str(text, 64).and_then(|v| toon::encode_value_with(&v, &options));
    let tape = JsonTape::parse(text, 64);
    let mut out = Vec::new();
    let streamed = tape
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|t| toon::to_writer_with(&mut out, t, &options));
    match (tree, streamed) {
        (Ok(a), Ok(())) => assert_eq!(a.as_bytes(), &out[..]),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("tree {a:?}, tape {b:?}"),
    }
});
