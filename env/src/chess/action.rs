//! The action of FIDE chess is one board move: the shared [`Move`]
//! (normal, en passant, castle) itself, with no wrapper, since a chess step
//! is never anything else. Its long form is UCI (`Move`'s `Display`), its
//! standard notation SAN (notation.rs), its index the AlphaZero move
//! planes (encoding.rs). What this file adds is the bound that lets
//! generation fill a list without allocating.

use arrayvec::ArrayVec;

use crate::Move;

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_LEGAL_MOVES: usize = 256;

/// A fixed-capacity move list: generation never allocates.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;
