//! The fixed action space and the observation tensor of Poison Chess (see
//! docs/encoding.md, section "Poison Chess").
//!
//! Action index `plane * 64 + square`, the square taken from the mover's
//! point of view (flipped for Black):
//!
//! ```text
//! planes   count  what                                   square
//!  0..56     56   queen-like moves (8 dirs x 7 dists),    from
//!                 promotion to Guard and castling (the
//!                 king's two-square step) included
//! 56..64      8   knight jumps                            from
//! 64..73      9   underpromotions, as in chess:           from
//!                 64 + 3 * direction + piece, piece N 0,
//!                 B 1, R 2; direction 0 capture towards
//!                 the a-file, 1 straight, 2 capture
//!                 towards the h-file
//! 73..81      8   poisonings: direction Harpy -> target   Harpy
//! 81..89      8   cures: direction Doctor -> cured piece  Doctor
//! 89          1   a poisoned Doctor cures itself (P4)     Doctor
//!                                            total 90 x 64 = 5760
//! ```
//!
//! Directions are those of [`crate::encoding::board_moves`] (0 N, 1 NE, 2 E,
//! 3 SE, 4 S, 5 SW, 6 W, 7 NW, N being the mover's forward). A Harpy's own
//! square and a direction name its one target, and a Doctor's square and a
//! direction name the one piece it cures, so poisonings and cures need no
//! target square; the self-cure has no direction, hence its own plane.
//!
//! Observation planes (28), from the observer's point of view, named and
//! laid out like chess's ([`crate::encoding::fide_planes`]) where they overlap:
//!
//! ```text
//!  0..8   own_<role>: pawn knight bishop rook king harpy doctor guard
//!  8..16  their_<role>, same order
//! 16      own_countdown     counter / 5 on each of the observer's poisoned pieces
//! 17      their_countdown   the same for the opponent's poisoned pieces
//! 18      own_frozen        1 on the observer's poisoned (frozen, P4) pieces
//! 19      their_frozen      1 on the opponent's
//! 20..24  own_kingside_castling, own_queenside_castling,
//!         their_kingside_castling, their_queenside_castling (constant 0/1)
//! 24      en_passant        1 on the en passant target square
//! 25      no_progress       halfmoves / 100, at most 1 (constant)
//! 26      side_to_move      constant 1 when White is to act, 0 when Black
//! 27      ones              constant 1 (lets convolutions see the edge)
//! ```
//!
//! The frozen planes repeat the countdown planes' support on purpose: "this
//! piece cannot move" is a yes/no fact the rules use everywhere (P4, P6),
//! and a network reads it more easily from a 0/1 plane than from "counter
//! above zero".

use crate::encoding::board_moves::{move_plane, neighbour_direction, DIRECTIONS, MOVE_PLANES};
use crate::encoding::fide_planes::{
    encode_fide_state, encode_pieces, FIDE_STATE_PLANES, FIDE_STATE_PLANE_NAMES,
};
use crate::encoding::{
    relative_move_squares, relative_square, write_bitboard_plane, Encoding, SQUARES,
};
use crate::{Color, Role};

use super::{PoisonAction, PoisonChess, POISON_COUNTDOWN, ROLES};

/// First poisoning plane, after chess's 73 board-move planes (a promotion
/// to Guard rides the queen-like planes like a queen promotion in chess;
/// Rook, Bishop and Knight use chess's underpromotion planes).
pub const POISON_PLANE: usize = MOVE_PLANES;
/// First cure plane (a Doctor curing a neighbour).
pub const CURE_PLANE: usize = POISON_PLANE + DIRECTIONS;
/// The plane of a poisoned Doctor curing itself.
pub const SELF_CURE_PLANE: usize = CURE_PLANE + DIRECTIONS;
/// Planes of the action space.
pub const ACTION_PLANES: usize = SELF_CURE_PLANE + 1;
/// Size of the action space: 90 planes x 64 squares.
pub const NUM_ACTIONS: usize = ACTION_PLANES * SQUARES;

