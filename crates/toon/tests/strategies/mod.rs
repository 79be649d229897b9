//! Value generators for property tests, favouring what is hard for TOON: strings that
//! need quoting or look like numbers, literals or headers; uniform arrays of objects
//! (tables) with nested field groups; keyed objects; empty containers; arrays of
//! arrays; deep nesting.

#![allow(dead_code)]

use proptest::prelude::*;
use toon::{Delimiter, Map, Number, Value};

pub fn tricky_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        Just("-".to_owned()),
        Just("#".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("true".to_owned()),
        Just("null".to_owned()),
        Just("- item".to_owned()),
        Just("a: b".to_owned()),
        Just("05".to_owned()),
        Just("1e5".to_owned()),
        Just("-0".to_owned()),
        Just("+1".to_owned()),
        Just("1.50".to_owned()),
        Just("\u{FEFF}bom".to_owned()),
        Just("\u{00A0}nbsp".to_owned()),
        Just("tab\there".to_owned()),
        Just("line\nbreak\r".to_owned()),
        Just("quote\"back\\slash".to_owned()),
        Just("pipe|comma,tab\t".to_owned()),
        Just("ünïcödé 日本 🎉".to_owned()),
        "[a-z]{1,8}",
        "[ -~]{0,12}",
        "\\PC{0,6}",
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| f.to_string()),
    ]
}

pub fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z_][a-z0-9_.]{0,6}",
        1 => tricky_string(),
    ]
}

pub fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        (-1000i64..1000).prop_map(Number::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Number::from_f64(f).expect("finite")),
        prop_oneof![
            Just(1e21),
            Just(1e-7),
            Just(0.000001),
            Just(-0.0),
            Just(1.5e300),
            Just(0.1)
        ]
        .prop_map(|f| Number::from_f64(f).expect("finite")),
        "-?[1-9][0-9]{20,40}".prop_map(|s| Number::from_integer_str(&s).expect("digits")),
    ]
}

pub fn primitive() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number().prop_map(Value::Number),
        tricky_string().prop_map(Value::String),
    ]
}

/// Objects sharing one set of keys with primitive (or nested uniform) values: tables.
pub fn uniform_rows(leaf: BoxedStrategy<Value>) -> impl Strategy<Value = Vec<Value>> {
    (prop::collection::vec(key(), 1..4), 1usize..5, any::<bool>()).prop_flat_map(
        move |(keys, rows, nested)| {
            let mut keys = keys;
            keys.sort();
            keys.dedup();
            let width = keys.len();
            let leaf = leaf.clone();
            prop::collection::vec(
                (
                    prop::collection::vec(leaf.clone(), width),
                    prop::collection::vec(leaf.clone(), 2),
                ),
                rows,
            )
            .prop_map(move |cells| {
                cells
                    .into_iter()
                    .map(|(values, sub)| {
                        let mut m: Map = keys.iter().cloned().zip(values).collect();
                        if nested {
                            let inner: Map =
                                ["x", "y"].iter().map(|s| s.to_string()).zip(sub).collect();
                            m.insert("group".to_owned(), Value::Object(inner));
                        }
                        Value::Object(m)
                    })
                    .collect()
            })
        },
    )
}

pub fn value() -> impl Strategy<Value = Value> {
    let leaf = primitive().boxed();
    leaf.clone().prop_recursive(6, 48, 6, move |inner| {
        let leaf = leaf.clone();
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner.clone()), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            uniform_rows(leaf.clone()).prop_map(Value::Array),
            // keyed objects: named uniform rows
            (uniform_rows(leaf.clone()), prop::collection::vec(key(), 5))
                .prop_map(|(rows, names)| Value::Object(names.into_iter().zip(rows).collect())),
            prop::collection::vec(prop::collection::vec(leaf.clone(), 0..4), 0..3)
                .prop_map(|a| Value::Array(a.into_iter().map(Value::Array).collect())),
            Just(Value::Array(vec![Value::Object(Map::new())])),
            Just(Value::Object(Map::new())),
        ]
    })
}

pub fn delimiter() -> impl Strategy<Value = Delimiter> {
    prop_oneof![
        Just(Delimiter::Comma),
        Just(Delimiter::Tab),
        Just(Delimiter::Pipe)
    ]
}
