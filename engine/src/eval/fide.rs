//! Evaluation terms shared by the variants played on the shared `Board`
//! (chess, Poison, Hostage, Traitor): material, piece-square tables,
//! mobility, king attack, pawn structure, king shelter, rooks on open
//! files and the bishop pair; the material balance. Each variant passes
//! its own role table (values, shapes, weights) and the pieces that are
//! frozen (Poison's poisoned pieces).
//!
//! Scores are middlegame/endgame pairs ([`Taper`]) blended by the phase
//! (the non-pawn material on the board); the piece-square tables are in
//! `pst.rs`; docs/engine.md lists the numbers.

use heterodox_env::attacks;
use heterodox_env::{Bitboard, Board, Color, Piece, Role, Square};

use super::pst::pst;
pub(crate) use super::taper::{s, Shape, Taper};

/// What the shared terms need to know of a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct RoleInfo {
    pub value: Taper,
    pub shape: Shape,
    /// Phase weight of the piece.
    pub phase: i32,
    /// Mobility: centipawns per safe square (mg, eg) and the count that
    /// scores zero.
    pub mobility: Taper,
    pub mobility_zero: i32,
    /// Weight of an attack on the enemy King's zone.
    pub king_attack: i32,
}

pub(crate) const NO_ROLE: RoleInfo = RoleInfo {
    value: Taper::ZERO,
    shape: Shape::Pawn,
    phase: 0,
    mobility: Taper::ZERO,
    mobility_zero: 0,
    king_attack: 0,
};

/// One row of a variant's role table, in the order the tables list them.
pub(crate) const fn role(
    value: Taper,
    shape: Shape,
    phase: i32,
    mobility: Taper,
    mobility_zero: i32,
    king_attack: i32,
) -> RoleInfo {
    RoleInfo {
        value,
        shape,
        phase,
        mobility,
        mobility_zero,
        king_attack,
    }
}

/// A variant's roles, indexed by `Role::index()`.
pub(crate) type RoleTable = [RoleInfo; Role::COUNT];

/// Squares a piece of `shape` attacks from `sq`.
#[inline]
pub(crate) fn shape_attacks(
    shape: Shape,
    color: Color,
    sq: Square,
    occupied: Bitboard,
) -> Bitboard {
    match shape {
        Shape::Pawn => attacks::pawn_attacks(color, sq),
        Shape::Knight => attacks::knight_attacks(sq),
        Shape::Bishop => attacks::bishop_attacks(sq, occupied),
        Shape::Rook | Shape::Harpy => attacks::rook_attacks(sq, occupied),
        Shape::Queen => attacks::queen_attacks(sq, occupied),
        Shape::King => attacks::king_attacks(sq),
    }
}

/// Squares attacked by `color`'s pawns.
#[inline]
pub(crate) fn pawn_attack_span(pawns: Bitboard, color: Color) -> Bitboard {
    let not_a = Bitboard(!0x0101_0101_0101_0101);
    let not_h = Bitboard(!0x8080_8080_8080_8080);
    let ahead = pawns.shift_forward(color);
    Bitboard((ahead & not_a).0 >> 1) | Bitboard((ahead & not_h).0 << 1)
}

const fn file_mask(file: usize) -> u64 {
    0x0101_0101_0101_0101 << file
}

const DOUBLED: Taper = s(-10, -20);
const ISOLATED: Taper = s(-10, -14);
/// Passed-pawn bonus by relative rank.
const PASSED_MG: [i32; 8] = [0, 4, 8, 14, 26, 46, 72, 0];
const PASSED_EG: [i32; 8] = [0, 10, 16, 28, 48, 80, 120, 0];

#[inline]
const fn fill_up(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | b << 32
}

#[inline]
const fn fill_down(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | b >> 32
}

