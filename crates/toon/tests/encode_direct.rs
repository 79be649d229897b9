//! The direct serializer (`to_string`, `to_writer` without a `Value` tree) against the
//! `Value` route: for random values and options, and for typed data, the text (or the
//! error) must be exactly what `encode_value_with(&to_value(x)?, options)` gives.

use std::collections::{BTreeMap, HashMap};

use proptest::prelude::*;
use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq};
use toon::{Delimiter, EncodeOptions, Map, Number, Value, toon};

/// What the old route produced: a whole `Value`, then the `Value` encoder.
fn oracle<T: Serialize + ?Sized>(x: &T, o: &EncodeOptions) -> toon::Result<String> {
    toon::encode_value_with(&toon::__private::to_value_limited(x, o.max_depth)?, o)
}

/// Asserts that `to_string_with` and `to_writer_with` agree with the oracle.
fn check<T: Serialize + ?Sized>(x: &T, o: &EncodeOptions) {
    let want = oracle(x, o);
    let got = toon::to_string_with(x, o);
    assert_eq!(got, want, "to_string_with, options {o:?}");
    let mut buf = Vec::new();
    let streamed =
        toon::to_writer_with(&mut buf, x, o).map(|()| String::from_utf8(buf).expect("utf-8"));
    assert_eq!(streamed, want, "to_writer_with, options {o:?}");
    // Deterministic values never need the whole-document retry: one direct
    // attempt gives the same text (or error).
    let once = toon::__private::to_string_without_retry(x, o)
        .map(|text| text.expect("a deterministic value needed the retry through a Value"));
    assert_eq!(once, want, "direct attempt without retry, options {o:?}");
}

/// Checks `tables` as the fields `t0`, `t1`, … of one object, then as the `key` field
/// of list items (`{"id": 1, key: table}` each).
fn check_as_fields_and_items(tables: Vec<Value>, key: &str, o: &EncodeOptions) {
    let fields: Map = tables
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("t{i}"), t.clone()))
        .collect();
    check(&Value::Object(fields), o);
    let items: Vec<Value> = tables
        .into_iter()
        .map(|t| {
            let mut item = Map::new();
            item.insert("id", Value::from(1i64));
            item.insert(key, t);
            Value::Object(item)
        })
        .collect();
    check(&Value::Array(items), o);
}

fn all_options() -> Vec<EncodeOptions> {
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
    all
}

fn check_all<T: Serialize + ?Sized>(x: &T) {
    for o in all_options() {
        check(x, &o);
    }
    for depth in 0..6 {
        check(x, &EncodeOptions::default().with_max_depth(depth));
    }
}

// ---------------------------------------------------------------- random values

const STRINGS: &[&str] = &[
    "",
    "a",
    "hello world",
    " lead",
    "trail ",
    "a,b",
    "a|b",
    "a\tb",
    "-x",
    "-",
    "#c",
    "true",
    "false",
    "null",
    "12",
    "-3.5",
    "1e5",
    "05",
    "x:y",
    "[1]",
    "{a}",
    "q\"uote",
    "back\\slash",
    "line\nbreak",
    "é",
    "\u{feff}bom",
    "tab\t",
    "1,2",
    "a b|c",
];

const KEYS: &[&str] = &["a", "b", "c", "id", "x.y", "", "a b", "1", "-k", "é"];

fn num() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-5i64..5).prop_map(Value::from),
        prop::sample::select(vec![
            0.0,
            -0.0,
            1.5,
            -2.25,
            1e21,
            1e-7,
            0.000001,
            1e20,
            123456789.125,
            0.1,
            5e-324,
            1e300,
        ])
        .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop::sample::select(vec![
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105728",
            "340282366920938463463374607431768211455",
            "18446744073709551616",
            "-9223372036854775809",
        ])
        .prop_map(|s| Value::Number(Number::from_integer_str(s).expect("integer"))),
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        num(),
        num(),
        prop::sample::select(STRINGS).prop_map(Value::from),
        "[a-c ,|:#\\-\t]{0,4}".prop_map(Value::String),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(KEYS).prop_map(str::to_owned)
}

/// A row shape: leaf fields and nested groups.
#[derive(Clone, Debug)]
enum Shape {
    Leaf,
    Group(Vec<(String, Shape)>),
}

