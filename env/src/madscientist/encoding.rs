//! The learning environment's view of Mad Scientist Chess: a fixed action
//! space for moves of any part-piece (leapers and riders on any vector),
//! promotions, the Scientist's powers and discards, and an observation of
//! part counts per square and hands.
//!
//! # Action space
//!
//! Flat indices from the acting player's (`turn()`'s) point of view: for
//! Black every square is flipped vertically (a1 <-> a8), so "up" is always
//! the actor's forward and a Black Crab looks like a White one. `rel(sq)`
//! is that flipped square index, `part` is W 0, F 1, C 2, B 3.
//!
//! ```text
//!  index            section      meaning
//!  0 ..... 4095     board moves  rel(to) * 64 + rel(from): every vector of every
//!                                leaper or rider, castling (the Scientist's two-square
//!                                move) and en passant
//!  4096 .. 4863     promotions   4096 + ((file delta + 1) * 4 + [Q, R, B, N]) * 64 + rel(from)
//!  4864 .. 5119     animate      4864 + part * 64 + rel(to)
//!  5120 .. 5375     attach       5120 + part * 64 + rel(target)
//!  5376 .. 5631     remove       5376 + part * 64 + rel(from)
//!  5632 .. 5635     discard      5632 + part
//! ```
//!
//! Every pawn move reaching the last rank is a promotion, so it never
//! needs the board-move section; each section is keyed by everything that
//! tells its legal actions apart, which makes the index a bijection on
//! the legal actions of any position.
//!
//! # Observation
//!
//! `[29, 8, 8]` from the observer's side (flipped for Black):
//!
//! | planes | content |
//! | --- | --- |
//! | 0-3 | own pieces' W, F, C, B counts / 2 on each square |
//! | 4-7 | opponent pieces' W, F, C, B counts / 2 |
//! | 8, 9 | own pawns, opponent pawns |
//! | 10, 11 | own Scientist, opponent Scientist |
//! | 12-15 | own hand W, F, C, B / 16 (constant) |
//! | 16-19 | opponent hand W, F, C, B / 16 (constant) |
//! | 20 | discards the player to act still owes / 8 (constant) |
//! | 21 | en passant square |
//! | 22-25 | castling: own king side, own queen side, opponent king side, opponent queen side (constant) |
//! | 26 | no-progress: halfmove clock / 100 (constant) |
//! | 27 | observer is to act (constant) |
//! | 28 | observer is Black (constant) |

use super::action::{MadAction, MoveKind, Promotion};
use super::parts::{Part, HAND_LIMIT, HAND_MAX_DURING_TURN};
use super::MadScientist;
use crate::encoding::fide_planes::{castling_sides, flag, no_progress, write_en_passant_plane};
use crate::encoding::{
    board_moves, relative_square, write_bitboard_plane, write_constant_plane, Encoding, SQUARES,
};
use crate::{Bitboard, Color, Square};

/// First index of the promotion section.
pub const PROMOTION_OFFSET: usize = SQUARES * SQUARES;
/// First index of the animate section.
pub const ANIMATE_OFFSET: usize = PROMOTION_OFFSET + 3 * 4 * SQUARES;
/// First index of the attach section.
pub const ATTACH_OFFSET: usize = ANIMATE_OFFSET + 4 * SQUARES;
/// First index of the remove section.
pub const REMOVE_OFFSET: usize = ATTACH_OFFSET + 4 * SQUARES;
/// First index of the discard section.
pub const DISCARD_OFFSET: usize = REMOVE_OFFSET + 4 * SQUARES;
/// The size of the action space.
pub const NUM_ACTIONS: usize = DISCARD_OFFSET + 4;
/// Observation planes.
pub const NUM_CHANNELS: usize = 29;

const CHANNEL_NAMES: [&str; NUM_CHANNELS] = [
    "own_wazir",
    "own_ferz",
    "own_crab",
    "own_barc",
    "opp_wazir",
    "opp_ferz",
    "opp_crab",
    "opp_barc",
    "own_pawn",
    "opp_pawn",
    "own_scientist",
    "opp_scientist",
    "own_hand_wazir",
    "own_hand_ferz",
    "own_hand_crab",
    "own_hand_barc",
    "opp_hand_wazir",
    "opp_hand_ferz",
    "opp_hand_crab",
    "opp_hand_barc",
    "pending_discards",
    "en_passant",
    "own_castle_king_side",
    "own_castle_queen_side",
    "opp_castle_king_side",
    "opp_castle_queen_side",
    "no_progress",
    "observer_to_act",
    "observer_is_black",
];