// Planes 0..18: the observer's pieces, one per role of [`ROLES`], then
// the opponent's.
const OWN_COUNTDOWN: usize = 2 * ROLES.len();
const THEIR_COUNTDOWN: usize = OWN_COUNTDOWN + 1;
const OWN_FROZEN: usize = THEIR_COUNTDOWN + 1;
const THEIR_FROZEN: usize = OWN_FROZEN + 1;
/// The FIDE state planes, in chess's order: castling (own kingside, own
/// queenside, opponent kingside, opponent queenside), en passant, no
/// progress, side to move, ones.
const FIDE_STATE: usize = THEIR_FROZEN + 1;
/// Observation planes.
pub const NUM_CHANNELS: usize = FIDE_STATE + FIDE_STATE_PLANES;

impl PoisonChess {
    /// The index of `action` played by `mover` (see the module docs), or
    /// `None` when no position could make it legal (a move off every line,
    /// a promotion to a role Poison Chess does not have, a poisoning or cure
    /// of a square that is not a neighbour).
    pub fn index_for(mover: Color, action: &PoisonAction) -> Option<usize> {
        match *action {
            PoisonAction::Move(m) => {
                let (from, to) = relative_move_squares(&m, mover);
                let underpromotion = m.promotion().filter(|role| *role != Role::Guard);
                Some(move_plane(from, to, underpromotion)? * SQUARES + from)
            }
            PoisonAction::Poison { harpy, target } => {
                let from = relative_square(harpy, mover);
                let direction = neighbour_direction(from, relative_square(target, mover))?;
                Some((POISON_PLANE + direction) * SQUARES + from)
            }
            PoisonAction::Cure { doctor, target } => {
                let from = relative_square(doctor, mover);
                let plane = if doctor == target {
                    SELF_CURE_PLANE
                } else {
                    CURE_PLANE + neighbour_direction(from, relative_square(target, mover))?
                };
                Some(plane * SQUARES + from)
            }
        }
    }
}

impl Encoding for PoisonChess {
    const ENCODING_VERSION: u32 = 1;

    fn board_action_planes(&self) -> usize {
        ACTION_PLANES
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// See the module docs. An action no position could make legal gets
    /// `num_actions()`, an index no legal action has, instead of a panic.
    fn action_index(&self, action: &PoisonAction) -> usize {
        PoisonChess::index_for(self.fide.turn, action).unwrap_or(NUM_ACTIONS)
    }

    fn num_channels(&self) -> usize {
        NUM_CHANNELS
    }

    fn channel_names(&self) -> Vec<String> {
        let mut names = Vec::with_capacity(NUM_CHANNELS);
        for side in ["own", "their"] {
            for role in ROLES {
                names.push(format!("{side}_{}", role.name()));
            }
        }
        for name in [
            "own_countdown",
            "their_countdown",
            "own_frozen",
            "their_frozen",
        ]
        .into_iter()
        .chain(FIDE_STATE_PLANE_NAMES.iter().copied())
        {
            names.push(name.to_string());
        }
        names
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        let out = &mut out[..NUM_CHANNELS * SQUARES];
        let plane = |c: usize| c * SQUARES..(c + 1) * SQUARES;
        encode_pieces(&self.fide.board, &ROLES, observer, out);
        for (side, countdown, frozen) in [
            (observer, OWN_COUNTDOWN, OWN_FROZEN),
            (!observer, THEIR_COUNTDOWN, THEIR_FROZEN),
        ] {
            let poisoned = self.poisoned(side);
            write_bitboard_plane(&mut out[plane(frozen)], poisoned, observer);
            let countdown = &mut out[plane(countdown)];
            countdown.fill(0.0);
            for square in poisoned {
                countdown[relative_square(square, observer)] =
                    f32::from(self.counters[square.index()]) / f32::from(POISON_COUNTDOWN);
            }
        }
        // A castling right is the square of a Harpy that may castle (P11).
        encode_fide_state(&self.fide, observer, &mut out[FIDE_STATE * SQUARES..]);
    }
}
