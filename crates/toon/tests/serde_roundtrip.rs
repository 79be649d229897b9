//! Typed round trips through TOON text: structs, enums, options, maps, nested vectors.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Status {
    Pending,
    Done,
    Failed { code: i32, reason: String },
    Retried(u8),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Address {
    city: String,
    zip: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Task {
    id: u64,
    title: String,
    status: Status,
    weight: f64,
    tags: Vec<String>,
    owner: Option<String>,
    address: Address,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Doc {
    name: String,
    tasks: Vec<Task>,
    by_name: BTreeMap<String, Address>,
    matrix: Vec<Vec<i64>>,
    empty: Vec<u8>,
    unit: (),
    tuple: (i8, String, bool),
    big: u128,
    negative: i128,
}

fn sample() -> Doc {
    let addr = |c: &str, z: Option<&str>| Address {
        city: c.into(),
        zip: z.map(Into::into),
    };
    Doc {
        name: "plan: alpha".into(),
        tasks: vec![
            Task {
                id: 1,
                title: "Set up, then run".into(),
                status: Status::Pending,
                weight: 0.5,
                tags: vec!["a".into(), "b c".into()],
                owner: None,
                address: addr("Paris", Some("75001")),
            },
            Task {
                id: 2,
                title: "- dash".into(),
                status: Status::Failed {
                    code: -3,
                    reason: "timeout".into(),
                },
                weight: 1e21,
                tags: vec![],
                owner: Some("ada".into()),
                address: addr("Zürich", None),
            },
            Task {
                id: 3,
                title: "".into(),
                status: Status::Retried(2),
                weight: -0.0,
                tags: vec!["true".into(), "42".into()],
                owner: Some("".into()),
                address: addr("[x]", Some("007")),
            },
        ],
        by_name: [
            ("ada".to_owned(), addr("London", Some("N1"))),
            ("bob".to_owned(), addr("Rome", Some("00100"))),
        ]
        .into_iter()
        .collect(),
        matrix: vec![vec![1, 2], vec![], vec![-3]],
        empty: vec![],
        unit: (),
        tuple: (-1, "x".into(), true),
        big: u128::MAX,
        negative: i128::MIN,
    }
}

#[test]
fn typed_document_round_trips_with_every_delimiter() {
    let doc = sample();
    for d in [
        toon::Delimiter::Comma,
        toon::Delimiter::Tab,
        toon::Delimiter::Pipe,
    ] {
        let opts = toon::EncodeOptions::default().with_delimiter(d);
        let text = toon::to_string_with(&doc, &opts).expect("serializes");
        let back: Doc = toon::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, doc, "delimiter {d:?}:\n{text}");
    }
}

#[test]
fn uniform_structs_become_a_table() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Row {
        id: u32,
        ok: bool,
    }
    let rows = vec![Row { id: 1, ok: true }, Row { id: 2, ok: false }];
    let text = toon::to_string(&rows).expect("serializes");
    assert_eq!(text, "[2]{id,ok}:\n  1,true\n  2,false");
    assert_eq!(toon::from_str::<Vec<Row>>(&text).expect("decodes"), rows);
}

#[test]
fn type_mismatches_are_errors_not_panics() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Strict {
        n: u8,
    }
    let e = toon::from_str::<Strict>("n: 300").expect_err("out of range");
    assert_eq!(e.kind(), toon::ErrorKind::Data);
    assert!(toon::from_str::<Strict>("n: hello").is_err());
    assert!(toon::from_str::<Strict>("m: 1").is_err());
    // An integral float fits an integer field.
    #[derive(Deserialize, Debug)]
    struct Loose {
        n: u32,
    }
    assert_eq!(toon::from_str::<Loose>("n: 1e3").expect("integral").n, 1000);
}

