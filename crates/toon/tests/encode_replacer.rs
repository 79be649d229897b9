//! The encoder's replacer against the reference's `replacer(key, value, path)`: each
//! expected text here is what `@toon-format/toon` 4.4.0 writes for the same value and
//! the same replacer written in JavaScript (`scripts/differential/diff-replacer.mjs`
//! compares random values the same way).

use toon::encode::{PathSegment, Replace};
use toon::{EncodeOptions, Value, toon};

fn sample() -> Value {
    toon!({
        "users": [{"id": 1, "name": "Ada", "secret": "x"}, {"id": 2, "name": "Bob", "secret": "y"}],
        "tags": ["a", "b", "c", "d"],
        "n": 5
    })
}

fn encode<R: Into<Replace>>(
    v: &Value,
    f: impl FnMut(&str, &Value, &[PathSegment<'_>]) -> R,
) -> String {
    toon::encode_value_with_replacer(v, &EncodeOptions::default(), f).expect("encodes")
}

#[test]
fn dropping_a_key_turns_the_rows_into_a_narrower_table() {
    let out = encode(&sample(), |k, v, _| (k != "secret").then(|| v.clone()));
    assert_eq!(
        out,
        "users[2]{id,name}:\n  1,Ada\n  2,Bob\ntags[4]: a,b,c,d\nn: 5"
    );
}

#[test]
fn dropped_elements_keep_the_original_indices_in_keys_and_paths() {
    let out = encode(&sample(), |_, _, path| match path.last() {
        Some(PathSegment::Index(i)) if i % 2 == 1 => Replace::Drop,
        _ => Replace::Keep,
    });
    assert_eq!(
        out,
        "users[1]{id,name,secret}:\n  1,Ada,x\ntags[2]: a,c\nn: 5"
    );
}

#[test]
fn dropping_the_root_changes_nothing() {
    let v = sample();
    let out = encode(&v, |_, v, path| (!path.is_empty()).then(|| v.clone()));
    assert_eq!(out, toon::encode_value(&v));
    assert_eq!(encode(&Value::from("x"), |_, _, _| None::<Value>), "x");
}

#[test]
fn a_replaced_root_is_encoded_and_its_children_visited() {
    let mut seen = Vec::new();
    let out = encode(&sample(), |k, v, path| {
        seen.push(k.to_owned());
        if path.is_empty() {
            Replace::With(toon!({ "wrapped": v.clone() }))
        } else {
            Replace::Keep
        }
    });
    assert_eq!(
        out,
        "wrapped:\n  users[2]{id,name,secret}:\n    1,Ada,x\n    2,Bob,y\n  tags[4]: a,b,c,d\n  n: 5"
    );
    assert_eq!(seen[..3], ["", "wrapped", "users"]);
}

#[test]
fn the_replacement_s_children_go_through_the_replacer() {
    let out = encode(&sample(), |k, v, _| match (k, v) {
        ("n", _) => Replace::With(toon!({ "n2": [v.clone(), v.clone()] })),
        // Seen only inside the replacement: its elements are visited too.
        ("1", Value::Number(_)) => Replace::With(Value::from(6)),
        _ => Replace::Keep,
    });
    assert_eq!(
        out,
        "users[2]{id,name,secret}:\n  1,Ada,x\n  2,Bob,y\ntags[4]: a,b,c,d\nn:\n  n2[2]: 5,6"
    );
}

#[test]
fn calls_come_parents_first_with_keys_and_paths() {
    let mut calls = Vec::new();
    encode(&toon!({"a": {"b": [1, {"c": 2}]}}), |k, _, path| {
        let path: Vec<String> = path
            .iter()
            .map(|p| match p {
                PathSegment::Key(k) => format!("{k:?}"),
                PathSegment::Index(i) => i.to_string(),
            })
            .collect();
        calls.push(format!("{k:?}@[{}]", path.join(",")));
        Replace::Keep
    });
    assert_eq!(
        calls,
        [
            r#"""@[]"#,
            r#""a"@["a"]"#,
            r#""b"@["a","b"]"#,
            r#""0"@["a","b",0]"#,
            r#""1"@["a","b",1]"#,
            r#""c"@["a","b",1,"c"]"#,
        ]
    );
}

#[test]
fn keeping_everything_gives_the_plain_encoding_and_options_still_apply() {
    let v = sample();
    let opts = EncodeOptions::default()
        .with_delimiter(toon::Delimiter::Pipe)
        .with_indent_size(4);
    let out = toon::encode_value_with_replacer(&v, &opts, |_, _, _| Replace::Keep).unwrap();
    assert_eq!(out, toon::encode_value_with(&v, &opts).unwrap());
}

#[test]
fn deep_values_hit_the_depth_limit_not_the_stack() {
    let mut v = Value::from(1);
    for _ in 0..50_000 {
        v = Value::Array(vec![v]);
    }
    let mut calls = 0;
    let e = toon::encode_value_with_replacer(&v, &EncodeOptions::default(), |_, v, _| {
        calls += 1;
        match v {
            Value::Number(_) => Replace::With(Value::from(2)),
            _ => Replace::Keep,
        }
    })
    .unwrap_err();
    assert_eq!(e.kind(), toon::ErrorKind::Depth);
    assert!(
        calls <= 1001,
        "the walk stops at the depth limit ({calls} calls)"
    );
    std::mem::forget(v); // dropping 50,000 nested Vecs recursively is not what is tested
}
