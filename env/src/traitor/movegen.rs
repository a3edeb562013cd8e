//! Legal action generation.
//!
//! Moves are generated pseudo-legally by colour and control (control.rs),
//! then filtered by a King test prepared once per position ([`KingGuard`]):
//! the pieces that attack the mover's King (T4: traitors and mercenaries of
//! either colour attack both Kings, T6: double agents the King of the other
//! colour), the checkers and the pieces that alone shield the King from an
//! enemy slider. A move of a piece that does not itself attack the mover's
//! King is then legal exactly when it lands in the check mask and, for a
//! shield, stays on its line; such moves are accepted as whole bitboards
//! (and counted by popcount). A piece that attacks its own mover's King
//! (a traitor or mercenary moved by its controller, an enemy-coloured
//! double agent) is tested move by move with after-move occupancy; King
//! moves by attacks on the destination. En passant and castling, rare,
//! play the move on a copy ([`Traitor::is_safe_by_playing`]).
//!
//! The old generator, which plays every pseudo-legal move on a copy, stays
//! as the reference ([`Traitor::legal_actions_by_playing`]); the tests in
//! `env/tests/integration/traitor_movegen.rs` compare both on random games of all
//! fifteen combinations. Buffers are fixed-capacity `ArrayVec`s on the
//! stack: nothing allocates per node.

use std::ops::ControlFlow;

use arrayvec::ArrayVec;

use super::action::TraitorAction;
use super::control;
use super::play::move_pieces;
use super::rules::{value, Commitment, Mode};
use super::selection::{visit_selections, Secret, Selection};
use super::{Step, Traitor};
use crate::attacks;
use crate::fide::{castling, move_groups};
use crate::{Bitboard, Board, Color, Move, Piece, Rank, Role, Square};

/// 32 pieces can be movable by one player in the shared modes; each moves
/// to at most 27 squares, and a pawn's 3 targets give 12 promotion moves:
/// 32 x 27 = 864 < 1024.
pub const MAX_PSEUDO_MOVES: usize = 1024;

pub type PseudoMoves = ArrayVec<Move, MAX_PSEUDO_MOVES>;

/// What the King test needs, computed once per position instead of once
/// per move (copying the position for every move made generation ~40x
/// slower than FIDE chess).
struct KingGuard {
    /// The mover's King; without one (a set-up position) nothing is illegal.
    king: Option<Square>,
    /// Pieces that attack that King under the mode (control::king_enemies).
    enemies: Bitboard,
    /// Where a move by a piece outside `enemies` (other than the King) must
    /// land: anywhere out of check, on the checker or between it and the
    /// King in single check, nowhere in double check (no single move can
    /// both capture one checker and block the other).
    check_mask: Bitboard,
    /// Pieces (any colour) that alone stand between the King and an enemy
    /// rook, bishop or queen: moving one off that line uncovers the King.
    blockers: Bitboard,
}

