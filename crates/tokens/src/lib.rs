//! Token counts (being written).
