//! Arbitrary text → the tooldag dialect (JSON, YAML or TOON by the first byte; or
//! detected): load, validate and convert never panic; valid plans round-trip.
#![no_main]

#[path = "common/plan.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use toon_plan::DialectId;

fuzz_target!(|data: &[u8]| {
    if let Some((format, text)) = common::split_format(data) {
        common::check(text, Some(DialectId::TOOLDAG), Some(format));
        common::check(text, None, None);
    }
});
