//! The object frames' steps (spec §8): one field line at a time, with the strict
//! duplicate-key check (§14).

use super::{State, at_error};
use crate::decode::grammar::frames::Frame;
use crate::decode::grammar::scanner::Line;
use crate::decode::grammar::sink::Sink;
use crate::decode::grammar::slot::{At, LineKey, Slot, field_line, over_indented, plain_field};
use crate::decode::grammar::tokens::{PlainKey, plain_key_colon, trim_after_colon, trim_spaces};
use crate::decode::input::LineInput;
use crate::{ErrorKind, Result};

impl<S: Sink> State<S> {
    /// A field of the object on top: duplicate check, key, value.
    pub(super) fn object_field<I: LineInput>(
        &mut self,
        src: &mut I,
        key: LineKey,
        slot: Slot,
        at: At,
    ) -> Result<()> {
        match key {
            LineKey::Raw(range) => {
                let line = src.current();
                let key = line.and_then(|l| l.raw.get(range)).unwrap_or("");
                self.check_key(src, key, at)?;
                self.out.key(key);
            }
            LineKey::Owned(key) => {
                self.check_key(src, &key, at)?;
                self.out.key_owned(key);
            }
        }
        self.enter_slot(src, slot)
    }

    /// The strict duplicate check of a key of the object on top.
    fn check_key<I: LineInput>(&mut self, src: &I, key: &str, at: At) -> Result<()> {
        if self.ctx.strict
            && let Some(seen) = self.keys.top()
            && !seen.insert(key)
        {
            return Err(at_error(
                src,
                at,
                ErrorKind::Syntax,
                format!("Duplicate sibling key \"{key}\""),
            ));
        }
        Ok(())
    }

    pub(super) fn step_object<I: LineInput>(&mut self, src: &mut I) -> Result<()> {
        self.object_step(src, |out, line, key, token| out.field(line, key, token))
            .map(|_| ())
    }

    /// The object step: reads the next line of the object on top. A `key: primitive`
    /// field (the commonest line) goes to `field` with the sink, the line, its key and
    /// its primitive token (`Some` of what `field` gives); every other line is read
    /// into the sink (`None`).
    #[inline(always)]
    pub(super) fn object_step<I: LineInput, R>(
        &mut self,
        src: &mut I,
        field: impl FnOnce(&mut S, &Line<'_>, &str, &str) -> Result<R>,
    ) -> Result<Option<R>> {
        let Some(Frame::Object(f)) = self.stack.last() else {
            return Ok(None);
        };
        let (min_depth, fixed) = (f.min_depth, f.depth);
        // The field line's depth and, for a plain key, its colon, read off the peeked
        // line; a dedent (or the end) closes the object without consuming anything.
        let (depth, colon) = match self.peek(src)? {
            Some(line) if line.depth >= min_depth => {
                let depth = fixed.unwrap_or(line.depth);
                if line.depth != depth {
                    return Err(over_indented(&line, depth));
                }
                match plain_key_colon(line.content) {
                    PlainKey::Colon(colon) => (depth, colon),
                    _ => return self.object_other_field(src, fixed, depth).map(|()| None),
                }
            }
            _ => {
                self.close(true);
                return Ok(None);
            }
        };
        self.set_object_depth(fixed, depth);
        // A plain key: the line is consumed and read in place (nothing on it can fail
        // before the duplicate check).
        let Some(line) = src.advance()? else {
            return Ok(None);
        };
        let rest = trim_after_colon(line.content.get(colon + 1..).unwrap_or(""));
        if rest.is_empty() || rest == "[]" {
            let (key, slot) = plain_field(&line, colon, depth);
            let at = At::of(&line);
            return self.object_field(src, key, slot, at).map(|()| None);
        }
        // `key: primitive`, the commonest line: key and token straight from the line.
        let key = trim_spaces(line.content.get(..colon).unwrap_or(""));
        if self.ctx.strict
            && let Some(seen) = self.keys.top()
            && !seen.insert(key)
        {
            return Err(At::of(&line).error(
                ErrorKind::Syntax,
                format!("Duplicate sibling key \"{key}\""),
                line.raw,
            ));
        }
        field(&mut self.out, &line, key, rest).map(Some)
    }

    /// A field line of the object on top whose key is not plain (quoted, or a header's):
    /// read before it is consumed, so its errors are at it.
    fn object_other_field<I: LineInput>(
        &mut self,
        src: &mut I,
        fixed: Option<usize>,
        depth: usize,
    ) -> Result<()> {
        let Some(line) = self.peek(src)? else {
            return Ok(());
        };
        let (key, slot) = field_line(self.ctx, &mut self.field_lists, &line, depth)?;
        let at = At::of(&line);
        self.set_object_depth(fixed, depth);
        src.consume()?;
        self.object_field(src, key, slot, at)
    }

    /// Notes the depth of the object's field lines when its first one is read.
    #[inline]
    fn set_object_depth(&mut self, fixed: Option<usize>, depth: usize) {
        if fixed.is_none()
            && let Some(Frame::Object(f)) = self.stack.last_mut()
        {
            f.depth = Some(depth);
        }
    }
}
