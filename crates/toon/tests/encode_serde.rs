//! Serializing Rust types: `toon::to_value`, `toon::to_string`, and `Serialize` for
//! `Value` and `Number`. The mapping follows `serde_json`.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use toon::{EncodeOptions, ErrorKind, Number, Value, toon};

#[derive(Serialize)]
struct Address {
    city: String,
    zip: Option<String>,
}

#[derive(Serialize)]
struct Person {
    name: String,
    age: u8,
    address: Address,
    tags: Vec<String>,
    scores: Vec<Vec<i32>>,
    nickname: Option<String>,
}

#[derive(Serialize)]
enum Event {
    Start,
    Move(i32),
    Resize(u32, u32),
    Named { id: u64, label: String },
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Meters(f64);

#[derive(Serialize)]
struct Pair(i8, &'static str);

#[test]
fn structs_options_and_nested_vectors() {
    let p = Person {
        name: "Ada".into(),
        age: 36,
        address: Address {
            city: "London".into(),
            zip: None,
        },
        tags: vec!["math".into(), "code, poetry".into()],
        scores: vec![vec![1, 2], vec![], vec![-3]],
        nickname: Some("".into()),
    };
    let v = toon::to_value(&p).expect("serializes");
    assert_eq!(
        v,
        toon!({
            "name": "Ada", "age": 36,
            "address": {"city": "London", "zip": null},
            "tags": ["math", "code, poetry"],
            "scores": [[1, 2], [], [-3]],
            "nickname": ""
        })
    );
    // Field order is declaration order.
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys,
        ["name", "age", "address", "tags", "scores", "nickname"]
    );
    assert_eq!(
        toon::to_string(&p).expect("encodes"),
        "name: Ada\nage: 36\naddress:\n  city: London\n  zip: null\ntags[2]: math,\"code, poetry\"\n\
         scores[3]:\n  - [2]: 1,2\n  - [0]:\n  - [1]: -3\nnickname: \"\""
    );
}

#[test]
fn vectors_of_structs_become_tables() {
    let people = vec![
        Address {
            city: "Paris".into(),
            zip: Some("75001".into()),
        },
        Address {
            city: "Oslo".into(),
            zip: None,
        },
    ];
    assert_eq!(
        toon::to_string(&people).expect("encodes"),
        "[2]{city,zip}:\n  Paris,\"75001\"\n  Oslo,null"
    );
    let opts = EncodeOptions::default().with_delimiter(toon::Delimiter::Tab);
    let text = toon::to_string_with(&serde_json::json!({"rows": people}), &opts).expect("encodes");
    assert_eq!(
        text,
        "rows[2\t]{city\tzip}:\n  Paris\t\"75001\"\n  Oslo\tnull"
    );
}

#[test]
fn enums_are_externally_tagged() {
    let events = vec![
        Event::Start,
        Event::Move(-4),
        Event::Resize(3, 4),
        Event::Named {
            id: 7,
            label: "go".into(),
        },
    ];
    let v = toon::to_value(&events).expect("serializes");
    assert_eq!(
        v,
        toon!(["Start", {"Move": -4}, {"Resize": [3, 4]}, {"Named": {"id": 7, "label": "go"}}])
    );
    assert_eq!(
        toon::to_string(&events).expect("encodes"),
        "[4]:\n  - Start\n  - Move: -4\n  - Resize[2]: 3,4\n  - Named:\n      id: 7\n      label: go"
    );
}

#[test]
fn units_newtypes_and_tuples() {
    assert_eq!(toon::to_value(&()).expect("unit"), Value::Null);
    assert_eq!(toon::to_value(&Unit).expect("unit struct"), Value::Null);
    assert_eq!(toon::to_value(&Meters(2.5)).expect("newtype"), toon!(2.5));
    assert_eq!(
        toon::to_value(&Pair(-1, "x")).expect("tuple struct"),
        toon!([-1, "x"])
    );
    assert_eq!(
        toon::to_value(&(1, true, 'c')).expect("tuple"),
        toon!([1, true, "c"])
    );
    assert_eq!(toon::to_value(&None::<u8>).expect("none"), Value::Null);
    assert_eq!(toon::to_value(&Some(3u8)).expect("some"), toon!(3));
    assert_eq!(toon::to_string(&"a:b").expect("str"), "\"a:b\"");
    assert_eq!(toon::to_string(&Option::<u8>::None).expect("none"), "null");
}

#[test]
fn numbers_keep_their_value() {
    assert_eq!(
        toon::to_string(&u128::MAX).expect("u128"),
        u128::MAX.to_string()
    );
    assert_eq!(
        toon::to_string(&i128::MIN).expect("i128"),
        i128::MIN.to_string()
    );
    assert_eq!(
        toon::to_string(&u64::MAX).expect("u64"),
        "18446744073709551615"
    );
    assert_eq!(toon::to_string(&0.1f32).expect("f32"), "0.1");
    assert_eq!(toon::to_string(&-0.0f64).expect("-0"), "0");
    assert_eq!(toon::to_string(&1e21f64).expect("1e21"), "1e+21");
    let specials = vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
    assert_eq!(
        toon::to_string(&specials).expect("non-finite"),
        "[3]: null,null,null"
    );
    assert_eq!(toon::to_value(&f32::NAN).expect("nan"), Value::Null);
}

#[test]
fn map_keys_become_strings() {
    let mut ints = BTreeMap::new();
    ints.insert(2, "b");
    ints.insert(-1, "a");
    assert_eq!(
        toon::to_string(&ints).expect("int keys"),
        "\"-1\": a\n\"2\": b"
    );
    let mut bools = BTreeMap::new();
    bools.insert(true, 1);
    bools.insert(false, 0);
    assert_eq!(
        toon::to_value(&bools).expect("bool keys"),
        toon!({"false": 0, "true": 1})
    );
    let mut chars = HashMap::new();
    chars.insert('x', 1);
    assert_eq!(toon::to_value(&chars).expect("char keys"), toon!({"x": 1}));
    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Color {
        Red,
    }
    let mut enums = BTreeMap::new();
    enums.insert(Color::Red, 1);
    assert_eq!(
        toon::to_value(&enums).expect("unit variant keys"),
        toon!({"Red": 1})
    );
    let floats = SerializeAsMap(vec![(1.5f64, 1)]);
    assert_eq!(
        toon::to_value(&floats).expect("float keys"),
        toon!({"1.5": 1})
    );
}

/// Serializes a list of pairs as a map, to try key types no std map allows.
struct SerializeAsMap<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for SerializeAsMap<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[test]
fn unsupported_map_keys_are_errors() {
    let cases: Vec<toon::Result<Value>> = vec![
        toon::to_value(&SerializeAsMap(vec![((1, 2), 0)])),
        toon::to_value(&SerializeAsMap(vec![((), 0)])),
        toon::to_value(&SerializeAsMap(vec![(None::<u8>, 0)])),
        toon::to_value(&SerializeAsMap(vec![(vec![1], 0)])),
        toon::to_value(&SerializeAsMap(vec![(f64::NAN, 0)])),
    ];
    for r in cases {
        let e = r.expect_err("bad key");
        assert_eq!(e.kind(), ErrorKind::Encode);
        assert!(e.message().contains("map key"), "{e}");
    }
}

#[test]
fn repeated_keys_keep_the_first_position_and_the_last_value() {
    let pairs = SerializeAsMap(vec![("a", 1), ("b", 2), ("a", 3)]);
    assert_eq!(toon::to_string(&pairs).expect("encodes"), "a: 3\nb: 2");
}

#[test]
fn values_serialize_through_any_format() {
    let v = toon!({"b": [1, 2.5, "x", null, true], "a": {"n": -7, "e": {}}});
    // Through serde_json, keeping key order.
    assert_eq!(
        serde_json::to_string(&v).expect("json"),
        r#"{"b":[1,2.5,"x",null,true],"a":{"n":-7,"e":{}}}"#
    );
    // Through toon's own serializer: the same value back.
    assert_eq!(toon::to_value(&v).expect("to_value"), v);
    assert_eq!(
        toon::to_string(&v).expect("to_string"),
        toon::encode_value(&v)
    );
    // Integers wider than 64 bits survive when they fit 128 bits, else become f64.
    let wide = Number::from_integer_str("-170141183460469231731687303715884105728").expect("i128");
    assert_eq!(
        toon::to_value(&wide).expect("wide"),
        Value::Number(wide.clone())
    );
    assert_eq!(
        serde_json::to_string(&wide).expect("json"),
        "-170141183460469231731687303715884105728"
    );
    let huge =
        Number::from_integer_str("1000000000000000000000000000000000000000000").expect("big");
    assert_eq!(serde_json::to_string(&huge).expect("json"), "1e+42");
}

/// A linked list deep enough to pass any sensible nesting limit.
#[derive(Serialize)]
enum List {
    Nil,
    Cons(Box<List>),
}

#[test]
fn deep_types_hit_the_depth_limit() {
    let mut list = List::Nil;
    for _ in 0..3_000 {
        list = List::Cons(Box::new(list));
    }
    let e = toon::to_value(&list).expect_err("too deep");
    assert_eq!(e.kind(), ErrorKind::Depth);
    let opts = EncodeOptions::default().with_max_depth(100);
    assert_eq!(
        toon::to_string_with(&list, &opts)
            .expect_err("too deep")
            .kind(),
        ErrorKind::Depth
    );
    let mut out = Vec::new();
    assert!(toon::to_writer_with(&mut out, &list, &opts).is_err());
    // Each Cons is one level (the tag object).
    let mut short = List::Nil;
    for _ in 0..3 {
        short = List::Cons(Box::new(short));
    }
    let opts = EncodeOptions::default().with_max_depth(3);
    assert_eq!(
        toon::to_string_with(&short, &opts).expect("fits"),
        "Cons:\n  Cons:\n    Cons: Nil"
    );
    let opts = EncodeOptions::default().with_max_depth(2);
    assert!(toon::to_string_with(&short, &opts).is_err());
    // Take the long list apart without recursion.
    let mut cur = list;
    while let List::Cons(next) = cur {
        cur = *next;
    }
}

#[test]
fn to_writer_streams_the_same_text() {
    let rows: Vec<Address> = (0..5_000)
        .map(|i| Address {
            city: format!("city {i}"),
            zip: (i % 3 == 0).then(|| format!("{i:05}")),
        })
        .collect();
    let mut out = Vec::new();
    toon::to_writer(&mut out, &rows).expect("writes");
    assert_eq!(
        String::from_utf8(out).expect("utf-8"),
        toon::to_string(&rows).expect("encodes")
    );
}

/// An integer given as its decimal digits through the crate's private big-integer
/// newtype, as a `Serialize` impl over another language's unbounded integers does.
struct BigInt(&'static str);

impl serde::Serialize for BigInt {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(toon::__private::BIG_INTEGER_KEY, self.0)
    }
}

#[test]
fn big_integer_newtype_is_an_exact_number_on_both_routes() {
    let wide = "-1361129467683753853853498429727072845824123";
    let rows = vec![
        std::collections::BTreeMap::from([("a", BigInt(wide)), ("b", BigInt("7"))]),
        std::collections::BTreeMap::from([
            ("a", BigInt("0")),
            ("b", BigInt("18446744073709551616")),
        ]),
    ];
    let text = toon::to_string(&rows).unwrap();
    assert_eq!(
        text,
        format!("[2]{{a,b}}:\n  {wide},7\n  0,18446744073709551616")
    );
    let value = toon::to_value(&rows).unwrap();
    assert_eq!(toon::encode_value(&value), text);
    assert_eq!(
        value[0]["a"],
        toon::Value::Number(toon::Number::from_integer_str(wide).unwrap())
    );
    // Anything but integer digits is an error, never a string or a rounded float.
    for bad in ["1.5", "", "12a", "--1"] {
        assert!(toon::to_string(&BigInt(bad)).is_err(), "{bad:?}");
        assert!(toon::to_value(&BigInt(bad)).is_err(), "{bad:?}");
    }
}
