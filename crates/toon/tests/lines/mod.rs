//! A document produced line by line and never held whole, for the memory tests: a
//! `Read` over the lines a function writes on demand.

use std::io::{self, Read};

/// Reads the lines `line_of(n, buf)` writes for `n` = 0, 1, 2, … (one call may write
/// several lines) until it returns `false`.
pub struct Lines<F> {
    line_of: F,
    next: usize,
    line: Vec<u8>,
    pos: usize,
    /// Bytes read so far.
    pub produced: usize,
}

impl<F: FnMut(usize, &mut Vec<u8>) -> bool> Lines<F> {
    pub fn new(line_of: F) -> Self {
        Lines {
            line_of,
            next: 0,
            line: Vec::with_capacity(512),
            pos: 0,
            produced: 0,
        }
    }

    fn fill(&mut self) -> bool {
        self.line.clear();
        self.pos = 0;
        let n = self.next;
        self.next += 1;
        (self.line_of)(n, &mut self.line)
    }
}

impl<F: FnMut(usize, &mut Vec<u8>) -> bool> Read for Lines<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.line.len() && !self.fill() {
            return Ok(0);
        }
        let n = buf.len().min(self.line.len() - self.pos);
        buf[..n].copy_from_slice(&self.line[self.pos..self.pos + n]);
        self.pos += n;
        self.produced += n;
        Ok(n)
    }
}
