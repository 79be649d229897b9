//! The iterators of a [`Map`](super::Map): entries in document order.

use super::{Key, Value};

/// The entries of a [`Map`](super::Map) in order, borrowed.
#[derive(Clone)]
pub struct Iter<'a>(pub(super) std::slice::Iter<'a, (Key, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<(&'a Key, &'a Value)> {
        self.0.next().map(|(k, v)| (k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// The entries of a [`Map`](super::Map) in order, with values to change.
pub struct IterMut<'a>(pub(super) std::slice::IterMut<'a, (Key, Value)>);

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Key, &'a mut Value);

    fn next(&mut self) -> Option<(&'a Key, &'a mut Value)> {
        self.0.next().map(|(k, v)| (&*k, v))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

/// The entries of a [`Map`](super::Map) in order, owned.
pub struct IntoIter(pub(super) std::vec::IntoIter<(Key, Value)>);

impl Iterator for IntoIter {
    type Item = (Key, Value);

    #[inline]
    fn next(&mut self) -> Option<(Key, Value)> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<(Key, Value)> {
        self.0.next_back()
    }
}

impl ExactSizeIterator for IntoIter {}