#[test]
fn from_slice_rejects_invalid_utf8_in_strict_mode_only() {
    let bytes = b"a: \xff\xfe";
    let e = toon::from_slice::<toon::Value>(bytes).expect_err("invalid");
    assert_eq!(e.kind(), toon::ErrorKind::Utf8);
    assert_eq!(e.byte_offset(), Some(3));
    assert_eq!((e.line(), e.column()), (Some(1), Some(4)));
    let lenient =
        toon::decode_slice_with(bytes, &toon::DecodeOptions::default().with_strict(false))
            .expect("lossy");
    assert_eq!(
        lenient.get("a").and_then(|v| v.as_str()),
        Some("\u{FFFD}\u{FFFD}")
    );
}

/// A float of 2^64 or more is written as its integer digits (JavaScript's form); an
/// `f64` or `f32` field reads it back, through the whole-text and the streaming
/// deserializers, in a field, a table cell, a list and at the root.
#[test]
fn large_floats_written_as_integer_digits_read_back() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Row {
        x: f64,
        y: f32,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Doc {
        one: Row,
        rows: Vec<Row>,
        list: Vec<f64>,
    }
    let doc = Doc {
        one: Row { x: 2.4e20, y: 3e25 },
        rows: vec![
            Row {
                x: 1.8446744073709552e19,
                y: -0.0,
            },
            Row { x: -7e30, y: 1.0 },
        ],
        list: vec![1e21, 6e22, -1.5e300],
    };
    let text = toon::to_string(&doc).unwrap();
    assert!(text.contains("x: 240000000000000000000"), "{text}");
    assert_eq!(toon::from_str::<Doc>(&text).unwrap(), doc);
    assert_eq!(toon::from_reader::<_, Doc>(text.as_bytes()).unwrap(), doc);
    let digits = "123456789012345678901234567890";
    assert_eq!(
        toon::from_str::<f64>(digits).unwrap(),
        1.2345678901234568e29
    );
    assert_eq!(
        toon::from_reader::<_, f64>(digits.as_bytes()).unwrap(),
        1.2345678901234568e29
    );
    let big = toon::decode_value(digits).unwrap();
    assert_eq!(toon::from_value::<f64>(big).unwrap(), 1.2345678901234568e29);
    // `-0` is 0, as everywhere in the decoder.
    assert!(toon::from_str::<f64>("-0").unwrap().is_sign_positive());
    // Integer fields still refuse what does not fit them.
    assert!(toon::from_str::<u8>(digits).is_err());
}

#[test]
fn str_fields_borrow_from_the_text_empty_ones_included() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Row<'a> {
        a: &'a str,
        b: &'a str,
    }
    let rows: Vec<Row<'_>> = toon::from_str("[2]{a,b}:\n  x,\n  \"\",y").expect("borrowed cells");
    assert_eq!(rows, [Row { a: "x", b: "" }, Row { a: "", b: "y" }]);
    let row: Row<'_> = toon::from_str("a: \"\"\nb: plain").expect("borrowed fields");
    assert_eq!(row, Row { a: "", b: "plain" });
    let list: Vec<&str> = toon::from_str("[3]: ,\"\",z").expect("borrowed inline values");
    assert_eq!(list, ["", "", "z"]);
    // An escape needs unescaping, which a borrowed field cannot hold.
    let e = toon::from_str::<Row<'_>>("a: \"q\\\"\"\nb: x").expect_err("escaped");
    assert!(e.message().contains("borrowed"), "{e}");
}
/// Keys are borrowed from the text too: an object's, and a table row's, whose names
/// are its header's (a field group's rows included); a key with an escape cannot be.
#[test]
fn keys_borrow_from_the_text_in_objects_and_table_rows() {
    use std::collections::BTreeMap;
    let rows: Vec<BTreeMap<&str, &str>> =
        toon::from_str("[2]{id,\"na me\"}:\n  1,Ada\n  2,Bob").expect("borrowed row keys");
    assert_eq!(rows[1]["na me"], "Bob");
    assert_eq!(rows[0].keys().copied().collect::<Vec<_>>(), ["id", "na me"]);
    let grouped: Vec<BTreeMap<&str, BTreeMap<&str, &str>>> =
        toon::from_str("[1]{g{a,b}}:\n  x,y").expect("borrowed group keys");
    assert_eq!(grouped[0]["g"]["b"], "y");
    let object: BTreeMap<&str, &str> = toon::from_str("a: x\nb: y").expect("borrowed keys");
    assert_eq!(object["b"], "y");
    let e = toon::from_str::<Vec<BTreeMap<&str, &str>>>("[1]{\"a\\\"b\"}:\n  x")
        .expect_err("an escaped name cannot be borrowed");
    assert!(e.message().contains("borrowed"), "{e}");
}

