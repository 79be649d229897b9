//! A task line that [`render_line`] writes back exactly can be left out of a stored
//! body and restored from its task ([`compact`], [`expand`]), so a plan model holding
//! the tasks as a table does not hold them twice. The layout entries ([`LAYOUT_KEYS`])
//! say where the lines go back.

use serde_json::{Map, Value};

use super::list::{located, render_line};
use crate::model::Task;

/// Layout key of a plan model whose body leaves out the line of every task, and they go
/// back as one block: the 1-based body line of the first task's line ([`render_line`]);
/// the others follow on the next lines, in task order, not indented unless [`NESTED`]
/// lists them. The common case (one task list), so it costs one number; the block takes
/// whatever tasks the plan has, so a task added, deleted or moved in the plan model
/// goes back into the list and every other stays where it was.
pub const TASKS_AT: &str = "cursor.tasks_at";

/// Layout key beside [`TASKS_AT`]: the ids of the tasks whose line is indented by two
/// spaces, an item nested in the one above it (ids, not positions, so the nesting
/// follows a task that moves; numbers from 1, in task order, are read too).
pub const NESTED: &str = "cursor.nested";

/// Layout key of a plan model whose body leaves out task lines in any other arrangement:
/// runs of tasks, in task order, `{line, count, indent}`: the next `count` tasks' lines
/// ([`render_line`], all indented by `indent` spaces) go back as body lines `line`,
/// `line + 1`, … (1-based); a run with `line` and `indent` null is tasks whose lines the
/// body holds as written.
pub const TASK_LINES: &str = "cursor.task_lines";

/// Every layout key that puts task lines back: [`compact`] writes [`TASKS_AT`] (with
/// [`NESTED`] when some line is indented) or [`TASK_LINES`], and [`expand`] reads them.
pub const LAYOUT_KEYS: [&str; 3] = [TASKS_AT, NESTED, TASK_LINES];

/// The indentation of a task line nested one level in a `- ` list.
const NESTED_INDENT: usize = 2;

/// Where one task's line goes back: its 1-based body line and its indentation, or
/// `None` when the body keeps the line as written.
type Place = Option<(usize, usize)>;

/// The layout entries of [`LAYOUT_KEYS`] that [`compact`] writes, in writing order.
pub type Layout = Vec<(&'static str, Value)>;

/// The body without the lines its tasks restore exactly, and the layout entries that
/// put them back; `None` when `tasks` are not the body's task list or no line can be
/// left out.
pub fn compact(body: &str, tasks: &[Task]) -> Option<(String, Layout)> {
    let found = located(body);
    if found.len() != tasks.len() || found.iter().zip(tasks).any(|((f, _), t)| f != t) {
        return None;
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut places: Vec<Place> = Vec::with_capacity(tasks.len());
    let mut dropped = std::collections::HashSet::new();
    for (task, start) in &found {
        // The item's first line, from the start of its text line through its newline.
        let n = starts.partition_point(|&s| s <= *start) - 1;
        let (from, indent) = (starts[n], start - starts[n]);
        let to = starts.get(n + 1).copied().unwrap_or(body.len());
        let line = &body[from..to];
        let whole = line.ends_with('\n') && !dropped.contains(&n);
        if whole && line == render_line(task, indent) {
            dropped.insert(n);
            places.push(Some((n + 1, indent)));
        } else {
            places.push(None);
        }
    }
    if dropped.is_empty() {
        return None;
    }
    let kept: String = body
        .split_inclusive('\n')
        .enumerate()
        .filter(|(n, _)| !dropped.contains(n))
        .map(|(_, line)| line)
        .collect();
    let layout = layout_of(&places, tasks);
    (expand(&kept, lookup(&layout), tasks).as_deref() == Some(body)).then_some((kept, layout))
}

/// Whether the layout entries [`compact`] wrote put back every task's line (no run of
/// lines the body keeps as written).
pub fn leaves_out_every_line(layout: &Layout) -> bool {
    layout.iter().all(|(key, value)| {
        *key != TASK_LINES
            || value.as_array().is_some_and(|runs| {
                runs.iter()
                    .all(|r| r.get("line").is_some_and(|l| !l.is_null()))
            })
    })
}

/// The layout entries as [`expand`] looks them up.
fn lookup<'a>(layout: &'a [(&str, Value)]) -> impl Fn(&str) -> Option<&'a Value> {
    |k| layout.iter().find(|(key, _)| *key == k).map(|(_, v)| v)
}

