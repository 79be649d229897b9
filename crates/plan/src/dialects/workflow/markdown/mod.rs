//! The markdown layout of seed 002 (`# Title`, `## Objective`, `## Tasks` with
//! `### Task N: Name` and `- **ID**: …` bullets, `## Steps`, `## Shared Inputs`,
//! `## Workflow Config`), read with pulldown-cmark events into the workflow tree and
//! written back in the same layout.
//!
//! Structure comes from the events (headings, list items, strong labels, code
//! blocks); values are the exact source text after a label, so nothing is reformatted.
//! Two sections extend the layout so nothing is lost: `## Metadata` (created_at,
//! author, …) and `## Extra Fields`; any other section is kept verbatim as `notes`.

mod labels;
mod read;
mod values;
mod write;

pub use read::{detect, from_markdown};
pub use write::to_markdown;
