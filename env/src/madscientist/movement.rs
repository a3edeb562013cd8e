//! How parts move (M2), as attack sets.
//!
//! W and F use the shared tables (one part: a step, two: the rook or bishop
//! magics). Crab and Barc are knight halves; for Black, forward is down the
//! board, and a Black Crab's vectors are exactly a White Barc's (and the
//! other way round). So the tables below hold two *shapes*, the White Crab
//! shape and the White Barc shape, and a part's shape is its type flipped
//! for Black. Their riders use per-square rays: along a ray whose rank step
//! is positive the squares rise in index, so the first blocker is the
//! lowest set bit (the highest on a falling ray), and the ride is a mask.

use crate::attacks;
use crate::{Bitboard, Color, Square};

use super::parts::{Part, Parts};

/// Vectors of the White Crab shape: narrow forward, wide backward. Rising
/// rays first.
const CRAB_SHAPE: [(i32, i32); 4] = [(1, 2), (-1, 2), (2, -1), (-2, -1)];
/// Vectors of the White Barc shape: wide forward, narrow backward.
const BARC_SHAPE: [(i32, i32); 4] = [(2, 1), (-2, 1), (1, -2), (-1, -2)];
const SHAPES: [[(i32, i32); 4]; 2] = [CRAB_SHAPE, BARC_SHAPE];

const fn target(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let file = (sq % 8) as i32 + df;
    let rank = (sq / 8) as i32 + dr;
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        Some((rank * 8 + file) as usize)
    } else {
        None
    }
}

const fn leap_table(vectors: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < vectors.len() {
            if let Some(to) = target(sq, vectors[i].0, vectors[i].1) {
                table[sq] |= 1 << to;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn ray_table(vectors: [(i32, i32); 4]) -> [[u64; 4]; 64] {
    let mut table = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            let mut current = sq;
            while let Some(next) = target(current, vectors[i].0, vectors[i].1) {
                table[sq][i] |= 1 << next;
                current = next;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const WAZIR_LEAPS: [u64; 64] = leap_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);
const FERZ_LEAPS: [u64; 64] = leap_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
const SHAPE_LEAPS: [[u64; 64]; 2] = [leap_table(&CRAB_SHAPE), leap_table(&BARC_SHAPE)];
const SHAPE_RAYS: [[[u64; 4]; 64]; 2] = [ray_table(CRAB_SHAPE), ray_table(BARC_SHAPE)];

/// 0 for the White Crab shape, 1 for the White Barc shape (M2: forward is
/// the owner's forward).
#[inline]
const fn shape(part: Part, color: Color) -> usize {
    (matches!(part, Part::Barc) as usize) ^ (color as usize)
}

/// The (file, rank) vectors of a Crab or Barc owned by `color`: what the
/// tables are built from, exposed so tests can check them against the
/// generic `attacks::leaper_attacks` / `rider_attacks`.
pub fn knight_half_vectors(part: Part, color: Color) -> [(i8, i8); 4] {
    SHAPES[shape(part, color)].map(|(df, dr)| (df as i8, dr as i8))
}

#[inline]
fn shape_ride(shape: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let rays = &SHAPE_RAYS[shape][sq.index()];
    let mut attacks = 0u64;
    for (i, &ray) in rays.iter().enumerate() {
        let blockers = ray & occupied.0;
        attacks |= if blockers == 0 {
            ray
        } else if i < 2 {
            // Rising ray: keep the squares up to the lowest blocker.
            let first = blockers & blockers.wrapping_neg();
            ray & (first << 1).wrapping_sub(1)
        } else {
            // Falling ray: keep the squares down to the highest blocker.
            let first = 1u64 << (63 - blockers.leading_zeros());
            ray & !(first - 1)
        };
    }
    Bitboard(attacks)
}

/// Squares a piece of `parts` owned by `color` on `sq` attacks: the union
/// of what each part type gives it (a step or leap for one, a ride for
/// two). Includes squares of both colours; callers mask their own out.
#[inline]
pub fn composite_attacks(parts: Parts, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let mut result = Bitboard::EMPTY;
    match parts.count(Part::Wazir) {
        0 => {}
        1 => result |= Bitboard(WAZIR_LEAPS[sq.index()]),
        _ => result |= attacks::rook_attacks(sq, occupied),
    }
    match parts.count(Part::Ferz) {
        0 => {}
        1 => result |= Bitboard(FERZ_LEAPS[sq.index()]),
        _ => result |= attacks::bishop_attacks(sq, occupied),
    }
    for part in [Part::Crab, Part::Barc] {
        let shape = shape(part, color);
        match parts.count(part) {
            0 => {}
            1 => result |= Bitboard(SHAPE_LEAPS[shape][sq.index()]),
            _ => result |= shape_ride(shape, sq, occupied),
        }
    }
    result
}

/// The part type of a move's vector, seen by the mover (M3): a pawn captured
/// along it becomes that part. Orthogonal is Wazir, diagonal Ferz; a knight
/// vector is the mover's Crab when it is steep going forward or flat going
/// back, otherwise the mover's Barc.
pub fn vector_part(mover: Color, from: Square, to: Square) -> Part {
    let df = to.file().index() as i32 - from.file().index() as i32;
    let mut dr = to.rank().index() as i32 - from.rank().index() as i32;
    if mover == Color::Black {
        dr = -dr;
    }
    if df == 0 || dr == 0 {
        Part::Wazir
    } else if df.abs() == dr.abs() {
        Part::Ferz
    } else if (dr > 0) == (dr.abs() > df.abs()) {
        Part::Crab
    } else {
        Part::Barc
    }
}
