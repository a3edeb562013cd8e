//! Repetition along the search path, seeded with the game's history.
//!
//! The same bookkeeping as env's `RepetitionPath` (keys since the last
//! irreversible action, pushed and truncated as the search goes down and
//! up), plus what a search needs beyond the rules: where the root is, so
//! that a position repeated *inside* the search is scored a draw at once
//! (the side that steered into it could have done no better than repeat,
//! the usual engine practice), while a position that occurred before the
//! root needs the rules' third occurrence. A small counting filter of key
//! bits answers "certainly no repetition" for most nodes without scanning
//! the history, which in Hostage (only a king's first move is
//! irreversible) can be long.

/// Key bits of the counting filter.
const FILTER_BITS: u32 = 12;

#[derive(Clone, Debug)]
pub(crate) struct SearchPath {
    keys: Vec<u64>,
    /// `window[i]`: index of the first key that key `i` can repeat.
    window: Vec<u32>,
    /// Index of the root's key.
    root: usize,
    /// How many keys of the path have each value of the low key bits.
    filter: Vec<u16>,
}

impl SearchPath {
    pub fn new() -> SearchPath {
        SearchPath {
            keys: Vec::with_capacity(1024),
            window: Vec::with_capacity(1024),
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
        for &key in &self.keys {
            self.filter[Self::slot(key)] -= 1;
        }
        self.keys.clear();
        self.window.clear();
        for &key in history {
            self.keys.push(key);
            self.window.push(0);
            self.filter[Self::slot(key)] += 1;
        }
        self.root = self.keys.len().saturating_sub(1);
    }

    /// Starts from the root alone, which has occurred `occurrences` times
    /// (hidden information: the game's earlier keys hold the true secret,
    /// and only the root's count is public).
    pub fn reset_root(&mut self, key: u64, occurrences: usize) {
        self.reset(&[]);
        for _ in 0..occurrences.max(1) {
            self.keys.push(key);
            self.window.push(0);
            self.filter[Self::slot(key)] += 1;
        }
        self.root = self.keys.len() - 1;
    }

    /// Appends the key of the position reached by an action.
    #[inline]
    pub fn push(&mut self, key: u64, irreversible: bool) {
        let start = if irreversible {
            self.keys.len() as u32
        } else {
            self.window.last().copied().unwrap_or(0)
        };
        self.keys.push(key);
        self.window.push(start);
        self.filter[Self::slot(key)] += 1;
    }

    /// The key of the last position.
    #[inline]
    pub fn last_key(&self) -> u64 {
        self.keys.last().copied().unwrap_or(0)
    }

    /// Removes the last key (back up one step).
    #[inline]
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.window.pop();
            self.filter[Self::slot(key)] -= 1;
        }
    }

    /// True when the last position is a draw for the search: it occurred
    /// earlier inside the search, or twice before.
    #[inline]
    pub fn is_draw(&self) -> bool {
        let (Some(&last), Some(&start)) = (self.keys.last(), self.window.last()) else {
            return false;
        };
        if self.filter[Self::slot(last)] < 2 {
            return false;
        }
        let end = self.keys.len() - 1;
        let mut earlier = 0;
        for index in (start as usize..end).rev() {
            if self.keys[index] == last {
                if index >= self.root {
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
