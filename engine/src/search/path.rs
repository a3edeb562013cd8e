//! Repetition along the search path, seeded with the game's history.
//!
//! Env's [`RepetitionPath`] keeps the keys (since the last irreversible
//! action, pushed and popped as the search goes down and up); this adds
//! what a search needs beyond the rules: where the root is, so
//! that a position repeated *inside* the search is scored a draw at once
//! (the side that steered into it could have done no better than repeat,
//! the usual engine practice), while a position that occurred before the
//! root needs the rules' third occurrence. A small counting filter of key
//! bits answers "certainly no repetition" for most nodes without scanning
//! the history, which in Hostage (only a king's first move is
//! irreversible) can be long.

use heterodox_env::repetition::RepetitionPath;

/// Key bits of the counting filter.
const FILTER_BITS: u32 = 12;

#[derive(Clone, Debug)]
pub(crate) struct SearchPath {
    /// The keys, each with the start of its reversible stretch.
    line: RepetitionPath,
    /// Index of the root's key.
    root: usize,
    /// How many keys of the path have each value of the low key bits.
    filter: Vec<u16>,
}

impl SearchPath {
    pub fn new() -> SearchPath {
        SearchPath {
            line: RepetitionPath::default(),
            root: 0,
            filter: vec![0; 1 << FILTER_BITS],
        }
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key >> (64 - FILTER_BITS)) as usize
    }

    /// Starts from a game's repetition keys (since its last irreversible
    /// action, current position last).
    pub fn reset(&mut self, history: &[u64]) {
        for &key in self.line.keys() {
            self.filter[Self::slot(key)] -= 1;
        }
        self.line.reset_keys(history);
        for &key in history {
            self.filter[Self::slot(key)] += 1;
        }
        self.root = self.line.len().saturating_sub(1);
    }

    /// Starts from the root alone, which has occurred `occurrences` times
    /// (hidden information: the game's earlier keys hold the true secret,
    /// and only the root's count is public).
    pub fn reset_root(&mut self, key: u64, occurrences: usize) {
        self.reset(&vec![key; occurrences.max(1)]);
    }

    /// Appends the key of the position reached by an action.
    #[inline]
    pub fn push(&mut self, key: u64, irreversible: bool) {
        self.line.push(key, irreversible);
        self.filter[Self::slot(key)] += 1;
    }

    /// The key of the last position.
    #[inline]
    pub fn last_key(&self) -> u64 {
        self.line.keys().last().copied().unwrap_or(0)
    }

    /// Removes the last key (back up one step).
    #[inline]
    pub fn pop(&mut self) {
        if let Some(key) = self.line.pop() {
            self.filter[Self::slot(key)] -= 1;
        }
    }

    /// True when the last position is a draw for the search: it occurred
    /// earlier inside the search, or twice before.
    #[inline]
    pub fn is_draw(&self) -> bool {
        let window = self.line.last_window();
        let Some((&last, before)) = window.split_last() else {
            return false;
        };
        if self.filter[Self::slot(last)] < 2 {
            return false;
        }
        let start = self.line.len() - window.len();
        let mut earlier = 0;
        for (offset, &key) in before.iter().enumerate().rev() {
            if key == last {
                if start + offset >= self.root {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: u64 = 0x1111_0000_0000_0001;
    const B: u64 = 0x2222_0000_0000_0002;
    const C: u64 = 0x3333_0000_0000_0003;

    #[test]
    fn repetition_inside_the_search_is_a_draw() {
        let mut path = SearchPath::new();
        path.reset(&[A]);
        path.push(B, false);
        assert!(!path.is_draw());
        path.push(A, false);
        assert!(path.is_draw(), "back to the root");
        path.pop();
        path.push(C, false);
        path.push(B, false);
        assert!(path.is_draw(), "B repeated inside the search");
    }

    #[test]
    fn history_before_the_root_needs_a_third_occurrence() {
        let mut path = SearchPath::new();
        path.reset(&[B, C, B, C, A]);
        path.push(B, false);
        assert!(path.is_draw(), "B for the third time");
        path.pop();
        path.reset(&[B, C, A]);
        path.push(B, false);
        assert!(
            !path.is_draw(),
            "B for the second time, first in the search"
        );
    }

    #[test]
    fn irreversible_steps_close_the_window() {
        let mut path = SearchPath::new();
        path.reset(&[A]);
        path.push(B, true);
        path.push(A, false);
        assert!(!path.is_draw());
    }

    #[test]
    fn the_root_alone_counts_its_public_occurrences() {
        let mut path = SearchPath::new();
        path.reset_root(A, 2);
        path.push(B, false);
        path.push(A, false);
        assert!(path.is_draw());
    }
}
