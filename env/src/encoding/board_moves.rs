//! The AlphaZero board-move planes, shared by every variant whose pieces
//! move on an 8x8 board: 56 queen-like planes (8 directions x 7 distances)
//! and 8 knight planes, a move's index being `plane * 64 + from`, with both
//! squares taken from the mover's point of view (flipped for Black, see
//! [`super::relative_square`]).
//!
//! ```text
//! queen-like planes: plane = direction * 7 + (distance - 1)     0..56
//!   direction:  7 NW   0 N   1 NE        (from the mover's side: N is
//!               6 W     .    2 E          "forward", towards the
//!               5 SW   4 S   3 SE         opponent's back rank)
//! knight planes:  plane = 56 + jump                             56..64
//!   jump (dfile, drank): 0 (+1,+2)  1 (+2,+1)  2 (+2,-1)  3 (+1,-2)
//!                        4 (-1,-2)  5 (-2,-1)  6 (-2,+1)  7 (-1,+2)
//! ```
//!
//! Every step to a neighbouring square is one of the eight directions, so
//! variants reuse [`neighbour_direction`] for actions that name a
//! neighbour (Poison's poisonings and cures), and [`promotion_direction`]
//! for the three ways a pawn reaches the last rank (capture left, straight
//! on, capture right).
//!
//! Everything here is arithmetic on two square indices: no tables to build,
//! no allocation.

use crate::Role;

/// Queen-like planes: 8 directions x 7 distances.
pub const QUEEN_PLANES: usize = 56;
/// Knight planes, after the queen-like ones.
pub const KNIGHT_PLANES: usize = 8;
/// All board-move planes (queen-like, then knight).
pub const BOARD_MOVE_PLANES: usize = QUEEN_PLANES + KNIGHT_PLANES;
/// Directions to a neighbouring square.
pub const DIRECTIONS: usize = 8;
/// The three directions of a pawn stepping onto its last rank.
pub const PROMOTION_DIRECTIONS: usize = 3;
/// First underpromotion plane of the AlphaZero layout, after the
/// queen-like and knight planes: `3 * direction + piece` (knight, bishop,
/// rook) above it.
pub const UNDERPROMOTION_PLANES: usize = BOARD_MOVE_PLANES;
/// The AlphaZero board-move planes: queen-like, knight, underpromotion.
pub const MOVE_PLANES: usize = UNDERPROMOTION_PLANES + 3 * PROMOTION_DIRECTIONS;

/// Direction index by `(sign(dfile) + 1) * 3 + (sign(drank) + 1)`; the
/// centre entry (no displacement) is never read.
const DIRECTION_BY_SIGNS: [usize; 9] = [5, 6, 7, 4, usize::MAX, 0, 3, 2, 1];

/// Knight jump index by `(dfile + 2) * 5 + (drank + 2)`, `None` for the
/// displacements that are not knight jumps.
const KNIGHT_BY_DELTA: [Option<usize>; 25] = {
    let mut table = [None; 25];
    table[3 * 5 + 4] = Some(0); // (+1, +2)
    table[4 * 5 + 3] = Some(1); // (+2, +1)
    table[4 * 5 + 1] = Some(2); // (+2, -1)
    table[3 * 5] = Some(3); // (+1, -2)
    table[5] = Some(4); // (-1, -2)
    table[1] = Some(5); // (-2, -1)
    table[3] = Some(6); // (-2, +1)
    table[5 + 4] = Some(7); // (-1, +2)
    table
};

/// File and rank displacement from `from` to `to` (square indices).
#[inline]
fn delta(from: usize, to: usize) -> (i32, i32) {
    (
        (to % 8) as i32 - (from % 8) as i32,
        (to / 8) as i32 - (from / 8) as i32,
    )
}

/// The plane of a move from `from` to `to` (relative square indices,
/// `0..64`): a queen-like plane when the squares share a line, a knight
/// plane for a knight jump, `None` otherwise (and for `from == to`).
#[inline]
pub fn board_move_plane(from: usize, to: usize) -> Option<usize> {
    // A table lookup: every legal action of every step is indexed for the
    // action mask, and the arithmetic below showed in profiles.
    let plane = BOARD_MOVE_PLANE_TABLE[from * 64 + to];
    (plane != NO_PLANE).then_some(plane as usize)
}

/// Marks "no plane" in [`BOARD_MOVE_PLANE_TABLE`].
const NO_PLANE: u8 = u8::MAX;

/// [`compute_board_move_plane`] for every (from, to), `from * 64 + to`.
const BOARD_MOVE_PLANE_TABLE: [u8; 64 * 64] = {
    let mut table = [NO_PLANE; 64 * 64];
    let mut i = 0;
    while i < table.len() {
        if let Some(plane) = compute_board_move_plane(i / 64, i % 64) {
            table[i] = plane as u8;
        }
        i += 1;
    }
    table
};