fn shape_fields(depth: u32) -> BoxedStrategy<Vec<(String, Shape)>> {
    let field = if depth == 0 {
        Just(Shape::Leaf).boxed()
    } else {
        prop_oneof![
            3 => Just(Shape::Leaf),
            1 => shape_fields(depth - 1).prop_map(Shape::Group),
        ]
        .boxed()
    };
    prop::collection::vec((key(), field), 1..4)
        .prop_map(|mut fs| {
            let mut seen = std::collections::HashSet::new();
            fs.retain(|(k, _)| seen.insert(k.clone()));
            fs
        })
        .boxed()
}

/// A row of `fields` with leaves taken from `leaves` (cycled).
fn make_row(fields: &[(String, Shape)], leaves: &[Value], next: &mut usize) -> Map {
    let mut m = Map::new();
    for (k, s) in fields {
        let v = match s {
            Shape::Leaf => {
                let v = leaves[*next % leaves.len()].clone();
                *next += 1;
                v
            }
            Shape::Group(children) => Value::Object(make_row(children, leaves, next)),
        };
        m.insert(k.clone(), v);
    }
    m
}

/// Ways to make one row stop fitting (or, for reordering, fit in another order).
fn break_row(row: &mut Map, how: u8) {
    match how {
        0 => {
            row.shift_remove_index(0);
        }
        1 => {
            row.insert("zz", Value::from(1));
        }
        2 => {
            if let Some((_, v)) = row.get_index_mut(0) {
                *v = toon!([1, 2]);
            }
        }
        3 => *row = Map::new(),
        4 => row.reverse(),
        5 => {
            if let Some((_, v)) = row.get_index_mut(row.len() - 1) {
                *v = match v {
                    Value::Object(_) => Value::from("flat"),
                    _ => toon!({}),
                };
            }
        }
        6 => {
            if let Some((_, v)) = row.get_index_mut(0) {
                *v = toon!({"q": 1});
            }
        }
        _ => {
            // Reorder inside the first nested group, if any.
            for (_, v) in row.iter_mut() {
                if let Value::Object(inner) = v {
                    inner.reverse();
                    break;
                }
            }
        }
    }
}

/// Arrays of rows of one shape, possibly broken at the first, middle or last row, or
/// an element that is not an object at all.
fn table() -> impl Strategy<Value = Value> {
    (
        shape_fields(2),
        0usize..6,
        prop::collection::vec(leaf(), 1..12),
        prop::option::of((0u8..3, 0u8..8)),
        any::<bool>(),
    )
        .prop_map(|(fields, n, leaves, brk, primitive_intruder)| {
            let mut next = 0;
            let mut rows: Vec<Map> = (0..n)
                .map(|_| make_row(&fields, &leaves, &mut next))
                .collect();
            let mut items: Vec<Value>;
            if let (Some((at, how)), false) = (brk, rows.is_empty()) {
                let i = match at {
                    0 => 0,
                    1 => rows.len() / 2,
                    _ => rows.len() - 1,
                };
                break_row(&mut rows[i], how);
            }
            items = rows.into_iter().map(Value::Object).collect();
            if primitive_intruder && !items.is_empty() {
                let at = items.len() / 2;
                items[at] = Value::from(7);
            }
            Value::Array(items)
        })
}

/// Objects whose values are rows of one shape (keyed table candidates).
fn keyed() -> impl Strategy<Value = Value> {
    (
        table(),
        prop::collection::vec("[a-d]{1,2}|[a-z ]{0,3}", 0..6),
    )
        .prop_map(|(t, keys)| {
            let mut m = Map::new();
            if let Value::Array(items) = t {
                for (k, v) in keys.into_iter().zip(items) {
                    m.insert(k, v);
                }
            }
            Value::Object(m)
        })
}

/// Several tables of one shape in one document (the direct encoder reuses the field
/// list of the last table for a table whose first row has exactly its fields), each
/// possibly broken at its first, middle or last row.
fn tables_of_one_shape() -> impl Strategy<Value = Vec<Value>> {
    let one = (
        1usize..4,
        prop::collection::vec(leaf(), 1..6),
        prop::option::of((0u8..3, 0u8..8)),
    );
    (shape_fields(2), prop::collection::vec(one, 1..5)).prop_map(|(fields, tables)| {
        tables
            .into_iter()
            .map(|(n, leaves, brk)| {
                let mut next = 0;
                let mut rows: Vec<Map> = (0..n)
                    .map(|_| make_row(&fields, &leaves, &mut next))
                    .collect();
                if let Some((at, how)) = brk {
                    let i = match at {
                        0 => 0,
                        1 => rows.len() / 2,
                        _ => rows.len() - 1,
                    };
                    break_row(&mut rows[i], how);
                }
                Value::Array(rows.into_iter().map(Value::Object).collect())
            })
            .collect()
    })
}