/// Squares on the same and adjacent files behind (from `color`'s side,
/// towards its own first rank) the pawns `their` of the other colour: an
/// own pawn there is not passed.
#[inline]
fn front_spans(their: Bitboard, color: Color) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let span = match color {
        Color::White => fill_down(their.0 >> 8),
        Color::Black => fill_up(their.0 << 8),
    };
    span | (span << 1 & NOT_A) | (span >> 1 & NOT_H)
}

/// Doubled, isolated and passed pawns of `color`, by bitboard fills
/// (blocked pawns too: the evaluation does not know Hostage's promotion
/// rule).
pub(crate) fn pawn_structure(own: Bitboard, their: Bitboard, color: Color) -> Taper {
    let files = (fill_down(fill_up(own.0)) & 0xff) as u8;
    let extra = own.count() as i32 - files.count_ones() as i32;
    let lonely = files & !((files << 1) | (files >> 1));
    let isolated = (own.0 & (u64::from(lonely) * 0x0101_0101_0101_0101)).count_ones() as i32;
    let mut score = DOUBLED.times(extra) + ISOLATED.times(isolated);
    for sq in Bitboard(own.0 & !front_spans(their, color)) {
        let rank = sq.relative_rank(color).index();
        score += s(PASSED_MG[rank], PASSED_EG[rank]);
    }
    score
}

/// Passed pawns of `color`.
#[cfg(test)]
fn passed_pawns(own: Bitboard, their: Bitboard, color: Color) -> Bitboard {
    Bitboard(own.0 & !front_spans(their, color))
}

/// Middlegame shelter of a King on its first two ranks: own pawns in front
/// of it on its own and the adjacent files, and open files next to it.
pub(crate) fn king_shelter(
    king: Square,
    color: Color,
    own_pawns: Bitboard,
    all_pawns: Bitboard,
) -> i32 {
    let rank = king.relative_rank(color).index();
    if rank > 1 {
        return -20;
    }
    let file = king.file().index();
    let mut score = 0;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let column = Bitboard(file_mask(f));
        let shield = own_pawns & column;
        let near = shield.any_at_relative_ranks(color, rank + 1, rank + 2);
        score += match near {
            Some(1) => 12,
            Some(_) => 6,
            None if shield.any() => -6,
            None if (all_pawns & column).is_empty() => -24,
            None => -14,
        };
    }
    score
}

/// Distance in pawns of the nearest rank/file steps, for relative ranks.
trait RelativeRanks {
    /// 1 when a member is one rank in front of `rank` (relative to `color`),
    /// 2 when two ranks, `None` otherwise.
    fn any_at_relative_ranks(self, color: Color, one: usize, two: usize) -> Option<usize>;
}

impl RelativeRanks for Bitboard {
    fn any_at_relative_ranks(self, color: Color, one: usize, two: usize) -> Option<usize> {
        let mut best = None;
        for sq in self {
            let r = sq.relative_rank(color).index();
            if r == one {
                return Some(1);
            }
            if r == two {
                best = Some(2);
            }
        }
        best
    }
}

/// Weighted attackers on a King zone to a middlegame penalty: nothing for
/// one attacker, then growing with the square of the attack weight.
#[inline]
pub(crate) fn king_danger(attackers: i32, weight: i32) -> i32 {
    if attackers < 2 {
        0
    } else {
        (weight * weight * 3 / 2).min(480)
    }
}

const ROOK_OPEN: Taper = s(22, 8);
const ROOK_HALF_OPEN: Taper = s(10, 4);
const BISHOP_PAIR: Taper = s(28, 48);

