//! Workflow plan (seed 002): `{metadata, tasks[], steps[], shared_inputs,
//! workflow_config}` with uniform arrays, in JSON, YAML, TOON or the seed's markdown
//! layout. Seed tasks become model groups; seed steps become model tasks.
//!
//! Markdown written in another style than the canonical one (value styles such as
//! `` `x` `` or `[a, b]`, spacing inside JSON, placeholder sections) keeps the lines
//! where it differs in the plan's layout ([`MD_PATCH`]), so md → md and md → plan →
//! md give the file back byte for byte while the plan says the same.

mod markdown;
mod tree;

pub use markdown::{from_markdown, to_markdown};
pub use tree::{CONFIG, METADATA, PLAN, STEP, STEP_TYPES, TASK, from_tree, to_tree, validate_tree};

use super::{Dialect, DialectId, Read};
use crate::fidelity::{text_patch, toon_numbers};
use crate::model::Group;
use crate::model::Plan;
use crate::problem::{PlanError, Problem};
use crate::syntax::format::{self, Document, Format};
use crate::table::Table;
use crate::table::fill::{
    Fill, FillKind, goal_from_title, group_fill, plan_fill, task_fill, translate_kind,
};

/// Layout key: the lines where the markdown a plan was read from differs from the
/// canonical markdown of the same plan (a text patch).
pub const MD_PATCH: &str = "workflow.md_patch";

/// The workflow-plan dialect.
pub struct Workflow;

impl DialectId {
    /// Workflow plan (seed 002).
    pub const WORKFLOW: DialectId = DialectId::named("workflow");
}

impl Dialect for Workflow {
    fn id(&self) -> DialectId {
        DialectId::WORKFLOW
    }

    fn table(&self) -> Option<&'static Table> {
        Some(&PLAN)
    }

    fn natural_format(&self) -> Format {
        Format::Json
    }

    fn supports(&self, format: Format) -> bool {
        format != Format::Prompt
    }

    fn detect(&self, doc: &Document) -> u8 {
        match doc {
            Document::Tree(v) => {
                let Some(o) = v.as_object() else { return 0 };
                let arrays = o.get("tasks").is_some_and(|t| t.is_array())
                    && o.get("steps").is_some_and(|s| s.is_array());
                let objective = o.get("metadata").and_then(|m| m.get("objective")).is_some();
                if arrays || o.contains_key("workflow_config") || objective {
                    80
                } else {
                    0
                }
            }
            Document::Markdown(text) => markdown::detect(without_bom(text)),
        }
    }

    fn read(&self, doc: &Document) -> Result<Read, PlanError> {
        match doc {
            Document::Tree(v) => from_tree(v).map(Read::from),
            Document::Markdown(text) => {
                let md = from_markdown(without_bom(text));
                let mut plan = from_tree(&md.tree)?;
                keep_markdown_style(&mut plan, text);
                Ok(Read {
                    plan,
                    warnings: md.warnings,
                })
            }
        }
    }

    fn validate(&self, doc: &Document) -> Vec<Problem> {
        match doc {
            Document::Tree(v) => validate_tree(v, false),
            Document::Markdown(text) => {
                let md = from_markdown(without_bom(text));
                let mut out = md.warnings.clone();
                out.extend(
                    validate_tree(&md.tree, true)
                        .into_iter()
                        .map(|p| md.relocate(p)),
                );
                out
            }
        }
    }

    fn write(&self, plan: &Plan, format: Format) -> Result<String, PlanError> {
        match format {
            Format::Md => Ok(write_markdown(plan, canonical_markdown(plan))),
            other => format::write_tree(&to_tree(plan), other),
        }
    }

    fn fill(&self, plan: &mut Plan, _from: DialectId, fills: &mut Vec<Fill>) {
        for t in &mut plan.tasks {
            translate_kind(
                t,
                STEP_TYPES,
                STEP_TYPE_OF_INTENT,
                "AGENT_EXECUTION",
                "step_type from the staged intent",
                fills,
            );
        }
        if plan.title.is_none() {
            let (title, kind, rule) = match &plan.id {
                Some(id) => (id.clone(), FillKind::Derived, "from the plan id"),
                None => ("Plan".to_owned(), FillKind::Defaulted, "Plan"),
            };
            plan.title = Some(title);
            fills.push(plan_fill("title", kind, rule));
        }
        goal_from_title(plan, fills);
        one_workflow_task(plan, fills);
    }
}

