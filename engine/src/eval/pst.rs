//! Piece-square tables, built from a few rules rather than copied from
//! any engine: centralisation by ring (0 for the four centre squares .. 3
//! for the edge), pawn advance, the centre files early, rooks on the
//! seventh, and the King sheltered on its first rank's wings in the
//! middlegame and central in the endgame. docs/engine.md lists the
//! numbers.

use heterodox_env::{Color, Square};

use super::taper::{s, Shape, Taper};

/// Ring of a square: 0 for the four centre squares .. 3 for the edge.
pub(crate) const fn ring(sq: usize) -> i32 {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    let df = if file > 3 { file - 4 } else { 3 - file };
    let dr = if rank > 3 { rank - 4 } else { 3 - rank };
    if df > dr {
        df
    } else {
        dr
    }
}

const fn pst_entry(shape: usize, sq: usize) -> Taper {
    let file = sq % 8;
    let rank = sq / 8;
    let ring = ring(sq) as usize;
    match shape {
        // Pawns: advance (more in the endgame), the centre files early,
        // and a nudge to move the d- and e-pawns.
        0 => {
            const ADVANCE_MG: [i32; 8] = [0, 0, 3, 8, 16, 30, 50, 0];
            const ADVANCE_EG: [i32; 8] = [0, 0, 6, 14, 26, 44, 70, 0];
            let centre = match (file, rank) {
                (3 | 4, 3) => 14,
                (3 | 4, 2) | (2 | 5, 3) => 6,
                (3 | 4, 1) => -8,
                _ => 0,
            };
            s(ADVANCE_MG[rank] + centre, ADVANCE_EG[rank])
        }
        // Knights: strongly central, never on the rim.
        1 => {
            const MG: [i32; 4] = [22, 12, -4, -28];
            const EG: [i32; 4] = [14, 8, -4, -22];
            let home = if rank == 0 { -8 } else { 0 };
            s(MG[ring] + home, EG[ring])
        }
        // Bishops: mildly central, off the back rank.
        2 => {
            const MG: [i32; 4] = [12, 10, 2, -10];
            const EG: [i32; 4] = [8, 6, 0, -8];
            let home = if rank == 0 { -8 } else { 0 };
            s(MG[ring] + home, EG[ring])
        }
        // Rooks: the seventh rank and the centre files.
        3 => {
            let seventh = if rank == 6 { 16 } else { 0 };
            let centre = match file {
                3 | 4 => 6,
                2 | 5 => 3,
                _ => 0,
            };
            s(seventh + centre, if rank == 6 { 10 } else { 0 })
        }
        // Queens: a little central, much more so in the endgame.
        4 => {
            const MG: [i32; 4] = [4, 4, 0, -6];
            const EG: [i32; 4] = [16, 10, 2, -14];
            s(MG[ring], EG[ring])
        }
        // King: sheltered on the back rank's wings in the middlegame,
        // central in the endgame.
        _ => {
            const BACK: [i32; 8] = [14, 22, 8, -4, -4, 4, 24, 16];
            const SECOND: [i32; 8] = [-4, -2, -12, -20, -20, -12, -2, -4];
            const EG: [i32; 4] = [28, 16, 0, -24];
            let mg = match rank {
                0 => BACK[file],
                1 => SECOND[file],
                r => -26 - 12 * (r as i32 - 2),
            };
            s(mg, EG[ring])
        }
    }
}

const fn build_pst() -> [[Taper; 64]; 6] {
    let mut table = [[Taper::ZERO; 64]; 6];
    let mut shape = 0;
    while shape < 6 {
        let mut sq = 0;
        while sq < 64 {
            table[shape][sq] = pst_entry(shape, sq);
            sq += 1;
        }
        shape += 1;
    }
    table
}

/// Piece-square tables from White's side (a1 = 0), by shape index.
static PST: [[Taper; 64]; 6] = build_pst();

/// The table entry of a piece of `shape` and `color` on `sq`.
#[inline]
pub(crate) fn pst(shape: Shape, color: Color, sq: Square) -> Taper {
    let index = match shape {
        Shape::Pawn => 0,
        Shape::Knight => 1,
        Shape::Bishop => 2,
        Shape::Rook | Shape::Harpy => 3,
        Shape::Queen => 4,
        Shape::King => 5,
    };
    PST[index][sq.relative_to(color).index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_symmetric_between_colours() {
        for shape in [Shape::Pawn, Shape::Knight, Shape::King, Shape::Queen] {
            for sq in Square::all() {
                assert_eq!(
                    pst(shape, Color::White, sq),
                    pst(shape, Color::Black, sq.flip_vertical())
                );
            }
        }
        assert_eq!(pst(Shape::Knight, Color::White, Square::A1), s(-36, -22));
        assert_eq!(
            pst(Shape::Knight, Color::White, "e4".parse().unwrap()),
            s(22, 14)
        );
    }
}