impl KingGuard {
    fn new(board: &Board, announced: Bitboard, mode: Mode, us: Color) -> KingGuard {
        let enemies = control::king_enemies(board, announced, mode, us);
        let Some(king) = board.king_of(us) else {
            return KingGuard {
                king: None,
                enemies,
                check_mask: Bitboard::FULL,
                blockers: Bitboard::EMPTY,
            };
        };
        let occupied = board.occupied();
        let checkers = control::attackers_to(board, king, enemies, occupied);
        let check_mask = if checkers.is_empty() {
            Bitboard::FULL
        } else if let Some(checker) = checkers.single_square() {
            attacks::between(king, checker).with(checker)
        } else {
            Bitboard::EMPTY
        };
        let snipers = enemies
            & ((attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
                | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens()));
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if !between.more_than_one() {
                blockers |= between;
            }
        }
        KingGuard {
            king: Some(king),
            enemies,
            check_mask,
            blockers,
        }
    }

    /// The legal destinations among `targets` of the normal moves of the
    /// piece on `from`, and whether each still needs
    /// [`KingGuard::safe_after`] (the piece attacks the mover's King itself,
    /// so where it lands matters).
    #[inline]
    fn filter(&self, board: &Board, from: Square, targets: Bitboard) -> (Bitboard, bool) {
        let Some(king) = self.king else {
            return (targets, false);
        };
        if from == king {
            // The King leaves its square: test each destination with the
            // King off the board (it would block nothing there).
            let occupied = board.occupied().without(king);
            let mut legal = Bitboard::EMPTY;
            for to in targets {
                if control::attackers_to(board, to, self.enemies.without(to), occupied).is_empty() {
                    legal.add(to);
                }
            }
            return (legal, false);
        }
        if self.enemies.contains(from) {
            return (targets, true);
        }
        let mut legal = targets & self.check_mask;
        if self.blockers.contains(from) {
            legal &= attacks::line(king, from);
        }
        (legal, false)
    }

    /// The King is safe after `from` (a piece that attacks it) moves to
    /// `to`, where it stands as `after` (a promotion changes the role).
    #[inline]
    fn safe_after(&self, board: &Board, from: Square, to: Square, after: Piece) -> bool {
        let Some(king) = self.king else {
            return true;
        };
        let occupied = board.occupied().without(from).with(to);
        control::attackers_to(
            board,
            king,
            self.enemies.without(from).without(to),
            occupied,
        )
        .is_empty()
            && !control::piece_attacks(after, to, occupied).contains(king)
    }
}

/// Where legal moves go: visited one by one, or only counted.
trait MoveSink {
    /// The normal moves of `piece` from `from` to each of `legal`, all
    /// legal, promotions expanded.
    fn piece_moves(
        &mut self,
        board: &Board,
        from: Square,
        piece: Piece,
        legal: Bitboard,
    ) -> ControlFlow<()>;
    /// One legal move.
    fn one(&mut self, m: Move) -> ControlFlow<()>;
}

/// Visits moves in generator order; the visitor breaks to stop early.
struct Visit<F>(F);

impl<F: FnMut(Move) -> ControlFlow<()>> MoveSink for Visit<F> {
    #[inline]
    fn piece_moves(
        &mut self,
        board: &Board,
        from: Square,
        piece: Piece,
        legal: Bitboard,
    ) -> ControlFlow<()> {
        for to in legal {
            visit_normal(board, from, piece, to, &mut |m| (self.0)(m))?;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn one(&mut self, m: Move) -> ControlFlow<()> {
        (self.0)(m)
    }
}

/// Counts moves without building them: popcounts, four per promotion square.
struct Count(usize);

impl MoveSink for Count {
    #[inline]
    fn piece_moves(
        &mut self,
        _: &Board,
        _: Square,
        piece: Piece,
        legal: Bitboard,
    ) -> ControlFlow<()> {
        self.0 += move_groups::count_moves(piece.role, legal, || Role::FIDE_PROMOTIONS.len());
        ControlFlow::Continue(())
    }

    #[inline]
    fn one(&mut self, _: Move) -> ControlFlow<()> {
        self.0 += 1;
        ControlFlow::Continue(())
    }
}

/// The normal move(s) of `piece` from `from` to `to`: four promotions when
/// a pawn reaches a back rank.
#[inline]
fn visit_normal(
    board: &Board,
    from: Square,
    piece: Piece,
    to: Square,
    visit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let capture = board.role_at(to);
    if piece.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
        for promotion in Role::FIDE_PROMOTIONS {
            visit(Move::Normal {
                role: piece.role,
                from,
                capture,
                to,
                promotion: Some(promotion),
            })?;
        }
        ControlFlow::Continue(())
    } else {
        visit(Move::Normal {
            role: piece.role,
            from,
            capture,
            to,
            promotion: None,
        })
    }
}

impl Traitor {
    /// Every legal action, in generator order: selections; or
    /// announcements (by square, a1 first) then moves.
    pub(crate) fn visit_legal_actions(&self, visit: &mut impl FnMut(TraitorAction)) {
        match self.step {
            Step::Select => self.visit_selection_actions(visit),
            Step::Open => {
                self.visit_announcements(&mut |id| visit(TraitorAction::Announce(id)));
                self.visit_legal_moves(&mut |m| visit(TraitorAction::Move(m)));
            }
            Step::Announced(_) => self.visit_legal_moves(&mut |m| visit(TraitorAction::Move(m))),
        }
    }

