//! Arbitrary bytes → the streaming decoder (`EventReader`, through small and normal
//! buffers) against `from_str` over the whole text, strict and non-strict: the same value or the same
//! error (kind, message, line, column), and the same JSON as the JSON writer over the
//! whole text.
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use toon::{DecodeOptions, Error, ErrorKind};

fn same(a: &Error, b: &Error) -> bool {
    a.kind() == b.kind()
        && a.message() == b.message()
        && a.line() == b.line()
        && a.column() == b.column()
        && a.source_line() == b.source_line()
}

fuzz_target!(|data: &[u8]| {
    let indent = 1 + usize::from(data.first().copied().unwrap_or(0) % 4);
    let cap = 1 + usize::from(data.get(1).copied().unwrap_or(0) % 16);
    for strict in [true, false] {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_indent_size(indent)
            .with_max_depth(64);
        let tree = toon::decode_slice_with(data, &options);
        for capacity in [cap, 8192] {
            let stream =
                toon::decode::reader_to_value(BufReader::with_capacity(capacity, data), &options);
            match (&tree, &stream) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) if same(a, b) => {}
                (Err(a), Err(b)) if a.kind() == ErrorKind::Utf8 => {
                    // The stream meets invalid UTF-8 only when it reaches that line.
                    let lossy = String::from_utf8_lossy(data);
                    let repaired = toon::decode_value_with(&lossy, &options);
                    assert!(
                        matches!(&repaired, Err(r) if same(r, b) && r.line() <= a.line()),
                        "utf8: tree {a:?}, stream {b:?}, repaired {repaired:?}"
                    );
                }
                (a, b) => panic!("disagree: tree {a:?}, stream {b:?}"),
            }
        }
        let Ok(text) = std::str::from_utf8(data) else {
            continue;
        };
        let mut want = Vec::new();
        let want = toon::decode::to_json_writer(text, &options, &mut want, 2).map(|()| want);
        let mut got = Vec::new();
        let got = toon::decode::reader_to_json_writer(
            BufReader::with_capacity(cap, data),
            &options,
            &mut got,
            2,
        )
        .map(|()| got);
        match (&want, &got) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert!(same(a, b), "json errors: {a:?} / {b:?}"),
            (a, b) => panic!("JSON disagree: {a:?} / {b:?}"),
        }
    }
});
