//! The TOON grammar, implemented once: the line scanner (spec §5.1, §12), tokens and
//! quoting (§7), headers and field lists (§6, §9.3), and the state machine that reads a
//! document from a [`LineInput`](super::input::LineInput) and hands what it reads to a
//! [`Sink`](sink::Sink) (§8–§11, the strict checks of §14).

pub(crate) mod frames;
pub(crate) mod header;
pub(crate) mod machine;
pub(crate) mod primitive;
pub(crate) mod scanner;
pub(crate) mod sink;
pub(crate) mod slot;
pub(crate) mod tokens;