    /// The number of legal actions, counted without building the moves.
    pub(crate) fn count_legal(&self) -> usize {
        match self.step {
            Step::Select => {
                let mut count = 0;
                self.visit_selection_actions(&mut |_| count += 1);
                count
            }
            Step::Open => {
                let mut count = 0;
                self.visit_announcements(&mut |_| count += 1);
                count + self.count_legal_moves()
            }
            Step::Announced(_) => self.count_legal_moves(),
        }
    }

    fn visit_selection_actions(&self, visit: &mut impl FnMut(TraitorAction)) {
        visit_selections(
            &self.fide.board,
            &self.ids,
            self.fide.turn,
            self.rules.commitment == Commitment::Standard,
            &mut |selection| visit(TraitorAction::Select(selection)),
        );
    }

    /// Every legal action by the reference generator, which plays each
    /// pseudo-legal move on a copy of the position and looks for check:
    /// slow and simple, kept to test the fast one against
    /// (`env/tests/integration/traitor_movegen.rs`). Same actions, same order.
    #[doc(hidden)]
    pub fn legal_actions_by_playing(&self, out: &mut Vec<TraitorAction>) {
        out.clear();
        match self.step {
            Step::Select => self.visit_selection_actions(&mut |a| out.push(a)),
            Step::Open | Step::Announced(_) => {
                if self.step == Step::Open {
                    self.visit_announcements_with(
                        &mut |id| out.push(TraitorAction::Announce(id)),
                        Traitor::has_legal_move_by_playing,
                    );
                }
                let mut moves = PseudoMoves::new();
                self.generate_pseudo_moves(&mut moves);
                out.extend(
                    moves
                        .into_iter()
                        .filter(|m| self.is_safe_by_playing(m))
                        .map(TraitorAction::Move),
                );
            }
        }
    }

    /// True when the player to act has any legal action.
    pub(crate) fn has_legal_action(&self) -> bool {
        match self.step {
            Step::Select => true,
            Step::Announced(_) => self.has_legal_move(),
            Step::Open => {
                self.has_legal_move() || {
                    let mut any = false;
                    self.visit_announcements(&mut |_| any = true);
                    any
                }
            }
        }
    }

    /// Every legal move of the player to act.
    pub fn legal_moves(&self) -> PseudoMoves {
        let mut moves = PseudoMoves::new();
        if self.step != Step::Select {
            self.visit_legal_moves(&mut |m| push(&mut moves, m));
        }
        moves
    }

    pub(crate) fn visit_legal_moves(&self, visit: &mut impl FnMut(Move)) {
        let _ = self.generate_legal_moves(&mut Visit(|m| {
            visit(m);
            ControlFlow::Continue(())
        }));
    }

    fn count_legal_moves(&self) -> usize {
        let mut count = Count(0);
        let _ = self.generate_legal_moves(&mut count);
        count.0
    }

    pub(crate) fn has_legal_move(&self) -> bool {
        self.generate_legal_moves(&mut Visit(|_| ControlFlow::Break(())))
            .is_break()
    }

    fn has_legal_move_by_playing(&self) -> bool {
        let mut moves = PseudoMoves::new();
        self.generate_pseudo_moves(&mut moves);
        moves.iter().any(|m| self.is_safe_by_playing(m))
    }

