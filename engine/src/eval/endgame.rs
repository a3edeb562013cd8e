//! The endgame corrections the FIDE-board variants share (chess, Poison,
//! Traitor): a lone King driven to the edge by the side with at least a
//! rook's worth of pieces (the mop-up), and a pawnless lead of less than a
//! rook scaled down. One place for them, so that the variants' numbers
//! cannot drift apart; each variant passes its own role table.

use heterodox_env::{Board, Color, Piece, Role, Square};

use super::fide::RoleTable;

/// The endgame corrections, from White's side: a lone King is driven to
/// the edge; without pawns, a lead of less than a rook rarely wins and is
/// scaled down.
pub(crate) fn endgame(board: &Board, white: i32, roles: &RoleTable) -> i32 {
    let strong = if white > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let strong_pawns = board.by_piece(Piece::new(strong, Role::Pawn));
    let lone = !board.by_color(weak).more_than_one();
    if strong_pawns.any() && !lone {
        // Neither correction applies: most positions stop here.
        return white;
    }
    let pieces = |color: Color| -> i32 {
        Role::ALL
            .iter()
            .filter(|r| !matches!(r, Role::Pawn | Role::King))
            .map(|r| {
                roles[r.index()].value.mg * board.by_piece(Piece::new(color, *r)).count() as i32
            })
            .sum()
    };
    let (strong_pieces, weak_pieces) = (pieces(strong), pieces(weak));
    let mut score = white;
    if lone && strong_pieces >= roles[Role::Rook.index()].value.mg {
        if let (Some(k), Some(l)) = (board.king_of(strong), board.king_of(weak)) {
            let bonus = mop_up(k, l);
            score += if strong == Color::White {
                bonus
            } else {
                -bonus
            };
        }
    }
    if strong_pawns.is_empty()
        && strong_pieces - weak_pieces <= roles[Role::Bishop.index()].value.mg + 20
    {
        score /= 4;
    }
    score
}

/// Drives a lone King to the edge and the strong King towards it: the
/// winning side's bonus when the other side has nothing but its King.
pub(crate) fn mop_up(strong_king: Square, lone_king: Square) -> i32 {
    let edge = 3 * super::pst::ring(lone_king.index()) + corner_distance(lone_king);
    let closeness = 14 - manhattan(strong_king, lone_king);
    10 * edge + 4 * closeness
}

fn corner_distance(sq: Square) -> i32 {
    let file = sq.file().index() as i32;
    let rank = sq.rank().index() as i32;
    let to_corner = |f: i32, r: i32| (file - f).abs() + (rank - r).abs();
    // 7 on a corner, less further away.
    7 - to_corner(0, 0)
        .min(to_corner(7, 0))
        .min(to_corner(0, 7))
        .min(to_corner(7, 7))
        .min(7)
}

fn manhattan(a: Square, b: Square) -> i32 {
    let df = a.file().index() as i32 - b.file().index() as i32;
    let dr = a.rank().index() as i32 - b.rank().index() as i32;
    df.abs() + dr.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mop_up_prefers_the_corner_and_the_kings_close() {
        let strong: Square = "c3".parse().unwrap();
        assert!(mop_up(strong, Square::A1) > mop_up(strong, "d4".parse().unwrap()));
        assert!(
            mop_up("b3".parse().unwrap(), Square::A1) > mop_up("h8".parse().unwrap(), Square::A1)
        );
    }
}