/// [`TASKS_AT`] and [`NESTED`] when every task's line goes back, on consecutive lines,
/// indented by nothing or [`NESTED_INDENT`] (nesting follows a task that moves); else
/// the [`TASK_LINES`] runs, each naming its first task.
fn layout_of(places: &[Place], tasks: &[Task]) -> Layout {
    let first = places.first().copied().flatten().map(|(line, _)| line);
    let one_block = first.is_some_and(|first| {
        places.iter().enumerate().all(|(k, place)| {
            matches!(place, Some((line, indent))
                if *line == first + k && (*indent == 0 || *indent == NESTED_INDENT))
        })
    });
    match first {
        Some(first) if one_block => {
            let nested: Vec<Value> = tasks
                .iter()
                .zip(places)
                .filter(|(_, place)| matches!(place, Some((_, NESTED_INDENT))))
                .map(|(t, _)| Value::from(t.id.as_str()))
                .collect();
            let mut out = vec![(TASKS_AT, Value::from(first))];
            if !nested.is_empty() {
                out.push((NESTED, Value::Array(nested)));
            }
            out
        }
        _ => vec![(TASK_LINES, Value::Array(runs(places, tasks)))],
    }
}

/// Consecutive places as `{line, count, indent, task}` runs: kept lines together, and
/// restored lines that follow each other with the same indentation; `task` is the id of
/// the run's first task, so that a run finds its tasks again after an edit.
fn runs(places: &[Place], tasks: &[Task]) -> Vec<Value> {
    let mut out: Vec<(Place, usize, usize)> = Vec::new();
    for (k, &place) in places.iter().enumerate() {
        match (out.last_mut(), place) {
            (Some((None, count, _)), None) => *count += 1,
            (Some((Some((line, indent)), count, _)), Some((l, i)))
                if l == *line + *count && i == *indent =>
            {
                *count += 1
            }
            _ => out.push((place, 1, k)),
        }
    }
    out.into_iter()
        .map(|(place, count, first)| {
            let (line, indent) = match place {
                Some((l, i)) => (Value::from(l), Value::from(i)),
                None => (Value::Null, Value::Null),
            };
            Value::Object(Map::from_iter([
                ("line".to_owned(), line),
                ("count".to_owned(), Value::from(count)),
                ("indent".to_owned(), indent),
                ("task".to_owned(), Value::from(tasks[first].id.as_str())),
            ]))
        })
        .collect()
}

/// Each task's place, from the layout entries `get` finds: [`TASKS_AT`] (and
/// [`NESTED`]) or [`TASK_LINES`], never both; `None` when they do not fit the tasks.
fn places<'a>(get: impl Fn(&str) -> Option<&'a Value>, tasks: &[Task]) -> Option<Vec<Place>> {
    let n = tasks.len();
    let Some(first) = get(TASKS_AT) else {
        if get(NESTED).is_some() {
            return None;
        }
        let rows = get(TASK_LINES)?;
        return places_of_anchored_runs(rows, tasks).or_else(|| places_of_runs(rows, n));
    };
    if get(TASK_LINES).is_some() {
        return None;
    }
    let first = usize::try_from(first.as_u64()?).ok()?;
    let mut out: Vec<Place> = Vec::with_capacity(n);
    for k in 0..n {
        out.push(Some((first.checked_add(k)?, 0)));
    }
    let nested = match get(NESTED) {
        Some(v) => v.as_array()?.as_slice(),
        None => &[],
    };
    for k in nested {
        let k = match k {
            // A task no longer there (deleted, or renamed with its title) is not nested.
            Value::String(id) => match tasks.iter().position(|t| t.id == *id) {
                Some(k) => k,
                None => continue,
            },
            other => usize::try_from(other.as_u64()?).ok()?.checked_sub(1)?,
        };
        let (_, indent) = out.get_mut(k)?.as_mut()?;
        if *indent != 0 {
            return None;
        }
        *indent = NESTED_INDENT;
    }
    Some(out)
}

