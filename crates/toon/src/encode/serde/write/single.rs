//! Arrays and objects written in one pass, when the whole text stays in memory
//! (`to_string`): no container is serialized twice except where a form cannot be
//! known before its end.
//!
//! The reference writes an array as a table only when every row fits the first
//! row's template (spec §9.3), and the header comes first; so a table is written
//! row by row under a [`Mark`](crate::encode::line::Mark), each row checked as it is
//! written, and the first row that does not fit takes the table back to be written
//! as an expanded list (§9.4) — the text of the rows is all that is held, never a
//! tree. An object is a keyed table (§9.5) only if every entry value is an object
//! of one size, which a look-ahead that stops at the first other value tells; it is
//! then tried the same way. Repeated keys are found while the fields are written
//! ([`Halt::Repeat`]): the object is taken back and encoded through a `Value`, which
//! keeps the first position and the last value.

use serde::Serialize;

use super::super::adapter::{Halt, Res, visit};
use super::super::analyze::{
    ArrayHead, Field, Shape, array_head, count, first_value_shape, keyed_candidate,
};
use super::super::keys::KeySet;
use super::lines::Items;
use super::table::Rows;
use super::{Out, Pos, check_len};
use crate::encode::form::{ArrayForm, array_form, may_be_keyed};
use crate::encode::line::syntax::{write_field_group, write_header, write_header_bracket};

/// Buffers and facts the one-pass writer carries from one container to the next, so
/// that writing allocates (almost) only for the output.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The length hint of the sequence last tried as an inline array: the array that
    /// [`Out::array_in_one_pass`] is then asked to write.
    pub(super) seq_hint: Option<usize>,
    /// The field list of the last table written ([`LastTable`]).
    table: Option<LastTable>,
    /// The field list of the last keyed table written at each nesting level (of
    /// the object) below [`KEYED_LEVELS`]: a keyed table whose first entry value has
    /// exactly these fields, keys in this order and values of these kinds (so that
    /// it would prescribe this very list) is written under it without building one.
    keyed: Vec<Option<Vec<Field>>>,
    /// The first row's cells while its field list is built.
    cells: String,
    /// The pending-key buffers of maps being written.
    pub(super) keys: KeyBuffers,
    /// Spare fingerprint sets for the objects being written.
    pub(super) key_sets: KeySets,
    /// The struct field names written so far by the objects being written, each
    /// object's after its parent's (see `lines::FieldEntries`).
    pub(super) names: Vec<&'static str>,
    /// The distinct field names of structs written so far, by struct name.
    pub(super) structs: super::names::StructNames,
    /// The keys of maps written so far, by level.
    pub(super) map_keys: super::map_keys::MapKeyLists,
}

/// The field list of the last table written, with the nesting level of its rows and
/// its text in the header (`{a,b}`). A table at that level whose first row has exactly
/// these fields, keys in this order and values of these kinds (so that it would
/// prescribe this very list) is written under it without building a new one.
struct LastTable {
    level: usize,
    fields: Vec<Field>,
    text: String,
}

/// Spare `String`s for the pending map keys of the maps being written (one per open
/// map), handed out and taken back so that a map costs no allocation.
#[derive(Default)]
pub(crate) struct KeyBuffers(Vec<String>);

impl KeyBuffers {
    /// A buffer for one map's pending key.
    #[inline]
    pub(super) fn take(&mut self) -> String {
        self.0.pop().unwrap_or_default()
    }

    /// Gives a buffer back once its map is written.
    #[inline]
    pub(super) fn put(&mut self, buffer: String) {
        self.0.push(buffer);
    }
}

/// Spare fingerprint sets, handed out empty and taken back once their object is
/// written, so that an object's writer holds a pointer instead of a set.
#[derive(Default)]
#[allow(clippy::vec_box)] // A set moves as a pointer.
pub(crate) struct KeySets(Vec<Box<KeySet>>);

impl KeySets {
    /// An empty set.
    #[inline]
    pub(super) fn take(&mut self) -> Box<KeySet> {
        match self.0.pop() {
            Some(mut set) => {
                set.clear();
                set
            }
            None => Box::default(),
        }
    }

    /// Gives a set back once its object is written.
    #[inline]
    pub(super) fn put(&mut self, set: Box<KeySet>) {
        if self.0.len() < MAX_SPARE_SETS {
            self.0.push(set);
        }
    }
}

/// Nesting levels below which the last keyed table's field list is kept.
const KEYED_LEVELS: usize = 64;

/// Spare fingerprint sets kept at most.
const MAX_SPARE_SETS: usize = 64;