const fn promotion_slot(promotion: Promotion) -> usize {
    match promotion {
        Promotion::Queen => 0,
        Promotion::Rook => 1,
        Promotion::Bishop => 2,
        Promotion::Knight => 3,
    }
}

/// Index of `action` taken by `player` (see the module docs).
pub fn action_index_for(action: &MadAction, player: Color) -> usize {
    let rel = |sq: Square| relative_square(sq, player);
    match *action {
        MadAction::Move(m) => match m.kind {
            MoveKind::Promotion(promotion) => {
                let direction = board_moves::promotion_direction(rel(m.from), rel(m.to));
                let plane = direction.unwrap_or(1) * 4 + promotion_slot(promotion);
                PROMOTION_OFFSET + plane * SQUARES + rel(m.from)
            }
            MoveKind::Normal | MoveKind::EnPassant | MoveKind::Castle => {
                rel(m.to) * SQUARES + rel(m.from)
            }
        },
        MadAction::Animate { part, to } => ANIMATE_OFFSET + part.index() * SQUARES + rel(to),
        MadAction::Attach { part, target } => ATTACH_OFFSET + part.index() * SQUARES + rel(target),
        MadAction::Remove { part, from } => REMOVE_OFFSET + part.index() * SQUARES + rel(from),
        MadAction::Discard { part } => DISCARD_OFFSET + part.index(),
    }
}

impl Encoding for MadScientist {
    /// Version 2: hand counts / 16 (were / 8, which exceeded 1 during
    /// discards).
    const ENCODING_VERSION: u32 = 2;

    fn board_action_planes(&self) -> usize {
        DISCARD_OFFSET / SQUARES
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn action_index(&self, action: &MadAction) -> usize {
        action_index_for(action, self.turn())
    }

    fn num_channels(&self) -> usize {
        NUM_CHANNELS
    }

    fn channel_names(&self) -> Vec<String> {
        CHANNEL_NAMES.map(String::from).into()
    }

    /// Every fact here is public: both players see the same state, each
    /// from its own side.
    fn encode(&self, observer: Color, out: &mut [f32]) {
        let needed = NUM_CHANNELS * SQUARES;
        assert!(
            out.len() >= needed,
            "madscientist observation needs {needed} floats, got {}",
            out.len()
        );
        let out = &mut out[..needed];
        let me = observer;
        let them = !me;
        let board = self.board();
        // Part planes: zero first, then one pass over the composite pieces.
        out[..8 * SQUARES].fill(0.0);
        for sq in board.composites() {
            let side = if board.by_color(me).contains(sq) {
                0
            } else {
                4
            };
            let parts = board.parts_at(sq);
            let square = relative_square(sq, me);
            for part in Part::ALL {
                let count = parts.count(part);
                if count > 0 {
                    out[(side + part.index()) * SQUARES + square] = f32::from(count) / 2.0;
                }
            }
        }
        let mut planes = out[8 * SQUARES..].chunks_exact_mut(SQUARES);
        let mut bits =
            |set: Bitboard| write_bitboard_plane(planes.next().expect("layout counted"), set, me);
        bits(board.pawns() & board.by_color(me));
        bits(board.pawns() & board.by_color(them));
        bits(board.scientists() & board.by_color(me));
        bits(board.scientists() & board.by_color(them));
        let mut constant =
            |value: f32| write_constant_plane(planes.next().expect("layout counted"), value);
        for colour in [me, them] {
            let hand = self.hand(colour);
            for part in Part::ALL {
                // A hand holds up to sixteen parts in the middle of a turn
                // (before its discards), so sixteen keeps the plane in 0..1.
                constant(f32::from(hand.count(part)) / f32::from(HAND_MAX_DURING_TURN));
            }
        }
        let owed = self.hand(self.turn()).total().saturating_sub(HAND_LIMIT);
        constant(f32::from(owed) / f32::from(HAND_LIMIT));
        write_en_passant_plane(planes.next().expect("layout counted"), self.ep_square(), me);
        let mut constant =
            |value: f32| write_constant_plane(planes.next().expect("layout counted"), value);
        for colour in [me, them] {
            // Rights are corners only (a king-side rook on h1/h8).
            let (king_side, queen_side) = castling_sides(self.castling_rights(), colour);
            constant(flag(king_side));
            constant(flag(queen_side));
        }
        constant(no_progress(self.halfmoves()));
        constant(flag(self.turn() == me));
        constant(flag(me == Color::Black));
        debug_assert!(planes.next().is_none(), "every channel written");
    }
}
