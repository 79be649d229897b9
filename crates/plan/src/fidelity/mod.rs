//! Source fidelity: what lets a plan read from a file be written back byte for byte.
//! A dialect keeps, in the plan's [`Layout`](crate::Layout), what its canonical writer
//! would not reproduce: text patches over the canonical text ([`text_patch`]) and
//! numbers spelled otherwise than TOON's canonical form ([`toon_numbers`]).

pub(crate) mod text_patch;
pub(crate) mod toon_numbers;
