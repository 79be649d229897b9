//! Converting a plan to a dialect: fill in what the target requires ([`derive`](mod@derive)),
//! write, read back and compare ([`loss`]), validate as the target; one
//! [`ConversionReport`] says what happened.

pub mod derive;
pub mod loss;

use serde::Serialize;
use serde_json::Value;

use crate::dialects::DialectId;
use crate::model::{Layout, Plan};
use crate::problem::{ErrorKind, Location, PlanError, Problem};
use crate::syntax::format::{Document, Format};
use derive::Setting;
use loss::{Change, Loss, LossReport};

/// Writes a plan in a dialect and format (`None` = the dialect's natural format) as
/// it is, filling nothing.
fn write(plan: &Plan, dialect: DialectId, format: Option<Format>) -> Result<String, PlanError> {
    let d = dialect.dialect();
    let format = format.unwrap_or_else(|| d.natural_format());
    if !d.supports(format) {
        return Err(PlanError::new(
            ErrorKind::Unsupported,
            format!(
                "the {dialect} dialect cannot be written as {format} (markdown is for cursor and \
                 workflow, the prompt form for the plan model)"
            ),
        ));
    }
    d.write(plan, format)
}

/// How to convert a plan. The default writes the target's natural format and fills
/// in only what rules and defaults give.
#[derive(Clone, Debug, Default)]
pub struct ConvertOptions {
    /// The format to write; `None` = the target dialect's natural one (markdown for
    /// Cursor, YAML for composite plans, JSON for the others).
    pub format: Option<Format>,
    /// Values for fields the target requires that no rule gives (a tool DAG's `tool`,
    /// a PlanDAG `agent_type`).
    pub set: Vec<Setting>,
    /// Leaves out the markdown body and the source's layout (see [`lean`]): the
    /// plan for a prompt. The report lists what was left out as dropped.
    pub lean: bool,
    /// The source's name (a file's stem: `dark-mode` for `dark-mode.plan.md`): the id
    /// of a plan with no id, title or goal, in a target that requires one.
    pub source_name: Option<String>,
}

/// A conversion: the text and its report.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The converted text.
    pub text: String,
    /// Everything the conversion did not carry over unchanged, and the target's view
    /// of the text.
    pub report: ConversionReport,
}

/// What a conversion did. It serialises as `{"from", "to", "format", "losses",
/// "target_problems", "settable"}`, the record `toon plan convert --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConversionReport {
    /// The dialect the plan was read from; `None` for a plan built in code.
    pub from: Option<DialectId>,
    /// The target dialect.
    pub to: DialectId,
    /// The format written.
    pub format: Format,
    /// Each field dropped, changed, added, derived, defaulted or set, plan-level first,
    /// then groups, then tasks. Besides the differences between the plan and the text
    /// read back, it lists the required text fields written empty (which read back as
    /// not given, so the comparison cannot see them).
    pub losses: Vec<Loss>,
    /// The target dialect's own validation of the text: errors here mean the target
    /// requires something the plan does not have (a Cursor plan has no `tool` for a
    /// tool DAG), so the text needs filling in before the target's tools accept it.
    pub target_problems: Vec<Problem>,
    /// The fields [`Setting`]s could fill to clear the target's errors, each once, in
    /// the order the errors name them.
    pub settable: Vec<&'static str>,
    /// Whether the text read back is the plan (see [`ConversionReport::is_lossless`]).
    #[serde(skip)]
    lossless: bool,
}

impl ConversionReport {
    /// The entries that lost or changed something of the source: dropped and changed
    /// fields.
    pub fn dropped(&self) -> impl Iterator<Item = &Loss> {
        self.losses
            .iter()
            .filter(|l| matches!(l.change, Change::Dropped | Change::Changed))
    }

    /// The entries of one kind of change.
    pub fn of(&self, change: Change) -> impl Iterator<Item = &Loss> {
        self.losses.iter().filter(move |l| l.change == change)
    }

    /// The entries the conversion filled in: derived, defaulted, set or added.
    pub fn filled(&self) -> impl Iterator<Item = &Loss> {
        self.losses
            .iter()
            .filter(|l| !matches!(l.change, Change::Dropped | Change::Changed))
    }

    /// The number of errors in [`ConversionReport::target_problems`].
    pub fn target_errors(&self) -> usize {
        self.target_problems.iter().filter(|p| p.is_error()).count()
    }

    /// The target errors no [`Setting`] can clear: the target rejects something the
    /// plan holds (a dependency cycle, a tool DAG id such as `v1.2`), rather than
    /// needing a value the plan lacks.
    pub fn unsettable_errors(&self) -> usize {
        self.target_problems
            .iter()
            .filter(|p| p.is_error() && settable_at(p).is_none())
            .count()
    }

    /// True when converting back gives the same plan, layout included: no entry but
    /// the required text fields written empty, which read back as not given.
    pub fn is_lossless(&self) -> bool {
        self.lossless
    }
}

