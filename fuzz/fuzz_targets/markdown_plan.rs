//! Arbitrary text → the workflow markdown layout, and markdown with the dialect
//! detected: load, validate and convert never panic; valid plans round-trip.
#![no_main]

#[path = "common/plan.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use toon_plan::{DialectId, Format};

fuzz_target!(|text: &str| {
    common::check(text, Some(DialectId::WORKFLOW), Some(Format::Md));
    common::check(text, None, Some(Format::Md));
});