fn value() -> impl Strategy<Value = Value> {
    let base = prop_oneof![4 => leaf(), 1 => table(), 1 => keyed()];
    base.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(leaf(), 0..4).prop_map(Value::Array),
            prop::collection::vec(
                prop::collection::vec(leaf(), 0..3).prop_map(Value::Array),
                0..4
            )
            .prop_map(Value::Array),
            prop::collection::vec((key(), inner.clone()), 0..5)
                .prop_map(|kvs| { Value::Object(kvs.into_iter().collect()) }),
            prop::collection::vec(inner, 1..4).prop_map(|items| {
                // An object holding an array first: the list-item first-field forms.
                let mut m = Map::new();
                m.insert("list", Value::Array(items));
                m.insert("z", Value::from(1));
                Value::Array(vec![Value::Object(m)])
            }),
            table(),
            keyed(),
        ]
    })
}

fn options() -> impl Strategy<Value = EncodeOptions> {
    (
        prop::sample::select(vec![Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe]),
        prop::sample::select(vec![0usize, 1, 2, 4]),
        prop_oneof![3 => Just(1000usize), 2 => 0usize..7],
    )
        .prop_map(|(d, indent, depth)| {
            EncodeOptions::default()
                .with_delimiter(d)
                .with_indent_size(indent)
                .with_max_depth(depth)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn values_encode_as_through_a_value(v in value(), o in options()) {
        check(&v, &o);
        // Values without integers beyond 128 bits serialize to themselves, so the
        // direct text is also the Value encoder's text for `v` itself.
        if toon::to_value(&v).ok().as_ref() == Some(&v) {
            prop_assert_eq!(toon::to_string_with(&v, &o), toon::encode_value_with(&v, &o));
        }
    }

    #[test]
    fn tables_encode_as_through_a_value(v in table(), o in options()) {
        check(&v, &o);
        let mut doc = Map::new();
        doc.insert("rows", v.clone());
        doc.insert("after", Value::from(1));
        check(&Value::Object(doc), &o);
        check(&Value::Array(vec![Value::Object([("k".to_owned(), v)].into_iter().collect())]), &o);
    }

    #[test]
    fn tables_of_one_shape_encode_as_through_a_value(tables in tables_of_one_shape(), o in options()) {
        check_as_fields_and_items(tables, "items", &o);
    }

    /// Keyed tables of one shape in one document (the direct encoder reuses the
    /// field list of the last keyed table at a level for an object whose first
    /// entry value has exactly its fields), each possibly broken at its first,
    /// middle or last entry; as fields of one object and of list items.
    #[test]
    fn keyed_tables_of_one_shape_encode_as_through_a_value(tables in tables_of_one_shape(), o in options()) {
        let keyed: Vec<Value> = tables
            .into_iter()
            .map(|t| {
                let Value::Array(rows) = t else { unreachable!("tables are arrays") };
                Value::Object(
                    rows.into_iter()
                        .enumerate()
                        .map(|(i, row)| (format!("k{i}"), row))
                        .collect(),
                )
            })
            .collect();
        check_as_fields_and_items(keyed, "byKey", &o);
    }

    #[test]
    fn keyed_candidates_encode_as_through_a_value(v in keyed(), o in options()) {
        check(&v, &o);
        let wrapped: Map = [("outer".to_owned(), v)].into_iter().collect();
        check(&Value::Object(wrapped.clone()), &o);
        check(&Value::Array(vec![Value::Object(wrapped)]), &o);
    }
}

// ---------------------------------------------------------------- typed data

#[derive(Serialize)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Serialize)]
struct Inner {
    name: &'static str,
    score: f32,
}

#[derive(Serialize)]
struct Row {
    id: u64,
    tag: Option<&'static str>,
    inner: Inner,
    #[serde(skip_serializing_if = "Option::is_none")]
    extra: Option<u8>,
}

#[derive(Serialize)]
struct Unit;

#[derive(Serialize)]
struct Newtype(i128);

#[derive(Serialize)]
struct Tuple(u8, &'static str, bool);

#[derive(Serialize)]
enum Event {
    Start,
    Move(i32),
    Resize(u32, u32),
    Named { id: u64, label: &'static str },
    Wrapped(Point),
}

#[derive(Serialize)]
struct Holder {
    events: Vec<Event>,
    unit: Unit,
    newtype: Newtype,
    tuple: Tuple,
    pair: (i8, char),
    nothing: (),
    float: f64,
    nan: f64,
    small: f32,
}

/// A sequence that does not tell its length up front.
struct Unsized<T>(Vec<T>);

impl<T: Serialize> Serialize for Unsized<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in &self.0 {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

/// A sequence whose length hint is wrong.
struct Lying<T>(Vec<T>, usize);

impl<T: Serialize> Serialize for Lying<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.1))?;
        for x in &self.0 {
            seq.serialize_element(x)?;
        }
        seq.end()
    }
}

/// A map given as pairs, so keys may repeat or be of any type.
struct Pairs<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Pairs<K, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A struct serialized by hand, whose field names may repeat.
struct Struct(Vec<(&'static str, Either)>);

/// A field value of [`Struct`]: a value, or a nested hand-made struct.
enum Either {
    Value(Value),
    Struct(Struct),
}

impl Serialize for Struct {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Struct", self.0.len())?;
        for (name, v) in &self.0 {
            st.serialize_field(name, v)?;
        }
        st.end()
    }
}

impl Serialize for Either {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Either::Value(v) => v.serialize(s),
            Either::Struct(st) => st.serialize(s),
        }
    }
}

