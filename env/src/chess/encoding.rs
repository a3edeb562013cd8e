//! FIDE chess as a learning environment sees it: the AlphaZero 8x8x73 action
//! space and a `[20, 8, 8]` observation. Both are made of neutral pieces
//! that every variant on a FIDE-like board (Poison, Hostage, Traitor)
//! shares: the move planes from [`crate::encoding::board_moves`], the
//! piece and state planes from [`crate::encoding::fide_planes`]
//! (re-exported here).
//!
//! # Action space: 73 planes x 64 from-squares = 4672
//!
//! `index = plane * 64 + from`, with `from` (and the displacement) taken
//! from the mover's point of view (ranks flipped for Black, files kept), so
//! "north" is always the mover's forward.
//!
//! ```text
//! plane     move                              displacement (file, rank)
//! 0..7      queen-like N,  distance 1..7      ( 0, +d)
//! 7..14     queen-like NE, distance 1..7      (+d, +d)
//! 14..21    queen-like E                      (+d,  0)
//! 21..28    queen-like SE                     (+d, -d)
//! 28..35    queen-like S                      ( 0, -d)
//! 35..42    queen-like SW                     (-d, -d)
//! 42..49    queen-like W                      (-d,  0)
//! 49..56    queen-like NW                     (-d, +d)
//! 56..64    knight (+1,+2) (+2,+1) (+2,-1) (+1,-2) (-1,-2) (-2,-1) (-2,+1) (-1,+2)
//! 64..73    underpromotion: 64 + 3 * direction + piece,
//!           direction 0 = capture left (-1,+1), 1 = push (0,+1),
//!           2 = capture right (+1,+1); piece 0 = knight, 1 = bishop, 2 = rook
//! ```
//!
//! A promotion to a queen uses its queen-like plane (distance 1); castling is
//! the king's two-square move (E or W, distance 2); en passant is the pawn's
//! diagonal step.
//!
//! # Observation: 20 planes
//!
//! ```text
//! 0..6    own pawn, knight, bishop, rook, queen, king
//! 6..12   opponent's pawn, knight, bishop, rook, queen, king
//! 12..16  castling rights: own king-side, own queen-side, their king-side,
//!         their queen-side (constant planes 0/1)
//! 16      en passant: the square a pawn may capture onto (as in FEN)
//! 17      no-progress counter: halfmoves / 100 (constant plane)
//! 18      side to move: 1 when White is to act, else 0 (constant plane)
//! 19      ones: a constant plane of 1.0 (lets convolutions see the edge)
//! ```
//!
//! Repetition counts are history, not position: the batched environment
//! ([`crate::vecenv`]) appends them. The board is seen from the observer's
//! side (flipped for Black).

pub use crate::encoding::board_moves::{move_plane, MOVE_PLANES, UNDERPROMOTION_PLANES};
/// Observation channel names, in order: exactly the FIDE planes.
pub use crate::encoding::fide_planes::FIDE_CHANNEL_NAMES as CHANNEL_NAMES;
pub use crate::encoding::fide_planes::{castling_sides, encode_fide_pieces, FIDE_PLANE_ROLES};

use crate::encoding::fide_planes::encode_fide_state;
use crate::encoding::{relative_move_squares, Encoding, SQUARES};
use crate::{Chess, Color, Move, Role};

/// Size of the chess action space.
pub const NUM_ACTIONS: usize = MOVE_PLANES * SQUARES;

/// Number of observation planes.
pub const NUM_CHANNELS: usize = CHANNEL_NAMES.len();

/// The flat index `plane * 64 + from` of a board move played by `mover`.
/// Moves that no plane describes (never the case for legal FIDE moves) map
/// to plane 0 of their from-square, so the function never panics.
#[inline]
pub fn board_move_index(m: &Move, mover: Color) -> usize {
    let (from, to) = relative_move_squares(m, mover);
    let underpromotion = m.promotion().filter(|role| *role != Role::Queen);
    let plane = move_plane(from, to, underpromotion);
    debug_assert!(plane.is_some(), "no plane for {m} by {mover}");
    plane.unwrap_or(0) * SQUARES + from
}

impl Encoding for Chess {
    const ENCODING_VERSION: u32 = 1;

    fn board_action_planes(&self) -> usize {
        MOVE_PLANES
    }

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    #[inline]
    fn action_index(&self, action: &Move) -> usize {
        board_move_index(action, self.turn())
    }

    fn num_channels(&self) -> usize {
        NUM_CHANNELS
    }

    fn channel_names(&self) -> Vec<String> {
        CHANNEL_NAMES.map(String::from).into()
    }

