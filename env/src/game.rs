//! A game record: a position plus the history the repetition rule needs.
//!
//! Positions are pure rules state; anything that depends on how the position
//! was reached (threefold repetition) lives here, once for every variant.

use crate::{MoveError, Outcome, Position, Termination};

/// A position with its repetition history.
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    position: P,
    /// Repetition keys since the last irreversible action, current last.
    keys: Vec<u64>,
    plies: u32,
}

impl<P: Position> Game<P> {
    pub fn new(position: P) -> Game<P> {
        let keys = vec![position.repetition_key()];
        Game {
            position,
            keys,
            plies: 0,
        }
    }

    #[inline]
    pub fn position(&self) -> &P {
        &self.position
    }

    /// Actions played since the game record started.
    #[inline]
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// Repetition keys since the last irreversible action, current last
    /// (what a search continues from, see [`crate::repetition`]).
    pub fn repetition_keys(&self) -> &[u64] {
        &self.keys
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn repetitions(&self) -> usize {
        let current = *self.keys.last().expect("never empty");
        self.keys.iter().filter(|k| **k == current).count()
    }

    /// The result: the position's own (mate, stalemate, ...) or a draw by
    /// threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position.outcome().or_else(|| {
            (self.repetitions() >= 3).then_some(Outcome::Draw {
                termination: Termination::ThreefoldRepetition,
            })
        })
    }

    /// Legal actions, none once the game is over.
    pub fn legal_actions(&self, out: &mut Vec<P::Action>) {
        if self.outcome().is_some() {
            out.clear();
        } else {
            self.position.legal_actions(out);
        }
    }

    /// Checks and plays an action. Refused (state unchanged) when the action
    /// is illegal or the game is over.
    pub fn play(&mut self, action: &P::Action) -> Result<(), MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        if !self.position.is_legal(action) {
            return Err(MoveError::Illegal {
                text: action.to_string(),
                fen: self.position.fen(),
            });
        }
        self.play_unchecked(action);
        Ok(())
    }

    /// Plays an action known to be legal.
    pub fn play_unchecked(&mut self, action: &P::Action) {
        if self.position.is_irreversible(action) {
            self.keys.clear();
        }
        self.position.play_unchecked(action);
        self.keys.push(self.position.repetition_key());
        self.plies += 1;
    }

    /// Reads an action in any notation the variant accepts and plays it.
    /// Returns the action played.
    pub fn play_text(&mut self, text: &str) -> Result<P::Action, MoveError> {
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let action = self.position.parse_action(text)?;
        self.play_unchecked(&action);
        Ok(action)
    }
}