/// The size hints visitors get: an inline array its values, a table row its fields at
/// that level, an object the key count of the last object finished at its level (a
/// guess, capped), rows and list items none (a declared length is not trusted).
#[test]
fn size_hints_are_counts_or_cautious_guesses() {
    use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    /// Every hint seen, in document order, with `[`/`{` for the container.
    struct Hints(Vec<String>);
    struct Seed<'h>(&'h std::cell::RefCell<Hints>);
    impl<'de> serde::de::DeserializeSeed<'de> for Seed<'_> {
        type Value = ();
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Seed<'_> {
        type Value = ();
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("anything")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            self.0
                .borrow_mut()
                .0
                .push(format!("[{:?}", seq.size_hint()));
            while seq.next_element_seed(Seed(self.0))?.is_some() {}
            Ok(())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            self.0
                .borrow_mut()
                .0
                .push(format!("{{{:?}", map.size_hint()));
            while map.next_key::<IgnoredAny>()?.is_some() {
                map.next_value_seed(Seed(self.0))?;
            }
            Ok(())
        }
        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_borrowed_str<E>(self, _: &'de str) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
    }
    let text = "a[3]: x,y,z\nrows[2]{p,q{r,s}}:\n  1,2,3\n  4,5,6\nitems[2]:\n  - k: 1\n    l: 2\n  - k: 3\n";
    let hints = std::cell::RefCell::new(Hints(Vec::new()));
    let mut de = toon::Deserializer::from_str(text, &toon::DecodeOptions::default());
    serde::de::DeserializeSeed::deserialize(Seed(&hints), &mut de).expect("valid");
    assert_eq!(
        hints.into_inner().0,
        [
            "{None", "[Some(3)", "[None", "{Some(2)", "{Some(2)", "{Some(2)", "{Some(2)", "[None",
            "{None", "{Some(2)",
        ]
    );
}

/// `deserialize_any` on a primitive decides by the token: keywords, numbers and the
/// strings that only start like one (`tru`, `nullable`, `-x`, `1a`, `-`), in a table
/// row, a field and an inline array, read into `serde_json::Value` as `decode_value`
/// reads them.
#[test]
fn primitives_read_by_deserialize_any_like_decode_value() {
    let text = "\
rows[2]{a,b,c,d,e}:
  true,false,null,tru,nullable
  -x,1a,-,-7,2.5e3
f: falsey
g: -0
h[5]: t,f,n,0,\"1\"
";
    let got: serde_json::Value = toon::from_str(text).unwrap();
    let want = serde_json::to_value(toon::decode_value(text).unwrap()).unwrap();
    assert_eq!(got, want);
    assert_eq!(got["rows"][0]["d"], serde_json::json!("tru"));
    assert_eq!(got["rows"][1]["c"], serde_json::json!("-"));
    assert_eq!(got["rows"][1]["e"], serde_json::json!(2500.0));
    assert_eq!(got["h"], serde_json::json!(["t", "f", "n", 0, "1"]));
}

