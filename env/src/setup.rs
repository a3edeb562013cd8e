//! An unvalidated position: plain fields that anything may fill (a FEN
//! reader, a test, a GUI). A variant turns it into a validated position with
//! one function (`Chess::from_setup`) that returns a typed error.

use crate::fen;
use crate::{Bitboard, Board, Color, FenError};

/// The FIDE part of any position, over a board of any kind (the shared
/// [`Board`] by default; Mad Scientist's board of part-pieces). Variants
/// keep their extra state in their own setup types, which embed this one;
/// a validated position keeps these same fields (`fide::FideState`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup<B = Board> {
    pub board: B,
    pub turn: Color,
    /// The squares of rooks that may still castle (KQkq = a1, h1, a8, h8).
    pub castling_rights: Bitboard,
    pub ep_square: Option<crate::Square>,
    /// Half-moves since the last capture or pawn move (the 50-move counter).
    pub halfmoves: u32,
    /// Starts at 1 and grows after each Black move.
    pub fullmoves: u32,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::empty()
    }
}

impl<B> Setup<B> {
    /// `board` with White to move, no castling rights, no en passant
    /// square, the clocks at their start.
    pub fn with_board(board: B) -> Setup<B> {
        Setup {
            board,
            turn: Color::White,
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Setup {
    /// An empty board, White to move.
    pub fn empty() -> Setup {
        Setup::with_board(Board::empty())
    }

    /// The FIDE starting position.
    pub fn standard() -> Setup {
        Setup {
            board: Board::standard(),
            castling_rights: Bitboard::CORNERS,
            ..Setup::empty()
        }
    }

    /// Reads a FEN (4 to 6 fields; missing counters default to 0 and 1).
    /// Only the syntax is checked here; legality is checked by the variant.
    pub fn from_fen(text: &str) -> Result<Setup, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        fen::parse_fide_fields(&fields, &crate::Role::FIDE)
    }

    /// Writes the six FEN fields.
    pub fn to_fen(&self) -> String {
        fen::write_fide_fields(self)
    }
}
