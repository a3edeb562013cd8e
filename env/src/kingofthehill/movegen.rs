//! Legal moves: chess's, until a King stands on the hill; then none (the
//! game is over, as after a checkmate).

use crate::chess::{CountVisitor, MoveVisitor};

use super::KingOfTheHill;

impl KingOfTheHill {
    /// Generates every legal move into the visitor (chess's visitors).
    pub fn visit_legal_moves<V: MoveVisitor>(&self, visitor: &mut V) {
        if self.on_the_hill().is_none() {
            self.chess.visit_legal_moves(visitor);
        }
    }

    /// The number of legal moves, counted without building them.
    pub fn count_legal_moves(&self) -> usize {
        let mut counter = CountVisitor(0);
        self.visit_legal_moves(&mut counter);
        counter.0
    }
}
