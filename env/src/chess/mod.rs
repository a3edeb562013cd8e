//! FIDE chess: the reference variant. The FIDE machinery it shares with
//! the variants (state fields, castling, en passant, legal generation,
//! endings, SAN matching) lives in [`crate::fide`].
//!
//! The folder has every variant's file set (docs/architecture.md): this
//! file (the position and `impl Position`), `action` (the action is the
//! shared `Move`; the move list bound), `setup` (validation, FEN),
//! `movegen`, `notation` (UCI and SAN), [`encoding`], `diagram` and
//! `variant` (registry entry, claim features).

mod action;
mod diagram;
pub mod encoding;
mod gesture;
mod movegen;
mod notation;
mod setup;
mod variant;

pub use crate::fide::movegen::MoveSink;
pub use crate::fide::{validate_castling_rights, validate_ep_square, validate_fide_material};
pub use action::{MoveList, MAX_LEGAL_MOVES};
pub use movegen::{CountVisitor, ListVisitor, MoveVisitor};

use crate::fide::movegen::AnyMove;
use crate::fide::state::{fide_accessors, fide_position_members};
use crate::fide::{castling, endings, FideState};
use crate::zobrist;
use crate::{Bitboard, Board, Color, Move, Outcome, Piece, Position, Role, Setup, Square};

/// A legal FIDE chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    fide: FideState,
}

impl Chess {
    /// The starting position.
    pub fn new() -> Chess {
        Chess::from_setup(Setup::standard()).expect("the standard position is legal")
    }

    fide_accessors!(Board);

    #[inline]
    pub(crate) fn our_king(&self) -> Square {
        // Validated positions always have exactly one king per side.
        self.fide
            .board
            .king_of(self.fide.turn)
            .expect("validated position has a king")
    }

    /// Enemy pieces giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.fide
            .board
            .attackers_to(self.our_king(), !self.fide.turn, self.fide.board.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.visit_legal_moves(&mut ListVisitor(&mut moves));
        moves
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> usize {
        self.count_legal_actions()
    }

    /// Stops at the first legal move: cheap "is the game over?" checks.
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnyMove(false);
        self.visit_legal_moves(&mut any);
        any.0
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }

    /// Neither side can mate by any series of legal moves: kings alone, or
    /// with one knight or bishop in all, or with only bishops all on squares
    /// of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        endings::fide_insufficient_material(&self.fide.board)
    }

    /// True when a legal en passant capture exists (only then does the en
    /// passant square count for repetition).
    pub fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.fide.ep_square else {
            return false;
        };
        let mut counter = CountVisitor(0);
        self.visit_en_passant(&mut counter, ep);
        counter.0 > 0
    }

    /// Plays a legal move. The fast path: no legality check.
    pub fn play_move_unchecked(&mut self, m: &Move) {
        self.fide.begin_ply();
        self.fide.play_move(m, Role::Rook, Bitboard::EMPTY);
        self.fide.end_turn(m.is_zeroing());
    }

    /// The Zobrist key of the FIDE state: pieces, side to move, castling
    /// rights and a usable en passant square.
    pub fn zobrist(&self) -> u64 {
        let mut key = 0;
        // By piece bitboards, not square by square: no role lookup per
        // square (this runs after every move, for repetition).
        for color in Color::ALL {
            for role in Role::FIDE {
                for sq in self.fide.board.by_piece(Piece::new(color, role)) {
                    key ^= zobrist::piece(color, role, sq);
                }
            }
        }
        key ^ self.fide.zobrist_fields(|_| self.has_legal_en_passant())
    }
}

impl Position for Chess {
    type Action = Move;

    fide_position_members!(visit_legal_moves, parse_move, san);

    fn is_legal(&self, action: &Move) -> bool {
        // Validated against the generator: the one source of truth.
        self.legal_moves().contains(action)
    }

    fn play_unchecked(&mut self, action: &Move) {
        self.play_move_unchecked(action);
    }

    fn has_legal_action(&self) -> bool {
        self.has_legal_move()
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        endings::fide_outcome_given(has_legal_action, &self.fide, || self.is_check())
    }

    fn is_irreversible(&self, action: &Move) -> bool {
        // Losing a castling right also makes earlier positions unrepeatable.
        action.is_zeroing() || castling::touches_castling(self.fide.castling_rights, action)
    }
}