/// Each task's place from [`TASK_LINES`] runs.
fn places_of_runs(rows: &Value, n: usize) -> Option<Vec<Place>> {
    let mut places: Vec<Place> = Vec::with_capacity(n);
    for row in rows.as_array()? {
        let count = usize::try_from(row.get("count")?.as_u64()?).ok()?;
        if count > n - places.len() {
            return None;
        }
        let (line, indent) = (row.get("line")?, row.get("indent")?);
        if line.is_null() && indent.is_null() {
            places.extend(std::iter::repeat_n(None, count));
            continue;
        }
        let line = usize::try_from(line.as_u64()?).ok()?;
        let indent = usize::try_from(indent.as_u64()?)
            .ok()
            .filter(|&i| i <= 1024)?;
        for k in 0..count {
            places.push(Some((line.checked_add(k)?, indent)));
        }
    }
    (places.len() == n).then_some(places)
}

/// Each task's place from [`TASK_LINES`] runs that all restore lines and name their
/// first task (`task`): each run goes back after the body line it followed, and holds
/// the tasks from its first task (found by id no further than the run before it can
/// have grown; else where the run before it ended) to the next run's, so a task added, deleted, changed or moved in the
/// plan model leaves every other task in its run. `None` when a row keeps lines as
/// written or names no task (then the runs are read by position).
fn places_of_anchored_runs(rows: &Value, tasks: &[Task]) -> Option<Vec<Place>> {
    let n = tasks.len();
    let mut counts = 0usize;
    for row in rows.as_array()? {
        counts = counts.saturating_add(usize::try_from(row.get("count")?.as_u64()?).ok()?);
    }
    let slack = n.saturating_sub(counts);
    // Per run: the kept body lines before it, its indentation, its first task's index.
    let mut anchored: Vec<(usize, usize, usize)> = Vec::new();
    let (mut restored, mut previous) = (0usize, (0usize, 0usize));
    for row in rows.as_array()? {
        let line = usize::try_from(row.get("line")?.as_u64()?).ok()?;
        let count = usize::try_from(row.get("count")?.as_u64()?).ok()?;
        let indent = usize::try_from(row.get("indent")?.as_u64()?)
            .ok()
            .filter(|&i| i <= 1024)?;
        let id = row.get("task")?.as_str()?;
        let before = line.checked_sub(1)?.checked_sub(restored)?;
        if anchored.last().is_some_and(|&(b, ..)| before < b) {
            return None;
        }
        restored = restored.checked_add(count)?;
        let (from, held) = previous;
        // The run before grew by at most the tasks added since.
        let reach = from
            .saturating_add(held)
            .saturating_add(slack)
            .min(n.saturating_sub(1));
        let start = if anchored.is_empty() {
            0
        } else {
            match tasks
                .get(from..=reach)
                .and_then(|w| w.iter().position(|t| t.id == id))
            {
                Some(k) => from + k,
                None => from.saturating_add(held).min(n),
            }
        };
        anchored.push((before, indent, start));
        previous = (start, count);
    }
    let mut out: Vec<Place> = vec![None; n];
    let mut placed = 0usize;
    for (i, &(before, indent, start)) in anchored.iter().enumerate() {
        let stop = anchored.get(i + 1).map_or(n, |&(.., s)| s);
        for (offset, k) in (start..stop).enumerate() {
            out[k] = Some((before.checked_add(placed + offset + 1)?, indent));
        }
        placed += stop - start;
    }
    Some(out)
}

