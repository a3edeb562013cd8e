//! The root: one iteration of the principal variation search over the root
//! actions (kept in the order of the previous iteration's scores), inside
//! an aspiration window around the previous score that widens on a fail.
//!
//! With `exact` every root action is searched with the full window, so
//! each gets its exact score: the teacher's targets, and the scores
//! averaged over determinizations under hidden information. The teacher
//! narrows that with the searcher's `exact_margin`: an action more than
//! the margin below the best so far gets only an upper bound from a null
//! window, which is all a softmax target needs (its weight is below
//! `exp(-margin / temperature)` either way).

use heterodox_env::GameVariant;

use super::{child_depth, Searcher};
use crate::search::score::{is_mate, to_table, INFINITE};
use crate::search::tt::Bound;

/// One root action with what the last iteration found for it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<A> {
    pub action: A,
    /// Index in the root's legal action list (generation order).
    pub index: usize,
    /// Score of the last iteration; `-INFINITE` when it failed low (only
    /// an upper bound is known) outside exact mode.
    pub score: i32,
    pub pv: Vec<A>,
}

/// The root actions of `root`, in generation order.
pub(crate) fn root_moves<P: GameVariant>(root: &P) -> Vec<RootMove<P::Action>> {
    let mut actions = Vec::new();
    root.legal_actions(&mut actions);
    actions
        .into_iter()
        .enumerate()
        .map(|(index, action)| RootMove {
            action,
            index,
            score: -INFINITE,
            pv: Vec::new(),
        })
        .collect()
}

/// First aspiration half-width, in centipawns.
const ASPIRATION: i32 = 18;

impl<P: GameVariant> Searcher<'_, P> {
    /// One iteration at `depth`: the root score, or `None` when the
    /// search was stopped before the iteration completed. `moves` come
    /// back sorted best first.
    pub(crate) fn iterate(
        &mut self,
        root: &P,
        moves: &mut [RootMove<P::Action>],
        depth: i32,
        previous: Option<i32>,
        exact: bool,
    ) -> Option<i32> {
        self.root_depth = depth;
        let (mut alpha, mut beta, mut delta) = match previous {
            Some(score) if depth >= 4 && !exact && !is_mate(score) => {
                (score - ASPIRATION, score + ASPIRATION, ASPIRATION)
            }
            _ => (-INFINITE, INFINITE, 0),
        };
        loop {
            let score = self.search_root(root, moves, depth, alpha, beta, exact);
            if self.stopped {
                return None;
            }
            if score <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta && beta < INFINITE {
                beta = (score + delta).min(INFINITE);
            } else {
                // Stable: actions that failed low keep their previous order.
                moves.sort_by_key(|m| std::cmp::Reverse(m.score));
                return Some(score);
            }
            delta *= 2;
            if delta > 500 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// The exact score of a root child, searched inside a window around the
    /// action's previous score that widens until the score falls inside
    /// (a full window from the start costs far more nodes).
    fn exact_child(&mut self, child: &P, same_player: bool, depth: i32, previous: i32) -> i32 {
        if previous <= -INFINITE || is_mate(previous) {
            return self.child(child, same_player, depth, -INFINITE, INFINITE, 1);
        }
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.child(child, same_player, depth, alpha, beta, 1);
            if self.stopped {
                return 0;
            }
            delta *= 2;
            if score <= alpha && alpha > -INFINITE {
                alpha = if delta > 500 {
                    -INFINITE
                } else {
                    (score - delta).max(-INFINITE)
                };
            } else if score >= beta && beta < INFINITE {
                beta = if delta > 500 {
                    INFINITE
                } else {
                    (score + delta).min(INFINITE)
                };
            } else {
                return score;
            }
        }
    }

    fn search_root(
        &mut self,
        root: &P,
        moves: &mut [RootMove<P::Action>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        exact: bool,
    ) -> i32 {
        let alpha_before = alpha;
        let turn = root.turn();
        let mut best = -INFINITE;
        let mut best_index = None;
        for (i, root_move) in moves.iter_mut().enumerate() {
            if self.tick() {
                return 0;
            }
            let action = root_move.action;
            let irreversible = root.is_irreversible(&action);
            let mut child = root.clone();
            child.play_unchecked(&action);
            let same_player = child.turn() == turn;
            let new_depth = child_depth(depth, same_player, crate::eval::shallow_step(root));
            self.enter(&child, irreversible);
            let floor = best.saturating_sub(self.exact_margin);
            let score =
                if exact && self.exact_margin < INFINITE && best > -INFINITE && floor > -INFINITE {
                    // Within the margin of the best: exact; below it, the
                    // null-window bound is all a target needs.
                    let bound = self.child(&child, same_player, new_depth, floor, floor + 1, 1);
                    if bound <= floor || self.stopped {
                        bound
                    } else {
                        self.exact_child(&child, same_player, new_depth, root_move.score)
                    }
                } else if exact {
                    self.exact_child(&child, same_player, new_depth, root_move.score)
                } else if i == 0 {
                    self.child(&child, same_player, new_depth, alpha, beta, 1)
                } else {
                    let mut score = self.child(&child, same_player, new_depth, alpha, alpha + 1, 1);
                    if score > alpha && score < beta {
                        score = self.child(&child, same_player, new_depth, alpha, beta, 1);
                    }
                    score
                };
            self.state.path.pop();
            if self.stopped {
                return 0;
            }
            if exact || i == 0 || score > alpha {
                root_move.score = score;
                root_move.pv.clear();
                root_move.pv.push(action);
                root_move.pv.extend_from_slice(&self.state.frames[1].pv);
            } else {
                root_move.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(root_move.index);
                    if !exact {
                        alpha = score;
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.root_line == 0 {
            let bound = Bound::of_search(best, alpha_before, beta);
            let key = self.state.path.last_key();
            let eval = self.tt.probe(key).map_or(0, |e| e.eval);
            self.tt.store(
                key,
                best_index.map(|i| i as u16),
                to_table(best, 0),
                eval,
                depth,
                bound,
            );
        }
        best
    }
}