/// A `&'static str` with the text of `name` at an address of its own.
fn leaked(name: &str) -> &'static str {
    Box::leak(name.to_owned().into_boxed_str())
}

/// A map given as pairs with a length hint that may be wrong.
struct HintedPairs<V>(Vec<(&'static str, V)>, usize);

impl<V: Serialize> Serialize for HintedPairs<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.1))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Raw bytes.
struct Bytes(&'static [u8]);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// Fails when serialized.
struct Failing;

impl Serialize for Failing {
    fn serialize<S: serde::Serializer>(&self, _s: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("refused"))
    }
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            id: i as u64,
            tag: (i % 3 != 0).then_some("t,a|g"),
            inner: Inner {
                name: if i % 2 == 0 { "x" } else { "y z" },
                score: i as f32 / 10.0,
            },
            extra: None,
        })
        .collect()
}

#[test]
fn structs_and_tables() {
    check_all(&rows(5));
    check_all(&vec![Point { x: 1, y: 2 }, Point { x: -3, y: 4 }]);
    let mut broken = rows(4);
    broken[3].extra = Some(1);
    check_all(&broken);
    let mut broken = rows(4);
    broken[0].extra = Some(1);
    check_all(&broken);
    check_all(&toon!({"a": 1}));
    let mut doc = BTreeMap::new();
    doc.insert("rows", rows(3));
    doc.insert("empty", Vec::new());
    check_all(&doc);
}

#[test]
fn enums_options_units_tuples() {
    let h = Holder {
        events: vec![
            Event::Start,
            Event::Move(-4),
            Event::Resize(3, 4),
            Event::Named { id: 7, label: "go" },
            Event::Wrapped(Point { x: 1, y: 2 }),
        ],
        unit: Unit,
        newtype: Newtype(i128::MIN),
        tuple: Tuple(1, "a,b", true),
        pair: (-1, 'c'),
        nothing: (),
        float: 1e21,
        nan: f64::NAN,
        small: 0.1,
    };
    check_all(&h);
    check_all(&vec![Event::Move(1), Event::Move(2)]);
    check_all(&vec![
        Event::Wrapped(Point { x: 1, y: 2 }),
        Event::Wrapped(Point { x: 3, y: 4 }),
    ]);
    check_all(&vec![
        Event::Named { id: 1, label: "a" },
        Event::Named { id: 2, label: "b" },
    ]);
    check_all(&vec![Event::Resize(1, 2), Event::Resize(3, 4)]);
    check_all(&Event::Named { id: 1, label: "a" });
    check_all(&Event::Wrapped(Point { x: 1, y: 2 }));
    check_all(&vec![Some(1), None]);
    check_all(&vec![Some(Point { x: 1, y: 2 }), None]);
    check_all(&(1u8, "two", [3.5f64, f64::INFINITY]));
    check_all(&Unit);
    check_all(&"\u{feff}bom");
    check_all(&'\u{feff}');
    check_all(&u128::MAX);
}

