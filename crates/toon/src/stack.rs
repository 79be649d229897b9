//! Stack growth for the recursive encoder and decoder.
//!
//! Nesting is bounded by `max_depth`, but a thread's stack may be small (2 MiB for
//! spawned threads, less under fuzzers). Every recursive step runs through
//! [`guarded`], which moves onto a fresh heap-allocated stack segment when less than
//! [`RED_ZONE`] bytes remain, so any depth up to the limit is safe on any thread.

/// Stack that must remain before a recursive step runs in place.
const RED_ZONE: usize = 128 * 1024;
/// Size of each new stack segment.
const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, first switching to a new stack segment if this one is nearly used up.
#[inline]
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}
