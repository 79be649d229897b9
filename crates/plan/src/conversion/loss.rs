//! Loss reports: what a conversion could not carry, field by field, with task ids.
//!
//! A report is computed, not declared: the converted text is read back and compared
//! with the plan it came from. So an empty report means the target holds everything,
//! and converting back gives the same plan.

use std::collections::{HashMap, HashSet};
use std::fmt;

use indexmap::IndexSet;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::Plan;

/// What happened to a field; serialised in lower case (`dropped`, `changed`, `added`,
/// `derived`, `defaulted`, `set`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// The target cannot hold it: it is gone.
    Dropped,
    /// The target holds it differently (another value after reading back).
    Changed,
    /// The target added it (a value its writer supplies).
    Added,
    /// Filled in by a rule from other fields of the plan (see [`crate::conversion::derive`]).
    Derived,
    /// Filled in with the obvious value where the plan said nothing.
    Defaulted,
    /// Filled in from a [`crate::Setting`].
    Set,
}

/// One entry of a loss report; serialised as `{"owner", "field", "change", "before",
/// "after", "rule"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Loss {
    /// `task ID`, `group ID` or `plan`.
    pub owner: String,
    /// The model field (`timeout_ms`, `extra.isProject`, `tasks` for order, …).
    pub field: String,
    /// Dropped, changed or added.
    pub change: Change,
    /// Value before the conversion.
    pub before: Option<Value>,
    /// Value after reading the conversion back.
    pub after: Option<Value>,
    /// For derived and defaulted values: the rule that gave it.
    pub rule: Option<&'static str>,
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        let cut: String = s.chars().take(57).collect();
        format!("{cut}...")
    } else {
        s
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.change {
            Change::Dropped => write!(
                f,
                "{}: `{}` dropped (was {})",
                self.owner,
                self.field,
                self.before.as_ref().map(short).unwrap_or_default()
            ),
            Change::Changed => write!(
                f,
                "{}: `{}` changed ({} → {})",
                self.owner,
                self.field,
                self.before.as_ref().map(short).unwrap_or_default(),
                self.after.as_ref().map(short).unwrap_or_default()
            ),
            Change::Added => write!(
                f,
                "{}: `{}` added ({})",
                self.owner,
                self.field,
                self.after.as_ref().map(short).unwrap_or_default()
            ),
            Change::Derived | Change::Defaulted | Change::Set => {
                let how = match self.change {
                    Change::Derived => "derived",
                    Change::Defaulted => "defaulted",
                    _ => "set",
                };
                write!(
                    f,
                    "{}: `{}` {how}: {}",
                    self.owner,
                    self.field,
                    self.after.as_ref().map(short).unwrap_or_default()
                )?;
                match self.rule {
                    Some(rule)
                        if self.change == Change::Derived
                            || rule == crate::table::fill::EMPTY_TEXT =>
                    {
                        write!(f, " ({rule})")
                    }
                    _ => Ok(()),
                }
            }
        }
    }
}

/// Whether every loss, if any, is of the plan's layout ([`LossReport::keeps_content`]).
pub fn keeps_content(losses: &[Loss]) -> bool {
    losses
        .iter()
        .all(|l| l.owner == "plan" && l.field.starts_with("layout."))
}

/// Everything a conversion did not carry over unchanged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LossReport {
    /// The entries, plan-level first, then groups, then tasks.
    pub losses: Vec<Loss>,
}

impl LossReport {
    /// True when the target held everything and nothing was filled in.
    pub fn is_empty(&self) -> bool {
        self.losses.is_empty()
    }

    /// The entries that lost or changed something of the source: dropped and changed
    /// fields (not what was derived, defaulted or set).
    pub fn dropped(&self) -> impl Iterator<Item = &Loss> {
        self.losses
            .iter()
            .filter(|l| matches!(l.change, Change::Dropped | Change::Changed))
    }

    /// Marks the additions and changes a conversion made on purpose with how and why.
    /// Linear in the entries and fills (a conversion of 100,000 tasks has a fill or
    /// more per task).
    pub fn explain(&mut self, fills: &[crate::table::fill::Fill]) {
        use crate::table::fill::FillKind;
        let mut first: HashMap<(&str, &str), &crate::table::fill::Fill> =
            HashMap::with_capacity(fills.len());
        for f in fills {
            first.entry((f.owner.as_str(), f.field)).or_insert(f);
        }
        for l in &mut self.losses {
            if !matches!(l.change, Change::Added | Change::Changed) {
                continue;
            }
            if let Some(f) = first.get(&(l.owner.as_str(), l.field.as_str())) {
                l.change = match f.kind {
                    FillKind::Derived => Change::Derived,
                    FillKind::Defaulted => Change::Defaulted,
                    FillKind::Set => Change::Set,
                };
                l.rule = Some(f.rule);
            }
        }
        self.list_empty_text(fills);
    }

