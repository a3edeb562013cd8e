//! [`EarlierPositions`]: the positions of a game before its current one,
//! most recent first, as many as a stacked observation of history T reads
//! (T - 1): what [`crate::Search::start`] takes as `earlier`. Kept by every
//! driver of a game (self-play workers, duels, Python's `Search`).

/// A game's last `history - 1` positions before the current one, most
/// recent first.
#[derive(Clone, Debug)]
pub struct EarlierPositions<P> {
    positions: Vec<P>,
    /// T - 1: how many are kept.
    keep: usize,
}

impl<P: Clone> EarlierPositions<P> {
    /// Room for the positions an observation of `history` positions reads.
    pub fn new(history: usize) -> EarlierPositions<P> {
        let keep = history.saturating_sub(1);
        EarlierPositions {
            positions: Vec::with_capacity(keep),
            keep,
        }
    }

    /// Records `position`, the one a move is about to leave, dropping the
    /// oldest beyond the history.
    pub fn push(&mut self, position: &P) {
        if self.keep == 0 {
            return;
        }
        if self.positions.len() == self.keep {
            self.positions.pop();
        }
        self.positions.insert(0, position.clone());
    }

    /// Forgets every position (a new game).
    pub fn clear(&mut self) {
        self.positions.clear();
    }

    /// Most recent first.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }
}

#[cfg(test)]
mod tests {
    use super::EarlierPositions;

    #[test]
    fn keeps_the_last_history_minus_one_most_recent_first() {
        let mut earlier = EarlierPositions::new(3);
        for position in 1..=4 {
            earlier.push(&position);
        }
        assert_eq!(earlier.positions(), [4, 3]);
        earlier.clear();
        assert!(earlier.positions().is_empty());
        let mut none = EarlierPositions::new(1);
        none.push(&1);
        assert!(none.positions().is_empty());
    }
}
