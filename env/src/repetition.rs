//! [`RepetitionPath`]: repetition along a line of play (a game's history,
//! then a search path) by pushing and popping keys, never copying a
//! growing history per node.

use crate::{Game, Position};

/// Repetition keys of a line of play, most recent last, with for each key
/// where its reversible stretch starts (keys before an irreversible action
/// can never repeat). Push on a step, pop or truncate on the way back up.
#[derive(Clone, Debug, Default)]
pub struct RepetitionPath {
    keys: Vec<u64>,
    /// `window[i]`: index of the first key that key `i` can repeat.
    window: Vec<u32>,
}

impl RepetitionPath {
    /// The line of a game so far (its keys since the last irreversible
    /// action).
    pub fn of_game<P: Position>(game: &Game<P>) -> RepetitionPath {
        let mut path = RepetitionPath::default();
        path.reset(game);
        path
    }

    /// Starts over from `game`, reusing the buffers.
    pub fn reset<P: Position>(&mut self, game: &Game<P>) {
        self.reset_keys(game.repetition_keys());
    }

    /// Starts over from a game's repetition keys (since its last
    /// irreversible action, current position last), reusing the buffers.
    #[inline]
    pub fn reset_keys(&mut self, keys: &[u64]) {
        self.keys.clear();
        self.window.clear();
        self.keys.extend_from_slice(keys);
        self.window.resize(self.keys.len(), 0);
    }

    /// Appends the key of the position reached by an action; `irreversible`
    /// when that action made every earlier position unrepeatable
    /// ([`Position::is_irreversible`]).
    #[inline]
    pub fn push(&mut self, key: u64, irreversible: bool) {
        let start = if irreversible {
            self.keys.len() as u32
        } else {
            self.window.last().copied().unwrap_or(0)
        };
        self.keys.push(key);
        self.window.push(start);
    }

    /// Number of keys (game history plus path).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys, most recent last.
    #[inline]
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The keys the last position can repeat: its reversible stretch, the
    /// last key included (empty for an empty path).
    #[inline]
    pub fn last_window(&self) -> &[u64] {
        match self.window.last() {
            Some(&start) => &self.keys[start as usize..],
            None => &[],
        }
    }

    /// Removes the last key (back up one step) and returns it.
    #[inline]
    pub fn pop(&mut self) -> Option<u64> {
        self.window.pop();
        self.keys.pop()
    }

    /// Drops the keys after the first `len` (back up a search path).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.keys.truncate(len);
        self.window.truncate(len);
    }

    /// How many times the last position has occurred on this line
    /// (1 = first time; 0 for an empty path).
    #[inline]
    pub fn repetitions(&self) -> usize {
        let window = self.last_window();
        let Some(&last) = window.last() else {
            return 0;
        };
        window.iter().filter(|&&k| k == last).count()
    }
}