/// `key: primitive` lines, read with their key in one step: skipped, optional, enum,
/// escaped and borrowed values, and errors at their line and column.
#[test]
fn field_lines_read_with_their_values() {
    #[derive(Deserialize, Debug, PartialEq)]
    enum Level {
        Low,
        High,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        a: u8,
        b: Option<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Outer<'a> {
        name: &'a str,
        level: Level,
        note: String,
        maybe: Option<i64>,
        inner: Inner,
        last: bool,
    }
    let text = "unknown: 1\nname: ada\nextra: \"x\"\nlevel: High\nnote: \"a\\tb\"\n\
                maybe: null\ninner:\n  skip[2]: 1,2\n  a: 7\n  b: \"\"\nlast: true\n";
    let got: Outer<'_> = toon::from_str(text).expect("reads");
    assert_eq!(
        got,
        Outer {
            name: "ada",
            level: Level::High,
            note: "a\tb".into(),
            maybe: None,
            inner: Inner {
                a: 7,
                b: Some(String::new())
            },
            last: true,
        }
    );
    let reader: serde_json::Value = toon::from_reader(text.as_bytes()).expect("reads");
    assert_eq!(reader["note"], "a\tb");
    assert_eq!(reader["inner"]["skip"], serde_json::json!([1, 2]));

    // An integer out of range: the field's line and its value's column.
    let e = toon::from_str::<Inner>("b: x\na: 300\n").expect_err("range");
    assert_eq!((e.line(), e.column()), (Some(2), Some(1)));
    // A malformed quoted value, read or skipped: its line and column.
    for text in ["a: 1\nb: \"x\\q\"\n", "a: 1\nzz: \"x\\q\"\nb: y\n"] {
        let e = toon::from_str::<Inner>(text).expect_err("bad escape");
        assert_eq!(e.line(), Some(2), "{text:?}: {e}");
        assert!(e.column().is_some(), "{text:?}: {e}");
    }
    // A duplicate key after a field read with its value.
    let e = toon::from_str::<Inner>("a: 1\na: 2\n").expect_err("duplicate");
    assert_eq!(e.line(), Some(2));
    assert!(e.message().contains("Duplicate"), "{e}");
}

/// Field lines of nested objects (read by the deserializer straight from the machine's
/// object step) give the values and errors of the tree decoder, from the text and from
/// a reader.
#[test]
fn nested_field_lines_match_the_tree_decoder() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Leaf {
        a: u8,
        b: Option<String>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Mid {
        leaf: Leaf,
        n: i64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Top {
        mid: Mid,
        items: Vec<Leaf>,
    }
    let text = "mid:\n  leaf:\n    a: 1\n    b: \"x\\ty\"\n  n: -4\n\
                items[2]:\n  - a: 2\n    b: null\n  - a: 3\n    b: z\n";
    let got: Top = toon::from_str(text).expect("reads");
    assert_eq!(got.mid.leaf.b.as_deref(), Some("x\ty"));
    assert_eq!((got.mid.n, got.items[1].a), (-4, 3));
    let via_serde: serde_json::Value = toon::from_str(text).expect("serde");
    let via_reader: serde_json::Value = toon::from_reader(text.as_bytes()).expect("reader");
    let mut json = Vec::new();
    toon::decode::to_json_writer(text, &toon::DecodeOptions::default(), &mut json, 0)
        .expect("json");
    let expected: serde_json::Value = serde_json::from_slice(&json).expect("json");
    assert_eq!(via_serde, expected);
    assert_eq!(via_reader, expected);

    // Errors in nested objects, at their line (and the value's column where there is one).
    let cases = [
        (
            "mid:\n  leaf:\n    a: 1\n    a: 2\n  n: 1\nitems[0]:\n",
            4,
            "Duplicate",
        ),
        (
            "mid:\n  leaf:\n    a: 1\n    b: \"x\\q\"\n  n: 1\nitems[0]:\n",
            4,
            "",
        ),
        ("mid:\n  leaf:\n    a: 300\n  n: 1\nitems[0]:\n", 3, ""),
        (
            "mid:\n  leaf:\n    a: 1\n    zz: \"x\\q\"\n  n: 1\nitems[0]:\n",
            4,
            "",
        ),
        (
            "mid:\n  leaf:\n    a: 1\n      b: 2\n  n: 1\nitems[0]:\n",
            4,
            "",
        ),
    ];
    for (text, line, message) in cases {
        let e = toon::from_str::<Top>(text).expect_err(text);
        assert_eq!(e.line(), Some(line), "{text:?}: {e}");
        assert!(e.column().is_some(), "{text:?}: {e}");
        assert!(e.message().contains(message), "{text:?}: {e}");
        let r = toon::from_reader::<_, Top>(text.as_bytes()).expect_err(text);
        assert_eq!(
            (r.line(), r.column()),
            (e.line(), e.column()),
            "{text:?}: {r}"
        );
    }
}
