//! What a learning environment sees: a fixed action space with a legal-action
//! mask, and an observation tensor `[C, 8, 8]` from one player's point of
//! view. Each variant implements [`Encoding`] in its own module
//! (`<variant>/encoding.rs`); the batched environment ([`crate::vecenv`]) is
//! written once against this trait. Layouts are documented in
//! docs/encoding.md and in each implementation.
//!
//! Conventions every implementation follows:
//! * **Point of view.** Observations and action indices are relative to a
//!   player: for Black the board is flipped vertically (a1 <-> a8), so "up"
//!   is always the player's forward and square index `8 * rank + file` is
//!   taken after the flip. Files are never mirrored.
//! * **Action index.** `action_index(a)` is a bijection from the legal actions
//!   of a position onto distinct indices in `0..num_actions()`, computed from
//!   the acting player's (`turn()`'s) point of view. Index layouts are flat:
//!   `plane * 64 + from_square` for board-move planes (AlphaZero style), then
//!   further sections (drops, poisonings, announcements, selections, ...)
//!   appended after them, each documented with a diagram.
//! * **Observation.** `encode(observer, out)` writes every one of the
//!   `num_channels() * 64` floats of `out` (it does not rely on `out` being
//!   zeroed): plane `c` is `out[c * 64..(c + 1) * 64]`, square `8 * rank + file`
//!   from the observer's point of view. Scalar features (counters, budgets,
//!   hand counts) are constant planes, normalised to about `0..1`.
//!   `channel_names()` has exactly `num_channels()` entries.
//! * **Hidden information.** `encode` must read only what `observer` may know
//!   (Traitor: the observer's view, never the opponent's secret choices).
//! * **No allocation.** `action_index` and `encode` must not allocate: they
//!   run once per legal action and once per step in the hot loop.

mod actions;
pub mod board_moves;
pub mod fide_planes;
mod spec;
mod stack;

pub use actions::ActionSet;
pub use spec::{variant_summary, EncodingMismatch, EncodingSpec};
pub use stack::{encode_stacked, stacked_channel_names, stacked_len, REPETITION_CHANNELS};

use crate::{Color, Position};

/// Squares per plane.
pub const SQUARES: usize = 64;

/// The fixed action space and the observation tensor of a variant.
pub trait Encoding: Position {
    /// The version of this variant's observation and action layout: bumped
    /// with any change to either, and recorded in every [`EncodingSpec`],
    /// game record and checkpoint, so that a mismatch is an error.
    const ENCODING_VERSION: u32;

    /// Size of the action space. Fixed by the variant and its rule settings,
    /// the same in every position of a game.
    fn num_actions(&self) -> usize;

    /// The index of a legal `action` of this position (see the module docs).
    fn action_index(&self, action: &Self::Action) -> usize;

    /// Leading 64-index blocks of the action space indexed by square
    /// (`plane * 64 + square`, from the actor's side): a network computes
    /// them as convolution planes; later indices come from a flat head.
    fn board_action_planes(&self) -> usize;

    /// Number of observation planes (without history stacking).
    fn num_channels(&self) -> usize;

    /// One name per observation plane, in order (`"own_pawn"`, ...).
    fn channel_names(&self) -> Vec<String>;

    /// Writes the observation of this position as seen by `observer` into
    /// `out` (`num_channels() * 64` floats).
    fn encode(&self, observer: Color, out: &mut [f32]);
}

/// Flips a square to `player`'s point of view (identity for White).
#[inline]
pub fn relative_square(square: crate::Square, player: Color) -> usize {
    square.relative_to(player).index()
}

/// A board move's from and to squares from `player`'s point of view: what
/// every move-plane index is computed from.
#[inline]
pub fn relative_move_squares(m: &crate::Move, player: Color) -> (usize, usize) {
    (
        relative_square(m.from(), player),
        relative_square(m.to(), player),
    )
}

/// Writes a bitboard into a plane of 64 floats, from `player`'s point of
/// view: 1.0 on member squares, 0.0 elsewhere.
#[inline]
pub fn write_bitboard_plane(plane: &mut [f32], bitboard: crate::Bitboard, player: Color) {
    plane[..SQUARES].fill(0.0);
    for square in bitboard {
        plane[relative_square(square, player)] = 1.0;
    }
}

/// Fills a plane with one value (scalar features).
#[inline]
pub fn write_constant_plane(plane: &mut [f32], value: f32) {
    plane[..SQUARES].fill(value);
}
