//! Hostage Chess (John Leslie, 1997): captured men wait in the capturer's
//! prison and come back through hostage exchanges and airfield drops.
//!
//! The rules as implemented, ruling by ruling, are in docs/rules/hostage.md.
//! State beside the shared [`Board`]: a prison and an airfield per side as
//! counts by role ([`Reserve`]), castling rights as a bitboard of rook
//! squares (so a rook dropped on its home corner simply adds its square,
//! H5), and which kings have never moved (the condition for H5).
//!
//! Every variant's file set (docs/architecture.md): this file (the
//! position, `impl Position`), `action` ([`HostageAction`]), `setup`
//! ([`HostageSetup`], the FEN dialect, validation), `movegen`, `notation`,
//! [`encoding`] (the fixed action space and the observation tensor),
//! `diagram` and `variant` (registry entry, claim features); and
//! `reserve`, the prisons and airfields.

mod action;
mod diagram;
pub mod encoding;
mod gesture;
mod movegen;
mod notation;
mod reserve;
mod setup;
mod variant;

pub use crate::fide::movegen::MoveSink;
pub use action::HostageAction;
pub use movegen::{ActionVisitor, CountVisitor, ListVisitor};
pub use reserve::{exchange_value, Reserve, FULL_SET, PROMOTION_ROLES, RESERVE_ROLES};
pub use setup::HostageSetup;

use crate::fide::state::{fide_accessors, fide_position_members};
use crate::fide::{endings, FideState};
use crate::zobrist;
use crate::{Bitboard, Board, Color, Move, Outcome, Piece, Position, Rank, Role, Square};

/// Zobrist domain of prison and airfield counts.
const DOMAIN_RESERVES: u64 = zobrist::DOMAIN_VARIANT_BASE + 1;
/// `zobrist::key(DOMAIN_RESERVES, index)` for every (reserve slot, role,
/// count) index, precomputed: the key is recomputed after every step for
/// repetition, and mixing twenty counts each time showed in profiles.
const RESERVE_KEYS: [u64; 4 * 5 * 16] = {
    let mut keys = [0; 4 * 5 * 16];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = zobrist::key(DOMAIN_RESERVES, i as u64);
        i += 1;
    }
    keys
};
/// Zobrist domain of the kings that have never moved.
const DOMAIN_UNMOVED_KING: u64 = zobrist::DOMAIN_VARIANT_BASE + 2;

/// A legal Hostage Chess position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hostage {
    /// Board and FIDE fields; the castling rights include dropped rooks
    /// (H5).
    fide: FideState,
    /// `prisons[c]`: the enemy men that `c` has captured.
    prisons: [Reserve; 2],
    /// `airfields[c]`: men of colour `c` handed over by the opponent in
    /// exchanges, ready for `c` to drop.
    airfields: [Reserve; 2],
    /// Home squares (e1, e8) of kings that have never moved: a rook
    /// dropped on its corner may castle only with such a king (H5).
    unmoved_kings: Bitboard,
}

impl Hostage {
    /// The starting position: the FIDE setup, empty prisons and airfields.
    pub fn new() -> Hostage {
        Hostage::from_setup(HostageSetup::standard()).expect("the standard position is legal")
    }

    fide_accessors!(Board);

    /// The enemy men `color` has captured.
    #[inline]
    pub fn prison(&self, color: Color) -> &Reserve {
        &self.prisons[color.index()]
    }

    /// The men of `color` waiting to be dropped by `color`.
    #[inline]
    pub fn airfield(&self, color: Color) -> &Reserve {
        &self.airfields[color.index()]
    }

    /// Home squares of the kings that have never moved.
    #[inline]
    pub fn unmoved_kings(&self) -> Bitboard {
        self.unmoved_kings
    }

    /// Men of both colours on the board, in prisons and in airfields. No
    /// action changes it (H7), so it is the count of the position the game
    /// started from: 32 from the standard start, fewer from a composed one.
    pub fn total_men(&self) -> u32 {
        self.fide.board.occupied().count() as u32
            + self
                .prisons
                .iter()
                .chain(&self.airfields)
                .map(Reserve::total)
                .sum::<u32>()
    }

    #[inline]
    fn our_king(&self) -> Square {
        self.fide
            .board
            .king_of(self.fide.turn)
            .expect("validated position has a king")
    }

    /// True when `color` has something to promote to: one of its knights,
    /// bishops, rooks or queens in the opponent's prison (H6).
    #[inline]
    pub fn can_promote(&self, color: Color) -> bool {
        self.prisons[(!color).index()].has_promotion_piece()
    }

    /// Pawns of `color` on its seventh rank with nothing to promote to: they
    /// may not advance and attack nothing (H6).
    #[inline]
    pub fn blocked_pawns(&self, color: Color) -> Bitboard {
        if self.can_promote(color) {
            Bitboard::EMPTY
        } else {
            self.fide.board.by_piece(Piece::new(color, Role::Pawn))
                & Bitboard::relative_rank(color, Rank::SEVENTH)
        }
    }

