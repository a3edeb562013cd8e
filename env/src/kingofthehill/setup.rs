//! King of the Hill positions are chess positions: the shared
//! [`Setup`] and its FEN, validated by chess's rules. A King already on
//! the hill is allowed: the position is a finished game (the side that has
//! just moved won), as a Poison position with a dead King is.

use crate::chess::Chess;
use crate::{FenError, PositionError, Setup};

use super::KingOfTheHill;

impl KingOfTheHill {
    /// Validates a setup by chess's rules.
    pub fn from_setup(setup: Setup) -> Result<KingOfTheHill, PositionError> {
        Ok(KingOfTheHill {
            chess: Chess::from_setup(setup)?,
        })
    }

    /// Reads a FEN (4 to 6 fields) and validates it.
    pub fn from_fen(text: &str) -> Result<KingOfTheHill, FenError> {
        Ok(KingOfTheHill::from_setup(Setup::from_fen(text)?)?)
    }

    /// The plain fields of this position.
    pub fn to_setup(&self) -> Setup {
        self.chess.to_setup()
    }
}
