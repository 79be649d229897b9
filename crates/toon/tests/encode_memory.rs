//! Peak heap while serializing typed data: `to_writer` holds a bounded buffer however
//! long the array, and `to_string` holds little beyond the output string (no `Value`
//! tree). A counting global allocator measures the peak.

use serde::Serialize;

mod heap;

use heap::{SERIAL, peak_during};

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

#[derive(Serialize)]
struct Employee {
    id: u64,
    name: String,
    department: &'static str,
    salary: i64,
    active: bool,
    score: f64,
}

#[derive(Serialize)]
struct Doc {
    employees: Vec<Employee>,
}

fn doc(n: usize) -> Doc {
    Doc {
        employees: (0..n as u64)
            .map(|i| Employee {
                id: i,
                name: format!("Employee {i}"),
                department: ["Sales", "R&D, Labs", "Ops"][i as usize % 3],
                salary: 40_000 + (i as i64 * 37) % 90_000,
                active: i % 2 == 0,
                score: i as f64 / 7.0,
            })
            .collect(),
    }
}

const N: usize = 200_000;

#[test]
fn to_writer_holds_a_bounded_buffer() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = doc(N);
    let (r, peak) = peak_during(|| toon::to_writer(std::io::sink(), &d));
    r.expect("encodes");
    eprintln!("to_writer of {N} structs: peak extra heap {peak} bytes");
    assert!(peak < 400 * 1024, "peak extra heap {peak} bytes");
    // A table breaking at the last row takes the same bounded memory.
    let mut rows: Vec<toon::Value> = (0..20_000)
        .map(|i| toon::toon!({"id": i, "name": "x"}))
        .collect();
    rows.push(toon::toon!({"id": 1}));
    let (r, peak) = peak_during(|| toon::to_writer(std::io::sink(), &rows));
    r.expect("encodes");
    assert!(peak < 400 * 1024, "peak extra heap {peak} bytes");
}

#[test]
fn to_string_holds_little_beyond_the_output() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = doc(N);
    let (text, peak) = peak_during(|| toon::to_string(&d).expect("encodes"));
    let cap = text.capacity();
    eprintln!(
        "to_string of {N} structs: output {} bytes (capacity {cap}), peak extra heap {peak} bytes",
        text.len()
    );
    // Growing the string by doubling briefly holds the old and the new buffer.
    assert!(
        peak <= cap + cap / 2 + 256 * 1024,
        "peak {peak}, output capacity {cap}"
    );
    // The same text as the Value route, which needs far more.
    let (via_value, value_peak) =
        peak_during(|| toon::encode_value(&toon::to_value(&d).expect("to_value")));
    eprintln!("through a Value: peak extra heap {value_peak} bytes");
    assert_eq!(text, via_value);
    assert!(value_peak > 2 * peak);
}

#[test]
fn json_tape_holds_about_its_text() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let json = serde_json::to_string(&doc(N)).expect("JSON");
    let (r, peak) = peak_during(|| {
        let tape = toon::value::JsonTape::parse(&json, toon::DEFAULT_MAX_DEPTH)?;
        toon::to_writer(std::io::sink(), &tape)
    });
    r.expect("encodes");
    eprintln!(
        "JSON of {N} structs ({} bytes) through a tape: peak extra heap {peak} bytes",
        json.len()
    );
    // The tape is about 1.3 times the text here; growing it by doubling briefly holds
    // the old and the new buffer.
    assert!(
        peak < 3 * json.len(),
        "peak {peak}, JSON {} bytes",
        json.len()
    );
    // The tree of the same JSON needs far more.
    let (tree, tree_peak) = peak_during(|| {
        toon::value::from_json_str(&json, toon::DEFAULT_MAX_DEPTH).map(|v| toon::encode_value(&v))
    });
    eprintln!("through a Value tree: peak extra heap {tree_peak} bytes");
    assert!(tree.is_ok());
    assert!(tree_peak > 2 * peak, "tree {tree_peak}, tape {peak}");
}
