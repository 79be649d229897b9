//! The plan of work for converting a folder: which files are plans and which targets
//! would write over an input.

use std::path::Path;
use std::time::{Duration, Instant};

use toon_plan::{DialectId, ErrorKind, Format, ReadOptions, folder};

const PLAN: &str = "---\nname: A\ntodos:\n  - id: x\n    content: X\n    status: pending\n---\n";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A FIFO named like a plan is not a plan file: listing the folder and checking its
/// targets must not open it (opening a FIFO waits for a writer).
#[cfg(unix)]
#[test]
fn a_fifo_in_the_folder_is_skipped_without_being_opened() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src.join("a.plan.md"), PLAN);
    let fifo = src.join("b.plan.md");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let (s, out) = (src.clone(), dir.path().join("out"));
    std::thread::spawn(move || {
        let work = folder::plan(
            &s,
            &out,
            DialectId::PLAN,
            Some(Format::Toon),
            &ReadOptions::default(),
        );
        let _ = tx.send(work.map(|w| w.entries.into_iter().map(|e| e.source).collect::<Vec<_>>()));
    });
    let sources = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("planning the folder waited on the FIFO")
        .unwrap();
    assert_eq!(sources, vec![src.join("a.plan.md")]);
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A target that is an input under another name (a link) is refused before anything
/// is written.
#[cfg(unix)]
#[test]
fn a_target_linked_to_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src.join("a.plan.md"), PLAN);
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(src.join("a.plan.md"), out.join("a.plan.toon")).unwrap();
    let err = folder::plan(
        &src,
        &out,
        DialectId::PLAN,
        Some(Format::Toon),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Output);
    assert!(
        err.message.contains("would be written over the input"),
        "{}",
        err.message
    );
}

/// Many files are checked for clashes without comparing every pair by opening them.
#[test]
fn a_large_folder_plans_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    for i in 0..500 {
        write(&src.join(format!("p{i:03}.plan.md")), PLAN);
    }
    let work = folder::plan(
        &src,
        &dir.path().join("out"),
        DialectId::PLAN,
        Some(Format::Toon),
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(work.entries.len(), 500);
    assert_eq!(
        work.entries[7].target,
        dir.path().join("out/p007.plan.toon")
    );
}
