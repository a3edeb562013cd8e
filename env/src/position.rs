//! The one trait every variant implements.
//!
//! It is deliberately small: what generic code (the game record, perft, the
//! batched environment, search) needs, and nothing variant-specific. Each
//! variant owns its state and its action type; see docs/architecture.md.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::{Color, MoveError, Outcome};

/// A validated position of some variant, with the rules to move on.
pub trait Position: Clone + Send + Sync + 'static {
    /// One step of play: a move, a drop, a poisoning, an announcement, a
    /// discard... `Display` writes its long (UCI-style) form.
    type Action: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;

    /// The registered name of the variant (`chess`, `poison`, ...).
    fn variant_name(&self) -> &'static str;

    /// The player who takes the next step. In variants where a turn has
    /// several steps (announce then move; move then discard) the same player
    /// acts several times in a row.
    fn turn(&self) -> Color;

    /// Clears `out` and fills it with every legal action. Callers keep and
    /// reuse the buffer, so no allocation happens once it has grown.
    fn legal_actions(&self, out: &mut Vec<Self::Action>);

    /// How many legal actions there are; variants override this with a
    /// counting generator (perft's bulk counting).
    fn count_legal_actions(&self) -> usize {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        actions.len()
    }

    /// True when `action` is legal here.
    fn is_legal(&self, action: &Self::Action) -> bool;

    /// Plays an action known to be legal. Playing an illegal action leaves
    /// the position in an unspecified (but memory-safe) state: the fast path
    /// for search and perft.
    fn play_unchecked(&mut self, action: &Self::Action);

    /// The result by the rules of the position alone (mate, stalemate, dead
    /// material, 50-move rule, variant endings); repetition needs the game's
    /// history and is decided by [`crate::Game`].
    fn outcome(&self) -> Option<Outcome>;

    /// A Zobrist key of everything that makes positions the same for the
    /// repetition rule, variant state included.
    fn repetition_key(&self) -> u64;

    /// True when playing `action` makes every earlier position unrepeatable
    /// (captures, pawn moves, ...). Lets the game drop its history.
    fn is_irreversible(&self, action: &Self::Action) -> bool;

    /// The position as a string in the variant's FEN dialect.
    fn fen(&self) -> String;

    /// Reads an action in any notation the variant accepts (UCI and SAN for
    /// chess; the variant's own notations for the others).
    fn parse_action(&self, text: &str) -> Result<Self::Action, MoveError>;

    /// Writes an action in the variant's standard notation (SAN for chess).
    fn notation(&self, action: &Self::Action) -> String;

    /// Checks and plays an action; on error the position is unchanged.
    fn play(&mut self, action: &Self::Action) -> Result<(), MoveError> {
        if !self.is_legal(action) {
            return Err(MoveError::Illegal {
                text: action.to_string(),
                fen: self.fen(),
            });
        }
        self.play_unchecked(action);
        Ok(())
    }
}
