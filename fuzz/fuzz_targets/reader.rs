//! Arbitrary bytes → `toon::from_reader_with` (the serde Deserializer over the event
//! reader, through a tiny and a normal buffer) against `toon::from_slice_with` (the
//! whole-text Deserializer), strict and non-strict: the same `Value`, or errors of the
//! same kind, message and position. Invalid UTF-8 is met by the reader only when it
//! reaches that line, so there both need only fail.
#![no_main]

use std::io::BufReader;

use libfuzzer_sys::fuzz_target;
use toon::{DecodeOptions, ErrorKind, Value};

fuzz_target!(|data: &[u8]| {
    let cap = 1 + usize::from(data.first().copied().unwrap_or(0) % 16);
    for strict in [true, false] {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_max_depth(64);
        let whole = toon::from_slice_with::<Value>(data, &options);
        for capacity in [cap, 8192] {
            let read: toon::Result<Value> =
                toon::from_reader_with(BufReader::with_capacity(capacity, data), &options);
            match (&whole, &read) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(_)) if a.kind() == ErrorKind::Utf8 => {}
                (Err(a), Err(b)) => assert!(
                    a.kind() == b.kind()
                        && a.message() == b.message()
                        && a.line() == b.line()
                        && a.column() == b.column(),
                    "errors differ: whole {a:?}, reader {b:?}"
                ),
                (a, b) => panic!("disagree: whole {a:?}, reader {b:?}"),
            }
        }
    }
});
