//! Arbitrary text → a Cursor `.plan.md` (front matter, tolerant YAML, body): load,
//! validate and convert never panic; valid plans round-trip.
#![no_main]

#[path = "common/plan.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use toon_plan::{DialectId, Format};

fuzz_target!(|text: &str| {
    common::check(text, Some(DialectId::CURSOR), Some(Format::Md));
});
