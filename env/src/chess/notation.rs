//! Reading and writing chess moves: UCI (`e2e4`, `e7e8q`, `e1g1`) and SAN
//! (`Nbd7`, `exd5`, `e8=Q+`, `O-O`). A move is read by matching its parsed
//! form against the legal moves, so whatever is read is legal.

use crate::fide::san::{san_matches, uci_matches, unique_match, with_check_mark, write_san};
use crate::san::San;
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
        let found = self
            .legal_moves()
            .into_iter()
            .find(|m| uci_matches(m, from, to, promotion));
        Some(found.ok_or_else(|| MoveError::Illegal {
            text: text.to_owned(),
            fen: self.fen(),
        }))
    }

    fn resolve_san(&self, san: &San, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        unique_match(
            legal.into_iter().filter(|m| san_matches(san, m)),
            text,
            || self.fen(),
        )
    }

    /// Writes SAN with the check (`+`) or mate (`#`) suffix.
    pub fn san(&self, m: &Move) -> String {
        with_check_mark(self, m, self.san_without_suffix(m), Chess::is_check)
    }

    /// SAN without the check suffix: disambiguates by file, then rank, then
    /// both, among legal moves of the same piece type to the same square.
    pub fn san_without_suffix(&self, m: &Move) -> String {
        write_san(m, || self.legal_moves(), 'x', "=")
    }
}
