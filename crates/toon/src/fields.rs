//! A header's field list (spec §6, §9.3): `{id,name,user{a,b}}`. One type for the
//! decoder, which parses it, and both encoders, which decide and write it.

use std::borrow::Cow;

use crate::Delimiter;
use crate::encode::quote::write_key;
use crate::stack::guarded;

/// One field of a field list, possibly carrying a nested group.
#[derive(Clone, Debug)]
pub(crate) struct Field<'a> {
    /// The key this field reads or writes.
    pub name: Cow<'a, str>,
    /// The nested field group; `None` for a leaf field.
    pub children: Option<Vec<Field<'a>>>,
    /// Cells this field takes in a row: 1 for a leaf, the group's leaves otherwise.
    pub leaves: usize,
}

impl<'a> Field<'a> {
    /// A leaf field: one cell.
    pub(crate) fn leaf(name: impl Into<Cow<'a, str>>) -> Field<'a> {
        Field {
            name: name.into(),
            children: None,
            leaves: 1,
        }
    }

    /// A field holding the nested group `children`.
    pub(crate) fn group(name: impl Into<Cow<'a, str>>, children: Vec<Field<'a>>) -> Field<'a> {
        Field {
            name: name.into(),
            leaves: leaf_count(&children),
            children: Some(children),
        }
    }

    /// Whether the field is one cell rather than a group.
    #[inline]
    pub(crate) fn is_leaf(&self) -> bool {
        self.children.is_none()
    }

    /// The nested group's fields; empty for a leaf.
    #[inline]
    pub(crate) fn group_fields(&self) -> &[Field<'a>] {
        self.children.as_deref().unwrap_or(&[])
    }
}

/// The number of cells a row over `fields` carries: their leaves, depth first.
pub(crate) fn leaf_count(fields: &[Field<'_>]) -> usize {
    fields.iter().map(|f| f.leaves).sum()
}

/// Appends an array or keyed-table header: `key[N]`, `key[N:]` when keyed, the
/// delimiter mark unless it is the comma, the field list in braces, and the colon.
pub(crate) fn write_header(
    out: &mut String,
    key: Option<&str>,
    len: usize,
    keyed: bool,
    delimiter: Delimiter,
    fields: Option<&[Field<'_>]>,
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
    if let Some(fields) = fields {
        out.push('{');
        write_field_list(out, fields, delimiter.as_char());
        out.push('}');
    }
    out.push(':');
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

    #[test]
    fn headers_are_written_as_the_decoder_reads_them() {
        let fields = vec![
            Field::leaf("id"),
            Field::group("user", vec![Field::leaf("a b"), Field::leaf("c")]),
        ];
        assert_eq!(leaf_count(&fields), 3);
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
