//! JSON text read into a flat tape instead of a [`Value`] tree, for encoding large
//! documents in bounded memory.
//!
//! A tape is one vector of 12-byte nodes in document order: a container's node holds
//! its entry count and the index just past its last node, so it is walked without
//! recursion bookkeeping and skipped in one step; an object's entries are a key node
//! followed by the value's nodes. Strings without escapes are the place of their text
//! in the JSON text (nothing copied); strings with escapes are unescaped into one
//! shared buffer. Numbers are held parsed, in the node itself.
//!
//! The JSON is parsed by serde_json with the rules of [`from_json_str`](super::from_json_str)
//! (nesting limit, integers exact at any size, errors with line and column), and the
//! tape serializes ([`serde::Serialize`]) as that function's [`Value`](super::Value)
//! does, so `toon::to_writer(w, &tape)` writes what `encode_value` writes for the tree,
//! while holding the JSON text plus about 1.1 times its size (tabular data; less for
//! long strings) instead of a tree about eight times its size.

use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::from_json::{NumberTokens, deeper, json_error};
use crate::stack::guarded;
use crate::value::{BIG_INTEGER_KEY, N};
use crate::{Error, ErrorKind, Number, Result};

/// What a node holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u32)]
enum Kind {
    Null,
    False,
    True,
    /// A string in the JSON text: `a` its byte offset, `b` its length.
    Text,
    /// An unescaped string in [`JsonTape::strings`]: `a` its offset, `b` its length.
    Unescaped,
    /// An `i64`, `u64` or `f64`: `a` the low and `b` the high 32 bits.
    I64,
    U64,
    F64,
    /// An integer beyond 64 bits: `a` its index in [`JsonTape::bigs`].
    Big,
    /// An object: `a` its entry count, `b` the index of the node after it.
    Object,
    /// An array: `a` its length, `b` the index of the node after it.
    Array,
}

/// One node of the tape.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    a: u32,
    b: u32,
}

impl Node {
    fn word(kind: Kind, w: u64) -> Node {
        Node {
            kind,
            a: w as u32,
            b: (w >> 32) as u32,
        }
    }

    fn bits(self) -> u64 {
        u64::from(self.a) | (u64::from(self.b) << 32)
    }
}

/// A JSON document parsed into a compact tape that borrows its strings from the text.
///
/// ```
/// let tape = toon::value::JsonTape::parse(r#"{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}]}"#, 100)?;
/// assert_eq!(toon::to_string(&tape)?, "users[2]{id,name}:\n  1,Ada\n  2,Bob");
/// # Ok::<(), toon::Error>(())
/// ```
pub struct JsonTape<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// Strings that had escapes, unescaped, one after the other.
    strings: String,
    /// Integers beyond 64 bits.
    bigs: Vec<Number>,
}

