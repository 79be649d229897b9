//! The object frames' steps (spec §8): one field line at a time, with the strict
//! duplicate-key check (§14).

use super::{State, at_error};
use crate::decode::grammar::frames::{Frame, ObjectFrame};
use crate::decode::grammar::sink::Sink;
use crate::decode::grammar::slot::{
    At, LineKey, Slot, field_line, over_indented, plain_field, raw_range,
};
use crate::decode::grammar::tokens::{PlainKey, plain_key_colon, trim_spaces};
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
        if let Some(Frame::Object(ObjectFrame {
            seen: Some(seen), ..
        })) = self.stack.last_mut()
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
        let ctx = self.ctx;
        let Some(line) = self.peek(src)? else {
            self.close(true);
            return Ok(());
        };
        if line.depth < min_depth {
            self.close(true);
            return Ok(());
        }
        let depth = fixed.unwrap_or(line.depth);
        if let Some(Frame::Object(f)) = self.stack.last_mut() {
            f.depth = Some(depth);
        }
        if line.depth != depth {
            return Err(over_indented(&line, depth));
        }
        // `key: primitive`, the commonest line: key and token straight from the line.
        if let PlainKey::Colon(colon) = plain_key_colon(line.content) {
            let rest = &line.content[colon + 1..];
            // `key: value`: one space, the usual case, before the trim's own check.
            let rest = trim_spaces(rest.strip_prefix(' ').unwrap_or(rest));
            if !rest.is_empty() && rest != "[]" {
                // The line read on is this one: its key and token are found once.
                let key = raw_range(&line, trim_spaces(&line.content[..colon]));
                let rest = raw_range(&line, rest);
                src.consume()?;
                let Some(line) = src.current() else {
                    return Ok(());
                };
                let (key, rest) = (
                    line.raw.get(key).unwrap_or(""),
                    line.raw.get(rest).unwrap_or(""),
                );
                if let Some(Frame::Object(ObjectFrame {
                    seen: Some(seen), ..
                })) = self.stack.last_mut()
                    && !seen.insert(key)
                {
                    return Err(At::of(&line).error(
                        ErrorKind::Syntax,
                        format!("Duplicate sibling key \"{key}\""),
                        line.raw,
                    ));
                }
                self.out.key(key);
                return self.out.token(&line, rest);
            }
            let (key, slot) = plain_field(&line, colon, depth);
            let at = At::of(&line);
            src.consume()?;
            return self.object_field(src, key, slot, at);
        }
        let (key, slot) = field_line(ctx, &mut self.field_lists, &line, depth)?;
        let at = At::of(&line);
        src.consume()?;
        self.object_field(src, key, slot, at)
    }
}
