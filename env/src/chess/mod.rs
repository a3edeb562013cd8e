//! FIDE chess: the reference variant. The FIDE machinery it shares with
//! the variants (state fields, castling, en passant, endings, SAN
//! matching) lives in [`crate::fide`].

pub mod encoding;
mod gesture;
mod movegen;
mod notation;

pub use crate::fide::{validate_castling_rights, validate_ep_square, validate_fide_material};
pub use movegen::{CountVisitor, ListVisitor, MoveVisitor};

use arrayvec::ArrayVec;

use crate::fide::state::fide_accessors;
use crate::fide::{castling, endings, validate_fide_setup, FideState, SetupRules};
use crate::zobrist;
use crate::{
    Bitboard, Board, Color, FenError, Move, MoveError, Outcome, Piece, Position, PositionError,
    Role, Setup, Square,
};

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_LEGAL_MOVES: usize = 256;

/// A fixed-capacity move list: generation never allocates.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;

/// What a chess setup may hold.
const SETUP_RULES: SetupRules = SetupRules {
    variant: "chess",
    roles: &Role::FIDE,
    castling_partner: Role::Rook,
    partner_on_corners: false,
};

/// A legal FIDE chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    fide: FideState,
}

impl Default for Chess {
    fn default() -> Chess {
        Chess::new()
    }
}

impl Chess {
    /// The starting position.
    pub fn new() -> Chess {
        Chess::from_setup(Setup::standard()).expect("the standard position is legal")
    }

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
        let mut counter = CountVisitor(0);
        self.visit_legal_moves(&mut counter);
        counter.0
    }

    /// Stops at the first legal move: cheap "is the game over?" checks.
    pub fn has_legal_move(&self) -> bool {
        struct Any(bool);
        impl MoveVisitor for Any {
            fn piece_moves(&mut self, _: &Chess, _: Role, _: Square, targets: Bitboard) {
                self.0 |= targets.any();
            }
            fn special(&mut self, _: Move) {
                self.0 = true;
            }
            fn is_done(&self) -> bool {
                self.0
            }
        }
        let mut any = Any(false);
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
        let board = &self.fide.board;
        endings::insufficient_material(board, board.by_role(Role::Pawn) | board.rooks_and_queens())
    }

    /// True when a legal en passant capture exists (only then does the en
    /// passant square count for repetition).
    pub fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.fide.ep_square else {
            return false;
        };
        let mut counter = CountVisitor(0);
        self.visit_en_passant(&mut counter, self.our_king(), ep);
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

    fn variant_name(&self) -> &'static str {
        "chess"
    }

    fn turn(&self) -> Color {
        self.fide.turn
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        self.visit_legal_moves(&mut ListVisitor(out));
    }

    fn count_legal_actions(&self) -> usize {
        self.count_legal_moves()
    }

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
        endings::outcome_given(
            has_legal_action,
            || endings::checkmate_or_stalemate(self.is_check(), self.fide.turn),
            || self.is_insufficient_material(),
            self.fide.halfmoves,
        )
    }

    fn repetition_key(&self) -> u64 {
        self.zobrist()
    }

    fn is_irreversible(&self, action: &Move) -> bool {
        // Losing a castling right also makes earlier positions unrepeatable.
        action.is_zeroing() || castling::touches_castling(self.fide.castling_rights, action)
    }

    fn fen(&self) -> String {
        self.to_setup().to_fen()
    }

    fn parse_action(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move(text)
    }

    fn notation(&self, action: &Move) -> String {
        self.san(action)
    }
}

crate::variant::variant_without_options!(
    Chess,
    Chess,
    max_plies = 512,
    diagram = crate::render::chess
);
