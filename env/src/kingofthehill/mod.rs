//! King of the Hill: FIDE chess plus one rule, a King that reaches one of
//! the four centre squares (d4, e4, d5, e5, the hill) wins at once.
//!
//! A **test-only** variant (cargo feature `test-variant`, never in a normal
//! build, so nothing that iterates the registry, a claim or a benchmark,
//! ever meets it). It shows what adding a variant takes: this folder, with
//! every variant's file set, plus one line in the registry (lib.rs) and a
//! perft file (tests/data/kingofthehill.perft); whatever iterates the
//! registry (the conformance suite, the perft driver, `make_batch_env`,
//! `AnyGame`) then picks it up. Above env it takes one line in the engine
//! (its knowledge) and its material inventory in the claims, each a file
//! of its own there (docs/architecture.md, "How a variant plugs in").
//!
//! It is chess plus one rule by design, so it is built on [`Chess`] (the
//! one variant folder that imports another; a variant with rules of its
//! own builds on [`crate::fide`] as chess does). The files: this one (the
//! position and `impl Position`), `action` (the action is chess's `Move`),
//! `setup` (chess's FEN), `movegen` (nothing after a King has reached the
//! hill), `notation` (UCI and SAN), `encoding` (chess's planes), `diagram`
//! and `variant` (registry entry).

mod action;
mod diagram;
pub mod encoding;
mod gesture;
mod movegen;
mod notation;
mod setup;
mod variant;

pub use action::reaches_hill;

use crate::chess::Chess;
use crate::fide::endings;
use crate::{
    Bitboard, Color, File, Move, MoveError, Outcome, Position, Rank, Role, Square, Termination,
};

/// The centre squares a King wins on.
pub const HILL: Bitboard = Bitboard::from_square(Square::from_coords(File::D, Rank::FOURTH))
    .with(Square::from_coords(File::E, Rank::FOURTH))
    .with(Square::from_coords(File::D, Rank::FIFTH))
    .with(Square::from_coords(File::E, Rank::FIFTH));

/// How [`Outcome`] names the win.
pub const HILL_REACHED: Termination = Termination::Goal("king reached the hill");

/// A legal King of the Hill position: a chess position, over once a King
/// stands on the hill.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KingOfTheHill {
    chess: Chess,
}

impl KingOfTheHill {
    /// The standard chess start.
    pub fn new() -> KingOfTheHill {
        KingOfTheHill {
            chess: Chess::new(),
        }
    }

    /// The chess position under the hill rule.
    pub fn chess(&self) -> &Chess {
        &self.chess
    }

    /// The side whose King stands on the hill: it has won. The side that
    /// has just moved first (the only one play can put there).
    pub fn on_the_hill(&self) -> Option<Color> {
        let turn = self.chess.turn();
        [!turn, turn].into_iter().find(|&color| {
            (self.chess.board().by_role(Role::King) & self.chess.board().by_color(color))
                .intersects(HILL)
        })
    }
}

impl Position for KingOfTheHill {
    type Action = Move;

    fn turn(&self) -> Color {
        self.chess.turn()
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.on_the_hill().is_none() {
            self.chess.legal_actions(out);
        }
    }

    fn count_legal_actions(&self) -> usize {
        self.count_legal_moves()
    }

    fn is_legal(&self, action: &Move) -> bool {
        self.on_the_hill().is_none() && self.chess.is_legal(action)
    }

    fn play_unchecked(&mut self, action: &Move) {
        self.chess.play_move_unchecked(action);
    }

    /// A King on the hill has won; nothing is generated after it.
    fn outcome_before_generation(&self) -> Option<Outcome> {
        self.on_the_hill().map(|winner| Outcome::Decisive {
            winner,
            termination: HILL_REACHED,
        })
    }

    /// Chess's endings but one: no material is ever insufficient, since a
    /// lone King can still walk to the hill.
    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome> {
        endings::outcome_given(
            has_legal_action,
            || endings::checkmate_or_stalemate(self.chess.is_check(), self.chess.turn()),
            || false,
            self.chess.halfmoves(),
        )
    }

    fn has_legal_action(&self) -> bool {
        self.on_the_hill().is_none() && self.chess.has_legal_move()
    }

    fn repetition_key(&self) -> u64 {
        self.chess.repetition_key()
    }

    fn is_irreversible(&self, action: &Move) -> bool {
        // A step onto the hill ends the game: nothing comes back after it.
        reaches_hill(action) || self.chess.is_irreversible(action)
    }

    fn fen(&self) -> String {
        self.chess.fen()
    }

    fn parse_action(&self, text: &str) -> Result<Move, MoveError> {
        if let Some(outcome) = self.outcome_before_generation() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        self.parse_move(text)
    }

    fn notation(&self, action: &Move) -> String {
        self.san(action)
    }
}