#[test]
fn maps_with_non_string_keys() {
    let mut ints = BTreeMap::new();
    ints.insert(2, Point { x: 1, y: 2 });
    ints.insert(-1, Point { x: 3, y: 4 });
    check_all(&ints);
    let mut bools = HashMap::new();
    bools.insert(true, vec![1]);
    check_all(&bools);
    check_all(&Pairs(vec![('x', 1), ('y', 2)]));
    check_all(&Pairs(vec![(1.5f64, "a"), (1e21, "b")]));
    // 0.0 and -0.0 are both the key "0": a repeated key.
    check_all(&Pairs(vec![
        (0.0f64, Point { x: 1, y: 2 }),
        (-0.0, Point { x: 3, y: 4 }),
    ]));
    check_all(&Pairs(vec![((1, 2), 0)]));
    check_all(&Pairs(vec![(f64::NAN, 0)]));
    check_all(&vec![Pairs(vec![((), 0)])]);
}

#[test]
fn repeated_keys() {
    check_all(&Pairs(vec![("a", 1), ("b", 2), ("a", 3)]));
    // In table rows: the repeat makes the row fit after all.
    check_all(&vec![
        Pairs(vec![("a", toon!(1)), ("b", toon!(2))]),
        Pairs(vec![("a", toon!([1])), ("b", toon!(3)), ("a", toon!(4))]),
    ]);
    check_all(&vec![
        Pairs(vec![("a", toon!([1])), ("a", toon!(1)), ("b", toon!(2))]),
        Pairs(vec![("a", toon!(3)), ("b", toon!(4))]),
    ]);
    // Keyed table candidates.
    check_all(&Pairs(vec![
        ("p", toon!({"x": []})),
        ("q", toon!({"x": 1})),
        ("p", toon!({"x": 2})),
    ]));
    check_all(&vec![Pairs(vec![("k", 1), ("k", 2)])]);
}

/// Sibling maps at one level take their keys from the list kept for the previous
/// map with the same first key; repeats must still be found (a key before the
/// list position, a key after the list was left, past 64 keys), as list items
/// (written in their first serialization) and as fields, with quoted keys.
#[test]
fn map_keys_checked_against_the_kept_lists() {
    let sized = |n: usize| -> Vec<(String, Value)> {
        (0..n).map(|i| (format!("k {i}"), toon!(i))).collect()
    };
    let maps = |pairs: &[&[(&str, Value)]]| -> Vec<Pairs<String, Value>> {
        pairs
            .iter()
            .map(|p| Pairs(p.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()))
            .collect()
    };
    let shapes: &[&[(&str, Value)]] = &[
        &[
            ("a", toon!(1)),
            ("b c", toon!([{"x": 1}, {"x": 2, "y": 3}])),
            ("d", toon!(2)),
        ],
        &[("a", toon!(3)), ("d", toon!(4))],
        &[("a", toon!(5)), ("d", toon!(6)), ("a", toon!(7))],
        &[
            ("a", toon!(5)),
            ("b c", toon!([{"x": 1}, {"x": 1, "x": 2}])),
            ("b c", toon!(8)),
        ],
        &[
            ("a", toon!(1)),
            ("e", toon!(2)),
            ("d", toon!(3)),
            ("e", toon!(4)),
        ],
        &[("a", toon!(1)), ("e", toon!(2)), ("d", toon!(3))],
        &[("a", toon!(1)), ("d", toon!(3)), ("e", toon!(2))],
        &[("z", toon!({"a": 1})), ("a", toon!(2)), ("z", toon!(3))],
        &[("z", toon!({"a": 1})), ("a", toon!(2))],
    ];
    let items = maps(shapes);
    check_all(&items);
    // The same maps as fields of an object, one level down.
    let fields = Pairs(
        items
            .iter()
            .enumerate()
            .map(|(i, m)| (format!("f{i}"), Pairs(m.0.clone())))
            .collect(),
    );
    check_all(&fields);
    check_all(&vec![fields]);
    // Long maps: a repeat past the 64 keys a list follows.
    let mut long = sized(70);
    let long_again = Pairs(long.clone());
    long.push(("k 66".to_string(), toon!("again")));
    check_all(&vec![long_again, Pairs(long.clone()), Pairs(long)]);
}