    /// A required text field written empty reads back as not given, so the comparison
    /// cannot see it: its fill is listed as it is, right after its owner's other
    /// entries (after earlier fills of the same owner), or, for an owner without
    /// entries, after the last entry of its rank or below (plan, then groups, then
    /// tasks), keeping that order. The entries are held as a linked list while the
    /// fills go in, so each goes in at once.
    fn list_empty_text(&mut self, fills: &[crate::table::fill::Fill]) {
        let rank = |owner: &str| match owner {
            "plan" => 0,
            o if o.starts_with("group ") => 1,
            _ => 2,
        };
        let empty: Vec<&crate::table::fill::Fill> = fills
            .iter()
            .filter(|f| f.rule == crate::table::fill::EMPTY_TEXT)
            .collect();
        if empty.is_empty() {
            return;
        }
        let count = self.losses.len();
        // Each entry with the index of the next one.
        let mut nodes: Vec<(Loss, Option<usize>)> = std::mem::take(&mut self.losses)
            .into_iter()
            .enumerate()
            .map(|(i, l)| (l, (i + 1 < count).then_some(i + 1)))
            .collect();
        let mut head = (count > 0).then_some(0);
        let mut present: HashSet<(String, String)> = HashSet::with_capacity(count);
        let mut last_of_owner: HashMap<String, usize> = HashMap::new();
        let mut last_of_rank: [Option<usize>; 3] = [None; 3];
        for (i, (l, _)) in nodes.iter().enumerate() {
            present.insert((l.owner.clone(), l.field.clone()));
            last_of_owner.insert(l.owner.clone(), i);
            last_of_rank[rank(&l.owner)] = Some(i);
        }
        for f in empty {
            if !present.insert((f.owner.clone(), f.field.to_owned())) {
                continue;
            }
            let r = rank(&f.owner);
            let after = match last_of_owner.get(&f.owner) {
                Some(&i) => Some(i),
                None => last_of_rank[..=r].iter().rev().find_map(|i| *i),
            };
            let k = nodes.len();
            let next = match after {
                Some(i) => nodes[i].1.replace(k),
                None => head.replace(k),
            };
            nodes.push((
                Loss {
                    owner: f.owner.clone(),
                    field: f.field.to_owned(),
                    change: Change::Defaulted,
                    before: None,
                    after: Some(Value::String(String::new())),
                    rule: Some(f.rule),
                },
                next,
            ));
            if after.is_none() || after == last_of_rank[r] || last_of_rank[r].is_none() {
                last_of_rank[r] = Some(k);
            }
            last_of_owner.insert(f.owner.clone(), k);
        }
        let mut slots: Vec<Option<(Loss, Option<usize>)>> = nodes.into_iter().map(Some).collect();
        let mut at = head;
        while let Some(i) = at {
            let (loss, next) = slots[i].take().expect("each entry is linked once");
            self.losses.push(loss);
            at = next;
        }
    }

    /// A list the conversion emptied (PlanDAG keeps only its own capabilities) is
    /// written `[]`; where the target's field is required, `[]` reads back as "not
    /// given" (what its writer puts for a missing list), so the comparison sees the
    /// field dropped. The target holds it, empty: the entry becomes changed to `[]`.
    /// `written` is the plan as it was written.
    pub fn note_emptied_lists(&mut self, written: &Plan) {
        let plan = to_map(written);
        let item = |kind: &str, id: &str| {
            before_list(&plan, kind)
                .iter()
                .find(|v| v.get("id").and_then(Value::as_str) == Some(id))
                .and_then(Value::as_object)
        };
        for l in &mut self.losses {
            let had_items = l
                .before
                .as_ref()
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
            if l.change != Change::Dropped || !had_items {
                continue;
            }
            let holder = match l.owner.split_once(' ') {
                Some(("task", id)) => item("tasks", id),
                Some(("group", id)) => item("groups", id),
                _ if l.owner == "plan" => Some(&plan),
                _ => None,
            };
            let emptied = holder
                .and_then(|o| o.get(&l.field))
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty);
            if emptied {
                l.change = Change::Changed;
                l.after = Some(Value::Array(Vec::new()));
            }
        }
    }

    /// Whether the plan's content came through: every loss, if any, is of the plan's
    /// layout — what it keeps only to write its source text back byte for byte (line
    /// endings, a byte-order mark, a head or markdown style), which a dialect's JSON,
    /// YAML or TOON form has no place for.
    pub fn keeps_content(&self) -> bool {
        keeps_content(&self.losses)
    }

    /// Compares a plan with the plan read back from its conversion.
    pub fn between(before: &Plan, after: &Plan) -> Self {
        let mut losses = Vec::new();
        let b = to_map(before);
        let a = to_map(after);
        compare_objects("plan", &b, &a, &["tasks", "groups"], &mut losses);
        compare_lists(
            "group",
            before_list(&b, "groups"),
            before_list(&a, "groups"),
            &mut losses,
        );
        compare_lists(
            "task",
            before_list(&b, "tasks"),
            before_list(&a, "tasks"),
            &mut losses,
        );
        LossReport { losses }
    }
}

