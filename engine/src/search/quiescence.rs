//! Quiescence: below the horizon, only noisy actions (what each variant's
//! [`crate::eval::Knowledge::noisy`] says: captures, promotions and the
//! variant's own material-changing actions), so that the evaluation is
//! read in quiet positions. The player to act may stand pat on the
//! evaluation, except when in check (it must answer; limited to the first
//! plies of quiescence so that exotic checks cannot run away) and at a
//! step it must complete (Mad Scientist's discards). Noisy actions that
//! cannot raise alpha even with their whole gain (delta pruning) or that
//! lose material by static exchange are skipped.
//!
//! Called with `checks`, the first ply also searches quiet actions that
//! give check (after a null move: see alphabeta.rs).
//!
//! No repetition keys are computed here: quiescence lines are short and
//! consist of captures, which do not repeat.

use std::mem;

use heterodox_env::GameVariant;

use super::ordering::{pick, score_noisy};
use super::{outcome_score, Searcher};
use crate::eval;
use crate::search::score::{INFINITE, MAX_PLY};

/// Quiescence plies in which a check is answered with every action.
const CHECK_PLIES: usize = 4;
/// Margin above a capture's gain before delta pruning skips it.
const DELTA_MARGIN: i32 = 150;
/// Quiescence plies after which the evaluation is read as it stands.
/// Chess's captures run out long before (every capture takes a man off the
/// board), but in Mad Scientist a capture can fill a hand, and each discard
/// that follows is a ply searched in full (every part type, no standing
/// pat, no table here to merge the orders), so exchanges of composites
/// multiply: without a limit one teacher game (seed 7, games 320 to 383)
/// spent over 30 minutes at depth 1 in lines 30 plies deep. At 16 that
/// shard takes 21 s (105 s at 24); the depth-7 bench is unchanged in every
/// variant but chess (57,406 to 57,377 nodes).
pub(crate) const QUIESCENCE_PLIES: usize = 16;

impl<P: GameVariant> Searcher<'_, P> {
    pub(crate) fn quiescence(
        &mut self,
        pos: &P,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        checks: bool,
    ) -> i32 {
        self.state.frames[ply].pv.clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(outcome) = pos.outcome_before_generation() {
            return outcome_score(outcome, pos.turn(), ply);
        }
        if ply >= MAX_PLY - 2 || qply >= QUIESCENCE_PLIES {
            return self.static_eval(pos, ply);
        }
        let in_check = qply < CHECK_PLIES && eval::in_check(pos);
        let every_action = in_check || eval::must_act(pos);
        let mut actions = mem::take(&mut self.state.frames[ply].actions);
        // Out of check, a variant's noisy generator lists only what is
        // searched here; stalemate and the 50-move rule are then left to
        // the main search, as engines do.
        if every_action || checks || !eval::noisy_actions(pos, &mut actions) {
            pos.legal_actions(&mut actions);
            if let Some(outcome) = pos.outcome_given(!actions.is_empty()) {
                self.state.frames[ply].actions = actions;
                return outcome_score(outcome, pos.turn(), ply);
            }
        }
        let mut best = -INFINITE;
        let mut stand_pat = -INFINITE;
        if every_action && self.state.nnue.is_some() {
            // No standing pat, but the accumulator the children update from.
            self.static_eval(pos, ply);
        }
        if !every_action {
            stand_pat = self.static_eval(pos, ply);
            if stand_pat >= beta {
                self.state.frames[ply].actions = actions;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut order = mem::take(&mut self.state.frames[ply].order);
        score_noisy(pos, &actions, &mut order, every_action || checks);
        let turn = pos.turn();
        for i in 0..order.len() {
            let (ordering, index) = pick(&mut order, i);
            if ordering == i32::MIN {
                break;
            }
            let action = actions[index];
            let noisy = eval::noisy(pos, &action);
            if !every_action {
                if let Some(noisy) = noisy {
                    if stand_pat + noisy.gain + DELTA_MARGIN <= alpha {
                        continue;
                    }
                    if noisy.gain < noisy.mover && !eval::see_at_least(pos, &action, 0) {
                        continue;
                    }
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(&action);
            if !every_action && noisy.is_none() && (child.turn() == turn || !eval::in_check(&child))
            {
                // Only checks among the quiet actions.
                continue;
            }
            let score = if child.turn() == turn {
                self.quiescence(&child, alpha, beta, ply + 1, qply + 1, false)
            } else {
                -self.quiescence(&child, -beta, -alpha, ply + 1, qply + 1, false)
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.state.frames[ply].order = order;
        self.state.frames[ply].actions = actions;
        if self.stopped {
            return 0;
        }
        best
    }
}