#[test]
fn repeated_struct_field_names() {
    use Either::Value as V;
    // The same name, at the same address and at another one.
    check_all(&Struct(vec![
        ("a", V(toon!(1))),
        ("b", V(toon!(2))),
        ("a", V(toon!(3))),
    ]));
    check_all(&Struct(vec![
        ("a", V(toon!(1))),
        (leaked("a"), V(toon!([1, 2]))),
    ]));
    // A nested struct's names are its own; a repeat after it is still found.
    let inner = || Struct(vec![("a", V(toon!(1))), ("c", V(toon!(2)))]);
    check_all(&Struct(vec![
        ("c", V(toon!(0))),
        ("in", Either::Struct(inner())),
        ("a", V(toon!(3))),
    ]));
    check_all(&Struct(vec![
        ("a", V(toon!(0))),
        ("in", Either::Struct(inner())),
        ("b", V(toon!(1))),
        (leaked("a"), V(toon!(3))),
    ]));
    // A nested struct that repeats a name, then more fields of the outer one.
    let repeating = Struct(vec![("x", V(toon!(1))), ("x", V(toon!(2)))]);
    check_all(&Struct(vec![
        ("x", V(toon!(0))),
        ("in", Either::Struct(repeating)),
        ("y", V(toon!(1))),
        ("x", V(toon!(5))),
    ]));
    // Past the names compared one by one: fingerprints, the early names included.
    for repeat in [0, 20, 39] {
        let mut many: Vec<(&'static str, Either)> = (0..40)
            .map(|i| (leaked(&format!("k{i}")), V(toon!(i))))
            .collect();
        many.push((leaked(&format!("k{repeat}")), V(toon!("again"))));
        many.push(("last", V(toon!(1))));
        check_all(&Struct(many));
    }
}

/// Objects of one struct name after each other: the names of the first are kept and
/// the later ones checked against them by address (repeats, reorders, skipped and
/// quoted names, the same text at another address, a nested object of the same
/// struct name replacing the kept list half-way).
#[test]
fn struct_names_checked_against_the_kept_list() {
    use Either::Value as V;
    let names: [&'static str; 4] = ["a", "b c", "d", "e"];
    let full = || Struct(names.iter().map(|n| (*n, V(toon!(1)))).collect());
    let with = |picked: &[&'static str]| Struct(picked.iter().map(|n| (*n, V(toon!(2)))).collect());
    let cases: Vec<Vec<Either>> = vec![
        vec![Either::Struct(full()), Either::Struct(full())],
        vec![Either::Struct(full()), Either::Struct(with(&["a", "d"]))],
        vec![
            Either::Struct(full()),
            Either::Struct(with(&["a", "b c", "a"])),
        ],
        vec![
            Either::Struct(full()),
            Either::Struct(with(&["d", "a", "e"])),
        ],
        vec![
            Either::Struct(full()),
            Either::Struct(with(&["a", "d", "d"])),
        ],
        vec![
            Either::Struct(full()),
            Either::Struct(with(&["e", leaked("e")])),
        ],
        vec![
            Either::Struct(full()),
            Either::Struct(with(&["b c", leaked("b c"), "d"])),
        ],
        vec![
            Either::Struct(full()),
            Either::Struct(Struct(vec![
                ("a", V(toon!(1))),
                ("in", Either::Struct(with(&["x", "y"]))),
                ("b c", V(toon!(2))),
                ("a", V(toon!(3))),
            ])),
            Either::Struct(full()),
            Either::Struct(with(&["x", "y", "x"])),
        ],
    ];
    for list in &cases {
        let seq: Vec<&Either> = list.iter().collect();
        check_all(&seq);
        check_all(&Wrapped(list));
    }
}

/// The objects of a list as fields `f0`, `f1`, … of one struct (not a list, so
/// that they are written as objects, not as table rows).
struct Wrapped<'a>(&'a [Either]);

impl Serialize for Wrapped<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        const KEYS: [&str; 4] = ["f0", "f1", "f2", "f3"];
        let mut st = s.serialize_struct("Wrapped", self.0.len())?;
        for (key, v) in KEYS.iter().zip(self.0) {
            st.serialize_field(key, v)?;
        }
        st.end()
    }
}

