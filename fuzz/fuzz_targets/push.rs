//! Arbitrary bytes, cut into chunks at offsets the input's first bytes choose, fed to
//! the push decoder (`PushDecoder`), against the event reader over the whole input,
//! strict and non-strict: the same events, and the same error (kind, message, line,
//! column, source line) after the same events.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toon::decode::{Event, EventReader, PushDecoder};
use toon::{DecodeOptions, Error};

fn same(a: &Error, b: &Error) -> bool {
    a.kind() == b.kind()
        && a.message() == b.message()
        && a.line() == b.line()
        && a.column() == b.column()
        && a.source_line() == b.source_line()
}

fn whole(data: &[u8], options: &DecodeOptions) -> (Vec<Event>, Option<Error>) {
    let mut events = Vec::new();
    for e in EventReader::new(data, options) {
        match e {
            Ok(e) => events.push(e),
            Err(e) => return (events, Some(e)),
        }
    }
    (events, None)
}

fn pushed(data: &[u8], step: usize, options: &DecodeOptions) -> (Vec<Event>, Option<Error>) {
    let mut dec = PushDecoder::new(options);
    let mut events = Vec::new();
    let mut chunks = data.chunks(step).peekable();
    loop {
        let last = chunks.peek().is_none();
        let pushed = match chunks.next() {
            Some(chunk) => dec.push(chunk),
            None => {
                dec.finish();
                Ok(())
            }
        };
        if let Err(e) = pushed {
            return (events, Some(e));
        }
        loop {
            match dec.next_event() {
                Ok(Some(e)) => events.push(e),
                Ok(None) => break,
                Err(e) => return (events, Some(e)),
            }
        }
        if last {
            assert!(dec.is_done());
            return (events, None);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let indent = 1 + usize::from(data.first().copied().unwrap_or(0) % 4);
    let step = 1 + usize::from(data.get(1).copied().unwrap_or(0) % 16);
    for strict in [true, false] {
        let options = DecodeOptions::default()
            .with_strict(strict)
            .with_indent_size(indent)
            .with_max_depth(64);
        let (want, want_err) = whole(data, &options);
        for step in [1, step, data.len().max(1)] {
            let (got, got_err) = pushed(data, step, &options);
            assert_eq!(want, got, "events, step {step}");
            match (&want_err, &got_err) {
                (None, None) => {}
                (Some(a), Some(b)) => assert!(same(a, b), "errors: {a:?} / {b:?}"),
                (a, b) => panic!("step {step}: whole {a:?}, pushed {b:?}"),
            }
        }
    }
});
