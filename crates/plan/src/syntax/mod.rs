//! The text layer under the dialects: the file formats a plan is written in (JSON,
//! YAML, TOON, markdown) and the pieces of markdown and TOON syntax that several
//! dialects share.

pub(crate) mod body_tasks;
pub mod format;
pub mod locate;
pub(crate) mod tabular;
pub mod yaml;