    fn encode(&self, observer: Color, out: &mut [f32]) {
        let out = &mut out[..NUM_CHANNELS * SQUARES];
        encode_fide_pieces(self.board(), observer, out);
        encode_fide_state(&self.fide, observer, &mut out[12 * SQUARES..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    fn index_of(fen: &str, uci: &str) -> usize {
        let chess = Chess::from_fen(fen).unwrap();
        let m = chess.parse_action(uci).unwrap();
        chess.action_index(&m)
    }

    #[test]
    fn indices_of_known_moves() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        // e2e4: north, distance 2 -> plane 1, from e2 = 12.
        assert_eq!(index_of(start, "e2e4"), 64 + 12);
        // g1f3: knight (-1, +2) -> plane 63, from g1 = 6.
        assert_eq!(index_of(start, "g1f3"), 63 * 64 + 6);
        // Black's e7e5 is north distance 2 from e2 after the flip.
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(index_of(black, "e7e5"), 64 + 12);
        // Black's b8c6: (+1, -2) from b8 in board terms is (+1, +2) flipped.
        assert_eq!(index_of(black, "b8c6"), 56 * 64 + 1);
    }

    #[test]
    fn castling_promotions_and_en_passant() {
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(index_of(castle, "e1g1"), (14 + 1) * 64 + 4);
        assert_eq!(index_of(castle, "e1c1"), (42 + 1) * 64 + 4);
        let black_castle = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
        assert_eq!(index_of(black_castle, "e8g8"), (14 + 1) * 64 + 4);
        let promo = "1n5k/P7/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(index_of(promo, "a7a8q"), 48);
        assert_eq!(index_of(promo, "a7a8n"), (64 + 3) * 64 + 48);
        assert_eq!(index_of(promo, "a7b8r"), (64 + 6 + 2) * 64 + 48);
        assert_eq!(index_of(promo, "a7b8b"), (64 + 6 + 1) * 64 + 48);
        assert_eq!(index_of(promo, "a7b8q"), 7 * 64 + 48);
        let black_promo = "k7/8/8/8/8/8/p7/1N5K b - - 0 1";
        // a2xb1 for Black is a7xb8 seen from Black: capture right.
        assert_eq!(index_of(black_promo, "a2b1n"), (64 + 6) * 64 + 48);
        let ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(index_of(ep, "e5d6"), (49) * 64 + 36);
    }

    #[test]
    fn start_position_observation() {
        let chess = Chess::new();
        let mut out = vec![f32::NAN; NUM_CHANNELS * SQUARES];
        chess.encode(Color::White, &mut out);
        let plane = |c: usize| &out[c * SQUARES..(c + 1) * SQUARES];
        assert_eq!(plane(0).iter().sum::<f32>(), 8.0);
        assert_eq!(plane(0)[8..16], [1.0; 8]);
        assert_eq!(plane(5)[4], 1.0);
        assert_eq!(plane(11)[60], 1.0);
        for c in 12..16 {
            assert_eq!(plane(c), &[1.0; 64][..]);
        }
        assert_eq!(plane(16), &[0.0; 64][..]);
        assert_eq!(plane(17), &[0.0; 64][..]);
        assert_eq!(plane(18), &[1.0; 64][..]);
        assert_eq!(plane(19), &[1.0; 64][..]);
        // Black sees its own pieces at the bottom.
        chess.encode(Color::Black, &mut out);
        let plane = |c: usize| &out[c * SQUARES..(c + 1) * SQUARES];
        assert_eq!(plane(0)[8..16], [1.0; 8]);
        assert_eq!(plane(5)[4], 1.0);
        assert_eq!(plane(6)[48..56], [1.0; 8]);
    }

    #[test]
    fn rights_ep_and_counter_planes() {
        let chess = Chess::from_fen("r3k3/8/8/3pP3/8/8/8/4K2R w Kq d6 37 40").unwrap();
        let mut out = vec![f32::NAN; NUM_CHANNELS * SQUARES];
        chess.encode(Color::Black, &mut out);
        let value = |c: usize, sq: usize| out[c * SQUARES + sq];
        assert_eq!(
            [value(12, 0), value(13, 0), value(14, 0), value(15, 0)],
            [0.0, 1.0, 1.0, 0.0]
        );
        // d6 seen from Black is d3 = 19.
        assert_eq!(value(16, 19), 1.0);
        assert_eq!(out[16 * 64..17 * 64].iter().sum::<f32>(), 1.0);
        assert_eq!(value(17, 63), 0.37);
        assert_eq!(value(18, 0), 1.0);
    }
}
