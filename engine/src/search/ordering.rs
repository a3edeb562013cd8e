//! Move ordering: the transposition table's action first, then noisy
//! actions that do not lose material (most valuable victim, least valuable
//! attacker), the two killer actions of the ply, quiet actions by their
//! history, and noisy actions that lose material last.
//!
//! The history table is indexed by the variant's own action index
//! ([`heterodox_env::encoding::Encoding::action_index`], a bijection from a
//! position's legal actions onto `0..num_actions`, relative to the player
//! to act) and by colour, so every variant gets a history without
//! knowing anything of its actions.

use heterodox_env::{Color, GameVariant};

use crate::eval;

pub(crate) const TT_ACTION: i32 = 1 << 30;
const GOOD_NOISY: i32 = 1 << 28;
pub(crate) const KILLER: i32 = 1 << 26;
const BAD_NOISY: i32 = -(1 << 26);

/// Largest magnitude of a history score.
const HISTORY_MAX: i32 = 16_384;

/// Quiet-action history by colour and action index.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    table: Vec<i32>,
    actions: usize,
}

impl History {
    /// Sized for a variant with `actions` action indices. Allocates only
    /// when the size changes (a new game of another variant or rule set),
    /// never inside a search.
    pub fn ensure(&mut self, actions: usize) {
        if self.actions != actions {
            self.actions = actions;
            self.table = vec![0; 2 * actions];
        }
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// Halves every entry: older searches count less.
    pub fn age(&mut self) {
        for entry in &mut self.table {
            *entry /= 2;
        }
    }

    #[inline]
    fn slot(&self, color: Color, index: usize) -> usize {
        color.index() * self.actions + index.min(self.actions.saturating_sub(1))
    }

    #[inline]
    pub fn get(&self, color: Color, index: usize) -> i32 {
        self.table[self.slot(color, index)]
    }

    /// Moves an entry towards `±HISTORY_MAX` by `bonus` (negative for a
    /// malus), less the closer it already is ("gravity").
    #[inline]
    pub fn update(&mut self, color: Color, index: usize, bonus: i32) {
        let slot = self.slot(color, index);
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.table[slot];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}

/// The history bonus of a cutoff at `depth`.
#[inline]
pub(crate) fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(1_600)
}

/// Scores every action of `actions` into `scores` for [`pick`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn score_actions<P: GameVariant>(
    pos: &P,
    actions: &[P::Action],
    order: &mut Vec<(i32, u16)>,
    tt_index: Option<usize>,
    killers: &[Option<P::Action>; 2],
    history: &History,
) {
    order.clear();
    let turn = pos.turn();
    for (i, action) in actions.iter().enumerate() {
        let score = if Some(i) == tt_index {
            TT_ACTION
        } else if let Some(noisy) = eval::noisy(pos, action) {
            let order = noisy.gain * 8 - noisy.mover / 8;
            if noisy.gain >= noisy.mover || eval::see_at_least(pos, action, 0) {
                GOOD_NOISY + order
            } else {
                BAD_NOISY + order
            }
        } else if killers[0] == Some(*action) {
            KILLER + 1
        } else if killers[1] == Some(*action) {
            KILLER
        } else {
            history.get(turn, pos.action_index(action))
        };
        order.push((score, i as u16));
    }
}

/// Scores noisy actions for quiescence (every action when `all`): most
/// valuable victim first; quiet ones after them.
pub(crate) fn score_noisy<P: GameVariant>(
    pos: &P,
    actions: &[P::Action],
    order: &mut Vec<(i32, u16)>,
    all: bool,
) {
    order.clear();
    for (i, action) in actions.iter().enumerate() {
        let score = match eval::noisy(pos, action) {
            Some(noisy) => GOOD_NOISY + noisy.gain * 8 - noisy.mover / 8,
            None if all => 0,
            None => i32::MIN,
        };
        order.push((score, i as u16));
    }
}

/// Moves the best-scored entry at or after `start` to `start` and returns
/// it as (score, action index) (selection sort, one step per action
/// searched: most nodes cut off after a few).
#[inline]
pub(crate) fn pick(order: &mut [(i32, u16)], start: usize) -> (i32, usize) {
    let mut best = start;
    for i in start + 1..order.len() {
        if order[i].0 > order[best].0 {
            best = i;
        }
    }
    order.swap(start, best);
    (order[start].0, usize::from(order[start].1))
}

/// Late-move reduction by depth and move number.
pub(crate) struct Reductions {
    table: Vec<i8>,
}

impl Reductions {
    pub fn new() -> Reductions {
        let mut table = vec![0; 64 * 64];
        for depth in 1..64 {
            for moves in 1..64 {
                let r = 0.5 + (depth as f64).ln() * (moves as f64).ln() / 2.3;
                table[depth * 64 + moves] = r as i8;
            }
        }
        Reductions { table }
    }

    #[inline]
    pub fn get(&self, depth: i32, moves: usize) -> i32 {
        let depth = depth.clamp(0, 63) as usize;
        let moves = moves.min(63);
        i32::from(self.table[depth * 64 + moves])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_saturates() {
        let mut history = History::default();
        history.ensure(10);
        for _ in 0..1000 {
            history.update(Color::White, 3, 1600);
        }
        let value = history.get(Color::White, 3);
        assert!(value > 15_000 && value <= HISTORY_MAX, "{value}");
        assert_eq!(history.get(Color::Black, 3), 0);
    }

    #[test]
    fn pick_orders_by_score() {
        let mut order = [(1, 0), (9, 1), (5, 2)];
        assert_eq!(pick(&mut order, 0), (9, 1));
        assert_eq!(pick(&mut order, 1), (5, 2));
        assert_eq!(pick(&mut order, 2), (1, 0));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new();
        assert_eq!(r.get(1, 1), 0);
        assert!(r.get(10, 30) > r.get(3, 4));
    }
}
