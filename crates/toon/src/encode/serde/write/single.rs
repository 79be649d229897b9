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
use super::super::analyze::{Field, Shape, array_head, count, first_value_shape, keyed_candidate};
use super::super::keys::KeySet;
use super::lines::Items;
use super::table::{KeyedRows, Rows};
use super::{Out, Pos, check_len};
use crate::encode::form::{ArrayForm, array_form, may_be_keyed};
use crate::encode::line::syntax::write_header;

impl Out<'_> {
    /// An array that is not one inline line, at `pos`, in one pass.
    pub(super) fn array_in_one_pass<T: Serialize + ?Sized>(
        &mut self,
        pos: Pos<'_>,
        v: &T,
    ) -> Res<()> {
        let array_level = pos.level() + 1;
        let child_depth = pos.child_depth();
        // An array that is not inline holds a non-primitive, so it is not empty.
        let may_be_table = array_form(pos.place(), 1, false) != ArrayForm::List;
        let head = match array_head(v, array_level, self.max_depth, may_be_table, self.delimiter) {
            Ok(head) => head,
            Err(Halt::Fallback) => return self.fallback(pos, v),
            Err(e) => return Err(e),
        };
        // The header is written with the length hint; a hint that was wrong is
        // corrected once the elements are counted (the text is all in memory).
        let len = match head.hint {
            Some(n) => n,
            None => match count(v) {
                Ok(n) => n,
                Err(Halt::Fallback) => return self.fallback(pos, v),
                Err(e) => return Err(e),
            },
        };
        if let Some(Shape::Group(fields)) = &head.first {
            let mark = self.enc.w.mark();
            self.start_line(pos);
            let start = self.out().len();
            self.header(pos.key(), len, false, Some(fields));
            let end = self.out().len();
            // The first row's cells came with its template.
            self.enc.w.line(child_depth);
            self.out().push_str(&head.first_cells);
            let rows = Rows {
                out: self,
                fields,
                row_depth: child_depth,
                level: array_level,
                n: 0,
                verified: false,
                skip: 1,
            };
            match visit(v, rows) {
                Ok(n) => {
                    self.enc.w.release(mark);
                    if n != len {
                        self.correct_header(start..end, pos.key(), n, Some(fields));
                    }
                    return Ok(());
                }
                Err(Halt::NoFit) => self.enc.w.rewind(mark),
                Err(e) => {
                    self.enc.w.release(mark);
                    return Err(e);
                }
            }
        }
        self.start_line(pos);
        let start = self.out().len();
        self.header(pos.key(), len, false, None);
        let end = self.out().len();
        let items = Items {
            out: self,
            depth: child_depth,
            level: array_level,
            n: 0,
        };
        let n = visit(v, items)?;
        if n != len {
            self.correct_header(start..end, pos.key(), n, None);
        }
        Ok(())
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
            && let Shape::Group(fields) = first_value_shape(v, object_level, self.max_depth)?
        {
            let mark = self.enc.w.mark();
            self.start_line(pos);
            self.header(pos.key(), len, true, Some(&fields));
            let rows = KeyedRows {
                out: self,
                fields: &fields,
                row_depth: pos.child_depth(),
                level: object_level,
                key: String::new(),
                n: 0,
                verified: false,
                keys: Some(KeySet::default()),
            };
            match visit(v, rows) {
                Ok(n) => {
                    self.enc.w.release(mark);
                    return check_len(n, len);
                }
                Err(Halt::NoFit) => self.enc.w.rewind(mark),
                Err(e) => {
                    self.enc.w.release(mark);
                    return Err(e);
                }
            }
        }
        self.write_fields(pos, v, true)
    }
}