/// The body [`compact`] was given, from its result, the layout entries `get` finds and
/// the same tasks; `None` when the layout does not fit the body and tasks (a damaged or
/// hand-edited layout).
pub fn expand<'a>(
    kept: &str,
    get: impl Fn(&str) -> Option<&'a Value>,
    tasks: &[Task],
) -> Option<String> {
    let places = places(get, tasks)?;
    // Merge: kept lines fill the body until the next restored line's number.
    let mut out = String::with_capacity(kept.len() + 64 * tasks.len());
    let mut rest = kept.split_inclusive('\n');
    let mut next = 1;
    for (place, task) in places.iter().zip(tasks) {
        let Some((line, indent)) = *place else {
            continue;
        };
        if line < next {
            return None;
        }
        while next < line {
            out.push_str(rest.next()?);
            next += 1;
        }
        out.push_str(&render_line(task, indent));
        next += 1;
    }
    rest.for_each(|line| out.push_str(line));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::body_tasks::tasks;

    #[test]
    fn task_lines_left_out_come_back_byte_for_byte() {
        let body = "# Plan\n\n- [x] **Index** — build the `idx` map\n\
                    - [ ] Create the context. It holds both palettes.\n\
                    - [ ] *Styled* title, kept as written\n\
                    \x20 - [ ] Nested step\n\
                    > - [ ] quoted, kept\n\
                    - [ ] last line without newline";
        let tasks = tasks(body);
        assert_eq!(tasks.len(), 6);
        assert_eq!(tasks[0].description.as_deref(), Some("build the `idx` map"));
        let (kept, layout) = compact(body, &tasks).expect("some lines are left out");
        assert_eq!(
            kept,
            "# Plan\n\n- [ ] *Styled* title, kept as written\n> - [ ] quoted, kept\n\
             - [ ] last line without newline"
        );
        // Lines kept as written between restored ones: the general runs.
        assert_eq!(
            layout,
            [(
                TASK_LINES,
                serde_json::json!([
                    {"line": 3, "count": 2, "indent": 0, "task": "index"},
                    {"line": null, "count": 1, "indent": null, "task": "styled-title-kept"},
                    {"line": 6, "count": 1, "indent": 2, "task": "nested-step"},
                    {"line": null, "count": 2, "indent": null, "task": "quoted-kept"},
                ])
            )]
        );
        assert_eq!(
            expand(&kept, lookup(&layout), &tasks).as_deref(),
            Some(body)
        );
    }
    #[test]
    fn one_task_list_costs_its_first_line_and_the_nested_items() {
        let body = "# Plan\n\n- [x] **Index** — build the map\n- [ ] Search box\n\
                    \x20 - [ ] Debounce typing\n\x20 - [ ] Clear button\n- [ ] Docs\n\nAfter.\n";
        let tasks = tasks(body);
        let (kept, layout) = compact(body, &tasks).unwrap();
        assert_eq!(kept, "# Plan\n\n\nAfter.\n");
        assert_eq!(
            layout,
            [
                (TASKS_AT, serde_json::json!(3)),
                (
                    NESTED,
                    serde_json::json!(["debounce-typing", "clear-button"])
                )
            ]
        );
        // Numbers (positions from 1) are read too.
        let by_number = [
            (TASKS_AT, serde_json::json!(3)),
            (NESTED, serde_json::json!([3, 4])),
        ];
        assert_eq!(
            expand(&kept, lookup(&by_number), &tasks).as_deref(),
            Some(body)
        );
        // A task deleted, one added and two swapped: every line goes back into the
        // block, each nested item still under the one above it.
        let mut edited = tasks.clone();
        edited.remove(1);
        edited.swap(1, 2);
        edited.insert(
            0,
            Task {
                id: "new".into(),
                title: Some("New".into()),
                ..Task::default()
            },
        );
        assert_eq!(
            expand(&kept, lookup(&layout), &edited).as_deref(),
            Some(
                "# Plan\n\n- [ ] New\n- [x] **Index** — build the map\n  - [ ] Clear button\n\
                 \x20 - [ ] Debounce typing\n- [ ] Docs\n\nAfter.\n"
            )
        );
        assert_eq!(
            expand(&kept, lookup(&layout), &tasks).as_deref(),
            Some(body)
        );
        // No nested item: no `NESTED` entry.
        let flat = "- [ ] One\n- [ ] Two\n";
        let (_, layout) = compact(flat, &self::tasks(flat)).unwrap();
        assert_eq!(layout, [(TASKS_AT, serde_json::json!(1))]);
        // Deeper than one level: the general runs.
        let deep = "- [ ] One\n    - [ ] Two\n";
        let (kept, layout) = compact(deep, &self::tasks(deep)).unwrap();
        assert_eq!(layout[0].0, TASK_LINES);
        assert_eq!(
            expand(&kept, lookup(&layout), &self::tasks(deep)).as_deref(),
            Some(deep)
        );
        // Damaged entries do not fit: a task named twice or out of range, both forms,
        // a first line past any size, a nested list without a first line.
        for bad in [
            vec![
                (TASKS_AT, serde_json::json!(3)),
                (NESTED, serde_json::json!([3, 3])),
            ],
            vec![
                (TASKS_AT, serde_json::json!(3)),
                (NESTED, serde_json::json!([0])),
            ],
            vec![
                (TASKS_AT, serde_json::json!(3)),
                (NESTED, serde_json::json!([9])),
            ],
            vec![
                (TASKS_AT, serde_json::json!(3)),
                (NESTED, serde_json::json!(2)),
            ],
            vec![(TASKS_AT, serde_json::json!(u64::MAX))],
            vec![(TASKS_AT, serde_json::json!(-1))],
            vec![(NESTED, serde_json::json!([1]))],
            vec![
                (TASKS_AT, serde_json::json!(3)),
                (
                    TASK_LINES,
                    serde_json::json!([{"line": 3, "count": 5, "indent": 0}]),
                ),
            ],
        ] {
            assert_eq!(expand(&kept, lookup(&bad), &tasks), None, "{bad:?}");
        }
    }
    #[test]
    fn compact_refuses_tasks_that_are_not_the_body_list_and_expand_bad_rows() {
        let body = "- [ ] One\n- [ ] Two\n";
        let mut tasks = tasks(body);
        let (kept, layout) = compact(body, &tasks).unwrap();
        assert_eq!(kept, "");
        // An edited title is written into the restored line.
        tasks[1].title = Some("Deux".into());
        assert_eq!(
            expand(&kept, lookup(&layout), &tasks).as_deref(),
            Some("- [ ] One\n- [ ] Deux\n")
        );
        assert!(
            compact(body, &tasks).is_none(),
            "tasks differ from the body's list"
        );
        let runs = |rows: Value| vec![(TASK_LINES, rows)];
        let run = |line: usize, count: usize| serde_json::json!({"line": line, "count": count, "indent": 0});
        assert!(
            expand(&kept, lookup(&runs(serde_json::json!([run(1, 1)]))), &tasks).is_none(),
            "rows for every task"
        );
        let backwards = runs(serde_json::json!([run(2, 1), run(1, 1)]));
        assert!(expand(&kept, lookup(&backwards), &tasks).is_none());
        let past_end = runs(serde_json::json!([run(1, 1), run(9, 1)]));
        assert!(expand(&kept, lookup(&past_end), &tasks).is_none());
        let too_many = runs(serde_json::json!([run(1, 3)]));
        assert!(expand(&kept, lookup(&too_many), &tasks).is_none());
        let huge = runs(serde_json::json!([{"line": u64::MAX, "count": 2, "indent": 0}]));
        assert!(expand(&kept, lookup(&huge), &tasks).is_none());
    }
}
