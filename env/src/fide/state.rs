//! The FIDE state beside the board: side to move, castling rights, en
//! passant square and the two move clocks, with the per-ply bookkeeping
//! every variant does the same way.

use super::{castling, en_passant};
use crate::{zobrist, Bitboard, Board, Color, Move, Piece, Role, Setup, Square};

/// A validated position's FIDE fields: the same plain struct as the
/// [`Setup`] it was validated from (a board of any kind, [`Board`] or Mad
/// Scientist's, with side to move, castling rights, en passant square and
/// clocks), so validation hands the fields over as they are. Each variant
/// keeps one as its private `fide` field and updates it through the
/// methods below.
pub(crate) type FideState<B = Board> = Setup<B>;

impl FideState<Board> {
    /// Plays a FIDE board move for the side to move, without handing the
    /// turn over: the capture, the promotion, castling with `partner` (the
    /// rook; Poison's Harpy), the rights it loses, and the en passant
    /// square of a double step, kept only when an enemy pawn not in
    /// `frozen` could capture onto it.
    #[inline(always)]
    pub(crate) fn play_move(&mut self, m: &Move, partner: Role, frozen: Bitboard) {
        let us = self.turn;
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
                    Role::King => self.clear_castling(us),
                    Role::Pawn => {
                        if let Some(skipped) = en_passant::skipped_square(from, to) {
                            let takers = self.board.by_piece(Piece::new(!us, Role::Pawn)) - frozen;
                            self.ep_square = en_passant::capturable(us, skipped, takers);
                        }
                    }
                    _ => {}
                }
                self.castling_rights.remove(from);
            }
            Move::EnPassant { from, to } => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.board
                    .toggle_piece(Piece::new(!us, Role::Pawn), captured);
                self.board.move_piece(Piece::new(us, Role::Pawn), from, to);
            }
            Move::Castle { king, rook } => {
                castling::castle_on(&mut self.board, us, king, rook, partner);
                self.clear_castling(us);
            }
        }
    }
}

impl<B> FideState<B> {
    /// Before a ply's changes: no en passant square until a double step
    /// sets one, and the 50-move counter advances.
    #[inline(always)]
    pub(crate) fn begin_ply(&mut self) {
        self.ep_square = None;
        self.halfmoves += 1;
    }

    /// After a complete turn: reset the 50-move counter on a zeroing
    /// action, count Black's turns and hand the move over.
    #[inline(always)]
    pub(crate) fn end_turn(&mut self, zeroing: bool) {
        if zeroing {
            self.halfmoves = 0;
        }
        if self.turn == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = !self.turn;
    }

    /// `us`'s king (or Scientist) moved or castled: both its rights go.
    #[inline(always)]
    pub(crate) fn clear_castling(&mut self, us: Color) {
        self.castling_rights &= !Bitboard::relative_rank(us, crate::Rank::FIRST);
    }

    /// The Zobrist keys of the FIDE fields beside the board: side to move,
    /// castling rights, and the en passant file when `usable_ep(square)`
    /// (a legal en passant capture onto it exists) says so.
    #[inline]
    pub(crate) fn zobrist_fields(&self, usable_ep: impl FnOnce(Square) -> bool) -> u64 {
        let mut key = 0;
        if self.turn == Color::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        for rook in self.castling_rights {
            key ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            if usable_ep(ep) {
                key ^= zobrist::en_passant(ep.file());
            }
        }
        key
    }
}

/// The public accessors of the FIDE fields, for a variant whose `fide`
/// field is a [`FideState`] over `$board`.
macro_rules! fide_accessors {
    ($board:ty) => {
        /// The board.
        #[inline]
        pub fn board(&self) -> &$board {
            &self.fide.board
        }

        /// The side to act.
        #[inline]
        pub fn turn(&self) -> $crate::Color {
            self.fide.turn
        }

        /// Squares of the pieces (rooks, Poison's Harpies) that keep their
        /// castling right.
        #[inline]
        pub fn castling_rights(&self) -> $crate::Bitboard {
            self.fide.castling_rights
        }

        /// The square a pawn just skipped, as written in FEN.
        #[inline]
        pub fn ep_square(&self) -> Option<$crate::Square> {
            self.fide.ep_square
        }

        /// Half-moves since the last action that zeroes the 50-move
        /// counter (captures and pawn moves, and what each variant's rules
        /// add to them).
        #[inline]
        pub fn halfmoves(&self) -> u32 {
            self.fide.halfmoves
        }

        #[inline]
        pub fn fullmoves(&self) -> u32 {
            self.fide.fullmoves
        }
    };
}
pub(crate) use fide_accessors;

/// The [`crate::Position`] members that every variant keeping a
/// [`FideState`] in its `fide` field writes alike, invoked inside its
/// `impl Position`: the side to act, the repetition key (the variant's
/// `zobrist()`), the position string (its `to_setup()`'s `to_fen()`), and
/// reading and writing actions with its notation methods `$parse` and
/// `$notation`. Given a generator method `$visit` first, also the list and
/// the count of legal actions, driven with the `ListVisitor` and
/// `CountVisitor` of the variant's `movegen` (every folder has both; the
/// generator is monomorphised per visitor: no dynamic dispatch per node).
macro_rules! fide_position_members {
    ($visit:ident, $parse:ident, $notation:ident) => {
        fn legal_actions(&self, out: &mut Vec<Self::Action>) {
            out.clear();
            self.$visit(&mut ListVisitor(out));
        }

        fn count_legal_actions(&self) -> usize {
            let mut counter = CountVisitor(0);
            self.$visit(&mut counter);
            counter.0
        }

        $crate::fide::state::fide_position_members!($parse, $notation);
    };
    ($parse:ident, $notation:ident) => {
        fn turn(&self) -> $crate::Color {
            self.fide.turn
        }

        fn repetition_key(&self) -> u64 {
            self.zobrist()
        }

        fn fen(&self) -> String {
            self.to_setup().to_fen()
        }

        fn parse_action(&self, text: &str) -> Result<Self::Action, $crate::MoveError> {
            self.$parse(text)
        }

        fn notation(&self, action: &Self::Action) -> String {
            self.$notation(action)
        }
    };
}
pub(crate) use fide_position_members;