/// One line per loss, then one per problem of the target.
impl std::fmt::Display for ConversionReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for l in &self.losses {
            writeln!(f, "{l}")?;
        }
        for p in &self.target_problems {
            writeln!(f, "{p}")?;
        }
        Ok(())
    }
}

/// The settable field a problem points at, if any.
fn settable_at(p: &Problem) -> Option<&'static str> {
    match &p.location {
        Location::Path(path) => derive::settable_field(path),
        _ => None,
    }
}

/// The fields [`Setting`]s could fill to clear the target errors among `problems`.
fn settable_fields(problems: &[Problem]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for f in problems
        .iter()
        .filter(|p| p.is_error())
        .filter_map(settable_at)
    {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// Converts a plan to a dialect, with its report.
///
/// Before writing, what the target requires and the plan lacks is filled in (see
/// [`mod@derive`]): derived from the plan where a rule gives the value (a PlanDAG
/// `parallel_group` is the schedule wave), defaulted where one value is obvious, or
/// taken from [`ConvertOptions::set`]. A plan written back in the dialect it was read
/// from ([`Plan::source_dialect`]) gets only the set values: it already is what that
/// dialect holds. The text is then read back and compared with `plan`, so the
/// report's losses are empty exactly when converting back gives the same plan; and
/// the text is validated as the target ([`ConversionReport::target_problems`]).
///
/// ```
/// use toon_plan::{Change, ConvertOptions, DialectId, ReadOptions, Setting};
/// let text = "---\nname: T\ntodos:\n  - id: a\n    content: Do it\n    status: pending\n---\n";
/// let loaded = toon_plan::read(text, &ReadOptions::default())?;
/// let out = toon_plan::convert(&loaded.plan, DialectId::TOOLDAG, &ConvertOptions::default())?;
/// assert!(out.report.target_errors() > 0);
/// assert_eq!(out.report.settable, ["tool"]);
/// let options = ConvertOptions { set: vec![Setting::new("tool", "web_search")?], ..Default::default() };
/// let out = toon_plan::convert(&loaded.plan, DialectId::TOOLDAG, &options)?;
/// assert_eq!(out.report.target_errors(), 0);
/// assert!(out.report.of(Change::Set).any(|l| l.owner == "task a" && l.field == "tool"));
/// # Ok::<(), toon_plan::PlanError>(())
/// ```
pub fn convert(
    plan: &Plan,
    to: DialectId,
    options: &ConvertOptions,
) -> Result<Conversion, PlanError> {
    if options.lean {
        return convert_lean(plan, to, options);
    }
    let from = plan.source_dialect();
    let (filled, fills) = derive::fill(
        plan,
        from.unwrap_or(DialectId::PLAN),
        to,
        &options.set,
        options.source_name.as_deref(),
    )?;
    let d = to.dialect();
    let format = options.format.unwrap_or_else(|| d.natural_format());
    let text = write(&filled, to, Some(format))?;
    let document = Document::parse(&text, format)?;
    let mut back = d.read(&document)?.plan;
    d.keep_text(&mut back, &text, format);
    let mut losses = LossReport::between(plan, &back);
    let lossless = losses.is_empty();
    losses.note_emptied_lists(&filled);
    losses.explain(&fills);
    let target_problems = d.validate(&document);
    Ok(Conversion {
        text,
        report: ConversionReport {
            from,
            to,
            format,
            losses: losses.losses,
            settable: settable_fields(&target_problems),
            target_problems,
            lossless,
        },
    })
}

/// The plan for a prompt: its title, goal and tasks with their fields, without the
/// markdown body and without the layout kept to write the source back byte for byte.
pub fn lean(plan: &Plan) -> Plan {
    Plan {
        body: None,
        layout: Layout::default(),
        ..plan.clone()
    }
}

/// Converts the [`lean`] form of `plan` to `to`: the lean plan converts as a plan
/// built in code (the target fills what it needs from the tasks, as a Cursor todo's
/// `content` from a checklist task's title), and the report lists the body and each
/// layout entry it leaves out as dropped.
fn convert_lean(
    plan: &Plan,
    to: DialectId,
    options: &ConvertOptions,
) -> Result<Conversion, PlanError> {
    let options = ConvertOptions {
        lean: false,
        ..options.clone()
    };
    let mut c = convert(&self::lean(plan), to, &options)?;
    c.report.from = plan.source_dialect();
    let dropped = |field: String, before: Value| Loss {
        owner: "plan".to_owned(),
        field,
        change: Change::Dropped,
        before: Some(before),
        after: None,
        rule: None,
    };
    let mut left_out: Vec<Loss> = plan
        .body
        .iter()
        .map(|b| dropped("body".to_owned(), Value::String(b.clone())))
        .collect();
    left_out.extend(
        plan.layout
            .entries
            .iter()
            .map(|(k, v)| dropped(format!("layout.{k}"), v.clone())),
    );
    c.report
        .losses
        .retain(|l| !(l.owner == "plan" && left_out.iter().any(|x| x.field == l.field)));
    c.report.lossless &= left_out.is_empty();
    c.report.losses.splice(0..0, left_out);
    Ok(c)
}