impl fmt::Display for LossReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.losses {
            writeln!(f, "{l}")?;
        }
        Ok(())
    }
}

fn to_map<T: Serialize>(v: &T) -> Map<String, Value> {
    match serde_json::to_value(v) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

fn before_list<'a>(m: &'a Map<String, Value>, key: &str) -> &'a [Value] {
    m.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Compares two objects key by key; `extra` and `layout` maps key by key too.
fn compare_objects(
    owner: &str,
    b: &Map<String, Value>,
    a: &Map<String, Value>,
    skip: &[&str],
    out: &mut Vec<Loss>,
) {
    let keys: IndexSet<&String> = b.keys().chain(a.keys()).collect();
    for k in keys {
        if skip.contains(&k.as_str()) {
            continue;
        }
        let (bv, av) = (b.get(k), a.get(k));
        if matches!(k.as_str(), "extra" | "layout") {
            let empty = Map::new();
            let bm = bv.and_then(Value::as_object).unwrap_or(&empty);
            let am = av.and_then(Value::as_object).unwrap_or(&empty);
            let inner: IndexSet<&String> = bm.keys().chain(am.keys()).collect();
            for ik in inner {
                push(out, owner, &format!("{k}.{ik}"), bm.get(ik), am.get(ik));
            }
            continue;
        }
        push(out, owner, k, bv, av);
    }
}

/// Equality in JSON's data model: numbers compare by value (`5.0` is `5`, as in
/// JavaScript and TOON), object keys in any order.
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || match (x.as_f64(), y.as_f64()) {
                    (Some(p), Some(q)) => p == q,
                    _ => false,
                }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

fn push(out: &mut Vec<Loss>, owner: &str, field: &str, b: Option<&Value>, a: Option<&Value>) {
    let change = match (b, a) {
        (Some(x), Some(y)) if same_value(x, y) => return,
        (None, None) => return,
        (Some(_), None) => Change::Dropped,
        (None, Some(_)) => Change::Added,
        (Some(_), Some(_)) => Change::Changed,
    };
    out.push(Loss {
        owner: owner.to_owned(),
        field: field.to_owned(),
        change,
        before: b.cloned(),
        after: a.cloned(),
        rule: None,
    });
}

/// Matches items by id (the k-th item with an id to the k-th with the same id).
fn compare_lists(kind: &str, b: &[Value], a: &[Value], out: &mut Vec<Loss>) {
    let id_of = |v: &Value| v.get("id").and_then(Value::as_str).unwrap_or("").to_owned();
    let keyed = |items: &[Value]| -> Vec<(String, usize)> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        items
            .iter()
            .map(|v| {
                let id = id_of(v);
                let n = seen.entry(id.clone()).or_insert(0);
                *n += 1;
                (id, *n)
            })
            .collect()
    };
    let bk = keyed(b);
    let ak = keyed(a);
    let a_index: HashMap<&(String, usize), usize> =
        ak.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let b_index: HashMap<&(String, usize), usize> =
        bk.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let empty = Map::new();
    for (i, key) in bk.iter().enumerate() {
        let owner = format!("{kind} {}", key.0);
        match a_index.get(key) {
            Some(&j) => {
                let bo = b[i].as_object().unwrap_or(&empty);
                let ao = a[j].as_object().unwrap_or(&empty);
                compare_objects(&owner, bo, ao, &[], out);
            }
            None => out.push(Loss {
                owner,
                field: String::from("(whole)"),
                change: Change::Dropped,
                before: Some(b[i].clone()),
                after: None,
                rule: None,
            }),
        }
    }
    for (j, key) in ak.iter().enumerate() {
        if !b_index.contains_key(key) {
            out.push(Loss {
                owner: format!("{kind} {}", key.0),
                field: String::from("(whole)"),
                change: Change::Added,
                before: None,
                after: Some(a[j].clone()),
                rule: None,
            });
        }
    }
    // Same items, another order.
    let common_b: Vec<&(String, usize)> = bk.iter().filter(|k| a_index.contains_key(k)).collect();
    let common_a: Vec<&(String, usize)> = ak.iter().filter(|k| b_index.contains_key(k)).collect();
    if common_b != common_a {
        let ids = |l: &[&(String, usize)]| {
            Value::Array(l.iter().map(|k| Value::String(k.0.clone())).collect())
        };
        out.push(Loss {
            owner: "plan".into(),
            field: format!("{kind}s (order)"),
            change: Change::Changed,
            before: Some(ids(&common_b)),
            after: Some(ids(&common_a)),
            rule: None,
        });
    }
}

#[cfg(test)]
mod explain_tests;
