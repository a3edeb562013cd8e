//! Reading and writing moves as in chess: UCI and SAN. A move onto the
//! hill gets no mark of its own (no convention has one); the result says
//! how the game ended.

use crate::{Move, MoveError};

use super::KingOfTheHill;

impl KingOfTheHill {
    /// Reads UCI or SAN; the move must be legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.chess.parse_move(text)
    }

    /// Writes SAN with chess's check (`+`) or mate (`#`) suffix.
    pub fn san(&self, m: &Move) -> String {
        self.chess.san(m)
    }
}
