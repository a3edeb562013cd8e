//! FIDE chess: the reference variant, and the toolkit other variants reuse.

pub mod encoding;
mod movegen;
mod notation;

pub use movegen::{CountVisitor, ListVisitor, MoveVisitor};

use arrayvec::ArrayVec;

use crate::attacks;
use crate::zobrist;
use crate::{
    Bitboard, Board, CastlingSide, Color, FenError, Move, MoveError, Outcome, Piece, Position,
    PositionError, Rank, Role, Setup, Square, Termination,
};

/// The most legal moves any chess position has is 218; 256 leaves room.
pub const MAX_LEGAL_MOVES: usize = 256;

/// A fixed-capacity move list: generation never allocates.
pub type MoveList = ArrayVec<Move, MAX_LEGAL_MOVES>;

/// A legal FIDE chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chess {
    board: Board,
    turn: Color,
    castling_rights: Bitboard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
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
        let Setup {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        } = setup;
        if fullmoves == 0 {
            return Err(PositionError::ZeroFullmoves);
        }
        for (sq, piece) in board.pieces() {
            if !Role::FIDE.contains(&piece.role) {
                return Err(PositionError::UnsupportedRole {
                    role: piece.role,
                    square: sq,
                    variant: "chess",
                });
            }
        }
        validate_fide_material(&board)?;
        validate_castling_rights(&board, castling_rights)?;
        if let Some(ep) = ep_square {
            validate_ep_square(&board, turn, ep)?;
        }
        let chess = Chess {
            board,
            turn,
            castling_rights,
            ep_square,
            halfmoves,
            fullmoves,
        };
        let their_king = chess.board.king_of(!turn).expect("validated");
        if chess
            .board
            .attackers_to(their_king, turn, chess.board.occupied())
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
        Setup {
            board: self.board.clone(),
            turn: self.turn,
            castling_rights: self.castling_rights,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Squares of the rooks that keep their castling right.
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling_rights
    }

    /// The square a pawn just skipped, as written in FEN.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    #[inline]
    pub(crate) fn our_king(&self) -> Square {
        // Validated positions always have exactly one king per side.
        self.board
            .king_of(self.turn)
            .expect("validated position has a king")
    }

    /// Enemy pieces giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.board
            .attackers_to(self.our_king(), !self.turn, self.board.occupied())
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
        let board = &self.board;
        if (board.by_role(Role::Pawn) | board.rooks_and_queens()).any() {
            return false;
        }
        let minors = board.by_role(Role::Knight) | board.by_role(Role::Bishop);
        if minors.count() <= 1 {
            return true;
        }
        let bishops = board.by_role(Role::Bishop);
        board.by_role(Role::Knight).is_empty()
            && (bishops.intersects(Bitboard::DARK_SQUARES)
                ^ bishops.intersects(Bitboard::LIGHT_SQUARES))
    }

    /// True when a legal en passant capture exists (only then does the en
    /// passant square count for repetition).
    pub fn has_legal_en_passant(&self) -> bool {
        let Some(ep) = self.ep_square else {
            return false;
        };
        let mut counter = CountVisitor(0);
        self.visit_en_passant(&mut counter, self.our_king(), ep);
        counter.0 > 0
    }

    /// Plays a legal move. The fast path: no legality check.
    pub fn play_move_unchecked(&mut self, m: &Move) {
        let us = self.turn;
        self.ep_square = None;
        self.halfmoves += 1;
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                if let Some(captured) = capture {
                    self.board.toggle_piece(Piece::new(!us, captured), to);
                    self.castling_rights.remove(to);
                }
                self.board.move_piece(Piece::new(us, role), from, to);
                if let Some(promoted) = promotion {
                    self.board.toggle_piece(Piece::new(us, Role::Pawn), to);
                    self.board.toggle_piece(Piece::new(us, promoted), to);
                }
                match role {
                    Role::King => self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST),
                    Role::Pawn if from.rank().index().abs_diff(to.rank().index()) == 2 => {
                        self.ep_square = self.capturable_skipped_square(from, to);
                    }
                    _ => {}
                }
                self.castling_rights.remove(from);
                if m.is_zeroing() {
                    self.halfmoves = 0;
                }
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board
                    .toggle_piece(Piece::new(!us, Role::Pawn), captured);
                self.board.move_piece(Piece::new(us, Role::Pawn), from, to);
                self.halfmoves = 0;
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_squares(king, rook);
                self.board.toggle_piece(Piece::new(us, Role::King), king);
                self.board.toggle_piece(Piece::new(us, Role::Rook), rook);
                self.board
                    .toggle_piece(Piece::new(us, Role::King), side.king_to(us));
                self.board
                    .toggle_piece(Piece::new(us, Role::Rook), side.rook_to(us));
                self.castling_rights &= !Bitboard::relative_rank(us, Rank::FIRST);
            }
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !us;
    }

    /// After a double step from `from` to `to`: the skipped square, kept
    /// only when an enemy pawn could capture onto it (so positions that
    /// differ only in an unusable en passant square compare equal).
    fn capturable_skipped_square(&self, from: Square, to: Square) -> Option<Square> {
        let us = self.turn;
        let skipped = Square::from_index_masked((from.index() as u32 + to.index() as u32) / 2);
        let their_pawns = self.board.by_piece(Piece::new(!us, Role::Pawn));
        attacks::pawn_attacks(us, skipped)
            .intersects(their_pawns)
            .then_some(skipped)
    }

    /// The Zobrist key of the FIDE state: pieces, side to move, castling
    /// rights and a usable en passant square.
    pub fn zobrist(&self) -> u64 {
        let mut key = 0;
        // By piece bitboards, not square by square: no role lookup per
        // square (this runs after every move, for repetition).
        for color in Color::ALL {
            for role in Role::FIDE {
                for sq in self.board.by_piece(Piece::new(color, role)) {
                    key ^= zobrist::piece(color, role, sq);
                }
            }
        }
        if self.turn == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        for rook in self.castling_rights {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            if self.has_legal_en_passant() {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        key
    }
}

/// Checks the material any FIDE-like board must have: one king a side, no
/// pawns on the back ranks, at most 16 men and 8 pawns a side.
pub fn validate_fide_material(board: &Board) -> Result<(), PositionError> {
    for color in Color::ALL {
        let kings = board.by_piece(Piece::new(color, Role::King)).count();
        if kings == 0 {
            return Err(PositionError::MissingKing(color));
        }
        if kings > 1 {
            return Err(PositionError::TooManyKings(color));
        }
        let men = board.by_color(color).count();
        if men > 16 {
            return Err(PositionError::TooManyPieces(color, men));
        }
        let pawns = board.by_piece(Piece::new(color, Role::Pawn)).count();
        if pawns > 8 {
            return Err(PositionError::TooManyPawns(color, pawns));
        }
    }
    if let Some(sq) = (board.by_role(Role::Pawn) & Bitboard::BACKRANKS).first() {
        return Err(PositionError::PawnOnBackRank(sq));
    }
    Ok(())
}

/// Each castling right needs the king on e1/e8 and a rook of its colour on
/// the corner.
pub fn validate_castling_rights(board: &Board, rights: Bitboard) -> Result<(), PositionError> {
    for rook in rights {
        let color = if rook.rank() == Rank::FIRST {
            Color::White
        } else {
            Color::Black
        };
        let king_home = Square::E1.relative_to(color);
        if board.piece_at(king_home) != Some(Piece::new(color, Role::King))
            || board.piece_at(rook) != Some(Piece::new(color, Role::Rook))
        {
            return Err(PositionError::BadCastlingRight { color, rook });
        }
    }
    Ok(())
}

/// An en passant square must be on the mover's sixth rank, empty, with the
/// square behind it empty and an enemy pawn in front of it.
pub fn validate_ep_square(board: &Board, turn: Color, ep: Square) -> Result<(), PositionError> {
    let bad = Err(PositionError::BadEnPassant(ep));
    if ep.relative_rank(turn) != Rank::SIXTH {
        return bad;
    }
    let (Some(pawn), Some(origin)) = (
        ep.offset(0, turn.fold(-1, 1)),
        ep.offset(0, turn.fold(1, -1)),
    ) else {
        return bad;
    };
    if board.occupied().contains(ep)
        || board.occupied().contains(origin)
        || board.piece_at(pawn) != Some(Piece::new(!turn, Role::Pawn))
    {
        return bad;
    }
    Ok(())
}

impl Position for Chess {
    type Action = Move;

    fn variant_name(&self) -> &'static str {
        "chess"
    }

    fn turn(&self) -> Color {
        self.turn
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
        if !has_legal_action {
            return Some(if self.is_check() {
                Outcome::Decisive {
                    winner: !self.turn,
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome::Draw {
                    termination: Termination::Stalemate,
                }
            });
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw {
                termination: Termination::InsufficientMaterial,
            });
        }
        if self.halfmoves >= 100 {
            return Some(Outcome::Draw {
                termination: Termination::FiftyMoves,
            });
        }
        None
    }

    fn repetition_key(&self) -> u64 {
        self.zobrist()
    }

    fn is_irreversible(&self, action: &Move) -> bool {
        // Losing a castling right also makes earlier positions unrepeatable.
        action.is_zeroing()
            || action.is_castle()
            || (self.castling_rights.any()
                && (action.role() == Role::King
                    || self.castling_rights.contains(action.from())
                    || self.castling_rights.contains(action.to())))
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
