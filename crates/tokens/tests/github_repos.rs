//! The official TOON benchmark's figures for `github-repos.json` (the 100 most-starred
//! repositories, wrapped as `{"repositories": [...]}`), counted with `gpt-tokenizer`'s
//! `o200k_base`: 15,337 tokens as pretty JSON, 11,640 compact, 8,937 as TOON. Our
//! encoder and our counter must reproduce them exactly.
//!
//! The file is read from `$TOON_GITHUB_REPOS`, else from `../shared/data/github-repos.json`
//! beside the workspace; the test is ignored in a plain `cargo test` and fails when run
//! (`--include-ignored`, as `.ci/run` does) without the file.

use std::path::PathBuf;

use toon_tokens::{Bpe, Format, Tokenizer, render};

fn data_path() -> PathBuf {
    match std::env::var_os("TOON_GITHUB_REPOS") {
        Some(p) => PathBuf::from(p),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/github-repos.json")
        }
    }
}

#[test]
#[ignore = "needs ../shared/data/github-repos.json (or TOON_GITHUB_REPOS): run with --include-ignored (.ci/run does)"]
fn github_repos_matches_the_official_benchmark() -> Result<(), Box<dyn std::error::Error>> {
    let path = data_path();
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let repos = toon::value::from_json_str(&text, toon::DEFAULT_MAX_DEPTH)?;
    assert_eq!(repos.as_array().map(Vec::len), Some(100));
    let mut wrapped = toon::Map::new();
    wrapped.insert("repositories".to_owned(), repos);
    let value = toon::Value::Object(wrapped);

    let bpe = Bpe::o200k_base()?;
    let tokens = |format: Format| -> Result<usize, Box<dyn std::error::Error>> {
        let text = render(&value, format)?.ok_or("no text")?;
        Ok(bpe.count(&text))
    };
    assert_eq!(tokens(Format::JsonPretty)?, 15_337, "pretty JSON");
    assert_eq!(tokens(Format::JsonCompact)?, 11_640, "compact JSON");
    assert_eq!(tokens(Format::Toon)?, 8_937, "TOON");
    Ok(())
}
