//! Chess positions from their plain fields: the shared [`Setup`] and its
//! FEN (crate::fen reads and writes it; chess adds no field), validated
//! into a [`Chess`].

use crate::fide::{validate_fide_setup, SetupRules};
use crate::{FenError, PositionError, Role, Setup};

use super::Chess;

/// What a chess setup may hold.
const SETUP_RULES: SetupRules = SetupRules {
    variant: "chess",
    roles: &Role::FIDE,
    castling_partner: Role::Rook,
    partner_on_corners: false,
};

impl Chess {
    /// Validates a setup: exactly one king each, no pawns on the back ranks,
    /// at most 16 men and 8 pawns a side, only FIDE roles, castling rights
    /// backed by an unmoved king and rook, a possible en passant square, the
    /// side not to move not in check, and at most two checkers.
    pub fn from_setup(setup: Setup) -> Result<Chess, PositionError> {
        validate_fide_setup(&setup, &SETUP_RULES)?;
        let turn = setup.turn;
        let chess = Chess { fide: setup };
        let their_king = chess.fide.board.king_of(!turn).expect("validated");
        if chess
            .fide
            .board
            .attackers_to(their_king, turn, chess.fide.board.occupied())
            .any()
        {
            return Err(PositionError::OppositeCheck(!turn));
        }
        if chess.checkers().count() > 2 {
            return Err(PositionError::TooManyCheckers(turn));
        }
        Ok(chess)
    }

    /// Reads a FEN (4 to 6 fields) and validates it.
    pub fn from_fen(text: &str) -> Result<Chess, FenError> {
        Ok(Chess::from_setup(Setup::from_fen(text)?)?)
    }

    /// The plain fields of this position.
    pub fn to_setup(&self) -> Setup {
        self.fide.clone()
    }
}
