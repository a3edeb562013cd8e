//! Direct legal generation of the board moves on a FIDE board, given the
//! variant's attack rule: the king's safe steps, the moves of the men a
//! pin or a check restricts, en passant and castling. Chess and Hostage
//! generate every board move through [`BoardMoves::visit`]; they differ
//! only in what attacks (Hostage's blocked seventh-rank pawns attack
//! nothing) and so in which pawns move and which captures stay legal,
//! which they pass in. Poison, whose men and attacks differ more (frozen
//! pieces, Harpies, Guards and Doctors), builds on the same pieces:
//! [`legality`], [`en_passant::visit_legal`] and [`castling::visit_legal`].
//!
//! Everything here is `#[inline(always)]` and takes closures, so each
//! variant gets its own monomorphised generator (perft speed depends on
//! it).

use crate::attacks;
use crate::{Bitboard, Board, Color, Move, Role, Square};

use super::{castling, en_passant, legality};

/// Where the generated board moves of a position of type `P` go (each
/// variant's visitors: counting, listing, "is there any?").
pub trait MoveSink<P: ?Sized> {
    /// Moves of our man on `from` to each square of `targets` in
    /// `position` (for pawns, a target on the last rank stands for every
    /// promotion the variant allows there).
    fn piece_moves(&mut self, position: &P, role: Role, from: Square, targets: Bitboard);
    /// One special move (en passant, castling).
    fn special(&mut self, m: Move);
    /// True when the sink has seen enough: generation stops early (at the
    /// next group of men). Lets "is there any legal move?" stop at the
    /// first one, which is usually a king step or a knight jump.
    #[inline]
    fn is_done(&self) -> bool {
        false
    }
}

/// Notes whether any move was generated and stops generation at the first:
/// the cheap "is there a legal move?" behind every outcome test. Any
/// position type's sink, so each variant's generator shares it.
pub struct AnyMove(pub bool);

impl<P: ?Sized> MoveSink<P> for AnyMove {
    #[inline]
    fn piece_moves(&mut self, _: &P, _: Role, _: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }

    #[inline]
    fn special(&mut self, _: Move) {
        self.0 = true;
    }

    #[inline]
    fn is_done(&self) -> bool {
        self.0
    }
}

/// One position's board as the generator needs it, with the variant's
/// attack rule.
pub struct BoardMoves<'a, A, K> {
    pub board: &'a Board,
    pub us: Color,
    /// Our king's square.
    pub king: Square,
    /// The enemy men giving check, by the variant's attack rule.
    pub checkers: Bitboard,
    pub ep_square: Option<Square>,
    /// The squares of the king's castling partners (rooks) with a right.
    pub castling_rights: Bitboard,
    /// Our pawns that may move (all of them in chess).
    pub pawns: Bitboard,
    /// Squares our men other than the king may not move to besides what
    /// checks and pins forbid (none in chess).
    pub forbidden: Bitboard,
    /// `attackers(square, occupied)`: the enemy men attacking `square`
    /// with `occupied` as blockers (en passant's uncovered checks, the
    /// castling path).
    pub attackers: A,
    /// `king_step_attacked(to, occupied)`: may the king not step to `to`?
    /// Asked with the king lifted off `occupied`; usually
    /// `attackers(to, occupied).any()`, but a capture may change what
    /// attacks (Hostage).
    pub king_step_attacked: K,
}

impl<A, K> BoardMoves<'_, A, K>
where
    A: Fn(Square, Bitboard) -> Bitboard,
    K: Fn(Square, Bitboard) -> bool,
{
    /// Generates every legal board move into `sink`: king steps; in double
    /// check nothing else; then knights, bishops, rooks, queens and pawns
    /// (capturing or blocking a single checker, pinned men on their line);
    /// en passant; castling out of check.
    #[inline(always)]
    pub fn visit<P: ?Sized>(&self, position: &P, sink: &mut impl MoveSink<P>) {
        let board = self.board;
        let (us, king) = (self.us, self.king);
        let ours = board.by_color(us);
        let king_targets = legality::safe_king_steps(
            king,
            attacks::king_attacks(king) & !ours,
            board.occupied(),
            &self.king_step_attacked,
        );
        sink.piece_moves(position, Role::King, king, king_targets);

        if self.checkers.more_than_one() || sink.is_done() {
            return;
        }
        let target = legality::evasion_target(king, self.checkers, ours) - self.forbidden;
        let them = board.by_color(!us);
        let pinned = legality::pinned(
            king,
            ours,
            board.occupied(),
            board.rooks_and_queens() & them,
            board.bishops_and_queens() & them,
        );
        legality::visit_men_moves(
            board,
            us,
            king,
            target,
            pinned,
            self.pawns,
            |role, from, targets| {
                sink.piece_moves(position, role, from, targets);
                sink.is_done()
            },
        );
        if sink.is_done() {
            return;
        }
        if let Some(ep) = self.ep_square {
            self.visit_en_passant(ep, sink);
        }
        if self.checkers.is_empty() {
            castling::visit_legal(
                board.occupied(),
                us,
                king,
                self.castling_rights,
                |sq, occupied| (self.attackers)(sq, occupied).any(),
                |m| sink.special(m),
            );
        }
    }

    /// The legal en passant captures onto `ep` (also the test of whether
    /// the en passant square counts for repetition).
    #[inline(always)]
    pub fn visit_en_passant<P: ?Sized>(&self, ep: Square, sink: &mut impl MoveSink<P>) {
        en_passant::visit_legal(
            self.board,
            self.us,
            ep,
            Bitboard::FULL,
            |occupied| (self.attackers)(self.king, occupied),
            |m| sink.special(m),
        );
    }
}
