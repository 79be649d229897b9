//! Encoder rules, each checked against output verified on the reference
//! `@toon-format/toon` 4.4.0: quoting (§7.2, DELTA E1/E2), key encoding (§7.3),
//! numbers (§2), keyed tables (§9.5), nested field groups (§9.3), list items (§10),
//! empty containers, delimiters (§11), indentation (§12) and the depth limit.

use toon::{Delimiter, EncodeOptions, ErrorKind, Number, Value, toon};

fn enc(v: &Value) -> String {
    toon::encode_value(v)
}

fn enc_with(v: &Value, delimiter: Delimiter, indent: usize) -> String {
    let opts = EncodeOptions::default()
        .with_delimiter(delimiter)
        .with_indent_size(indent);
    toon::encode_value_with(v, &opts).expect("encodes")
}

/// The text of string `s` as an object field value (`v: …`) and as an inline array
/// item (`[1]: …`) under `delimiter`.
fn as_field_and_item(s: &str, delimiter: Delimiter) -> (String, String) {
    let field = enc_with(&toon!({ "v": s }), delimiter, 2);
    let item = enc_with(&toon!([s]), delimiter, 2);
    let field = field.strip_prefix("v: ").expect("field line").to_owned();
    let mark = match delimiter {
        Delimiter::Comma => "",
        Delimiter::Tab => "\t",
        Delimiter::Pipe => "|",
    };
    let item = item
        .strip_prefix(&format!("[1{mark}]: "))
        .expect("inline line")
        .to_owned();
    (field, item)
}