/// The canonical markdown of a plan, numbers in the form plan-model TOON gives them
/// ([`toon_numbers`]: `5.0` is written `5`), so a plan has one canonical text before
/// and after a trip through TOON, and a layout patch taken from it holds for both.
fn canonical_markdown(plan: &Plan) -> String {
    to_markdown(&to_tree(&toon_numbers::plan(plan)))
}

/// Markdown without a leading byte-order mark: it is not part of the first line's text
/// (the style patch of the whole text keeps it for writing the file back).
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Notes in the plan's layout how `text` differs from the plan's canonical markdown,
/// when it does and the difference can be applied again.
fn keep_markdown_style(plan: &mut Plan, text: &str) {
    plan.layout.entries.shift_remove(MD_PATCH);
    let canonical = canonical_markdown(plan);
    if canonical == text {
        return;
    }
    let hunks = text_patch::diff(&canonical, text);
    plan.layout
        .entries
        .insert(MD_PATCH.to_owned(), text_patch::to_value(&hunks));
    if write_markdown(plan, canonical) != text {
        plan.layout.entries.shift_remove(MD_PATCH);
    }
}

/// The plan's markdown: `canonical` with the plan's [`MD_PATCH`] applied, as long as
/// the patched text still reads back to the same plan, numbers compared in TOON form
/// (an edited value, task or step gives the canonical text instead).
fn write_markdown(plan: &Plan, canonical: String) -> String {
    let Some(patched) = plan
        .layout
        .entries
        .get(MD_PATCH)
        .and_then(text_patch::from_value)
        .and_then(|hunks| text_patch::apply(&canonical, &hunks))
    else {
        return canonical;
    };
    let same = from_tree(&from_markdown(without_bom(&patched)).tree).is_ok_and(|mut back| {
        let mut plan = plan.clone();
        back.layout.entries.shift_remove(MD_PATCH);
        plan.layout.entries.shift_remove(MD_PATCH);
        toon_numbers::same_plan(&back, &plan)
    });
    if same { patched } else { canonical }
}

/// Workflow `step_type` for a staged `intent`.
const STEP_TYPE_OF_INTENT: &[(&str, &str)] =
    &[("analysis", "ANALYSIS"), ("review", "CONDITION_CHECK")];

/// Workflow steps belong to workflow tasks: a plan without groups gets one, named
/// after the plan, holding every step; a plan whose groups leave some tasks out (a Spec
/// Kit file's tasks before its first phase or in a section of no phase) gets one more,
/// first, holding those.
fn one_workflow_task(plan: &mut Plan, fills: &mut Vec<Fill>) {
    let known: std::collections::HashSet<&str> =
        plan.groups.iter().map(|g| g.id.as_str()).collect();
    let outside = |t: &crate::model::Task| !t.group.as_deref().is_some_and(|g| known.contains(g));
    if !plan.tasks.iter().any(outside) {
        return;
    }
    let whole = plan.groups.is_empty();
    let mut id = "task_1".to_owned();
    let mut k = 1;
    while known.contains(id.as_str()) {
        k += 1;
        id = format!("task_{k}");
    }
    let (name, description, why) = if whole {
        (
            plan.title.clone().unwrap_or_else(|| "Plan".to_owned()),
            plan.goal.clone(),
            "one workflow task holding every step",
        )
    } else {
        (
            "Other tasks".to_owned(),
            None,
            "one workflow task holding the steps of no other",
        )
    };
    let moved: Vec<usize> = (0..plan.tasks.len())
        .filter(|&i| outside(&plan.tasks[i]))
        .collect();
    let group = Group {
        id: id.clone(),
        name: Some(name),
        description,
        ..Group::default()
    };
    fills.push(group_fill(&group, "(whole)", FillKind::Derived, why));
    plan.groups.insert(0, group);
    for i in moved {
        let t = &mut plan.tasks[i];
        t.group = Some(id.clone());
        fills.push(task_fill(
            t,
            "group",
            FillKind::Derived,
            if whole {
                "the one workflow task"
            } else {
                "the workflow task of the steps of no other"
            },
        ));
    }
}