/// What [`Out::table_like_last`] and [`Out::keyed_rows`] found.
enum LikeLast {
    /// The table is written, or an error stopped it (to be reported).
    Written(Res<()>),
    /// The first row does not have exactly the last table's fields (or an error
    /// stopped the attempt): the array's form is still to be decided.
    FirstRowDiffers,
    /// The first row has the last table's fields but a later row does not fit them:
    /// the array is not a table.
    NotATable,
}

impl Out<'_> {
    /// An array that is not one inline line, at `pos`, in one pass.
    pub(super) fn array_in_one_pass<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
    ) -> Res<()> {
        let array_level = pos.level() + 1;
        let child_depth = pos.child_depth();
        let hint = self.scratch.seq_hint.take();
        // An array that is not inline holds a non-primitive, so it is not empty.
        let may_be_table = array_form(pos.place(), 1, false) != ArrayForm::List;
        let mut table_ruled_out = false;
        if may_be_table
            && let Some(len) = hint
            && let Some(last) = self.scratch.table.take()
        {
            let tried = if last.level == array_level {
                self.table_like_last(pos, v, len, &last)
            } else {
                LikeLast::FirstRowDiffers
            };
            self.scratch.table = Some(last);
            match tried {
                LikeLast::Written(done) => return done,
                LikeLast::NotATable => table_ruled_out = true,
                LikeLast::FirstRowDiffers => {}
            }
        }
        if table_ruled_out && let Some(len) = hint {
            return self.list_in_one_pass(pos, v, len);
        }
        let cells = std::mem::take(&mut self.scratch.cells);
        let head = array_head(
            v,
            array_level,
            self.max_depth,
            may_be_table,
            self.delimiter,
            cells,
        );
        let ArrayHead {
            hint: head_hint,
            first,
            first_cells,
        } = match head {
            Ok(head) => head,
            Err(Halt::Fallback) => return self.fallback(pos, v),
            Err(e) => return Err(e),
        };
        // The header is written with the length hint; a hint that was wrong is
        // corrected once the elements are counted (the text is all in memory).
        let len = match hint.or(head_hint) {
            Some(n) => n,
            None => match count(v) {
                Ok(n) => n,
                Err(Halt::Fallback) => return self.fallback(pos, v),
                Err(e) => return Err(e),
            },
        };
        if let Some(Shape::Group(fields)) = first {
            let mark = self.enc.w.mark();
            self.start_line(pos);
            let start = self.out().len();
            let delimiter = self.delimiter;
            write_header_bracket(self.out(), pos.key(), len, false, delimiter);
            let group_start = self.out().len();
            write_field_group(self.out(), &fields, delimiter);
            let group_end = self.out().len();
            self.out().push(':');
            let end = self.out().len();
            // The first row's cells came with its template.
            self.enc.w.line(child_depth);
            self.out().push_str(&first_cells);
            self.scratch.cells = first_cells;
            let rows = Rows {
                out: self,
                fields: &fields,
                row_depth: child_depth,
                level: array_level,
                n: 0,
                verified: false,
                skip: 1,
                exact_first: false,
            };
            match visit(v, rows) {
                Ok(n) => {
                    self.enc.w.release(mark);
                    // The field list's text, as just written, kept with it (in the
                    // last one's buffer).
                    let mut text = self
                        .scratch
                        .table
                        .take()
                        .map(|t| t.text)
                        .unwrap_or_default();
                    text.clear();
                    text.push_str(&self.out()[group_start..group_end]);
                    if n != len {
                        self.correct_header(start..end, pos.key(), n, Some(&fields));
                    }
                    self.scratch.table = Some(LastTable {
                        level: array_level,
                        fields,
                        text,
                    });
                    return Ok(());
                }
                Err(Halt::NoFit) => self.enc.w.rewind(mark),
                Err(e) => {
                    self.enc.w.release(mark);
                    return Err(e);
                }
            }
        } else {
            self.scratch.cells = first_cells;
        }
        self.list_in_one_pass(pos, v, len)
    }

    /// The array `v` at `pos` as an expanded list; `len` is the length hint.
    fn list_in_one_pass<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
        len: usize,
    ) -> Res<()> {
        self.start_line(pos);
        let start = self.out().len();
        self.header(pos.key(), len, false, None);
        let end = self.out().len();
        let items = Items {
            out: self,
            depth: pos.child_depth(),
            level: pos.level() + 1,
            n: 0,
        };
        let n = visit(v, items)?;
        if n != len {
            self.correct_header(start..end, pos.key(), n, None);
        }
        Ok(())
    }

    /// Writes the array `v` at `pos` as a table under `fields`, the field list of the
    /// last table, if its first row has exactly those fields (and so would prescribe
    /// them) and the others fit; `len` is the serializer's length hint. Nothing is
    /// written unless it answers [`LikeLast::Written`]; any error answers
    /// [`LikeLast::FirstRowDiffers`], so that the usual route decides and reports it.
    fn table_like_last<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
        len: usize,
        last: &LastTable,
    ) -> LikeLast {
        let fields = &last.fields[..];
        let mark = self.enc.w.mark();
        self.start_line(pos);
        let start = self.out().len();
        let delimiter = self.delimiter;
        write_header_bracket(self.out(), pos.key(), len, false, delimiter);
        self.out().push_str(&last.text);
        self.out().push(':');
        let end = self.out().len();
        let rows = Rows {
            out: self,
            fields,
            row_depth: pos.child_depth(),
            level: pos.level() + 1,
            n: 0,
            verified: false,
            skip: 0,
            exact_first: true,
        };
        let tried = visit(v, rows);
        if let Ok(n) = tried
            && n > 0
        {
            self.enc.w.release(mark);
            if n != len {
                self.correct_header(start..end, pos.key(), n, Some(fields));
            }
            return LikeLast::Written(Ok(()));
        }
        self.enc.w.rewind(mark);
        match tried {
            // A later row does not fit the list its first row prescribes.
            Err(Halt::NoFit) => LikeLast::NotATable,
            _ => LikeLast::FirstRowDiffers,
        }
    }

    /// Rewrites the array header at `range` with the length `n`.
    #[cold]
    fn correct_header(
        &mut self,
        range: std::ops::Range<usize>,
        key: Option<&str>,
        n: usize,
        fields: Option<&[Field]>,
    ) {
        let mut header = String::new();
        write_header(&mut header, key, n, false, self.delimiter, fields);
        self.out().replace_range(range, &header);
    }

    /// An object at `pos`, in one pass (two when it may be a keyed table).
    pub(super) fn object_in_one_pass<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
    ) -> Res<()> {
        let mark = self.enc.w.mark();
        match self.object_forms(pos, v) {
            Ok(()) => {
                self.enc.w.release(mark);
                Ok(())
            }
            Err(Halt::Repeat | Halt::Fallback) => {
                self.enc.w.rewind(mark);
                self.fallback(pos, v)
            }
            Err(e) => {
                self.enc.w.release(mark);
                Err(e)
            }
        }
    }

    /// Writes `v` as a keyed table if it is one, else as fields.
    fn object_forms<T: Serialize + ?Sized>(&mut self, pos: Pos<'_>, v: &T) -> Res<()> {
        let object_level = pos.level() + 1;
        if may_be_keyed(pos.place(), None)
            && let Some(len) = keyed_candidate(v, object_level, self.max_depth)?
        {
            let mut tried = LikeLast::FirstRowDiffers;
            if let Some(fields) = self
                .scratch
                .keyed
                .get_mut(object_level)
                .and_then(Option::take)
            {
                tried = self.keyed_rows(pos, v, len, &fields, true);
                self.keep_keyed(object_level, fields);
            }
            if let LikeLast::FirstRowDiffers = tried
                && let Shape::Group(fields) = first_value_shape(v, object_level, self.max_depth)?
            {
                tried = self.keyed_rows(pos, v, len, &fields, false);
                self.keep_keyed(object_level, fields);
            }
            if let LikeLast::Written(done) = tried {
                return done;
            }
        }
        self.write_fields(pos, v, true)
    }

    /// Tries `v`, an object of `len` entries at `pos`, as a keyed table under
    /// `fields`; `exact_first` when the list is the last keyed table's, not built
    /// from this object's first entry value (which must then have exactly these
    /// fields, else [`LikeLast::FirstRowDiffers`], whatever stopped it). Nothing is
    /// written unless it answers [`LikeLast::Written`].
    fn keyed_rows<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
        len: usize,
        fields: &[Field],
        exact_first: bool,
    ) -> LikeLast {
        let mark = self.enc.w.mark();
        let rows = self.keyed_table(pos, len, fields, false, exact_first);
        match visit(v, rows) {
            Ok(n) => {
                self.enc.w.release(mark);
                LikeLast::Written(check_len(n, len))
            }
            Err(Halt::NoFit) => {
                self.enc.w.rewind(mark);
                LikeLast::NotATable
            }
            Err(_) if exact_first => {
                self.enc.w.rewind(mark);
                LikeLast::FirstRowDiffers
            }
            Err(e) => {
                self.enc.w.release(mark);
                LikeLast::Written(Err(e))
            }
        }
    }

    /// Keeps `fields` as the field list of the last keyed table at `level`.
    fn keep_keyed(&mut self, level: usize, fields: Vec<Field>) {
        if level >= KEYED_LEVELS {
            return;
        }
        let keyed = &mut self.scratch.keyed;
        if keyed.len() <= level {
            keyed.resize_with(level + 1, || None);
        }
        if let Some(slot) = keyed.get_mut(level) {
            *slot = Some(fields);
        }
    }
}