impl<'t> JsonTape<'t> {
    /// Parses the JSON `text`, allowing nesting up to `max_depth` levels, with the
    /// rules and errors of [`from_json_str`](super::from_json_str). Text of 4 GiB or
    /// more is an [`ErrorKind::Syntax`] error (offsets are 32 bits).
    pub fn parse(text: &'t str, max_depth: usize) -> Result<JsonTape<'t>> {
        if u32::try_from(text.len()).is_err() {
            return Err(Error::new(
                ErrorKind::Syntax,
                "JSON text of 4 GiB or more is too large for the compact reader",
            ));
        }
        let mut tape = JsonTape {
            text,
            nodes: Vec::new(),
            strings: String::new(),
            bigs: Vec::new(),
        };
        let numbers = NumberTokens::new(text);
        let mut de = serde_json::Deserializer::from_str(text);
        de.disable_recursion_limit();
        Seed {
            tape: &mut tape,
            depth: 0,
            max_depth,
            numbers: &numbers,
        }
        .deserialize(&mut de)
        .map_err(|e| json_error(e, text))?;
        de.end().map_err(|e| json_error(e, text))?;
        tape.nodes.shrink_to_fit();
        Ok(tape)
    }

    /// The string of a `Text` or `Unescaped` node.
    fn str_of(&self, node: Node) -> &str {
        let (start, len) = (node.a as usize, node.b as usize);
        let source = if node.kind == Kind::Text {
            self.text
        } else {
            self.strings.as_str()
        };
        source.get(start..start + len).unwrap_or("")
    }

    /// The index of the node after the value at `at`.
    fn after(&self, at: usize) -> usize {
        match self.nodes.get(at) {
            Some(n) if matches!(n.kind, Kind::Object | Kind::Array) => n.b as usize,
            _ => at + 1,
        }
    }

    fn push(&mut self, node: Node) {
        self.nodes.push(node);
    }

    /// A string node for `s`: its place in the text when it lies there, else copied.
    fn push_str(&mut self, s: &str) {
        let base = self.text.as_ptr() as usize;
        let node = match (s.as_ptr() as usize).checked_sub(base) {
            Some(start) if start + s.len() <= self.text.len() => Node {
                kind: Kind::Text,
                a: start as u32,
                b: s.len() as u32,
            },
            _ => {
                let start = self.strings.len();
                self.strings.push_str(s);
                Node {
                    kind: Kind::Unescaped,
                    // The unescaped text is never longer than its escaped form.
                    a: start as u32,
                    b: s.len() as u32,
                }
            }
        };
        self.push(node);
    }

    /// Opens a container node, to be closed by [`JsonTape::close`].
    fn open(&mut self, kind: Kind) -> usize {
        self.push(Node { kind, a: 0, b: 0 });
        self.nodes.len() - 1
    }

    fn close(&mut self, at: usize, count: usize) {
        let end = self.nodes.len() as u32;
        if let Some(n) = self.nodes.get_mut(at) {
            n.a = count as u32;
            n.b = end;
        }
    }
}

/// The value at one node of a tape, serialized as the [`Value`](super::Value) it stands for.
struct At<'a, 't> {
    tape: &'a JsonTape<'t>,
    at: usize,
}

impl Serialize for At<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let tape = self.tape;
        let Some(&node) = tape.nodes.get(self.at) else {
            return serializer.serialize_unit();
        };
        match node.kind {
            Kind::Null => serializer.serialize_unit(),
            Kind::False => serializer.serialize_bool(false),
            Kind::True => serializer.serialize_bool(true),
            Kind::Text | Kind::Unescaped => serializer.serialize_str(tape.str_of(node)),
            Kind::I64 => serializer.serialize_i64(node.bits() as i64),
            Kind::U64 => serializer.serialize_u64(node.bits()),
            Kind::F64 => serializer.serialize_f64(f64::from_bits(node.bits())),
            Kind::Big => match tape.bigs.get(node.a as usize) {
                Some(Number(N::Big(digits))) => {
                    serializer.serialize_newtype_struct(BIG_INTEGER_KEY, &**digits)
                }
                Some(n) => n.serialize(serializer),
                None => serializer.serialize_unit(),
            },
            Kind::Array => {
                let mut seq = serializer.serialize_seq(Some(node.a as usize))?;
                let mut at = self.at + 1;
                while at < node.b as usize {
                    guarded(|| seq.serialize_element(&At { tape, at }))?;
                    at = tape.after(at);
                }
                seq.end()
            }
            Kind::Object => {
                let mut map = serializer.serialize_map(Some(node.a as usize))?;
                let mut at = self.at + 1;
                while at + 1 < node.b as usize {
                    let key = tape.nodes.get(at).map_or("", |&k| tape.str_of(k));
                    guarded(|| map.serialize_entry(key, &At { tape, at: at + 1 }))?;
                    at = tape.after(at + 1);
                }
                map.end()
            }
        }
    }
}

impl Serialize for JsonTape<'_> {
    /// The document, as [`from_json_str`](super::from_json_str)'s value serializes.
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        At { tape: self, at: 0 }.serialize(serializer)
    }
}

impl fmt::Debug for JsonTape<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonTape")
            .field("nodes", &self.nodes.len())
            .field("unescaped_bytes", &self.strings.len())
            .finish()
    }
}

/// Reads one JSON value onto the tape.
struct Seed<'a, 'n, 't> {
    tape: &'a mut JsonTape<'t>,
    depth: usize,
    max_depth: usize,
    numbers: &'n NumberTokens<'t>,
}

