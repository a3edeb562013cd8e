//! Colour and control (T4-T8): who may move a piece, what it may capture
//! and which King it attacks. Colour lives in the shared [`Board`]; the set
//! of announced pieces (traitors, double agents, mercenaries) is a separate
//! [`Bitboard`]. Functions take both, so legality tests can run them on a
//! board after a move without building a whole position.

use super::rules::Mode;
use crate::attacks;
use crate::{Bitboard, Board, Color, Piece, Role, Square};

/// Pieces `player` may move: own-colour regular pieces, plus the traitors
/// it announced (Traitor mode) or every announced piece (shared modes).
#[inline]
pub fn movable(board: &Board, announced: Bitboard, mode: Mode, player: Color) -> Bitboard {
    match mode {
        Mode::Traitor => {
            (board.by_color(player) - announced) | (board.by_color(!player) & announced)
        }
        Mode::Defector => board.by_color(player),
        Mode::DoubleAgent | Mode::DefectorDoubleAgent | Mode::Mercenary => {
            board.by_color(player) | announced
        }
    }
}

/// Squares holding a piece the piece on `from` may capture. Kings are never
/// captured. Regular pieces and double agents take the opposite colour; a
/// traitor takes anything but traitors of its own controller (which are
/// exactly the traitors of its colour); a mercenary takes anything.
#[inline]
pub fn capturable_by(board: &Board, announced: Bitboard, mode: Mode, from: Square) -> Bitboard {
    let Some(colour) = board.color_at(from) else {
        return Bitboard::EMPTY;
    };
    let victims = board.occupied() - board.by_role(Role::King);
    if announced.contains(from) {
        match mode {
            Mode::Traitor => return victims - (announced & board.by_color(colour)),
            Mode::Mercenary => return victims,
            _ => {}
        }
    }
    victims & board.by_color(!colour)
}

/// Pieces that attack the King of `king_colour`: every piece of the other
/// colour, plus (Traitor, Mercenary) every announced piece of either colour.
#[inline]
pub fn king_enemies(
    board: &Board,
    announced: Bitboard,
    mode: Mode,
    king_colour: Color,
) -> Bitboard {
    let mut enemies = board.by_color(!king_colour);
    if mode.status_attacks_both_kings() {
        enemies |= announced;
    }
    enemies
}

/// The pieces among `mask` attacking `sq` on `occupied`; pawns attack in
/// the direction of their colour.
#[inline]
pub fn attackers_to(board: &Board, sq: Square, mask: Bitboard, occupied: Bitboard) -> Bitboard {
    let pawns = board.by_role(Role::Pawn);
    mask & ((attacks::rook_attacks(sq, occupied) & board.rooks_and_queens())
        | (attacks::bishop_attacks(sq, occupied) & board.bishops_and_queens())
        | (attacks::knight_attacks(sq) & board.by_role(Role::Knight))
        | (attacks::king_attacks(sq) & board.by_role(Role::King))
        | (attacks::pawn_attacks(Color::Black, sq) & pawns & board.by_color(Color::White))
        | (attacks::pawn_attacks(Color::White, sq) & pawns & board.by_color(Color::Black)))
}

/// Pieces giving check to the King of `colour`.
#[inline]
pub fn checkers(board: &Board, announced: Bitboard, mode: Mode, colour: Color) -> Bitboard {
    match board.king_of(colour) {
        Some(king) => attackers_to(
            board,
            king,
            king_enemies(board, announced, mode, colour),
            board.occupied(),
        ),
        None => Bitboard::EMPTY,
    }
}

/// The squares a piece attacks from `sq`.
#[inline]
pub fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => attacks::pawn_attacks(piece.color, sq),
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, occupied),
        Role::Rook => attacks::rook_attacks(sq, occupied),
        Role::Queen => attacks::queen_attacks(sq, occupied),
        Role::King => attacks::king_attacks(sq),
        _ => Bitboard::EMPTY,
    }
}

/// Does the piece on `sq` give check to the King of `king_colour`?
pub fn gives_check(
    board: &Board,
    announced: Bitboard,
    mode: Mode,
    sq: Square,
    king_colour: Color,
) -> bool {
    let (Some(piece), Some(king)) = (board.piece_at(sq), board.king_of(king_colour)) else {
        return false;
    };
    king_enemies(board, announced, mode, king_colour).contains(sq)
        && piece_attacks(piece, sq, board.occupied()).contains(king)
}
