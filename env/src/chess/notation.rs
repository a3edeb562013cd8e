//! Reading and writing chess moves: UCI (`e2e4`, `e7e8q`, `e1g1`) and SAN
//! (`Nbd7`, `exd5`, `e8=Q+`, `O-O`). A move is read by matching its parsed
//! form against the legal moves, so whatever is read is legal.

use crate::san::{San, SanTarget};
use crate::{Move, MoveError, Position, Role, Square};

use super::Chess;

impl Chess {
    /// Reads UCI or SAN; the move must be legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let trimmed = text.trim();
        if let Some(found) = self.parse_uci(trimmed) {
            return found;
        }
        let san = San::parse(trimmed).map_err(|reason| MoveError::Syntax {
            text: text.to_owned(),
            reason,
        })?;
        self.resolve_san(&san, text)
    }

    /// Reads UCI notation. `None` when the text is not UCI-shaped at all
    /// (so the caller can try SAN); `Some(Err)` when it is UCI but illegal.
    pub fn parse_uci(&self, text: &str) -> Option<Result<Move, MoveError>> {
        let bytes = text.as_bytes();
        if !(bytes.len() == 4 || bytes.len() == 5) {
            return None;
        }
        let from: Square = text.get(0..2)?.parse().ok()?;
        let to: Square = text.get(2..4)?.parse().ok()?;
        let promotion = match bytes.get(4) {
            Some(&c) => {
                Some(Role::from_char(c as char).filter(|r| Role::FIDE_PROMOTIONS.contains(r))?)
            }
            None => None,
        };
        let found = self.legal_moves().into_iter().find(|m| {
            m.from() == from
                && m.promotion() == promotion
                && (m.to() == to || matches!(m, Move::Castle { rook, .. } if *rook == to))
        });
        Some(found.ok_or_else(|| MoveError::Illegal {
            text: text.to_owned(),
            fen: self.fen(),
        }))
    }

    fn resolve_san(&self, san: &San, text: &str) -> Result<Move, MoveError> {
        let mut matches = self
            .legal_moves()
            .into_iter()
            .filter(|m| san_matches(san, m));
        let first = matches.next();
        let rest = matches.count();
        match (first, rest) {
            (Some(m), 0) => Ok(m),
            (None, _) => Err(MoveError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            }),
            (Some(_), n) => Err(MoveError::Ambiguous {
                text: text.to_owned(),
                fen: self.fen(),
                count: n + 1,
            }),
        }
    }

    /// Writes SAN with the check (`+`) or mate (`#`) suffix.
    pub fn san(&self, m: &Move) -> String {
        let mut out = self.san_without_suffix(m);
        let mut after = self.clone();
        after.play_move_unchecked(m);
        if after.is_check() {
            out.push(if after.has_legal_move() { '+' } else { '#' });
        }
        out
    }

    /// SAN without the check suffix: disambiguates by file, then rank, then
    /// both, among legal moves of the same piece type to the same square.
    pub fn san_without_suffix(&self, m: &Move) -> String {
        let (role, from, to) = match *m {
            Move::Castle { king, rook } => {
                return if rook.file() > king.file() {
                    "O-O".to_owned()
                } else {
                    "O-O-O".to_owned()
                };
            }
            Move::Normal { role, from, to, .. } => (role, from, to),
            Move::EnPassant { from, to } => (Role::Pawn, from, to),
        };
        let mut out = String::with_capacity(8);
        if role == Role::Pawn {
            if m.is_capture() {
                out.push(from.file().char());
            }
        } else {
            out.push(role.upper_char());
            let rivals: crate::Bitboard = self
                .legal_moves()
                .into_iter()
                .filter(|o| o.role() == role && o.to() == to && o.from() != from && !o.is_castle())
                .map(|o| o.from())
                .collect();
            crate::san::push_disambiguation(&mut out, from, rivals);
        }
        if m.is_capture() {
            out.push('x');
        }
        out.push_str(&to.to_string());
        if let Some(promotion) = m.promotion() {
            out.push('=');
            out.push(promotion.upper_char());
        }
        out
    }
}

/// Does a legal move fit a parsed SAN?
pub(crate) fn san_matches(san: &San, m: &Move) -> bool {
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