    /// The mover's King is not in check after `m` (T4: by any piece that
    /// attacks it, the mover's own traitors and mercenaries included),
    /// found by playing `m` on a copy of the board.
    #[inline]
    fn is_safe_by_playing(&self, m: &Move) -> bool {
        let mut board = self.fide.board.clone();
        let mut announced = self.announced;
        move_pieces(&mut board, &mut announced, m);
        control::checkers(&board, announced, self.rules.mode, self.fide.turn).is_empty()
    }

    /// The pseudo-legal normal-move destinations of `piece` on `from`:
    /// movement, colour and control, the double step of unmoved pawns only
    /// (T11), and the weak ko (T6-T8: the piece the opponent just moved may
    /// not go straight back).
    #[inline]
    fn pseudo_targets(&self, from: Square, piece: Piece, victims: Bitboard) -> Bitboard {
        let occupied = self.fide.board.occupied();
        let empty = !occupied;
        let mut targets = match piece.role {
            Role::Pawn => {
                let mut pushes = attacks::pawn_pushes(piece.color, from, occupied);
                if !self.pawn_unmoved(from) {
                    // T11: the double step is the pawn's own first move
                    // only, even on its new colour's second rank.
                    pushes &= Bitboard::from_square(from).shift_forward(piece.color);
                }
                pushes | (attacks::pawn_attacks(piece.color, from) & victims)
            }
            _ => control::piece_attacks(piece, from, occupied) & (empty | victims),
        };
        if let Some((ko_from, ko_to)) = self.last_move.filter(|_| self.rules.mode.shared()) {
            if from == ko_to {
                targets.remove(ko_from);
            }
        }
        targets
    }

    /// The en passant capture open to the pawn `piece` on `from`, if any.
    #[inline]
    fn en_passant(&self, from: Square, piece: Piece, victims: Bitboard) -> Option<Move> {
        let ep = self.fide.ep_square?;
        let captured = Square::from_coords(ep.file(), from.rank());
        (attacks::pawn_attacks(piece.color, from).contains(ep)
            && self.fide.board.by_role(Role::Pawn).contains(captured)
            && victims.contains(captured)
            && !self.fide.board.occupied().contains(ep))
        .then_some(Move::EnPassant { from, to: ep })
    }

    /// The legal moves, in the reference generator's order (by piece, a1
    /// first; its destinations a1 first, promotions Q R B N; its en passant;
    /// then castling), into `sink`.
    fn generate_legal_moves(&self, sink: &mut impl MoveSink) -> ControlFlow<()> {
        let board = &self.fide.board;
        let mode = self.rules.mode;
        let guard = KingGuard::new(board, self.announced, mode, self.fide.turn);
        for from in self.movable(self.fide.turn) {
            let piece = board.piece_at(from).expect("movable piece");
            let victims = control::capturable_by(board, self.announced, mode, from);
            let targets = self.pseudo_targets(from, piece, victims);
            let (legal, per_move) = guard.filter(board, from, targets);
            if per_move {
                for to in legal {
                    visit_normal(board, from, piece, to, &mut |m| {
                        let after = match m {
                            Move::Normal {
                                promotion: Some(role),
                                ..
                            } => Piece::new(piece.color, role),
                            _ => piece,
                        };
                        if guard.safe_after(board, from, to, after) {
                            sink.one(m)
                        } else {
                            ControlFlow::Continue(())
                        }
                    })?;
                }
            } else if legal.any() {
                sink.piece_moves(board, from, piece, legal)?;
            }
            if piece.role == Role::Pawn {
                if let Some(m) = self.en_passant(from, piece, victims) {
                    if self.is_safe_by_playing(&m) {
                        sink.one(m)?;
                    }
                }
            }
        }
        let mut result = ControlFlow::Continue(());
        self.visit_castling(&mut |m| {
            if result.is_continue() && self.is_safe_by_playing(&m) {
                result = sink.one(m);
            }
        });
        result
    }

