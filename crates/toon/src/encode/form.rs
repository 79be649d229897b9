//! The form rules of the encoder, in the reference's order of decisions: which form
//! an array (§9) or object (§8, §9.5, §10) takes, given where it is written and what
//! its walker found in it. Both walkers ask these functions: the `Value` walker,
//! which sees a container whole, and the direct `Serialize` encoder, which learns a
//! container by serializing it (its look-ahead gathers exactly the facts asked here).
//!
//! The table template (§9.3) is decided here too: the first row's values make leaf
//! fields (primitives) or nested groups (non-empty objects within the nesting limit),
//! anything else rules the table out, and a later row fits when it has the same
//! keys with the same kinds at every level.

use crate::fields::Field;

/// Where a container is written, as far as its form depends on it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// The whole document.
    Root,
    /// The value of an object field (also the first field of a list-item object).
    Field,
    /// An item of an expanded list (`- …`).
    ListItem,
}

/// The depth of the lines below a container whose line is at `depth` (array items,
/// table rows, an object's fields): one deeper, or two deeper when the container is
/// the first field of a list-item object, on the hyphen line (§10).
#[inline]
pub fn child_depth(depth: usize, on_hyphen_line: bool) -> usize {
    if on_hyphen_line { depth + 2 } else { depth + 1 }
}

/// The depth of the second and later fields of an object that is a list item at
/// `depth` (the first is on the hyphen line) (§10).
#[inline]
pub fn item_field_depth(depth: usize) -> usize {
    depth + 1
}

/// The form of an array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArrayForm {
    /// `key: []` (or `[]` at the root).
    Empty,
    /// One line: `key[N]: a,b`.
    Inline,
    /// A table (§9.3) if the rows fit one template, else an expanded list.
    TableOrList,
    /// An expanded list (§9.4): `key[N]:` then `- item` lines.
    List,
}

/// The form of an array of `len` elements at `place`; `all_primitive` says every
/// element is a primitive. An empty array in a list is `- [0]:`, and an array in a
/// list is never a table.
#[inline]
pub fn array_form(place: Place, len: usize, all_primitive: bool) -> ArrayForm {
    if len == 0 && place != Place::ListItem {
        ArrayForm::Empty
    } else if all_primitive {
        ArrayForm::Inline
    } else if place == Place::ListItem {
        ArrayForm::List
    } else {
        ArrayForm::TableOrList
    }
}

/// Whether an object of `len` entries at `place` is tried as a keyed table (§9.5):
/// two or more entries, not a list item. `len` is `None` while unknown (a keyed
/// table may still be tried).
#[inline]
pub fn may_be_keyed(place: Place, len: Option<usize>) -> bool {
    place != Place::ListItem && len.is_none_or(|n| n >= 2)
}

/// What one value is, as the table rules see it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `null`, a boolean, a number or a string.
    Primitive,
    /// An object with at least one entry.
    Object,
    /// An array, an empty object, or (for the direct encoder) bytes.
    Other,
}

/// What a first-row value makes of its field in a table template.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Template {
    /// A leaf field: one cell.
    Leaf,
    /// A nested field group of the object's own template.
    Group,
    /// No table.
    NotATable,
}

/// The template rule for a first-row value of kind `kind` whose object, if it is
/// one, would open at nesting `level` (a group must stay within `max_depth`).
#[inline]
pub fn template(kind: Kind, level: usize, max_depth: usize) -> Template {
    match kind {
        Kind::Primitive => Template::Leaf,
        Kind::Object if level <= max_depth => Template::Group,
        Kind::Object | Kind::Other => Template::NotATable,
    }
}

/// Whether a later row's value of kind `kind` fits `field` as far as its kind goes
/// (a group then also needs the object's entries to fit the group).
#[inline]
pub fn kind_fits(field: &Field<'_>, kind: Kind) -> bool {
    match kind {
        Kind::Primitive => field.is_leaf(),
        Kind::Object => !field.is_leaf(),
        Kind::Other => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_take_the_form_of_their_place_and_elements() {
        assert_eq!(array_form(Place::Root, 0, true), ArrayForm::Empty);
        assert_eq!(array_form(Place::Field, 0, true), ArrayForm::Empty);
        assert_eq!(array_form(Place::ListItem, 0, true), ArrayForm::Inline);
        assert_eq!(array_form(Place::Field, 3, true), ArrayForm::Inline);
        assert_eq!(array_form(Place::Field, 3, false), ArrayForm::TableOrList);
        assert_eq!(array_form(Place::Root, 3, false), ArrayForm::TableOrList);
        assert_eq!(array_form(Place::ListItem, 3, false), ArrayForm::List);
    }

    #[test]
    fn list_item_objects_indent_their_fields() {
        assert_eq!(child_depth(3, false), 4);
        assert_eq!(child_depth(3, true), 5);
        assert_eq!(item_field_depth(3), 4);
    }

    #[test]
    fn keyed_tables_need_two_entries_outside_lists() {
        assert!(may_be_keyed(Place::Root, Some(2)));
        assert!(may_be_keyed(Place::Field, None));
        assert!(!may_be_keyed(Place::Field, Some(1)));
        assert!(!may_be_keyed(Place::ListItem, Some(5)));
    }

    #[test]
    fn templates_and_fits() {
        assert_eq!(template(Kind::Primitive, 9, 1), Template::Leaf);
        assert_eq!(template(Kind::Object, 3, 3), Template::Group);
        assert_eq!(template(Kind::Object, 4, 3), Template::NotATable);
        assert_eq!(template(Kind::Other, 1, 9), Template::NotATable);
        let leaf = Field::leaf("a");
        let group = Field::group("g", vec![Field::leaf("b")]);
        assert!(kind_fits(&leaf, Kind::Primitive));
        assert!(!kind_fits(&leaf, Kind::Object));
        assert!(kind_fits(&group, Kind::Object));
        assert!(!kind_fits(&group, Kind::Primitive));
        assert!(!kind_fits(&group, Kind::Other));
    }
}
