//! The negamax alpha-beta search below the root: repetition and mate
//! distance, the transposition table, check extension, reverse futility,
//! null move, internal iterative reduction, late-move pruning and
//! reductions, principal variation search, killers and history.
//!
//! Every forward pruning asks the variant's [`crate::eval::Pruning`] and
//! `null_move` first (docs/engine.md says, per variant, why each is sound
//! or not), and none applies at a step after which the same player acts
//! again.

use std::mem;

use heterodox_env::GameVariant;

use super::ordering::{history_bonus, pick, score_actions, KILLER};
use super::{child_depth, outcome_score, Searcher};
use crate::eval;
use crate::search::score::{
    from_table, is_mate, mate_in, mated_in, to_table, INFINITE, MATE_BOUND, MAX_PLY,
};
use crate::search::tt::Bound;

/// Reverse futility margin per ply of depth.
const RFP_MARGIN: i32 = 80;
/// Quiet actions tried at depth 1..4 before the rest are pruned.
const LATE_MOVES: [usize; 5] = [0, 5, 8, 13, 20];
/// Quiet-action futility margin: base plus per ply.
const FUTILITY_BASE: i32 = 100;
const FUTILITY_PER_PLY: i32 = 90;

impl<P: GameVariant> Searcher<'_, P> {
    /// The score of `pos` for its player to act, searched `depth` plies,
    /// within `alpha..beta`. `pos`'s repetition key is the path's last.
    pub(crate) fn alpha_beta(
        &mut self,
        pos: &P,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.state.frames[ply].pv.clear();
        let pv_node = beta - alpha > 1;
        if self.state.path.is_draw() {
            return 0;
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if let Some(outcome) = pos.outcome_before_generation() {
            return outcome_score(outcome, pos.turn(), ply);
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos, ply);
        }
        let in_check = eval::in_check(pos);
        if in_check && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, alpha, beta, ply, 0, false);
        }
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        let key = self.state.path.last_key();
        let entry = self.tt.probe(key);
        if let Some(entry) = entry {
            if !pv_node && entry.depth >= depth {
                let score = from_table(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        let mut actions = mem::take(&mut self.state.frames[ply].actions);
        pos.legal_actions(&mut actions);
        if let Some(outcome) = pos.outcome_given(!actions.is_empty()) {
            self.state.frames[ply].actions = actions;
            return outcome_score(outcome, pos.turn(), ply);
        }
        let score = self.search_actions(
            pos,
            &mut actions,
            depth,
            alpha,
            beta,
            ply,
            in_check,
            entry,
            allow_null,
        );
        self.state.frames[ply].actions = actions;
        score
    }

    /// The body of [`Searcher::alpha_beta`] once the legal actions are
    /// known and the game is not over.
    #[allow(clippy::too_many_arguments)]
    fn search_actions(
        &mut self,
        pos: &P,
        actions: &mut [P::Action],
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        entry: Option<crate::search::tt::Entry>,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let turn = pos.turn();
        let tt_index = entry
            .and_then(|e| e.action_index)
            .map(usize::from)
            .filter(|&i| i < actions.len());
        let static_eval = if self.state.nnue.is_some() {
            // The learned evaluation keeps the accumulator of every node it
            // expands, even where the table or a check spares the
            // evaluation: the children update from it.
            let eval = self.static_eval(pos, ply);
            if in_check {
                -INFINITE
            } else {
                eval
            }
        } else if in_check {
            -INFINITE
        } else if let Some(entry) = entry {
            entry.eval
        } else {
            self.static_eval(pos, ply)
        };
        let improving = !in_check
            && ply >= 2
            && self.state.frames[ply - 2].player == turn
            && static_eval > self.state.frames[ply - 2].eval;
        {
            let frame = &mut self.state.frames[ply];
            frame.eval = static_eval;
            frame.player = turn;
        }
        let pruning = eval::pruning(pos);

        if !pv_node && !in_check {
            if pruning.futility
                && depth <= 6
                && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && !is_mate(beta)
            {
                return static_eval;
            }
            if allow_null && depth >= 3 && static_eval >= beta && beta > -MATE_BOUND {
                if let Some(passed) = eval::null_move(pos) {
                    let reduction = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                    self.enter(&passed, true);
                    let null_depth = depth - 1 - reduction;
                    let score = if null_depth <= 0 {
                        // Quiescence with the opponent's quiet checks: a
                        // quiet mate (a drop, a poisoning) must refute the
                        // pass, or the threat goes unseen.
                        -self.quiescence(&passed, -beta, -beta + 1, ply + 1, 0, true)
                    } else {
                        -self.alpha_beta(&passed, null_depth, -beta, -beta + 1, ply + 1, false)
                    };
                    self.state.path.pop();
                    if self.stopped {
                        return 0;
                    }
                    if score >= beta {
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }
        if depth >= 4 && tt_index.is_none() {
            depth -= 1;
        }

        let mut order = mem::take(&mut self.state.frames[ply].order);
        let mut quiets = mem::take(&mut self.state.frames[ply].quiets);
        quiets.clear();
        let killers = self.state.frames[ply].killers;
        score_actions(
            pos,
            actions,
            &mut order,
            tt_index,
            &killers,
            &self.state.history,
        );
        let shallow = eval::shallow_step(pos);

        let alpha_before = alpha;
        let mut best = -INFINITE;
        let mut best_index = None;
        let mut searched = 0usize;
        for i in 0..order.len() {
            let (ordering, index) = pick(&mut order, i);
            let action = actions[index];
            let quiet = eval::noisy(pos, &action).is_none();
            let irreversible = pos.is_irreversible(&action);
            let mut child = pos.clone();
            child.play_unchecked(&action);
            let same_player = child.turn() == turn;
            // Checks are never pruned nor reduced: a mating attack is a
            // series of quiet checks.
            let gives_check = !same_player && eval::in_check(&child);
            if best > -MATE_BOUND && !pv_node && !in_check && !gives_check {
                if quiet && pruning.futility && depth <= 4 {
                    let late = LATE_MOVES[depth as usize] * if improving { 2 } else { 1 };
                    if searched >= late
                        || (static_eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha
                            && !is_mate(alpha))
                    {
                        continue;
                    }
                }
                if !quiet
                    && depth <= 4
                    && ordering < 0
                    && !eval::see_at_least(pos, &action, -60 * depth)
                {
                    continue;
                }
            }
            let new_depth = child_depth(depth, same_player, shallow);
            self.enter(&child, irreversible);
            let score = if searched == 0 {
                self.child(&child, same_player, new_depth, alpha, beta, ply + 1)
            } else {
                let mut reduction = 0;
                if pruning.late_move_reductions
                    && depth >= 3
                    && quiet
                    && !in_check
                    && !gives_check
                    && !same_player
                    && searched >= 2 + usize::from(pv_node)
                {
                    reduction = self.state.reductions.get(depth, searched + 1);
                    reduction -= i32::from(pv_node);
                    reduction += i32::from(!improving);
                    if ordering >= KILLER {
                        reduction -= 1;
                    } else {
                        reduction -= ordering / 6_000;
                    }
                    reduction = reduction.clamp(0, (new_depth - 1).max(0));
                }
                let mut score = self.child(
                    &child,
                    same_player,
                    new_depth - reduction,
                    alpha,
                    alpha + 1,
                    ply + 1,
                );
                if score > alpha && reduction > 0 {
                    score = self.child(&child, same_player, new_depth, alpha, alpha + 1, ply + 1);
                }
                if score > alpha && score < beta {
                    score = self.child(&child, same_player, new_depth, alpha, beta, ply + 1);
                }
                score
            };
            self.state.path.pop();
            if self.stopped {
                self.state.frames[ply].order = order;
                self.state.frames[ply].quiets = quiets;
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(index);
                    alpha = score;
                    self.update_pv(ply, action);
                    if alpha >= beta {
                        if quiet {
                            self.reward_quiet(pos, ply, action, depth, &quiets);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(pos.action_index(&action));
            }
        }
        self.state.frames[ply].order = order;
        self.state.frames[ply].quiets = quiets;

        let bound = Bound::of_search(best, alpha_before, beta);
        self.tt.store(
            self.state.path.last_key(),
            best_index.map(|i| i as u16),
            to_table(best, ply),
            static_eval,
            depth,
            bound,
        );
        best
    }

    /// A quiet action refuted the node: it becomes a killer and gains
    /// history; the quiet actions tried before it lose some.
    fn reward_quiet(
        &mut self,
        pos: &P,
        ply: usize,
        action: P::Action,
        depth: i32,
        tried: &[usize],
    ) {
        let killers = &mut self.state.frames[ply].killers;
        if killers[0] != Some(action) {
            killers[1] = killers[0];
            killers[0] = Some(action);
        }
        let bonus = history_bonus(depth);
        let turn = pos.turn();
        self.state
            .history
            .update(turn, pos.action_index(&action), bonus);
        for &index in tried {
            self.state.history.update(turn, index, -bonus);
        }
    }
}
