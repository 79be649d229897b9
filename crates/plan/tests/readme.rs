//! The README's Rust plan example is the crate's own doc example (which `cargo test
//! --doc` runs), word for word.

#[test]
fn the_readme_example_is_the_doc_example_that_runs() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let section = readme
        .split("### Plans in Rust\n")
        .nth(1)
        .expect("a `### Plans in Rust` section");
    let block = section
        .split("```rust\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a rust block");
    let lib = std::fs::read_to_string(format!("{root}/crates/plan/src/lib.rs")).unwrap();
    let doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    assert!(block.contains("Plan {") && block.contains("DialectId::all()"));
    assert!(
        doc.contains(block),
        "the README's example is not lib.rs's:\n{block}"
    );
}