impl<'a, 'n, 't> Seed<'a, 'n, 't> {
    /// The seed of a value one level further in.
    fn inner<'b>(&'b mut self, depth: usize) -> Seed<'b, 'n, 't> {
        Seed {
            tape: &mut *self.tape,
            depth,
            max_depth: self.max_depth,
            numbers: self.numbers,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        guarded(|| d.deserialize_any(self))
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> std::result::Result<(), E> {
        let kind = if v { Kind::True } else { Kind::False };
        self.tape.push(Node { kind, a: 0, b: 0 });
        Ok(())
    }

    fn visit_i64<E>(self, v: i64) -> std::result::Result<(), E> {
        self.numbers.visit();
        self.tape.push(Node::word(Kind::I64, v as u64));
        Ok(())
    }

    fn visit_u64<E>(self, v: u64) -> std::result::Result<(), E> {
        self.numbers.visit();
        self.tape.push(Node::word(Kind::U64, v));
        Ok(())
    }

    fn visit_f64<E>(self, v: f64) -> std::result::Result<(), E> {
        let index = self.numbers.visit();
        let node = match self.numbers.exact_integer(index, v) {
            Some(n) => {
                self.tape.bigs.push(n);
                Node {
                    kind: Kind::Big,
                    a: (self.tape.bigs.len() - 1) as u32,
                    b: 0,
                }
            }
            None => Node::word(Kind::F64, v.to_bits()),
        };
        self.tape.push(node);
        Ok(())
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> std::result::Result<(), E> {
        self.tape.push_str(v);
        Ok(())
    }

    fn visit_str<E>(self, v: &str) -> std::result::Result<(), E> {
        self.tape.push_str(v);
        Ok(())
    }

    fn visit_unit<E>(self) -> std::result::Result<(), E> {
        self.tape.push(Node {
            kind: Kind::Null,
            a: 0,
            b: 0,
        });
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> std::result::Result<(), A::Error> {
        let depth = deeper(self.depth, self.max_depth)?;
        let at = self.tape.open(Kind::Array);
        let mut count = 0;
        while seq.next_element_seed(self.inner(depth))?.is_some() {
            count += 1;
        }
        self.tape.close(at, count);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> std::result::Result<(), A::Error> {
        let depth = deeper(self.depth, self.max_depth)?;
        let at = self.tape.open(Kind::Object);
        let mut count = 0;
        // A key is a string: the same seed puts its node on the tape.
        while map.next_key_seed(self.inner(depth))?.is_some() {
            map.next_value_seed(self.inner(depth))?;
            count += 1;
        }
        self.tape.close(at, count);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::from_json_str;
    use crate::{EncodeOptions, encode_value_with, to_string_with};

    /// The tape encodes as the tree does, with every option set, or fails as it does.
    fn same(text: &str) {
        for options in [
            EncodeOptions::default(),
            EncodeOptions::default()
                .with_indent_size(4)
                .with_delimiter(crate::Delimiter::Pipe),
        ] {
            let tree = from_json_str(text, 64).and_then(|v| encode_value_with(&v, &options));
            let tape = JsonTape::parse(text, 64).and_then(|t| to_string_with(&t, &options));
            match (tree, tape) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
                (a, b) => panic!("{text}: tree {a:?}, tape {b:?}"),
            }
        }
    }

    #[test]
    fn encodes_as_the_tree() {
        for text in [
            r#"{"users":[{"id":1,"name":"Ada","tags":["a","b"]},{"id":2,"name":"Bob","tags":[]}]}"#,
            r#"[{"a":1,"b":{"c":2}},{"a":3,"b":{"c":4}}]"#,
            r#"{"z":1,"a":2,"z":3}"#,
            r#"[{"a":1,"a":2},{"a":3}]"#,
            r#"{"s":"tab\there","q":"say \"hi\"","u":"\u00e9\ud83d\ude00","e":""}"#,
            r#"{"big":123456789012345678901234567890,"neg":-18446744073709551617,"huge":1234567890123456789012345678901234567890123}"#,
            r#"[1E2,1e30,-0,1.5e300,0.1,-7,18446744073709551615,-9223372036854775808]"#,
            r#"{"k":{"x":{"a":1},"y":{"a":2}},"m":[[1,2],[3,4]],"n":[[],{}]}"#,
            r#""just a string""#,
            "42",
            "null",
            "[true,false,null]",
            "{}",
            "[]",
        ] {
            same(text);
        }
    }

    #[test]
    fn errors_as_the_tree() {
        for text in ["{\n  \"a\": 1,,\n}", "[1, -1e400]", "[", "{\"a\" 1}", "1 2"] {
            same(text);
        }
        let deep = "[".repeat(100_000);
        let e = JsonTape::parse(&deep, 1000).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Depth);
        let ok = format!("{}{}", "[".repeat(900), "]".repeat(900));
        let tape = JsonTape::parse(&ok, 1000).unwrap();
        let options = EncodeOptions::default().with_max_depth(1000);
        assert_eq!(
            to_string_with(&tape, &options).unwrap(),
            encode_value_with(&from_json_str(&ok, 1000).unwrap(), &options).unwrap()
        );
    }

    #[test]
    fn strings_borrow_the_text_unless_escaped() {
        let tape = JsonTape::parse(r#"{"plain":"abc","esc":"a\nb"}"#, 10).unwrap();
        let kinds: Vec<Kind> = tape.nodes.iter().map(|n| n.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Object,
                Kind::Text,
                Kind::Text,
                Kind::Text,
                Kind::Unescaped
            ]
        );
        assert_eq!(tape.strings, "a\nb");
        assert_eq!(std::mem::size_of::<Node>(), 12);
    }
}