#[test]
fn strings_that_must_be_quoted() {
    let cases: &[(&str, &str)] = &[
        ("", r#""""#),
        (" a", r#"" a""#),
        ("a ", r#""a ""#),
        ("\ta", r#""\ta""#),
        ("a\t", r#""a\t""#),
        (" ", r#"" ""#),
        ("true", r#""true""#),
        ("false", r#""false""#),
        ("null", r#""null""#),
        ("42", r#""42""#),
        ("-3.14", r#""-3.14""#),
        ("05", r#""05""#),
        ("+1", r#""+1""#),
        ("1e-6", r#""1e-6""#),
        ("1E+5", r#""1E+5""#),
        ("2.5e3", r#""2.5e3""#),
        ("a:b", r#""a:b""#),
        ("say \"hi\"", r#""say \"hi\"""#),
        ("back\\slash", r#""back\\slash""#),
        ("[x]", r#""[x]""#),
        ("a]", r#""a]""#),
        ("{y}", r#""{y}""#),
        ("a}", r#""a}""#),
        ("line\nbreak", r#""line\nbreak""#),
        ("cr\rx", r#""cr\rx""#),
        ("\u{1}", r#""\u0001""#),
        ("x\u{1f}", r#""x\u001f""#),
        ("-", r#""-""#),
        ("-x", r#""-x""#),
        ("- item", r#""- item""#),
        ("#", r##""#""##),
        ("#x", r##""#x""##),
        ("a,b", r#""a,b""#),
    ];
    for (s, quoted) in cases {
        let (field, item) = as_field_and_item(s, Delimiter::Comma);
        assert_eq!(&field, quoted, "field value {s:?}");
        assert_eq!(&item, quoted, "array item {s:?}");
    }
}

#[test]
fn strings_that_stay_unquoted() {
    for s in [
        "a b",
        "True",
        "NULL",
        "nul",
        ".5",
        "1.",
        "0x10",
        "1_000",
        "Infinity",
        "NaN",
        "1e",
        "x#",
        "x-y",
        "é",
        "日本語",
        "emoji 🎉 ok",
        "\u{7f}",
        "it's",
        "a/b=c;d",
        "user@example.com",
        "a|b",
        "a\u{a0}",
    ] {
        let (field, item) = as_field_and_item(s, Delimiter::Comma);
        assert_eq!(field, s, "field value {s:?}");
        assert_eq!(item, s, "array item {s:?}");
    }
}

#[test]
fn only_space_and_tab_count_as_edge_whitespace() {
    // DELTA-4.4 E1: NBSP, EM SPACE, IDEOGRAPHIC SPACE and BOM are ordinary characters.
    let v = toon!({"a": "\u{a0}x", "b": "x\u{2003}"});
    assert_eq!(enc(&v), "a: \u{a0}x\nb: x\u{2003}");
    assert_eq!(enc(&toon!(["\u{a0}", "\u{3000}"])), "[2]: \u{a0},\u{3000}");
    let pipe = enc_with(&toon!({"a": "x\u{a0}"}), Delimiter::Pipe, 2);
    assert_eq!(pipe, "a: x\u{a0}");
}

#[test]
fn a_bom_quotes_only_a_root_string() {
    // DELTA-4.4 C2/E2.
    assert_eq!(enc(&toon!("\u{feff}hi")), "\"\u{feff}hi\"");
    assert_eq!(enc(&toon!({"a": "\u{feff}hi"})), "a: \u{feff}hi");
    assert_eq!(enc(&toon!(["\u{feff}hi"])), "[1]: \u{feff}hi");
    assert_eq!(enc(&toon!("x\u{feff}")), "x\u{feff}");
    // A root string is otherwise quoted by the ordinary rules.
    assert_eq!(enc(&toon!("hello world")), "hello world");
    assert_eq!(enc(&toon!("a,b")), "\"a,b\"");
    assert_eq!(enc_with(&toon!("a,b"), Delimiter::Pipe, 2), "a,b");
}

#[test]
fn delimiter_aware_quoting() {
    let cases = [
        (Delimiter::Comma, "a,b", true),
        (Delimiter::Comma, "a|b", false),
        (Delimiter::Comma, "a\tb", true), // a tab is a control character: always quoted
        (Delimiter::Pipe, "a|b", true),
        (Delimiter::Pipe, "a,b", false),
        (Delimiter::Tab, "a,b", false),
        (Delimiter::Tab, "a|b", false),
    ];
    for (d, s, quoted) in cases {
        let (field, item) = as_field_and_item(s, d);
        let want = if quoted {
            let mut q = String::new();
            q.push('"');
            q.push_str(&s.replace('\t', "\\t"));
            q.push('"');
            q
        } else {
            s.to_owned()
        };
        assert_eq!(field, want, "{d:?} field {s:?}");
        assert_eq!(item, want, "{d:?} item {s:?}");
    }
}

#[test]
fn keys_are_quoted_unless_identifier_like() {
    let v = toon!({
        "a": 1, "_x": 2, "user.name": 3, "A1_b.c": 4,
        "my-key": 5, "9a": 6, "": 7, "a b": 8, "é": 9, "q\"k": 10, "t\tk": 11
    });
    assert_eq!(
        enc(&v),
        "a: 1\n_x: 2\nuser.name: 3\nA1_b.c: 4\n\"my-key\": 5\n\"9a\": 6\n\"\": 7\n\"a b\": 8\n\"é\": 9\n\"q\\\"k\": 10\n\"t\\tk\": 11"
    );
    // Keys are quoted in headers and field lists too.
    let v = toon!({"my-key": [1, 2], "t t": [{"a b": 1, "c": 2}]});
    assert_eq!(enc(&v), "\"my-key\"[2]: 1,2\n\"t t\"[1]{\"a b\",c}:\n  1,2");
}

#[test]
fn numbers_print_as_javascript_prints_them() {
    let v = toon!([
        1e21, 1e-7, 0.000001, -0.0, 1.5e300, 1e6, 1.0, 1.5000, -7, 0.1
    ]);
    assert_eq!(
        enc(&v),
        "[10]: 1e+21,1e-7,0.000001,0,1.5e+300,1000000,1,1.5,-7,0.1"
    );
    let more = Value::Array(vec![
        Value::from(0.1 + 0.2),
        Value::from(f64::MIN_POSITIVE),
        Value::from(5e-324),
        Value::from(f64::MAX),
        Value::from(123456789012345680000.0),
        Value::from(1e20),
        Value::from(-1e-6),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::Number(Number::from_integer_str("-123456789012345678901234567890").expect("int")),
        Value::from(f64::NAN),
        Value::from(f64::INFINITY),
    ]);
    assert_eq!(
        enc(&more),
        "[12]: 0.30000000000000004,2.2250738585072014e-308,5e-324,1.7976931348623157e+308,\
         123456789012345680000,100000000000000000000,-0.000001,18446744073709551615,\
         -9223372036854775808,-123456789012345678901234567890,null,null"
    );
    assert_eq!(enc(&toon!({"n": -0.0})), "n: 0");
    assert_eq!(enc(&toon!(3.25)), "3.25");
}

#[test]
fn keyed_tables() {
    let v = toon!({"users": {"ada": {"age": 36, "city": "London"}, "bob": {"age": 41, "city": "Paris"}}});
    assert_eq!(
        enc(&v),
        "users[2:]{age,city}:\n  ada: 36,London\n  bob: 41,Paris"
    );
    // At the root the key is omitted.
    let v = toon!({"ada": {"age": 36}, "bob": {"age": 41}});
    assert_eq!(enc(&v), "[2:]{age}:\n  ada: 36\n  bob: 41");
    // Cells use the active delimiter; entry keys are encoded as keys.
    let v = toon!({"m": {"a": {"x": "p|q", "y": "r,s"}, "b-c": {"x": 1, "y": 2}}});
    assert_eq!(
        enc_with(&v, Delimiter::Pipe, 2),
        "m[2:|]{x|y}:\n  a: \"p|q\"|r,s\n  \"b-c\": 1|2"
    );
    assert_eq!(
        enc_with(&v, Delimiter::Tab, 2),
        "m[2:\t]{x\ty}:\n  a: p|q\tr,s\n  \"b-c\": 1\t2"
    );
    // Per-entry key order may differ; cells follow the first entry's order.
    let v = toon!({"k": {"p": {"a": 1, "b": 2}, "q": {"b": 3, "a": 4}}});
    assert_eq!(enc(&v), "k[2:]{a,b}:\n  p: 1,2\n  q: 4,3");
    // Not keyed: one entry, an empty entry, a mismatched key set, an array column.
    assert_eq!(enc(&toon!({"k": {"p": {"a": 1}}})), "k:\n  p:\n    a: 1");
    assert_eq!(
        enc(&toon!({"k": {"p": {"a": 1}, "q": {}}})),
        "k:\n  p:\n    a: 1\n  q:"
    );
    assert_eq!(
        enc(&toon!({"k": {"p": {"a": 1}, "q": {"b": 1}}})),
        "k:\n  p:\n    a: 1\n  q:\n    b: 1"
    );
    assert_eq!(
        enc(&toon!({"k": {"p": {"a": [1]}, "q": {"a": [2]}}})),
        "k:\n  p:\n    a[1]: 1\n  q:\n    a[1]: 2"
    );
    assert_eq!(
        enc(&toon!({"k": {"p": {"a": 1}, "q": 5}})),
        "k:\n  p:\n    a: 1\n  q: 5"
    );
}

#[test]
fn nested_field_groups() {
    let v = toon!({"orders": [
        {"id": 1, "customer": {"name": "Ada", "country": "UK"}},
        {"id": 2, "customer": {"country": "FR", "name": "Bob"}}
    ]});
    assert_eq!(
        enc(&v),
        "orders[2]{id,customer{name,country}}:\n  1,Ada,UK\n  2,Bob,FR"
    );
    let v = toon!([
        {"a": {"b": {"c": 1, "d": "x y"}, "e": true}, "f": null},
        {"f": 2, "a": {"e": false, "b": {"d": "z", "c": 3}}}
    ]);
    assert_eq!(
        enc_with(&v, Delimiter::Pipe, 2),
        "[2|]{a{b{c|d}|e}|f}:\n  1|x y|true|null\n  3|z|false|2"
    );
    // A sub-object that differs in keys, is empty, or is null turns the array into a list.
    assert_eq!(
        enc(&toon!([{"a": {"x": 1}}, {"a": {"y": 1}}])),
        "[2]:\n  - a:\n      x: 1\n  - a:\n      y: 1"
    );
    assert_eq!(
        enc(&toon!([{"a": {"x": 1}}, {"a": null}])),
        "[2]:\n  - a:\n      x: 1\n  - a: null"
    );
    assert_eq!(enc(&toon!([{"a": {}}, {"a": {}}])), "[2]:\n  - a:\n  - a:");
    // Keyed entries carry nested groups too.
    let v = toon!({"p": {"u": {"x": 1, "g": {"h": 2}}, "v": {"x": 3, "g": {"h": 4}}}});
    assert_eq!(enc(&v), "p[2:]{x,g{h}}:\n  u: 1,2\n  v: 3,4");
}

#[test]
fn tables_need_uniform_non_empty_objects() {
    assert_eq!(
        enc(&toon!([{"a": 1, "b": "x"}, {"b": "y", "a": 2}])),
        "[2]{a,b}:\n  1,x\n  2,y"
    );
    assert_eq!(
        enc(&toon!([{"a": 1}, {"a": 2, "b": 3}])),
        "[2]:\n  - a: 1\n  - a: 2\n    b: 3"
    );
    assert_eq!(enc(&toon!([{"a": 1}, {}])), "[2]:\n  - a: 1\n  -");
    assert_eq!(enc(&toon!([{"a": 1}, 5])), "[2]:\n  - a: 1\n  - 5");
    assert_eq!(enc(&toon!([{"a": [1]}])), "[1]:\n  - a[1]: 1");
}

#[test]
fn objects_as_list_items() {
    // E0: a keyed first field goes on the hyphen line, its entries at +2.
    let v = toon!([{"m": {"a": {"x": 1}, "b": {"x": 2}}, "n": 1}, 5]);
    assert_eq!(
        enc(&v),
        "[2]:\n  - m[2:]{x}:\n      a: 1\n      b: 2\n    n: 1\n  - 5"
    );
    // A tabular first field: rows at +2, siblings at +1.
    let v = toon!({"items": [{"rows": [{"a": 1}, {"a": 2}], "k": "v"}, {"x": 1}]});
    assert_eq!(
        enc(&v),
        "items[2]:\n  - rows[2]{a}:\n      1\n      2\n    k: v\n  - x: 1"
    );
    // Other first fields: primitive, inline array, empty array, nested list, object.
    let v = toon!([
        {"p": "x", "q": [1, 2]},
        {"a": [1, 2], "b": {"c": 1}},
        {"a": [], "b": 1},
        {"a": [[1], {"z": 1}], "b": 2},
        {"o": {"c": 1, "d": {"e": 2}}, "f": 3},
        {"o": {}, "f": 4}
    ]);
    assert_eq!(
        enc(&v),
        "[6]:\n\
         \x20 - p: x\n\
         \x20   q[2]: 1,2\n\
         \x20 - a[2]: 1,2\n\
         \x20   b:\n\
         \x20     c: 1\n\
         \x20 - a: []\n\
         \x20   b: 1\n\
         \x20 - a[2]:\n\
         \x20     - [1]: 1\n\
         \x20     - z: 1\n\
         \x20   b: 2\n\
         \x20 - o:\n\
         \x20     c: 1\n\
         \x20     d:\n\
         \x20       e: 2\n\
         \x20   f: 3\n\
         \x20 - o:\n\
         \x20   f: 4"
    );
    // An array element is anonymous: a keyed-eligible object stays an object.
    let v = toon!([{"a": {"x": 1}, "b": {"x": 2}}, 5]);
    assert_eq!(
        enc(&v),
        "[2]:\n  - a:\n      x: 1\n    b:\n      x: 2\n  - 5"
    );
    // Alone, the same element is a one-row table with nested groups.
    let v = toon!([{"a": {"x": 1}, "b": {"x": 2}}]);
    assert_eq!(enc(&v), "[1]{a{x},b{x}}:\n  1,2");
}

#[test]
fn arrays_in_arrays() {
    assert_eq!(
        enc(&toon!({"m": [[1, 2], [], ["a", "b,c"]]})),
        "m[3]:\n  - [2]: 1,2\n  - [0]:\n  - [2]: a,\"b,c\""
    );
    // Arrays holding non-primitive arrays, or a mix, are lists of lists.
    assert_eq!(
        enc(&toon!([[[1], 2], [{"a": 1}, {"a": 2}], []])),
        "[3]:\n  - [2]:\n    - [1]: 1\n    - 2\n  - [2]:\n    - a: 1\n    - a: 2\n  - [0]:"
    );
    assert_eq!(
        enc(&toon!([1, [2], {"a": 3}])),
        "[3]:\n  - 1\n  - [1]: 2\n  - a: 3"
    );
}

#[test]
fn empty_containers() {
    assert_eq!(enc(&toon!({})), "");
    assert_eq!(enc(&toon!([])), "[]");
    assert_eq!(
        enc(&toon!({"a": [], "b": {}, "c": [{}], "d": [[]]})),
        "a: []\nb:\nc[1]:\n  -\nd[1]:\n  - [0]:"
    );
    assert_eq!(enc(&toon!([{}, {}])), "[2]:\n  -\n  -");
    assert_eq!(enc(&toon!({"x": {"y": {}}})), "x:\n  y:");
    assert_eq!(enc(&toon!([""])), "[1]: \"\"");
    assert_eq!(enc(&toon!("")), "\"\"");
}

#[test]
fn delimiters_and_indent_sizes() {
    let v = toon!({"t": [{"a": 1, "b": "x"}, {"a": 2, "b": "y"}], "p": ["q", "r"], "o": {"k": [[1, 2]]}});
    assert_eq!(
        enc_with(&v, Delimiter::Comma, 2),
        "t[2]{a,b}:\n  1,x\n  2,y\np[2]: q,r\no:\n  k[1]:\n    - [2]: 1,2"
    );
    assert_eq!(
        enc_with(&v, Delimiter::Tab, 4),
        "t[2\t]{a\tb}:\n    1\tx\n    2\ty\np[2\t]: q\tr\no:\n    k[1\t]:\n        - [2\t]: 1\t2"
    );
    assert_eq!(
        enc_with(&v, Delimiter::Pipe, 3),
        "t[2|]{a|b}:\n   1|x\n   2|y\np[2|]: q|r\no:\n   k[1|]:\n      - [2|]: 1|2"
    );
    assert_eq!(
        enc_with(&v, Delimiter::Comma, 0),
        "t[2]{a,b}:\n1,x\n2,y\np[2]: q,r\no:\nk[1]:\n- [2]: 1,2"
    );
    assert_eq!(
        enc_with(&v, Delimiter::Comma, 1),
        "t[2]{a,b}:\n 1,x\n 2,y\np[2]: q,r\no:\n k[1]:\n  - [2]: 1,2"
    );
}

/// Nested arrays `depth` deep around `1`, built without recursion.
fn nested_arrays(depth: usize) -> Value {
    let mut v = Value::from(1);
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// Nested objects `{"k": …}` `depth` deep around `1`, built without recursion.
fn nested_objects(depth: usize) -> Value {
    let mut v = Value::from(1);
    for _ in 0..depth {
        let mut m = toon::Map::new();
        m.insert("k".to_owned(), v);
        v = Value::Object(m);
    }
    v
}

/// Takes a deep value apart level by level so dropping it cannot overflow the stack.
fn dismantle(mut v: Value) {
    loop {
        v = match v {
            Value::Array(mut a) => match a.pop() {
                Some(inner) => inner,
                None => return,
            },
            Value::Object(mut m) => match m.pop() {
                Some((_, inner)) => inner,
                None => return,
            },
            _ => return,
        };
    }
}

#[test]
fn nesting_deeper_than_max_depth_is_an_error() {
    for deep in [nested_arrays(100_000), nested_objects(100_000)] {
        let e = toon::encode_value_with(&deep, &EncodeOptions::default()).expect_err("too deep");
        assert_eq!(e.kind(), ErrorKind::Depth);
        assert!(e.message().contains("1000"), "{e}");
        dismantle(deep);
    }
    // The limit is exact: n nested containers need max_depth >= n.
    let v = nested_arrays(3);
    let at = |n| toon::encode_value_with(&v, &EncodeOptions::default().with_max_depth(n));
    assert_eq!(at(3).expect("fits"), "[1]:\n  - [1]:\n    - [1]: 1");
    assert_eq!(at(2).expect_err("too deep").kind(), ErrorKind::Depth);
    let o = nested_objects(3);
    let at = |n| toon::encode_value_with(&o, &EncodeOptions::default().with_max_depth(n));
    assert_eq!(at(3).expect("fits"), "k:\n  k:\n    k: 1");
    assert_eq!(at(2).expect_err("too deep").kind(), ErrorKind::Depth);
    // Primitives need no depth at all.
    let zero = EncodeOptions::default().with_max_depth(0);
    assert_eq!(
        toon::encode_value_with(&toon!(5), &zero).expect("primitive"),
        "5"
    );
    assert!(toon::encode_value_with(&toon!([]), &zero).is_err());
}

#[test]
fn tables_deeper_than_max_depth_are_an_error_too() {
    // Rows at level 2, their nested group at level 3.
    let v = toon!([{"a": {"b": 1}}, {"a": {"b": 2}}]);
    let opts = |n| EncodeOptions::default().with_max_depth(n);
    assert_eq!(
        toon::encode_value_with(&v, &opts(3)).expect("fits"),
        "[2]{a{b}}:\n  1\n  2"
    );
    assert_eq!(
        toon::encode_value_with(&v, &opts(2))
            .expect_err("too deep")
            .kind(),
        ErrorKind::Depth
    );
    let keyed = toon!({"p": {"x": 1}, "q": {"x": 2}});
    assert!(toon::encode_value_with(&keyed, &opts(2)).is_ok());
    assert!(toon::encode_value_with(&keyed, &opts(1)).is_err());
}

#[test]
fn deep_values_encode_without_a_limit_and_without_overflow() {
    // encode_value has no limit; a deep value runs on heap-allocated stack segments,
    // even on a thread with a small stack.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let v = nested_objects(5_000);
            let text = toon::encode_value(&v);
            dismantle(v);
            text
        })
        .expect("thread");
    let text = handle.join().expect("no overflow");
    assert_eq!(text.lines().count(), 5_000);
    assert!(text.ends_with(&format!("{}k: 1", " ".repeat(2 * 4_999))));
}

#[test]
fn output_has_no_trailing_newline_or_spaces() {
    let v = toon!({"a": {"b": [{"c": " x "}, {"c": "y"}], "d": [[], [1]], "e": {}}, "f": ""});
    for d in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
        let text = enc_with(&v, d, 2);
        assert!(!text.ends_with('\n'));
        for line in text.split('\n') {
            assert!(!line.ends_with(' '), "{line:?}");
        }
    }
}

#[test]
fn writer_output_equals_string_output() {
    // Large enough to be handed to the writer in several chunks.
    let rows: Vec<Value> = (0..20_000)
        .map(|i| toon!({"id": i, "name": format!("user {i}"), "tags": ["a", "b"]}))
        .collect();
    let v = toon!({"rows": rows, "tail": {"x": 1}});
    let mut out = Vec::new();
    toon::encode::encode_value_to_writer(&mut out, &v, &EncodeOptions::default()).expect("writes");
    assert!(out.len() > 200_000);
    assert_eq!(String::from_utf8(out).expect("utf-8"), enc(&v));
}

#[test]
fn writer_errors_are_reported() {
    struct Failing;
    impl std::io::Write for Failing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = toon::to_writer(Failing, &vec![1, 2, 3]).expect_err("fails");
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.to_string().contains("disk full"));
}

#[test]
fn encoded_documents_decode_to_the_same_value() {
    let v = toon!({
        "s": ["", " a", "-x", "#", "true", "42", "a,b", "a|b", "q\"\\", "\u{1}", "é"],
        "t": [{"a": 1, "b": {"c": "x", "d": null}}, {"b": {"d": false, "c": "y"}, "a": 2.5}],
        "k": {"p": {"x": 1}, "q": {"x": "-"}},
        "l": [1, [2, 3], {"a": []}, {}, [[]], [{"z": {"y": 1}}]],
        "e": {}, "n": 1e-7
    });
    for d in [Delimiter::Comma, Delimiter::Tab, Delimiter::Pipe] {
        for indent in [1, 2, 4] {
            let text = enc_with(&v, d, indent);
            let back = toon::decode_value_with(
                &text,
                &toon::DecodeOptions::default().with_indent_size(indent),
            )
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
            // Tables reorder keys to the header order; compare as sorted JSON.
            let norm = |x: &Value| serde_json::Value::from(x.clone()).to_string();
            let sorted = |s: String| {
                let j: serde_json::Value = serde_json::from_str(&s).expect("json");
                sort_keys(j).to_string()
            };
            assert_eq!(
                sorted(norm(&back)),
                sorted(norm(&v)),
                "{d:?} {indent}\n{text}"
            );
        }
    }
}

fn sort_keys(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut entries: Vec<_> = m.into_iter().map(|(k, v)| (k, sort_keys(v))).collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(entries.into_iter().collect())
        }
        serde_json::Value::Array(a) => {
            serde_json::Value::Array(a.into_iter().map(sort_keys).collect())
        }
        other => other,
    }
}

#[test]
fn a_table_that_fails_on_its_last_row_becomes_a_list() {
    // The encoder writes rows while checking them; a late misfit must leave no trace,
    // also when the text is being streamed to a writer.
    let mut rows: Vec<Value> = (0..20_000)
        .map(|i| toon!({"id": i, "g": {"x": "some text"}}))
        .collect();
    rows.push(toon!({"id": 1, "g": {"y": 2}}));
    let v = toon!({"rows": rows});
    let text = enc(&v);
    assert!(text.starts_with("rows[20001]:\n  - id: 0\n    g:\n      x: some text\n"));
    assert!(text.ends_with("\n  - id: 1\n    g:\n      y: 2"));
    let mut out = Vec::new();
    toon::encode::encode_value_to_writer(&mut out, &v, &EncodeOptions::default()).expect("writes");
    assert_eq!(String::from_utf8(out).expect("utf-8"), text);
    // The same for a keyed table at the root and under a key.
    let keyed = toon!({"a": {"x": 1}, "b": {"x": 2}, "c": {"x": [3]}});
    assert_eq!(enc(&keyed), "a:\n  x: 1\nb:\n  x: 2\nc:\n  x[1]: 3");
    let nested = toon!({"k": keyed});
    assert_eq!(
        enc(&nested),
        "k:\n  a:\n    x: 1\n  b:\n    x: 2\n  c:\n    x[1]: 3"
    );
    let item = toon!([{"k": {"a": {"x": 1}, "b": {"y": 1}}, "z": 0}, 5]);
    assert_eq!(
        enc(&item),
        "[2]:\n  - k:\n      a:\n        x: 1\n      b:\n        y: 1\n    z: 0\n  - 5"
    );
}