    /// Pieces of `attacker` attacking `sq` with `occupied` as blockers, by
    /// Hostage rules: FIDE attacks, except that blocked seventh-rank pawns
    /// attack nothing (H6).
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.fide.board.attackers_to(sq, attacker, occupied) - self.blocked_pawns(attacker)
    }

    /// Enemy men giving check.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.our_king(), !self.fide.turn, self.fide.board.occupied())
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_action()
    }

    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_action()
    }

    /// Plays a legal action. The fast path: no legality check.
    pub fn play_action_unchecked(&mut self, action: &HostageAction) {
        let us = self.fide.turn;
        let them = !us;
        self.fide.begin_ply();
        match *action {
            HostageAction::Move(m) => self.play_move(us, &m),
            HostageAction::Drop { role, to } => {
                self.airfields[us.index()].remove(role);
                self.drop_man(us, role, to);
            }
            HostageAction::Exchange { given, rescued, to } => {
                self.prisons[us.index()].remove(given);
                self.airfields[them.index()].add(given);
                self.prisons[them.index()].remove(rescued);
                self.drop_man(us, rescued, to);
            }
        }
        self.fide.end_turn(action.is_zeroing());
    }

    /// Puts a man on an empty square; a rook dropped on its own home corner
    /// beside an unmoved king may castle (H5).
    fn drop_man(&mut self, us: Color, role: Role, to: Square) {
        self.fide.board.toggle_piece(Piece::new(us, role), to);
        if role == Role::Rook
            && (Bitboard::CORNERS & Bitboard::relative_rank(us, Rank::FIRST)).contains(to)
            && self.unmoved_kings.contains(Square::E1.relative_to(us))
        {
            self.fide.castling_rights.add(to);
        }
    }

    /// A FIDE move; captured men go to our prison, and a promotion
    /// exchanges the pawn for the released piece in their prison (H6).
    fn play_move(&mut self, us: Color, m: &Move) {
        let them = !us;
        self.fide.play_move(m, Role::Rook, Bitboard::EMPTY);
        if let Some(captured) = m.capture() {
            self.prisons[us.index()].add(captured);
        }
        if let Some(released) = m.promotion() {
            self.prisons[them.index()].remove(released);
            self.prisons[them.index()].add(Role::Pawn);
        }
        if m.role() == Role::King {
            self.unmoved_kings &= !Bitboard::relative_rank(us, Rank::FIRST);
        }
    }

    /// The Zobrist key: pieces, side to move, castling rights, a usable en
    /// passant square, both prisons and airfields, and the unmoved kings.
    pub fn zobrist(&self) -> u64 {
        let mut key = zobrist::board_pieces(&self.fide.board)
            ^ self.fide.zobrist_fields(|_| self.has_legal_en_passant());
        for (slot, reserve) in self.prisons.iter().chain(&self.airfields).enumerate() {
            for (i, count) in reserve.counts().into_iter().enumerate() {
                if count > 0 {
                    key ^= RESERVE_KEYS[(slot * 5 + i) * 16 + usize::from(count)];
                }
            }
        }
        for home in self.unmoved_kings {
            key ^= zobrist::key(DOMAIN_UNMOVED_KING, home.index() as u64);
        }
        key
    }
}

impl Position for Hostage {
    type Action = HostageAction;

    fide_position_members!(visit_legal_actions, parse_action_text, standard_notation);

    fn is_legal(&self, action: &HostageAction) -> bool {
        // Checked against the generator: the one source of truth.
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions.contains(action)
    }

    fn play_unchecked(&mut self, action: &HostageAction) {
        self.play_action_unchecked(action);
    }

    /// Checkmate, stalemate (a draw) and the 50-move rule; no
    /// insufficient-material draw, since men never leave the game (H7).
    fn has_legal_action(&self) -> bool {
        Hostage::has_legal_action(self)
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        if !has_legal_action {
            return Some(endings::checkmate_or_stalemate(
                self.is_check(),
                self.fide.turn,
            ));
        }
        endings::fifty_moves(self.fide.halfmoves)
    }

    /// Captured men come back, moved pawns can be captured and dropped on
    /// their old squares, and a rook dropped on its corner regains its
    /// castling right, so almost nothing is irreversible: only the first
    /// move of a king (its unmoved status never returns).
    fn is_irreversible(&self, action: &HostageAction) -> bool {
        match action {
            HostageAction::Move(m) => {
                (m.role() == Role::King || m.is_castle())
                    && self
                        .unmoved_kings
                        .contains(Square::E1.relative_to(self.fide.turn))
            }
            _ => false,
        }
    }
}
