//! Poison Chess (Bryan Lambert, 1999): FIDE chess with Harpies that poison,
//! a Doctor that cures, and frozen poisoned pieces that die after a
//! countdown. The rules as implemented, ruling by ruling, are in
//! docs/rules/poison.md; the rulings P1-P13 are in
//! shared/rules/RULINGS.md.
//!
//! The module, one concept a file; every variant's file set
//! (docs/architecture.md) first:
//! * this file: the position and `impl Position`;
//! * `action`: [`PoisonAction`] (move, poison, cure) and its long form;
//! * `setup`: the unvalidated [`PoisonSetup`], validation and the FEN
//!   dialect with its poison field;
//! * `movegen`: the legal action generator with visitors (fast path) and
//!   the play-and-test reference it is checked against;
//! * `notation`: the text's notation (`xHe5#[f5,5]`, `Dg6[g5,C]`) and the
//!   long form, read and written;
//! * [`encoding`]: the fixed action space and the observation tensor;
//! * `diagram`: countdowns around poisoned pieces;
//! * `variant`: the registry entry;
//!
//! and Poison's own:
//! * `attacks`: who attacks what under P6 (poisoned pieces and Harpies do
//!   not), check and pins;
//! * `play`: executing an action, the countdown and deaths (P3);
//! * `endings`: results (P9, P10, insufficient material, 50 moves).

mod action;
mod attacks;
mod diagram;
pub mod encoding;
mod endings;
mod gesture;
mod movegen;
mod notation;
mod play;
mod setup;
mod variant;

pub use action::PoisonAction;
pub use movegen::{ActionVisitor, CountVisitor, ListVisitor};
pub use notation::SuffixItem;
pub use setup::PoisonSetup;

use crate::fide::state::{fide_accessors, fide_position_members};
use crate::fide::{castling, FideState};
use crate::zobrist;
use crate::{Bitboard, Board, Color, Outcome, Position, Role, Square};

/// The counter a piece gets when it is poisoned (P3).
pub const POISON_COUNTDOWN: u8 = 5;

/// The roles a pawn may promote to, in the order action lists use (P1).
pub const PROMOTIONS: [Role; 4] = [Role::Guard, Role::Rook, Role::Bishop, Role::Knight];

/// The roles that exist in Poison Chess (no Queen, P1).
pub const ROLES: [Role; 8] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::King,
    Role::Harpy,
    Role::Doctor,
    Role::Guard,
];

/// Zobrist domain of (square, counter) of a poisoned piece.
const ZOBRIST_POISON: u64 = zobrist::DOMAIN_VARIANT_BASE;

/// A legal Poison Chess position.
///
/// Poisoned pieces are frozen (P4), so poison never travels: the state is a
/// set of poisoned squares per colour of the poisoned piece plus a counter
/// per square. The counters of Black's poisoned pieces run down on White's
/// actions and vice versa (P3).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PoisonChess {
    /// Board and FIDE fields; the castling rights are the squares of the
    /// unmoved Harpies that may still castle (P11), and the 50-move counter
    /// also zeroes on poisonings, cures and deaths by poison (P12).
    fide: FideState,
    /// Poisoned pieces, indexed by the colour of the poisoned piece.
    poisoned: [Bitboard; 2],
    /// The countdown (1..=5) of the poisoned piece on each square, 0 on the
    /// others.
    counters: [u8; 64],
}

impl PoisonChess {
    /// The starting position of the text: Harpies on the a- and h-files,
    /// the Doctor on the d-file, no Queen.
    pub fn new() -> PoisonChess {
        PoisonChess::from_setup(PoisonSetup::standard()).expect("the start position is legal")
    }

    fide_accessors!(Board);

    /// The poisoned pieces of `color` (frozen, P4).
    #[inline]
    pub fn poisoned(&self, color: Color) -> Bitboard {
        self.poisoned[color.index()]
    }

    /// Every poisoned piece of both colours.
    #[inline]
    pub fn all_poisoned(&self) -> Bitboard {
        self.poisoned[0] | self.poisoned[1]
    }

    /// The countdown of the poisoned piece on `sq` (1..=5), `None` when the
    /// square holds no poisoned piece.
    #[inline]
    pub fn counter(&self, sq: Square) -> Option<u8> {
        match self.counters[sq.index()] {
            0 => None,
            n => Some(n),
        }
    }

    /// The Zobrist key of the whole state: pieces, side to move, castling
    /// rights, a usable en passant square and every (square, counter) of a
    /// poisoned piece.
    pub fn zobrist(&self) -> u64 {
        let mut key = zobrist::board_pieces(&self.fide.board)
            ^ self.fide.zobrist_fields(|_| self.has_legal_en_passant());
        for sq in self.all_poisoned() {
            key ^= zobrist::key(
                ZOBRIST_POISON,
                (sq.index() * 8) as u64 + u64::from(self.counters[sq.index()]),
            );
        }
        key
    }
}

impl Position for PoisonChess {
    type Action = PoisonAction;

    fide_position_members!(visit_legal_actions, parse_notation, write_notation);

    fn is_legal(&self, action: &PoisonAction) -> bool {
        // Checked against the generator: the one source of truth.
        let mut found = false;
        self.visit_legal_actions(&mut movegen::FindVisitor {
            wanted: *action,
            found: &mut found,
        });
        found
    }

    fn play_unchecked(&mut self, action: &PoisonAction) {
        self.play_action_unchecked(action);
    }

    fn outcome_before_generation(&self) -> Option<Outcome> {
        self.royal_death()
    }

    fn has_legal_action(&self) -> bool {
        PoisonChess::has_legal_action(self)
    }

    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        self.result_given(has_legal_action)
    }

    fn is_irreversible(&self, action: &PoisonAction) -> bool {
        // Counters only run down, so any action that lowers one makes every
        // earlier position unrepeatable too.
        action.is_zeroing()
            || self.poisoned(!self.fide.turn).any()
            || matches!(action, PoisonAction::Move(m) if castling::touches_castling(self.fide.castling_rights, m))
    }
}