    /// Moves by movement, colour and control only; the King test comes
    /// later (the reference generator).
    fn generate_pseudo_moves(&self, out: &mut PseudoMoves) {
        let board = &self.fide.board;
        for from in self.movable(self.fide.turn) {
            let piece = board.piece_at(from).expect("movable piece");
            let victims = control::capturable_by(board, self.announced, self.rules.mode, from);
            for to in self.pseudo_targets(from, piece, victims) {
                let _ = visit_normal(board, from, piece, to, &mut |m| {
                    push(out, m);
                    ControlFlow::Continue(())
                });
            }
            if piece.role == Role::Pawn {
                if let Some(m) = self.en_passant(from, piece, victims) {
                    push(out, m);
                }
            }
        }
        self.visit_castling(&mut |m| push(out, m));
    }

    /// T9: an unmoved King and an unmoved regular rook of the castling
    /// side (the rights), empty squares between, and no square the King
    /// stands on, crosses or reaches attacked.
    fn visit_castling(&self, visit: &mut impl FnMut(Move)) {
        let board = &self.fide.board;
        let us = self.fide.turn;
        let Some(king) = board.king_of(us) else {
            return;
        };
        let rights = self.fide.castling_rights & Bitboard::relative_rank(us, Rank::FIRST);
        if rights.is_empty() {
            return;
        }
        let enemies = control::king_enemies(board, self.announced, self.rules.mode, us);
        for rook in rights {
            if board.piece_at(rook) != Some(Piece::new(us, Role::Rook))
                || self.announced.contains(rook)
            {
                continue;
            }
            if castling::can_castle(board.occupied(), us, king, rook, true, |sq, occupied| {
                control::attackers_to(board, sq, enemies, occupied).any()
            }) {
                visit(Move::Castle { king, rook });
            }
        }
    }

    /// The pieces the player to act may announce now, by id (T2-T8).
    pub(crate) fn visit_announcements(&self, visit: &mut impl FnMut(Square)) {
        self.visit_announcements_with(visit, Traitor::has_legal_move);
    }

    /// [`Traitor::visit_announcements`] with the test "a move can follow"
    /// given, so the reference generator can use its own.
    fn visit_announcements_with(
        &self,
        visit: &mut impl FnMut(Square),
        has_legal_move: fn(&Traitor) -> bool,
    ) {
        if self.step != Step::Open {
            return;
        }
        let us = self.fide.turn;
        let mode = self.rules.mode;
        let mut candidates = self.fide.board.by_color(!us) - self.fide.board.by_role(Role::King);
        if mode.keeps_status() {
            candidates = candidates - self.announced;
        }
        let budget = self.budgets[us.index()];
        for sq in candidates {
            let Some(id) = self.id_at(sq) else { continue };
            let role = self.fide.board.role_at(sq).expect("occupied");
            let allowed = match self.secrets[us.index()] {
                Secret::Remaining(Selection::Pieces(ids)) => ids.contains(id),
                Secret::Remaining(Selection::Types(counts)) => counts.get(role) > 0,
                Secret::Nothing => self.rules.commitment == Commitment::Impromptu,
                Secret::Unchosen => false,
            } && self.announcement_cost(sq, id) <= budget
                && value(role) > 0;
            if !allowed || (self.rules.forbids_immediate_undo() && self.undo_forbidden == Some(id))
            {
                continue;
            }
            let mut after = self.clone();
            after.play_announce_at(sq, id);
            // T4a, T5, T7, T8: checks by the piece just announced.
            let forbidden_check = Color::ALL.into_iter().any(|king| {
                self.rules.forbids_announced_check(king, us)
                    && control::gives_check(&after.fide.board, after.announced, mode, sq, king)
            });
            // T3: an announcement is not a turn; a move must be possible after it.
            if !forbidden_check && has_legal_move(&after) {
                visit(id);
            }
        }
    }
}

#[inline]
fn push(out: &mut PseudoMoves, m: Move) {
    // The capacity bound above makes overflow impossible; stay safe anyway.
    let _ = out.try_push(m);
}
