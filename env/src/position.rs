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

    /// Endings decided before any move generation: a royal piece that is
    /// gone (Poison's poisoned King, Mad Scientist's captured Scientist).
    /// Generation is not asked of such positions. Default: none.
    fn outcome_before_generation(&self) -> Option<Outcome> {
        None
    }

    /// The remaining endings by the rules of the position alone (mate,
    /// stalemate, dead material, 50-move rule, ...), given whether the
    /// player to act has a legal action. Split from [`Position::outcome`]
    /// so that a search judges a node from the same generation pass that
    /// lists its actions ([`Position::legal_actions_and_outcome`]).
    fn outcome_given(&self, has_legal_action: bool) -> Option<Outcome>;

    /// True when the player to act has a legal action; variants override
    /// it with a generator that stops at the first one.
    fn has_legal_action(&self) -> bool {
        self.count_legal_actions() > 0
    }

    /// The result by the rules of the position alone (mate, stalemate, dead
    /// material, 50-move rule, variant endings); repetition needs the game's
    /// history and is decided by [`crate::Game`].
    fn outcome(&self) -> Option<Outcome> {
        self.outcome_before_generation()
            .or_else(|| self.outcome_given(self.has_legal_action()))
    }

    /// Lists the legal actions into `out` and returns the outcome judged
    /// from that one generation pass (the search's per-node call: move
    /// generation runs once, not once for the list and once for the
    /// terminal test). When the game is over `out` may still hold actions
    /// (a 50-move draw); callers ignore them.
    fn legal_actions_and_outcome(&self, out: &mut Vec<Self::Action>) -> Option<Outcome> {
        if let Some(outcome) = self.outcome_before_generation() {
            out.clear();
            return Some(outcome);
        }
        self.legal_actions(out);
        self.outcome_given(!out.is_empty())
    }

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