/// The definition behind [`board_move_plane`], evaluated at compile time.
const fn compute_board_move_plane(from: usize, to: usize) -> Option<usize> {
    let df = (to % 8) as i32 - (from % 8) as i32;
    let dr = (to / 8) as i32 - (from / 8) as i32;
    if df == 0 && dr == 0 {
        return None;
    }
    let (adf, adr) = (df.abs(), dr.abs());
    if df == 0 || dr == 0 || adf == adr {
        let distance = (if adf > adr { adf } else { adr }) as usize;
        let direction = DIRECTION_BY_SIGNS[((df.signum() + 1) * 3 + dr.signum() + 1) as usize];
        return Some(direction * 7 + distance - 1);
    }
    if adf <= 2 && adr <= 2 {
        return match KNIGHT_BY_DELTA[((df + 2) * 5 + dr + 2) as usize] {
            Some(jump) => Some(QUEEN_PLANES + jump),
            None => None,
        };
    }
    None
}

/// The plane of a move from `from` to `to` (both already from the mover's
/// point of view), with `underpromotion` the promoted role unless it is a
/// queen. `None` for a displacement no plane holds (not a queen or knight
/// move, or an underpromotion that is not a one-step forward move).
#[inline]
pub fn move_plane(from: usize, to: usize, underpromotion: Option<Role>) -> Option<usize> {
    match underpromotion {
        None => board_move_plane(from, to),
        Some(role) => {
            let piece = match role {
                Role::Knight => 0,
                Role::Bishop => 1,
                Role::Rook => 2,
                _ => return None,
            };
            let direction = promotion_direction(from, to)?;
            Some(UNDERPROMOTION_PLANES + 3 * direction + piece)
        }
    }
}

/// The direction (`0..8`, as in the diagram) from `from` to a neighbouring
/// square `to`; `None` when the squares are not neighbours.
#[inline]
pub fn neighbour_direction(from: usize, to: usize) -> Option<usize> {
    let (df, dr) = delta(from, to);
    if (df == 0 && dr == 0) || df.abs() > 1 || dr.abs() > 1 {
        return None;
    }
    Some(DIRECTION_BY_SIGNS[((df + 1) * 3 + dr + 1) as usize])
}

/// The direction of a pawn's step onto its last rank: 0 capturing towards
/// the a-file, 1 straight on, 2 capturing towards the h-file (the squares
/// relative to the mover, so "forward" is up). `None` for anything else.
#[inline]
pub fn promotion_direction(from: usize, to: usize) -> Option<usize> {
    let (df, dr) = delta(from, to);
    (dr == 1 && df.abs() <= 1).then_some((df + 1) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_of_known_moves() {
        // e2e4: north, distance 2.
        assert_eq!(board_move_plane(12, 28), Some(1));
        // a1h8: north-east, distance 7.
        assert_eq!(board_move_plane(0, 63), Some(13));
        // e1g1 (castling as the king's step): east, distance 2.
        assert_eq!(board_move_plane(4, 6), Some(15));
        // h8a1: south-west, distance 7.
        assert_eq!(board_move_plane(63, 0), Some(5 * 7 + 6));
        // g1f3: knight jump (-1, +2).
        assert_eq!(board_move_plane(6, 21), Some(56 + 7));
        // b1c3: knight jump (+1, +2).
        assert_eq!(board_move_plane(1, 18), Some(56));
        assert_eq!(board_move_plane(0, 0), None);
        assert_eq!(board_move_plane(0, 17 + 8), None);
    }

    #[test]
    fn every_reachable_pair_has_a_distinct_plane_per_origin() {
        for from in 0..64 {
            let mut seen = [false; BOARD_MOVE_PLANES];
            for to in 0..64 {
                if let Some(plane) = board_move_plane(from, to) {
                    assert!(!seen[plane], "{from} {to}");
                    seen[plane] = true;
                }
            }
        }
        // A rook in a corner reaches 14 squares, a knight 2, bishop 7.
        let from_a1 = (0..64)
            .filter(|&to| board_move_plane(0, to).is_some())
            .count();
        assert_eq!(from_a1, 21 + 2);
    }

    #[test]
    fn neighbours_and_promotions() {
        assert_eq!(neighbour_direction(27, 35), Some(0));
        assert_eq!(neighbour_direction(27, 36), Some(1));
        assert_eq!(neighbour_direction(27, 26), Some(6));
        assert_eq!(neighbour_direction(27, 18), Some(5));
        assert_eq!(neighbour_direction(27, 27), None);
        assert_eq!(neighbour_direction(7, 8), None);
        assert_eq!(promotion_direction(52, 59), Some(0));
        assert_eq!(promotion_direction(52, 60), Some(1));
        assert_eq!(promotion_direction(52, 61), Some(2));
        assert_eq!(promotion_direction(52, 44), None);
    }
}
