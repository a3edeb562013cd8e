//! Matching text against legal board moves: SAN (syntax in [`crate::san`])
//! and UCI, with the one-match rule, and writing SAN.

use crate::san::{push_disambiguation, San, SanTarget};
use crate::{Bitboard, Move, MoveError, Position, Role, Square};

/// Does a legal move fit a parsed SAN?
pub fn san_matches(san: &San, m: &Move) -> bool {
    match (&san.target, m) {
        (SanTarget::Castle { king_side }, Move::Castle { king, rook }) => {
            (rook.file() > king.file()) == *king_side
        }
        (SanTarget::Castle { .. }, _) | (_, Move::Castle { .. }) => false,
        (SanTarget::Square(to), _) => {
            m.to() == *to
                && m.role() == san.role
                && m.promotion() == san.promotion
                && san.from_file.is_none_or(|f| m.from().file() == f)
                && san.from_rank.is_none_or(|r| m.from().rank() == r)
                && (!san.capture || m.is_capture())
        }
    }
}

/// Does a legal move fit UCI's `from to [promotion]`? Castling is written
/// as the king's destination or as king takes rook.
#[inline]
pub fn uci_matches(m: &Move, from: Square, to: Square, promotion: Option<Role>) -> bool {
    m.from() == from
        && m.promotion() == promotion
        && (m.to() == to || matches!(m, Move::Castle { rook, .. } if *rook == to))
}

/// The one action among `matches`: `Illegal` for none, `Ambiguous` for
/// several (`fen` names the position in the error).
pub fn unique_match<A>(
    mut matches: impl Iterator<Item = A>,
    text: &str,
    fen: impl FnOnce() -> String,
) -> Result<A, MoveError> {
    let first = matches.next();
    let rest = matches.count();
    match (first, rest) {
        (Some(action), 0) => Ok(action),
        (None, _) => Err(MoveError::Illegal {
            text: text.to_owned(),
            fen: fen(),
        }),
        (Some(_), n) => Err(MoveError::Ambiguous {
            text: text.to_owned(),
            fen: fen(),
            count: n + 1,
        }),
    }
}

/// SAN of a board move without check mark: disambiguated by file, then
/// rank, then both, among `legal()` moves of the same role to the same
/// square. `capture` is the capture mark (`x`; Traitor's `:`), `promotion`
/// what stands before the promoted role (`=`; Hostage's `=*`).
pub fn write_san<I: IntoIterator<Item = Move>>(
    m: &Move,
    legal: impl FnOnce() -> I,
    capture: char,
    promotion: &str,
) -> String {
    let (role, from, to) = match *m {
        Move::Castle { king, rook } => {
            return if rook.file() > king.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_owned();
        }
        Move::Normal { role, from, to, .. } => (role, from, to),
        Move::EnPassant { from, to } => (Role::Pawn, from, to),
    };
    let mut out = String::with_capacity(10);
    if role == Role::Pawn {
        if m.is_capture() {
            out.push(from.file().char());
        }
    } else {
        out.push(role.upper_char());
        let rivals: Bitboard = legal()
            .into_iter()
            .filter(|o| o.role() == role && o.to() == to && o.from() != from && !o.is_castle())
            .map(|o| o.from())
            .collect();
        push_disambiguation(&mut out, from, rivals);
    }
    if m.is_capture() {
        out.push(capture);
    }
    out.push_str(&to.to_string());
    if let Some(role) = m.promotion() {
        out.push_str(promotion);
        out.push(role.upper_char());
    }
    out
}

/// SAN's check mark for the position `after` a move: `+` when the move
/// gives check (`gives_check`, by the variant's rule), `#` when the side in
/// check also has no legal reply, nothing otherwise.
pub fn check_mark<P: Position>(after: &P, gives_check: bool) -> Option<char> {
    gives_check.then(|| if after.has_legal_action() { '+' } else { '#' })
}

/// `text`, the notation of `action` in `position` without check mark,
/// with the mark of the position the action leads to; `is_check` is the
/// variant's check test.
pub fn with_check_mark<P: Position>(
    position: &P,
    action: &P::Action,
    mut text: String,
    is_check: impl FnOnce(&P) -> bool,
) -> String {
    let mut after = position.clone();
    after.play_unchecked(action);
    text.extend(check_mark(&after, is_check(&after)));
    text
}
