//! `from_reader`'s memory bound: a document of many megabytes, produced lazily by a
//! `Read` impl (never held in memory), deserialized into a struct whose large arrays
//! are read by a visitor that counts each element and drops it, with a peak heap far
//! below the document's size, measured by a counting global allocator. The same
//! document read whole (`from_str`) needs its text at least.
//!
//! `TOON_STREAM_TEST_MB` sets the document size: default 64 in optimized builds, 8 in
//! debug builds. The peak does not depend on the size.

use std::fmt;
use std::io::{Read, Write};

use serde::Deserialize;
use serde::de::{self, SeqAccess, Visitor};

mod heap;
mod lines;

use heap::SERIAL;
use lines::Lines;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

/// A document generated line by line: a title, a table of `rows` rows, then a list of
/// `rows / 4` objects, each with a nested object and an inline array.
fn generator(rows: usize) -> Lines<impl FnMut(usize, &mut Vec<u8>) -> bool> {
    let items = rows / 4;
    Lines::new(move |n, l| {
        let r = if n == 0 {
            writeln!(l, "title: generated\nrows[{rows}]{{id,name,score,tags}}:")
        } else if n <= rows {
            writeln!(l, "  {n},name {n},{}.5,\"a,b\"", n % 1000)
        } else if n == rows + 1 {
            writeln!(l, "items[{items}]:")
        } else if n <= rows + 1 + items {
            let i = n - rows - 1;
            writeln!(
                l,
                "  - id: {i}\n    meta:\n      owner: \"user {i}\"\n      skip: true\n    tags[3]: a,b,c"
            )
        } else {
            return false;
        };
        r.is_ok()
    })
}

#[derive(Deserialize)]
struct Row {
    id: u64,
    name: String,
    score: f64,
    tags: String,
}

#[derive(Deserialize)]
struct Meta {
    owner: String,
}

#[derive(Deserialize)]
struct Item {
    id: u64,
    meta: Meta,
    tags: Vec<String>,
}

/// A sequence read element by element: counts the elements and checks each with
/// `check` (given its position), keeping none.
struct Counted<T> {
    count: usize,
    failures: usize,
    _of: std::marker::PhantomData<T>,
}

/// What an element must satisfy at position `i` (0-based).
trait Check {
    fn ok(&self, i: usize) -> bool;
}

impl Check for Row {
    fn ok(&self, i: usize) -> bool {
        let n = i + 1;
        self.id == n as u64
            && self.name == format!("name {n}")
            && self.score == (n % 1000) as f64 + 0.5
            && self.tags == "a,b"
    }
}

impl Check for Item {
    fn ok(&self, i: usize) -> bool {
        let n = i + 1;
        self.id == n as u64 && self.meta.owner == format!("user {n}") && self.tags.len() == 3
    }
}

impl<'de, T: Deserialize<'de> + Check> Deserialize<'de> for Counted<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Each<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Check> Visitor<'de> for Each<T> {
            type Value = Counted<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Counted<T>, A::Error> {
                let (mut count, mut failures) = (0, 0);
                while let Some(element) = seq.next_element::<T>()? {
                    failures += usize::from(!element.ok(count));
                    count += 1;
                }
                Ok(Counted {
                    count,
                    failures,
                    _of: std::marker::PhantomData,
                })
            }
        }
        d.deserialize_seq(Each(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
struct Doc {
    title: String,
    rows: Counted<Row>,
    items: Counted<Item>,
}

/// Rows for about `mb` megabytes (a row ~25 bytes, an item ~90 per four rows).
fn rows() -> usize {
    let mb: usize = std::env::var("TOON_STREAM_TEST_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 8 } else { 64 });
    mb * 1_000_000 / 48
}

const LIMIT: usize = 256 * 1024;

#[test]
fn from_reader_holds_one_element_at_a_time() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let rows = rows();
    for strict in [true, false] {
        let mut produced = 0;
        let (doc, peak) = heap::peak_during(|| {
            let mut generator = generator(rows);
            let options = toon::DecodeOptions::default().with_strict(strict);
            let doc: Doc =
                toon::decode::from_reader_with(&mut generator, &options).expect("valid document");
            produced = generator.produced;
            doc
        });
        eprintln!(
            "from_reader (strict {strict}): {produced} bytes, {} rows, {} items, peak heap {peak} bytes",
            doc.rows.count, doc.items.count
        );
        assert_eq!(doc.title, "generated");
        assert_eq!(doc.rows.count, rows);
        assert_eq!(doc.items.count, rows / 4);
        assert_eq!((doc.rows.failures, doc.items.failures), (0, 0));
        assert!(
            produced > rows * 40,
            "generator produced only {produced} bytes"
        );
        assert!(
            peak < LIMIT,
            "peak heap {peak} bytes for {produced} bytes of input"
        );
    }
}

#[test]
fn a_vec_of_the_same_rows_is_the_rows_and_no_more() {
    // The contrast: collected into a Vec, memory grows with the rows (so the bound
    // above is the streaming's, not the data's).
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    #[derive(Deserialize)]
    struct Rows {
        rows: Vec<Row>,
    }
    let rows = 20_000;
    let (doc, peak) = heap::peak_during(|| {
        let text = generator(rows).take(u64::MAX);
        // The list after the table is an unknown field, skipped.
        toon::from_reader::<_, Rows>(text).expect("valid")
    });
    assert_eq!(doc.rows.len(), rows);
    assert!(doc.rows.iter().enumerate().all(|(i, r)| r.ok(i)));
    let held = rows * std::mem::size_of::<Row>();
    assert!(
        peak > held,
        "peak {peak} below the {held} bytes the rows hold"
    );
    assert!(
        peak < 4 * held + LIMIT,
        "peak {peak} for {held} bytes of rows"
    );
}