/// The shared board terms, White minus Black, and the phase. `frozen`
/// pieces (poisoned) count their material and table entry but have no
/// mobility and attack nothing.
pub(crate) fn board_terms(board: &Board, roles: &RoleTable, frozen: Bitboard) -> (Taper, i32) {
    let occupied = board.occupied();
    let pawns = board.by_role(Role::Pawn);
    let mut total = Taper::ZERO;
    let mut phase = 0;
    let mut pawn_attacks = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        pawn_attacks[color.index()] =
            pawn_attack_span(pawns & (board.by_color(color) - frozen), color);
    }
    for color in Color::ALL {
        let own = board.by_color(color);
        let their = board.by_color(!color);
        let their_king = (board.by_role(Role::King) & their).first();
        let zone = their_king.map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));
        let safe = !(own | pawn_attacks[(!color).index()]);
        let mut side = Taper::ZERO;
        let mut attackers = 0;
        let mut attack_weight = 0;
        for role in Role::ALL {
            let info = &roles[role.index()];
            let pieces = board.by_piece(Piece::new(color, role));
            if pieces.is_empty() {
                continue;
            }
            let count = pieces.count() as i32;
            side += info.value.times(count);
            phase += info.phase * count;
            for sq in pieces {
                side += pst(info.shape, color, sq);
                if info.mobility == Taper::ZERO || frozen.contains(sq) {
                    continue;
                }
                let reach = shape_attacks(info.shape, color, sq, occupied);
                let moves = (reach & safe).count() as i32 - info.mobility_zero;
                side += info.mobility.times(moves);
                if info.king_attack > 0 && (reach & zone).any() {
                    attackers += 1;
                    attack_weight += info.king_attack;
                }
                if info.shape == Shape::Rook || info.shape == Shape::Harpy {
                    let column = Bitboard(file_mask(sq.file().index()));
                    if (pawns & column).is_empty() {
                        side += ROOK_OPEN;
                    } else if (pawns & own & column).is_empty() {
                        side += ROOK_HALF_OPEN;
                    }
                }
            }
        }
        if board
            .by_piece(Piece::new(color, Role::Bishop))
            .more_than_one()
        {
            side += BISHOP_PAIR;
        }
        side += pawn_structure(pawns & own, pawns & their, color);
        if let Some(king) = (board.by_role(Role::King) & own).first() {
            side += s(king_shelter(king, color, pawns & own, pawns), 0);
        }
        side += s(king_danger(attackers, attack_weight), 0);
        total += if color == Color::White { side } else { -side };
    }
    (total, phase)
}

/// `side`'s material minus the opponent's by the middlegame values.
pub(crate) fn material_balance(board: &Board, side: Color, roles: &RoleTable) -> i32 {
    let mut total = 0;
    for role in Role::ALL {
        let value = roles[role.index()].value.mg;
        total += value
            * (board.by_piece(Piece::new(side, role)).count() as i32
                - board.by_piece(Piece::new(!side, role)).count() as i32);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawn_structure_by_fills() {
        let squares = |list: &[&str]| {
            list.iter()
                .map(|s| s.parse::<Square>().unwrap())
                .collect::<Bitboard>()
        };
        // Doubled c-pawns; a-, c- and e-files without neighbours (four
        // isolated pawns); a passed e-pawn on the fifth rank.
        let white = squares(&["a2", "c2", "c3", "e5"]);
        let black = squares(&["b7", "c7"]);
        let expected = DOUBLED + ISOLATED.times(4) + s(PASSED_MG[4], PASSED_EG[4]);
        assert_eq!(pawn_structure(white, black, Color::White), expected);
        // Black's b- and c-pawns support each other and face White's.
        assert_eq!(pawn_structure(black, white, Color::Black), Taper::ZERO);
    }

    #[test]
    fn passed_pawn_masks() {
        let own = Bitboard::from_square("e5".parse().unwrap());
        let blocker = Bitboard::from_square("d6".parse().unwrap());
        let behind = Bitboard::from_square("d4".parse().unwrap());
        assert!(passed_pawns(own, blocker, Color::White).is_empty());
        assert_eq!(passed_pawns(own, behind, Color::White), own);
        assert_eq!(passed_pawns(blocker, own, Color::Black), Bitboard::EMPTY);
    }
}