#[test]
fn rows_out_of_order() {
    check_all(&vec![
        Pairs(vec![("a", 1), ("b", 2)]),
        Pairs(vec![("b", 3), ("a", 4)]),
    ]);
    check_all(&Pairs(vec![
        ("r1", Pairs(vec![("a", 1), ("b", 2)])),
        ("r2", Pairs(vec![("b", 3), ("a", 4)])),
    ]));
}

#[test]
fn unsized_and_lying_sequences() {
    check_all(&Unsized(vec![1, 2, 3]));
    check_all(&Unsized(Vec::<u8>::new()));
    check_all(&Unsized(vec![Point { x: 1, y: 2 }, Point { x: 3, y: 4 }]));
    check_all(&Unsized(vec![Unsized(vec![1]), Unsized(vec![])]));
    check_all(&vec![Unsized(vec![vec![1, 2], vec![3]])]);
    check_all(&Lying(vec![1, 2, 3], 7));
    check_all(&Lying(vec![Point { x: 1, y: 2 }], 0));
    check_all(&Lying(Vec::<u8>::new(), 3));
    let uniform = vec![("p", toon!({"x": 1})), ("q", toon!({"x": 2}))];
    for hint in [0, 1, 2, 5] {
        check_all(&HintedPairs(uniform.clone(), hint));
        check_all(&vec![HintedPairs(uniform.clone(), hint)]);
        check_all(&HintedPairs(vec![("one", toon!({"x": 1}))], hint));
    }
    let mut doc = BTreeMap::new();
    doc.insert("a", Unsized(vec![toon!({"k": [1]}), toon!(2)]));
    check_all(&doc);
}

#[test]
fn bytes_and_errors() {
    check_all(&Bytes(b"\x00\x01\xff"));
    check_all(&Bytes(b""));
    check_all(&vec![Bytes(b"ab"), Bytes(b"")]);
    check_all(&Pairs(vec![("b", Bytes(b"xy"))]));
    check_all(&Failing);
    check_all(&vec![Failing]);
    check_all(&(1, Failing));
    check_all(&Pairs(vec![("a", Failing)]));
    check_all(&vec![
        Pairs(vec![("a", toon!(1))]),
        Pairs(vec![("a", toon!(2))]),
    ]);
    // An error in a later row of a would-be table, after a depth error earlier.
    check_all(&vec![
        toon!({"a": {"b": {"c": {"d": 1}}}}),
        toon!({"a": {"b": {"c": {"d": 2}}}}),
    ]);
}

#[test]
fn deep_nesting_errors_as_before() {
    #[derive(Serialize)]
    enum List {
        Nil,
        Cons(Box<List>),
    }
    let mut list = List::Nil;
    for _ in 0..50 {
        list = List::Cons(Box::new(list));
    }
    for depth in [0, 1, 2, 3, 10, 49, 50, 51, 1000] {
        check(&list, &EncodeOptions::default().with_max_depth(depth));
    }
    let nested = toon!([[[[[1]]]], {"a": [{"b": {"c": [1]}}]}]);
    for depth in 0..8 {
        check(&nested, &EncodeOptions::default().with_max_depth(depth));
    }
}

/// A value that serializes as a different array each time it is serialized.
struct Flaky(std::cell::Cell<usize>);

impl Serialize for Flaky {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = self.0.get();
        self.0.set(n + 1);
        let row = toon!({"a": 1});
        vec![row; 2 + n % 2].serialize(s)
    }
}

#[test]
fn values_that_change_between_passes_are_redone_through_a_value() {
    let o = EncodeOptions::default();
    // In memory, the rows are written in one pass and the header's length is
    // corrected to the rows written: the text agrees with itself.
    let once = toon::__private::to_string_without_retry(&Flaky(Default::default()), &o)
        .expect("no error")
        .expect("one pass needs no retry");
    assert_eq!(once, "[2]{a}:\n  1\n  1");
    // Streaming looks at the array before writing it and notices the change; with
    // nothing written yet, the document is redone from one more serialization.
    let mut buf = Vec::new();
    toon::to_writer_with(&mut buf, &Flaky(Default::default()), &o).expect("redone");
    let text = toon::to_string_with(&Flaky(Default::default()), &o).expect("encodes");
    for text in [String::from_utf8(buf).expect("utf-8"), text] {
        let back = toon::decode_value(&text).expect("valid TOON");
        let rows = back.as_array().expect("an array").len();
        assert!(rows == 2 || rows == 3, "{text}");
    }
}
