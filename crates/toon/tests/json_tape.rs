//! `JsonTape` (JSON read into a flat tape, encoded through the direct serializer)
//! against the tree route (`from_json_str`, then `encode_value_with`): for random
//! values written as JSON (compact and indented) and for every JSON file in the
//! repository's testdata and the spec fixtures, the TOON text (or the error) must be
//! the same, with every delimiter and several indent sizes.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use toon::value::{JsonTape, from_json_str};
use toon::{Delimiter, EncodeOptions};

mod strategies;

fn options() -> Vec<EncodeOptions> {
    let mut all = Vec::new();
    for d in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
        for indent in [2, 0, 3] {
            all.push(
                EncodeOptions::default()
                    .with_delimiter(d)
                    .with_indent_size(indent),
            );
        }
    }
    all.push(EncodeOptions::default().with_max_depth(2));
    all
}

/// The tape's text (to a string and to a writer) or error against the tree's.
fn same(text: &str) -> Result<(), String> {
    for o in options() {
        let tree = from_json_str(text, o.max_depth).and_then(|v| toon::encode_value_with(&v, &o));
        let tape = JsonTape::parse(text, o.max_depth);
        let got = tape
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|t| toon::to_string_with(t, &o));
        let streamed = tape.as_ref().map_err(Clone::clone).and_then(|t| {
            let mut buf = Vec::new();
            toon::to_writer_with(&mut buf, t, &o)
                .map(|()| String::from_utf8(buf).unwrap_or_default())
        });
        for (how, got) in [("to_string", got), ("to_writer", streamed)] {
            let agree = match (&tree, &got) {
                (Ok(a), Ok(b)) => a == b,
                (Err(a), Err(b)) => a.to_string() == b.to_string() && a.kind() == b.kind(),
                _ => false,
            };
            if !agree {
                return Err(format!(
                    "{how}, {o:?}, on {text:?}: tree {tree:?}, tape {got:?}"
                ));
            }
        }
    }
    Ok(())
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

#[test]
fn json_files_encode_as_the_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    json_files(&root.join("testdata"), &mut files);
    let spec = std::env::var_os("TOON_SPEC_DIR")
        .map_or_else(|| root.join("../shared/toon-spec"), PathBuf::from);
    json_files(&spec.join("tests"), &mut files);
    assert!(
        files.len() >= 20,
        "testdata holds JSON files: found {}",
        files.len()
    );
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        if let Err(e) = same(&text) {
            panic!("{}: {e}", f.display());
        }
    }
}

#[test]
fn broken_json_fails_as_the_tree() {
    for text in [
        "",
        "{",
        "[1,]",
        "{\"a\":}",
        "\"\\x\"",
        "[1] x",
        "01",
        "1e999",
        "\"\u{1}\"",
    ] {
        same(text).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_values_encode_as_the_tree(v in strategies::value(), pretty in any::<bool>()) {
        let text = toon::value::to_json_string(&v, if pretty { 2 } else { 0 });
        prop_assert!(same(&text).is_ok(), "{}", same(&text).unwrap_err());
    }
}
