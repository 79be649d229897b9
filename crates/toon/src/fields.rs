//! A header's field list (spec §6, §9.3): `{id,name,user{a,b}}`. One type for the
//! decoder, which parses it, and both encoders, which decide it and write it with
//! [`write_header`](crate::encode::line::syntax::write_header).

use std::borrow::Cow;

/// One field of a field list, possibly carrying a nested group.
#[derive(Clone, Debug)]
pub struct Field<'a> {
    /// The key this field reads or writes.
    pub name: Cow<'a, str>,
    /// The nested field group; `None` for a leaf field.
    pub children: Option<Vec<Field<'a>>>,
    /// Cells this field takes in a row: 1 for a leaf, the group's leaves otherwise.
    pub leaves: usize,
    /// Where the name was read from, 0 if nowhere in particular. The decoder: the
    /// address of the text, when it needed no unescaping (a sink over the whole
    /// document hands the name out borrowed from there, once it has checked that the
    /// address lies in the document and spells the name). An encoder's walker: the
    /// address of the first row's key object, to recognise the same key in later rows.
    pub origin: usize,
}

impl<'a> Field<'a> {
    /// A leaf field: one cell.
    pub fn leaf(name: impl Into<Cow<'a, str>>) -> Field<'a> {
        Field {
            name: name.into(),
            children: None,
            leaves: 1,
            origin: 0,
        }
    }

    /// A field holding the nested group `children`.
    pub fn group(name: impl Into<Cow<'a, str>>, children: Vec<Field<'a>>) -> Field<'a> {
        Field {
            name: name.into(),
            leaves: leaf_count(&children),
            children: Some(children),
            origin: 0,
        }
    }

    /// Whether the field is one cell rather than a group.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.children.is_none()
    }

    /// The nested group's fields; empty for a leaf.
    #[inline]
    pub(crate) fn group_fields(&self) -> &[Field<'a>] {
        self.children.as_deref().unwrap_or(&[])
    }
}

/// Whether a field is named `key`. A key that is the field name's own text (a
/// struct's `&'static str` key, a key shared between rows) is recognised by its
/// address before the bytes are compared.
#[inline]
pub fn same_name(name: &str, key: &str) -> bool {
    name.len() == key.len() && (name.as_ptr() == key.as_ptr() || name == key)
}

/// The number of cells a row over `fields` carries: their leaves, depth first.
pub(crate) fn leaf_count(fields: &[Field<'_>]) -> usize {
    fields.iter().map(|f| f.leaves).sum()
}

#[cfg(test)]
mod tests {
    use super::same_name;

    #[test]
    fn names_compare_by_their_bytes() {
        let long = "a_rather_long_field_name";
        for (a, b, same) in [
            ("id", "id", true),
            ("id", "ib", false),
            ("", "", true),
            ("abcdefgh", "abcdefgh", true),
            ("abcdefgh", "abcdefgi", false),
            ("abcdefghijklmnop", "abcdefghijklmnoq", false),
            ("abcdefghijklmnop", "abcdefghijklmnop", true),
            (long, "a_rather_long_field_namf", false),
            ("a", "ab", false),
        ] {
            assert_eq!(same_name(a, b), same, "{a:?} {b:?}");
            let copy = String::from(b);
            assert_eq!(same_name(a, copy.as_str()), same, "{a:?} {b:?} copied");
        }
        let copy = String::from(long);
        assert!(same_name(long, copy.as_str()));
    }
}
