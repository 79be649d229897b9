//! The streaming decoder's memory bound: a ~100 MB document, produced lazily by a
//! `Read` impl (never held in memory), decodes to JSON and to JSON Lines with a peak
//! heap of a few megabytes, measured by a counting global allocator.
//!
//! `TOON_STREAM_TEST_MB` sets the document size: default 100 in optimized builds
//! (`cargo test --release`), 16 in debug builds, where 100 MB takes minutes. The limit
//! does not depend on the size: the peak is the same for 1 MB and for 1 GB.

use std::io::{self, BufReader, Read};

use toon::DecodeOptions;
use toon::decode::{EventReader, reader_to_json_lines, reader_to_json_writer};

mod heap;
mod lines;

use heap::SERIAL;
use lines::Lines;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

/// A document generated line by line: a tabular array of `rows` rows, then a list of
/// `items` nested objects, each with a nested object, an inline array and a table.
fn generator(rows: usize, items: usize) -> Lines<impl FnMut(usize, &mut Vec<u8>) -> bool> {
    use std::io::Write;
    Lines::new(move |n, l| {
        let r = if n == 0 {
            writeln!(l, "rows[{rows}]{{id,name,score,tags,pos{{x,y}}}}:")
        } else if n <= rows {
            writeln!(
                l,
                "  {n},name {n},{}.5,\"a,b\",{},-{}",
                n % 1000,
                n % 7,
                n % 13
            )
        } else if n == rows + 1 {
            writeln!(l, "items[{items}]:")
        } else if n <= rows + 1 + items {
            let i = n - rows - 1;
            writeln!(
                l,
                "  - id: {i}\n    meta:\n      owner: \"user {i}\"\n      deep:\n        level: 3\n    \
                 tags[3]: a,b,c\n    parts[2]{{k,v}}:\n      p,{i}\n      q,true"
            )
        } else {
            return false;
        };
        r.is_ok()
    })
}

/// Rows and items for about `mb` megabytes (rows ~30 bytes, items ~150).
fn sizes() -> (usize, usize) {
    let mb: usize = std::env::var("TOON_STREAM_TEST_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 16 } else { 100 });
    let half = mb * 1_000_000 / 2;
    (half / 30, half / 150)
}

/// Runs `f` and returns the peak heap growth it caused.
fn peak_during(f: impl FnOnce()) -> usize {
    heap::peak_during(f).1
}

const LIMIT: usize = 2 * 1024 * 1024;

#[test]
fn a_large_document_streams_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (rows, items) = sizes();
    let mut produced = 0;
    let mut events = 0usize;
    let peak = peak_during(|| {
        let mut generator = generator(rows, items);
        let reader = EventReader::new(BufReader::new(&mut generator), &DecodeOptions::default());
        for e in reader {
            e.expect("the generated document is valid");
            events += 1;
        }
        produced = generator.produced;
    });
    eprintln!("events: {produced} bytes, {events} events, peak heap {peak} bytes");
    assert!(
        produced > sizes().0 * 25,
        "generator produced only {produced} bytes"
    );
    assert!(peak < LIMIT, "peak heap {peak} bytes");

    let peak = peak_during(|| {
        let generator = generator(rows, items);
        reader_to_json_writer(
            BufReader::new(generator),
            &DecodeOptions::default(),
            io::sink(),
            2,
        )
        .expect("valid");
    });
    eprintln!("JSON: peak heap {peak} bytes");
    assert!(peak < LIMIT, "peak heap {peak} bytes");
}

#[test]
fn json_lines_of_a_large_table_stream_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (rows, _) = sizes();
    for strict in [true, false] {
        let mut lines = 0;
        let peak = peak_during(|| {
            let generator = generator(rows, 0);
            // Without the empty list that follows the table, the root has one key.
            let only_table = generator.take(u64::MAX);
            let text = BufReader::new(only_table);
            let options = DecodeOptions::default().with_strict(strict);
            let mut counter = LineCounter(0);
            let r = reader_to_json_lines(text, &options, &mut counter);
            // The generator also writes `items[0]:`, a second root key: the records
            // are written, then the shape error comes.
            assert!(r.is_err());
            lines = counter.0;
        });
        eprintln!("JSON Lines (strict {strict}): {lines} lines, peak heap {peak} bytes");
        assert!(lines >= rows, "{lines} lines");
        assert!(peak < LIMIT, "peak heap {peak} bytes");
    }
}

/// Counts the newlines written to it.
struct LineCounter(usize);

impl io::Write for LineCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.iter().filter(|&&b| b == b'\n').count();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
