//! The low-level TOON writer under both encoders (the `Value` walker and the direct
//! `Serialize` encoder): the text of headers with their field lists (spec §6), keys
//! and strings (§7, through [`quote`](super::quote)), primitives (§2, §7) and empty
//! arrays (§9.1). The encoders decide the form; every character of it is written here.

use super::quote::{write_key, write_quoted, write_string};
use crate::fields::Field;
use crate::stack::guarded;
use crate::{Delimiter, Number};

/// A primitive to write, borrowed from either encoder's representation.
#[derive(Clone, Copy)]
pub enum Primitive<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, in its canonical form.
    Num(&'a Number),
    /// A string, quoted when needed.
    Str(&'a str),
}

/// Appends a primitive: literals, the canonical number, a string quoted when the
/// active `delimiter` or the grammar requires it.
#[inline]
pub fn write_primitive(out: &mut String, p: Primitive<'_>, delimiter: Delimiter) {
    match p {
        Primitive::Null => out.push_str("null"),
        Primitive::Bool(true) => out.push_str("true"),
        Primitive::Bool(false) => out.push_str("false"),
        Primitive::Num(n) => n.write_canonical(out),
        Primitive::Str(s) => write_string(out, s, delimiter),
    }
}

/// Appends a primitive that is the whole document: as [`write_primitive`], except
/// that a string starting with U+FEFF is always quoted (DELTA-4.4 E2).
pub fn write_root_primitive(out: &mut String, p: Primitive<'_>, delimiter: Delimiter) {
    match p {
        Primitive::Str(s) if s.starts_with('\u{feff}') => write_quoted(out, s),
        _ => write_primitive(out, p, delimiter),
    }
}

/// Appends `key: ` (a field holding a primitive, or a keyed-table row).
#[inline]
pub fn write_entry_key(out: &mut String, key: &str) {
    write_key(out, key);
    out.push_str(": ");
}

/// Appends `key` as a key: as it is when `plain` (the caller knows that it may be
/// written unquoted), else quoted unless it may be written unquoted.
#[inline]
fn write_known_key(out: &mut String, key: &str, plain: bool) {
    if plain {
        out.push_str(key);
    } else {
        write_key(out, key);
    }
}

/// [`write_entry_key`] for a key whose quoting may be known already (`plain`).
#[inline]
pub fn write_known_entry_key(out: &mut String, key: &str, plain: bool) {
    write_known_key(out, key, plain);
    out.push_str(": ");
}

/// [`write_object_key`] for a key whose quoting may be known already (`plain`).
#[inline]
pub fn write_known_object_key(out: &mut String, key: &str, plain: bool) {
    write_known_key(out, key, plain);
    out.push(':');
}

/// Appends `key:` (a field whose object follows on the lines below).
#[inline]
pub fn write_object_key(out: &mut String, key: &str) {
    write_key(out, key);
    out.push(':');
}

/// The separator before item `index` of an inline array: a space after the header's
/// colon, then the delimiter.
#[inline]
pub fn inline_separator(index: usize, delimiter: Delimiter) -> char {
    if index == 0 { ' ' } else { delimiter.as_char() }
}

/// The separator before a table cell: none before the row's first cell, then the
/// delimiter. Clears `first`.
#[inline]
pub fn row_separator(first: &mut bool, delimiter: Delimiter) -> Option<char> {
    let sep = (!*first).then(|| delimiter.as_char());
    *first = false;
    sep
}

/// Appends one cell of a line (an inline item or a table cell): the separator, if
/// any, then the primitive.
#[inline(always)]
pub fn write_cell(out: &mut String, sep: Option<char>, p: Primitive<'_>, delimiter: Delimiter) {
    if let Some(sep) = sep {
        out.push(sep);
    }
    write_primitive(out, p, delimiter);
}

/// Appends an empty array: `key: []`, or `[]` without a key.
pub fn write_empty_array(out: &mut String, key: Option<&str>) {
    if let Some(key) = key {
        write_key(out, key);
        out.push_str(": []");
    } else {
        out.push_str("[]");
    }
}

/// Appends an array or keyed-table header: `key[N]`, `key[N:]` when keyed, the
/// delimiter mark unless it is the comma, the field list in braces, and the colon.
pub fn write_header(
    out: &mut String,
    key: Option<&str>,
    len: usize,
    keyed: bool,
    delimiter: Delimiter,
    fields: Option<&[Field<'_>]>,
) {
    write_header_bracket(out, key, len, keyed, delimiter);
    if let Some(fields) = fields {
        write_field_group(out, fields, delimiter);
    }
    out.push(':');
}

/// Appends the start of a header (see [`write_header`]): `key[N]`, `key[N:]` when
/// keyed, with the delimiter mark unless it is the comma.
pub fn write_header_bracket(
    out: &mut String,
    key: Option<&str>,
    len: usize,
    keyed: bool,
    delimiter: Delimiter,
) {
    if let Some(key) = key {
        write_key(out, key);
    }
    out.push('[');
    crate::js_number::push_int(out, len);
    if keyed {
        out.push(':');
    }
    if delimiter != Delimiter::Comma {
        out.push(delimiter.as_char());
    }
    out.push(']');
}

/// Appends a header's field list in braces (see [`write_header`]).
pub fn write_field_group(out: &mut String, fields: &[Field<'_>], delimiter: Delimiter) {
    out.push('{');
    write_field_list(out, fields, delimiter.as_char());
    out.push('}');
}

/// A field list: names joined by the delimiter, nested groups in braces.
fn write_field_list(out: &mut String, fields: &[Field<'_>], delimiter: char) {
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(delimiter);
        }
        write_key(out, &field.name);
        if let Some(children) = &field.children {
            out.push('{');
            guarded(|| write_field_list(out, children, delimiter));
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(p: Primitive<'_>, root: bool) -> String {
        let mut out = String::new();
        if root {
            write_root_primitive(&mut out, p, Delimiter::Pipe);
        } else {
            write_primitive(&mut out, p, Delimiter::Pipe);
        }
        out
    }

    #[test]
    fn primitives_and_empty_arrays() {
        assert_eq!(text(Primitive::Null, false), "null");
        assert_eq!(text(Primitive::Bool(false), true), "false");
        assert_eq!(
            text(
                Primitive::Num(&Number::from_f64(1.5).expect("finite")),
                false
            ),
            "1.5"
        );
        assert_eq!(text(Primitive::Str("a|b"), false), "\"a|b\"");
        assert_eq!(text(Primitive::Str("a,b"), false), "a,b");
        assert_eq!(text(Primitive::Str("\u{feff}x"), false), "\u{feff}x");
        assert_eq!(text(Primitive::Str("\u{feff}x"), true), "\"\u{feff}x\"");
        let mut out = String::new();
        write_empty_array(&mut out, Some("a b"));
        write_empty_array(&mut out, None);
        assert_eq!(out, "\"a b\": [][]");
    }

    #[test]
    fn headers_are_written_as_the_decoder_reads_them() {
        let fields = vec![
            Field::leaf("id"),
            Field::group("user", vec![Field::leaf("a b"), Field::leaf("c")]),
        ];
        assert_eq!(crate::fields::leaf_count(&fields), 3);
        let mut out = String::new();
        write_header(
            &mut out,
            Some("rows"),
            2,
            false,
            Delimiter::Pipe,
            Some(&fields),
        );
        assert_eq!(out, "rows[2|]{id|user{\"a b\"|c}}:");
        let mut keyed = String::new();
        write_header(&mut keyed, None, 0, true, Delimiter::Comma, None);
        assert_eq!(keyed, "[0:]:");
        // The decoder reads the same field list back.
        let text = format!("{out}\n  1|x|y\n  2|z|w\n");
        let back = crate::decode_value(&text).expect("valid");
        assert_eq!(back["rows"][1]["user"]["a b"], crate::Value::from("z"));
    }
}
