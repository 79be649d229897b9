//! Plans (being written).
