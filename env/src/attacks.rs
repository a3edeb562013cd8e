//! Attack tables: leapers, sliders by magic bitboards, and the geometry of
//! lines between squares. Built once by `build.rs`; lookups are plain loads.
//!
//! Variants with pieces beyond FIDE (Mad Scientist's leapers and riders on
//! any vector) use [`leaper_attacks`] and [`rider_attacks`], which take the
//! vectors as arguments.

use crate::{Bitboard, Color, Square};

/// A fancy magic: `attacks = SLIDER_ATTACKS[offset + ((occ & mask) * factor) >> shift]`.
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/attack_tables.rs"));

#[inline]
fn magic_lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & magic.mask).wrapping_mul(magic.factor) >> magic.shift) as usize;
    // The build script sized the table so that every index is in range.
    Bitboard(SLIDER_ATTACKS[magic.offset + index])
}

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT_ATTACKS[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING_ATTACKS[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (diagonally forward).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(match color {
        Color::White => WHITE_PAWN_ATTACKS[sq.index()],
        Color::Black => BLACK_PAWN_ATTACKS[sq.index()],
    })
}

/// Squares a pawn of `color` on `from` can push to: one step forward if
/// empty, and a second from its own second rank if both are empty. Every
/// variant with FIDE pawns uses this (drops onto the second rank included).
#[inline]
pub fn pawn_pushes(color: Color, from: Square, occupied: Bitboard) -> Bitboard {
    let empty = !occupied;
    let single = Bitboard::from_square(from).shift_forward(color) & empty;
    let third = Bitboard::relative_rank(color, crate::Rank::THIRD);
    single | ((single & third).shift_forward(color) & empty)
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line (rank, file or diagonal) through `a` and `b`, both
/// included; empty when they are not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// True when `c` lies on the line through `a` and `b`.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Squares reached by one jump along each (file, rank) vector.
pub fn leaper_attacks(sq: Square, vectors: &[(i8, i8)]) -> Bitboard {
    vectors
        .iter()
        .filter_map(|&(df, dr)| sq.offset(df as i32, dr as i32))
        .collect()
}

/// Squares reached by riding along each vector until the edge or the first
/// occupied square (included). Works for any vector, e.g. (1, 2).
pub fn rider_attacks(sq: Square, vectors: &[(i8, i8)], occupied: Bitboard) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for &(df, dr) in vectors {
        let mut current = sq;
        while let Some(next) = current.offset(df as i32, dr as i32) {
            attacks.add(next);
            if occupied.contains(next) {
                break;
            }
            current = next;
        }
    }
    attacks
}

/// The rook vectors (Wazir directions).
pub const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The bishop vectors (Ferz directions).
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap deterministic generator for test occupancies.
    fn occupancies() -> impl Iterator<Item = Bitboard> {
        let mut state = 0x1234_5678_9abc_def0u64;
        (0..2000).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Bitboard(state & state.rotate_left(17))
        })
    }

    #[test]
    fn magic_sliders_match_ray_walking() {
        for occ in occupancies() {
            for sq in Square::all() {
                assert_eq!(
                    rook_attacks(sq, occ),
                    rider_attacks(sq, &ORTHOGONAL, occ),
                    "rook {sq}"
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    rider_attacks(sq, &DIAGONAL, occ),
                    "bishop {sq}"
                );
            }
        }
    }

    #[test]
    fn leaper_tables_match_vectors() {
        // A knight's jumps by definition, not a copy of the build script's
        // list: one square along one axis and two along the other.
        let knight: Vec<(i8, i8)> = (-2..=2)
            .flat_map(|df| (-2..=2).map(move |dr| (df, dr)))
            .filter(|&(df, dr): &(i8, i8)| (df * dr).abs() == 2)
            .collect();
        assert_eq!(knight.len(), 8);
        for sq in Square::all() {
            assert_eq!(knight_attacks(sq), leaper_attacks(sq, &knight));
        }
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks("e4".parse().unwrap()).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, "e4".parse().unwrap()),
            Bitboard::from_square("d5".parse().unwrap())
                | Bitboard::from_square("f5".parse().unwrap())
        );
        assert_eq!(
            pawn_attacks(Color::Black, "a7".parse().unwrap()),
            Bitboard::from_square("b6".parse().unwrap())
        );
    }

    #[test]
    fn between_and_line() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from_square(sq("b2")) | sq("c3")
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("c3")).count(), 8);
        assert_eq!(
            line(sq("e1"), sq("e5")),
            Bitboard::from_file(crate::File::E)
        );
        assert!(aligned(sq("a1"), sq("h8"), sq("d4")));
        assert!(!aligned(sq("a1"), sq("h8"), sq("d5")));
    }
}
