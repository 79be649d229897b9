//! The object frames' steps (spec §8): one field line at a time, with the strict
//! duplicate-key check (§14).

use super::{State, at_error};
use crate::decode::grammar::frames::Frame;
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
        let Some(Frame::Object(f)) = self.stack.last() else {
            return Ok(());
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
                    _ => {
                        let (key, slot) =
                            field_line(self.ctx, &mut self.field_lists, &line, depth)?;
                        let at = At::of(&line);
                        self.set_object_depth(fixed, depth);
                        src.consume()?;
                        return self.object_field(src, key, slot, at);
                    }
                }
            }
            _ => {
                self.close(true);
                return Ok(());
            }
        };
        self.set_object_depth(fixed, depth);
        // A plain key: the line is consumed and read in place (nothing on it can fail
        // before the duplicate check).
        let Some(line) = src.advance()? else {
            return Ok(());
        };
        let rest = trim_after_colon(line.content.get(colon + 1..).unwrap_or(""));
        if rest.is_empty() || rest == "[]" {
            let (key, slot) = plain_field(&line, colon, depth);
            let at = At::of(&line);
            return self.object_field(src, key, slot, at);
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
        self.out.field(&line, key, rest)
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
