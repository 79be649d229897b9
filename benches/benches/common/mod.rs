//! Code the benchmark targets share: the datasets as texts and values, typed structs,
//! the `toon-format` peer, agreement checks, and the allocator setting for timing.
//!
//! Each target uses a part of it.
#![allow(dead_code)]

pub mod checks;
pub mod peer;
pub mod prepared;
pub mod timing;
pub mod tunables;
pub mod typed;
