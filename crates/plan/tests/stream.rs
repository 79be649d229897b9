//! The plan stream against the plan reader: every valid testdata plan of a dialect that
//! can be streamed, written as TOON and fed in chunks of several sizes, yields the
//! tasks `load` reads (ids, dependencies, in order), each task's
//! `DependenciesKnown` only after all its dependencies were yielded, and the first task
//! before the text is complete.

use std::path::Path;

use toon_plan::stream::{PlanEvent, PlanStream};
use toon_plan::{DialectId, Format};

fn streamed(dialect: DialectId, text: &str, chunk: usize) -> (Vec<PlanEvent>, usize) {
    let mut s = PlanStream::new(dialect).expect("streamable");
    let mut events = Vec::new();
    let mut before_close = 0;
    let bytes = text.as_bytes();
    for piece in bytes.chunks(chunk) {
        events.extend(s.feed(piece).expect("valid TOON"));
        before_close = events.len();
    }
    events.extend(s.close().expect("complete"));
    (events, before_close)
}

#[test]
fn streamed_tasks_match_the_reader_and_dependencies_come_first() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/plans");
    let mut checked = 0;
    let mut dialects = Vec::new();
    for dialect in DialectId::all() {
        if PlanStream::new(dialect).is_err() {
            continue;
        }
        dialects.push(dialect.name());
        let dir = root.join(dialect.name()).join("valid");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let text = std::fs::read_to_string(&path).unwrap();
            let read_as = |file_name: Option<&std::path::Path>| toon_plan::ReadOptions {
                dialect: Some(dialect),
                format: None,
                file_name: file_name.map(std::path::Path::to_path_buf),
            };
            let loaded = toon_plan::read(&text, &read_as(Some(&path))).unwrap();
            let as_toon = toon_plan::ConvertOptions {
                format: Some(Format::Toon),
                ..Default::default()
            };
            let toon = toon_plan::convert(&loaded.plan, dialect, &as_toon)
                .unwrap()
                .text;
            // A Cursor plan may keep its todos in the markdown body, not in the list.
            let list_key = dialect.dialect().table().unwrap().list_key();
            if !toon.contains(&format!("{list_key}[")) {
                continue;
            }
            let want: Vec<(String, Vec<String>)> = toon_plan::read(&toon, &read_as(None))
                .unwrap()
                .plan
                .tasks
                .iter()
                .map(|t| (t.id.clone(), t.dependencies.clone().unwrap_or_default()))
                .collect();
            for chunk in [1, 7, 64, toon.len()] {
                let (events, before_close) = streamed(dialect, &toon, chunk);
                let mut got = Vec::new();
                let mut yielded: Vec<String> = Vec::new();
                for e in &events {
                    match e {
                        PlanEvent::Task(t) => {
                            got.push((t.id.clone(), t.dependencies.clone().unwrap_or_default()));
                            yielded.push(t.id.clone());
                        }
                        PlanEvent::DependenciesKnown(id) => {
                            let (_, deps) = got.iter().find(|(t, _)| t == id).expect("task first");
                            for d in deps {
                                assert!(yielded.contains(d), "{path:?}: {id} known before {d}");
                            }
                        }
                    }
                }
                assert_eq!(got, want, "{path:?} chunk {chunk}");
                let known = events
                    .iter()
                    .filter(|e| matches!(e, PlanEvent::DependenciesKnown(_)))
                    .count();
                let resolvable = want
                    .iter()
                    .filter(|(_, deps)| deps.iter().all(|d| want.iter().any(|(id, _)| id == d)))
                    .count();
                assert_eq!(known, resolvable, "{path:?}");
                if want.len() > 1 && chunk < toon.len() {
                    assert!(before_close > 0, "{path:?}: nothing before the end");
                }
            }
            checked += 1;
        }
    }
    assert!(dialects.len() >= 3, "streamable dialects: {dialects:?}");
    assert!(checked >= 5, "only {checked} plans");
}

#[test]
fn a_dependency_written_later_releases_its_dependant() {
    let mut s = PlanStream::new(DialectId::COMPOSITE).unwrap();
    // b's item ends with the line `- id: a`: b is yielded as that line is complete.
    let e = s
        .feed("tasks[2]:\n  - id: b\n    prompt: second\n    dependsOn[1]: a\n  - id: a")
        .unwrap();
    assert_eq!(e, []);
    let e = s.feed("\n").unwrap();
    assert!(
        matches!(&e[..], [PlanEvent::Task(t)] if t.id == "b"),
        "{e:?}"
    );
    assert_eq!(s.waiting().collect::<Vec<_>>(), ["b"]);
    let e = s.feed("    prompt: first\n").unwrap();
    assert_eq!(e, []);
    let e = s.close().unwrap();
    assert!(matches!(&e[0], PlanEvent::Task(t) if t.id == "a"));
    assert_eq!(
        e[1..],
        [
            PlanEvent::DependenciesKnown("a".into()),
            PlanEvent::DependenciesKnown("b".into())
        ]
    );
    assert_eq!(s.waiting().count(), 0);
}

#[test]
fn broken_toon_is_a_located_error_and_staged_is_not_streamable() {
    let mut s = PlanStream::new(DialectId::TOOLDAG).unwrap();
    let err = s.feed("dag[1]:\n  - id: \"open\n  - id: b\n").unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
    assert!(PlanStream::new(DialectId::STAGED).is_err());
}
