//! # toon-plan — one model for AI agent plans, every dialect in and out
//!
//! Planners write plans in many dialects: Cursor's `.plan.md` files, PlanDAG JSON,
//! CompositeTask YAML, workflow plans, staged agent plans, tool DAGs. This crate reads
//! each of them into one [`Plan`] model ([`read`], [`read_file`], [`read_value`]),
//! validates it against its dialect's rules ([`validate`]: every problem, with a
//! location), and writes any plan in any dialect ([`convert`]) with one
//! [`ConversionReport`]: every field the target could not hold, every value filled in
//! for it, the target's own problems with the text. [`schedule`] and [`dry_run`] give
//! the execution view. Reports and problems serialise (serde) to the JSON the `toon`
//! command line prints.
//!
//! ```
//! use toon_plan::{ConvertOptions, DialectId, Format, ReadOptions};
//!
//! let text = r#"{"dag": [
//!   {"id": "a", "tool": "search", "query": "x", "dependencies": []},
//!   {"id": "b", "tool": "calc", "query": "{{a.result}} + 1", "dependencies": ["a"]}
//! ]}"#;
//! let loaded = toon_plan::read(text, &ReadOptions::default())?;
//! assert_eq!(loaded.dialect, DialectId::TOOLDAG);
//! assert!(toon_plan::validate(&loaded).is_empty());
//!
//! let options = ConvertOptions { format: Some(Format::Yaml), ..ConvertOptions::default() };
//! let out = toon_plan::convert(&loaded.plan, DialectId::COMPOSITE, &options)?;
//! assert!(out.text.contains("dependsOn:"));
//! // Composite plans have no `tool`: the report says so, per task.
//! assert!(out.report.dropped().any(|l| l.owner == "task a" && l.field == "tool"));
//! # Ok::<(), toon_plan::PlanError>(())
//! ```
//!
//! A plan built in code writes as every dialect; each conversion fills in what its
//! target requires (a Cursor todo's `content`, a PlanDAG step's `parallel_group`) and
//! says what it filled:
//!
//! ```
//! use toon_plan::{ConvertOptions, DialectId, Plan, Setting, Task};
//!
//! let plan = Plan {
//!     title: Some("Ship the release".into()),
//!     goal: Some("Publish version 2".into()),
//!     tasks: vec![
//!         Task { title: Some("Build".into()), tool: Some("cargo".into()), ..Task::new("build") },
//!         Task {
//!             title: Some("Publish".into()),
//!             tool: Some("twine".into()),
//!             dependencies: Some(vec!["build".into()]),
//!             ..Task::new("publish")
//!         },
//!     ],
//!     ..Plan::default()
//! };
//! for to in DialectId::all() {
//!     let out = toon_plan::convert(&plan, to, &ConvertOptions::default())?;
//!     // What no rule can give (a PlanDAG step's `agent_type`, `action`, `target`) the
//!     // report names: set it.
//!     let value = |field: &str| match field {
//!         "agent_type" => "api_agent",
//!         "action" => "navigate",
//!         _ => "https://example.com/release",
//!     };
//!     let set = out.report.settable.iter().map(|f| Setting::new(f, value(f)));
//!     let options = ConvertOptions { set: set.collect::<Result<_, _>>()?, ..Default::default() };
//!     let out = toon_plan::convert(&plan, to, &options)?;
//!     assert_eq!(out.report.target_errors(), 0, "{to}: {:?}", out.report.target_problems);
//!     // Read back, it holds both tasks.
//!     let back = toon_plan::read(&out.text, &toon_plan::ReadOptions::dialect(to))?;
//!     assert_eq!(back.plan.tasks.len(), 2, "{to}");
//! }
//! # Ok::<(), toon_plan::PlanError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The layers, each importing only from the ones listed before it:
// errors (`problem`) and the plan model (`model`, with its dependency graph);
// syntax (`syntax`: formats, YAML, markdown checklists, TOON tables) and the
// source-fidelity machinery that writes a plan back as its source was written
// (`fidelity`: text patches, canonical numbers); the field tables that describe each
// dialect's fields and the rules that fill them (`table`); the execution view of a
// plan (`exec`: schedule, dry run, graphs); the dialects (`dialects`); conversion and
// its reports (`conversion`); and the entry points at the crate root (`reading`, `forms`, `folder`,
// `schema`, `stream`, `instructions`, `model_output`).
pub mod conversion;
pub mod dialects;
pub mod exec;
mod fidelity;
pub mod folder;
pub mod forms;
pub mod instructions;
pub mod model;
pub mod model_output;
pub mod problem;
mod reading;
pub mod schema;
pub mod stream;
pub mod syntax;
pub mod table;

pub use conversion::derive::Setting;
pub use conversion::loss::{Change, Loss, LossReport};
pub use conversion::{Conversion, ConversionReport, ConvertOptions, convert};
pub use dialects::{Dialect, DialectId, Read};
pub use exec::render::{GraphFormat, graph};
pub use exec::{DryRun, DryRunOptions, Schedule, dry_run, schedule};
pub use forms::{FormStats, stats};
pub use instructions::{Instructions, instructions};
pub use model::{Extra, Group, Layout, Plan, StageMode, Status, StepKind, Task};
pub use model_output::{ModelAnswer, read_model_output};
pub use problem::{ErrorKind, Location, PlanError, Position, Problem, Severity};
pub use reading::{
    Checked, Loaded, ReadOptions, check, dialect_from_path, read, read_file, read_value, validate,
};
pub use syntax::format::{Document, Format};
pub use table::fill::{EMPTY_TEXT, Fill, FillKind, SET_RULE};
