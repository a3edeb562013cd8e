//! Two-player zero-sum matrix games and their equilibria.
//!
//! A Traitor secret selection is a simultaneous choice against an opponent
//! who chooses too: any fixed (pure) selection can be read and punished, so
//! the engine chooses a mixed strategy from a payoff matrix (rows: our
//! selections, columns: the opponent's, entries: our expected score). The
//! equilibrium mix guarantees the game's value whatever the opponent does.
//!
//! Three solvers, by size:
//! * [`MatrixGame::solve`]: exact, by linear programming (a dense simplex),
//!   for games up to a few hundred strategies a side.
//! * [`MatrixGame::regret_matching`]: regret matching+ with alternating
//!   updates and linear averaging, an anytime approximation whose quality
//!   [`Solution::exploitability`] reports.
//! * [`double_oracle`]: grows the strategies considered by best responses,
//!   solving each restricted game exactly and computing payoff entries only
//!   when needed, for matrices too large to fill (2204 x 2204 selections).

use std::collections::HashMap;

/// A matrix game refused at construction: the solvers assume a non-empty
/// matrix of finite numbers, so a bad one is stopped here rather than
/// producing a meaningless mix.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EquilibriumError {
    #[error("the game has no strategies ({rows} rows, {cols} columns)")]
    Empty { rows: usize, cols: usize },
    #[error("the payoff has {found} entries, expected {expected} (rows x columns)")]
    LengthMismatch { expected: usize, found: usize },
    #[error("the payoff at row {row}, column {col} is not a finite number")]
    NonFinite { row: usize, col: usize },
    #[error("start ({row}, {col}) is outside the {rows} x {cols} game")]
    StartOutOfRange {
        row: usize,
        col: usize,
        rows: usize,
        cols: usize,
    },
}

/// A two-player zero-sum game in normal form: the row player receives
/// `payoff[row * cols + col]` and the column player pays it, so the row
/// player maximises and the column player minimises the same number.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixGame {
    rows: usize,
    cols: usize,
    payoff: Vec<f64>,
}

/// Mixed strategies for both players, the value of the game they play
/// (the row player's expected payoff) and how far they are from an
/// equilibrium ([`MatrixGame::exploitability`]: 0 at an exact one).
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's probabilities, one per row, summing to 1.
    pub rows: Vec<f64>,
    /// The column player's probabilities, one per column, summing to 1.
    pub cols: Vec<f64>,
    /// The row player's expected payoff. For [`MatrixGame::solve`] the
    /// game's value; for the approximations, the value of the mixes found.
    pub value: f64,
    /// The duality gap of the mixes: what the best responses to them gain
    /// over each other. The row player is guaranteed `value` minus at most
    /// this much against any opponent.
    pub exploitability: f64,
}

impl MatrixGame {
    /// A game of `rows` x `cols` strategies with the row player's payoffs
    /// in row-major order. Refuses an empty game, a payoff of the wrong
    /// length and any entry that is not finite.
    pub fn new(rows: usize, cols: usize, payoff: Vec<f64>) -> Result<Self, EquilibriumError> {
        if rows == 0 || cols == 0 {
            return Err(EquilibriumError::Empty { rows, cols });
        }
        let expected = rows.saturating_mul(cols);
        if payoff.len() != expected {
            return Err(EquilibriumError::LengthMismatch {
                expected,
                found: payoff.len(),
            });
        }
        if let Some(at) = payoff.iter().position(|p| !p.is_finite()) {
            return Err(EquilibriumError::NonFinite {
                row: at / cols,
                col: at % cols,
            });
        }
        Ok(Self { rows, cols, payoff })
    }

    /// The number of row strategies.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of column strategies.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The row player's payoff when `row` meets `col`.
    pub fn payoff(&self, row: usize, col: usize) -> f64 {
        assert!(row < self.rows && col < self.cols, "strategy out of range");
        self.payoff[row * self.cols + col]
    }

    /// The row player's expected payoff when both players mix.
    ///
    /// Panics if a mix has the wrong length.
    pub fn value_against(&self, row_mix: &[f64], col_mix: &[f64]) -> f64 {
        assert_eq!(row_mix.len(), self.rows, "row mix length");
        assert_eq!(col_mix.len(), self.cols, "column mix length");
        row_mix
            .iter()
            .zip(self.payoff.chunks_exact(self.cols))
            .map(|(&p, line)| p * dot(line, col_mix))
            .sum()
    }

    /// The row that earns most against `col_mix`, and what it earns; ties
    /// go to the lowest index, so the answer is deterministic.
    ///
    /// Panics if the mix has the wrong length.
    pub fn best_row_response(&self, col_mix: &[f64]) -> (usize, f64) {
        assert_eq!(col_mix.len(), self.cols, "column mix length");
        let mut earned = vec![0.0; self.rows];
        self.row_payoffs(col_mix, &mut earned);
        arg_best(&earned, |a, b| a > b)
    }

    /// The column that concedes least against `row_mix` (the column player
    /// minimises the row player's payoff), and the row player's payoff
    /// there; ties go to the lowest index.
    ///
    /// Panics if the mix has the wrong length.
    pub fn best_col_response(&self, row_mix: &[f64]) -> (usize, f64) {
        assert_eq!(row_mix.len(), self.rows, "row mix length");
        let mut conceded = vec![0.0; self.cols];
        self.col_payoffs(row_mix, &mut conceded);
        arg_best(&conceded, |a, b| a < b)
    }

    /// The duality gap of a pair of mixes: the best row response's payoff
    /// against `col_mix` minus the best column response's payoff against
    /// `row_mix`. Never negative (up to rounding) and 0 exactly at an
    /// equilibrium; it bounds what either player can lose to an opponent
    /// who knows the mix.
    pub fn exploitability(&self, row_mix: &[f64], col_mix: &[f64]) -> f64 {
        self.best_row_response(col_mix).1 - self.best_col_response(row_mix).1
    }

    /// An exact equilibrium by linear programming.
    ///
    /// The standard reduction: payoffs are mapped affinely into [1, 2] so
    /// that the value is positive, then the column player's problem
    /// `maximise sum(y) subject to A y <= 1, y >= 0` is solved by a dense
    /// simplex; `y / sum(y)` is the column mix, the duals of the constraints
    /// (normalised the same way) are the row mix, and `1 / sum(y)` mapped
    /// back is the value. The most negative reduced cost enters (Dantzig)
    /// and ties in the ratio test are broken lexicographically, which rules
    /// out cycling; payoffs with many equal entries make most pivots
    /// degenerate, and there Bland's rule stalls for tens of thousands of
    /// pivots where this takes a few thousand. Rounding may leave
    /// probabilities a hair below zero: they are clamped and the mixes
    /// renormalised.
    pub fn solve(&self) -> Solution {
        let low = self.payoff.iter().copied().fold(f64::INFINITY, f64::min);
        let high = self
            .payoff
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let range = if high > low { high - low } else { 1.0 };
        let scaled: Vec<f64> = self
            .payoff
            .iter()
            .map(|p| (p - low) / range + 1.0)
            .collect();
        let lp = simplex_max_ones(&scaled, self.rows, self.cols);
        let rows = normalised(lp.duals);
        let cols = normalised(lp.primal);
        let value = (1.0 / lp.objective - 1.0) * range + low;
        let exploitability = self.exploitability(&rows, &cols);
        Solution {
            rows,
            cols,
            value,
            exploitability,
        }
    }

    /// An approximate equilibrium by regret matching+ (the matrix-game form
    /// of CFR+): each player's regrets are clipped at zero after every
    /// update, the players update in turn (the column player answers the
    /// row player's new mix), and iteration `t` weighs `t` in the averages.
    /// The average mixes converge to an equilibrium; each iteration costs
    /// two matrix-vector products, so it scales where [`MatrixGame::solve`]
    /// does not. Deterministic; 0 iterations give the uniform mixes.
    pub fn regret_matching(&self, iterations: u32) -> Solution {
        let (m, n) = (self.rows, self.cols);
        let mut row_regret = vec![0.0; m];
        let mut col_regret = vec![0.0; n];
        let mut row_mix = vec![1.0 / m as f64; m];
        let mut col_mix = vec![1.0 / n as f64; n];
        let mut row_sum = vec![0.0; m];
        let mut col_sum = vec![0.0; n];
        let mut row_earned = vec![0.0; m];
        let mut col_conceded = vec![0.0; n];
        for t in 1..=iterations {
            let weight = f64::from(t);
            // The row player against the column player's current mix.
            self.row_payoffs(&col_mix, &mut row_earned);
            let expected = dot(&row_mix, &row_earned);
            for (regret, earned) in row_regret.iter_mut().zip(&row_earned) {
                *regret = (*regret + earned - expected).max(0.0);
            }
            regret_matched(&row_regret, &mut row_mix);
            // The column player against the row player's new mix.
            self.col_payoffs(&row_mix, &mut col_conceded);
            let expected = dot(&col_mix, &col_conceded);
            for (regret, conceded) in col_regret.iter_mut().zip(&col_conceded) {
                *regret = (*regret + expected - conceded).max(0.0);
            }
            // Each average takes the mix the other player answered.
            for (sum, p) in row_sum.iter_mut().zip(&row_mix) {
                *sum += weight * p;
            }
            for (sum, p) in col_sum.iter_mut().zip(&col_mix) {
                *sum += weight * p;
            }
            regret_matched(&col_regret, &mut col_mix);
        }
        let (rows, cols) = if iterations == 0 {
            (row_mix, col_mix)
        } else {
            (normalised(row_sum), normalised(col_sum))
        };
        self.solution_of(rows, cols)
    }

    /// The solution record of a pair of mixes.
    fn solution_of(&self, rows: Vec<f64>, cols: Vec<f64>) -> Solution {
        let value = self.value_against(&rows, &cols);
        let exploitability = self.exploitability(&rows, &cols);
        Solution {
            rows,
            cols,
            value,
            exploitability,
        }
    }

    /// `out[i]`: row `i`'s payoff against `col_mix` (`A y`).
    fn row_payoffs(&self, col_mix: &[f64], out: &mut [f64]) {
        for (o, line) in out.iter_mut().zip(self.payoff.chunks_exact(self.cols)) {
            *o = dot(line, col_mix);
        }
    }

    /// `out[j]`: column `j`'s payoff to the row player against `row_mix`
    /// (`x^T A`).
    fn col_payoffs(&self, row_mix: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        for (&p, line) in row_mix.iter().zip(self.payoff.chunks_exact(self.cols)) {
            if p != 0.0 {
                for (o, a) in out.iter_mut().zip(line) {
                    *o += p * a;
                }
            }
        }
    }
}

/// What [`double_oracle`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct DoubleOracle {
    /// The mixes over the full index space (zero outside the candidates),
    /// their value, and their exploitability in the full game, exact since
    /// best responses need only the entries against the mixes' supports.
    pub solution: Solution,
    /// The rows the restricted game ended with, in the order they entered.
    pub row_candidates: Vec<usize>,
    /// The columns the restricted game ended with, in the order they
    /// entered.
    pub col_candidates: Vec<usize>,
    /// Restricted games solved.
    pub iterations: u32,
    /// Distinct payoff entries computed (each at most once).
    pub entries_evaluated: usize,
}

/// An equilibrium of a game too large to fill, by double oracle.
///
/// Starts from one row and one column; each iteration solves the game
/// restricted to the candidates exactly ([`MatrixGame::solve`]), then finds
/// each player's best response over the full index space to the other's
/// restricted mix. A response that beats the restricted value by more than
/// `tolerance` joins the candidates; when neither does, the mixes are an
/// equilibrium of the full game within `2 * tolerance` (the reported
/// exploitability is the exact gap). `payoff(row, col)` is called at most
/// once per entry (entries are cached), and only for the entries the best
/// responses and restricted games need: in practice a few times the
/// supports times the sizes, rather than `rows * cols`. Stops after
/// `max_iterations` restricted games at the latest (at least one is
/// solved).
///
/// Refuses an empty game, a start outside it, and a non-finite payoff.
pub fn double_oracle(
    rows: usize,
    cols: usize,
    mut payoff: impl FnMut(usize, usize) -> f64,
    start_row: usize,
    start_col: usize,
    max_iterations: u32,
    tolerance: f64,
) -> Result<DoubleOracle, EquilibriumError> {
    if rows == 0 || cols == 0 {
        return Err(EquilibriumError::Empty { rows, cols });
    }
    if start_row >= rows || start_col >= cols {
        return Err(EquilibriumError::StartOutOfRange {
            row: start_row,
            col: start_col,
            rows,
            cols,
        });
    }
    let mut cache: HashMap<(usize, usize), f64> = HashMap::new();
    let mut entry = |row: usize, col: usize| -> Result<f64, EquilibriumError> {
        if let Some(&p) = cache.get(&(row, col)) {
            return Ok(p);
        }
        let p = payoff(row, col);
        if !p.is_finite() {
            return Err(EquilibriumError::NonFinite { row, col });
        }
        cache.insert((row, col), p);
        Ok(p)
    };
    let mut row_candidates = vec![start_row];
    let mut col_candidates = vec![start_col];
    let mut iterations = 0;
    loop {
        iterations += 1;
        let mut restricted = Vec::with_capacity(row_candidates.len() * col_candidates.len());
        for &r in &row_candidates {
            for &c in &col_candidates {
                restricted.push(entry(r, c)?);
            }
        }
        let game = MatrixGame::new(row_candidates.len(), col_candidates.len(), restricted)?;
        let local = game.solve();
        let row_support: Vec<(usize, f64)> = row_candidates
            .iter()
            .zip(&local.rows)
            .filter(|(_, &p)| p > 0.0)
            .map(|(&r, &p)| (r, p))
            .collect();
        let col_support: Vec<(usize, f64)> = col_candidates
            .iter()
            .zip(&local.cols)
            .filter(|(_, &p)| p > 0.0)
            .map(|(&c, &p)| (c, p))
            .collect();
        // Best responses over the full index space, ties to the lowest
        // index, from the entries against the other player's support.
        let mut best_row = (0, f64::NEG_INFINITY);
        for r in 0..rows {
            let mut earned = 0.0;
            for &(c, q) in &col_support {
                earned += q * entry(r, c)?;
            }
            if earned > best_row.1 {
                best_row = (r, earned);
            }
        }
        let mut best_col = (0, f64::INFINITY);
        for c in 0..cols {
            let mut conceded = 0.0;
            for &(r, p) in &row_support {
                conceded += p * entry(r, c)?;
            }
            if conceded < best_col.1 {
                best_col = (c, conceded);
            }
        }
        let mut grew = false;
        if best_row.1 > local.value + tolerance && !row_candidates.contains(&best_row.0) {
            row_candidates.push(best_row.0);
            grew = true;
        }
        if best_col.1 < local.value - tolerance && !col_candidates.contains(&best_col.0) {
            col_candidates.push(best_col.0);
            grew = true;
        }
        if !grew || iterations >= max_iterations {
            let mut row_mix = vec![0.0; rows];
            for &(r, p) in &row_support {
                row_mix[r] = p;
            }
            let mut col_mix = vec![0.0; cols];
            for &(c, q) in &col_support {
                col_mix[c] = q;
            }
            return Ok(DoubleOracle {
                solution: Solution {
                    rows: row_mix,
                    cols: col_mix,
                    value: local.value,
                    exploitability: best_row.1 - best_col.1,
                },
                row_candidates,
                col_candidates,
                iterations,
                entries_evaluated: cache.len(),
            });
        }
    }
}

/// Reduced costs and pivots smaller than this are taken as zero. The
/// tableau starts with entries in [1, 2] (the payoffs are scaled first), so
/// an absolute threshold is meaningful.
const EPSILON: f64 = 1e-11;

/// The optimum of `maximise sum(y) subject to A y <= 1, y >= 0`.
struct LpOptimum {
    /// `y`, one per column of `A`.
    primal: Vec<f64>,
    /// The constraints' shadow prices, one per row of `A`.
    duals: Vec<f64>,
    /// `sum(y)`.
    objective: f64,
}

/// Solves `maximise sum(y) subject to A y <= 1, y >= 0` for a positive
/// `m x n` matrix `A` (row-major) with a dense tableau. The slack basis is
/// feasible at the start (the right-hand side is 1), so one phase suffices,
/// and the problem is bounded (every entry is at least 1).
fn simplex_max_ones(a: &[f64], m: usize, n: usize) -> LpOptimum {
    // Columns: y (n), slacks (m), right-hand side (1).
    let width = n + m + 1;
    let rhs = width - 1;
    let mut tableau = vec![0.0; m * width];
    for i in 0..m {
        let line = &mut tableau[i * width..(i + 1) * width];
        line[..n].copy_from_slice(&a[i * n..(i + 1) * n]);
        line[n + i] = 1.0;
        line[rhs] = 1.0;
    }
    // The objective row holds the reduced costs of `z - sum(y) = 0`.
    let mut objective = vec![0.0; width];
    objective[..n].fill(-1.0);
    let mut basis: Vec<usize> = (n..n + m).collect();
    let mut pivot_line = vec![0.0; width];
    // A safety net only: the anti-cycling rule guarantees termination.
    let max_pivots = 50 * (m + n) + 1000;
    for _ in 0..max_pivots {
        // Dantzig's rule: the most negative reduced cost enters.
        let mut entering: Option<(usize, f64)> = None;
        for (j, &c) in objective[..rhs].iter().enumerate() {
            if c < -EPSILON && entering.is_none_or(|(_, best)| c < best) {
                entering = Some((j, c));
            }
        }
        let Some((e, _)) = entering else { break };
        // The ratio test, on right-hand sides that rounding may have left a
        // hair below zero. Ties (within rounding) are broken by the
        // lexicographic rule: the least row of B^-1 (the slack columns, as
        // the slacks were the first basis) divided by its pivot entry.
        let ratio_of = |i: usize| -> Option<f64> {
            let coefficient = tableau[i * width + e];
            (coefficient > EPSILON).then(|| tableau[i * width + rhs].max(0.0) / coefficient)
        };
        let Some(least) = (0..m).filter_map(ratio_of).reduce(f64::min) else {
            // Unreachable for a bounded problem; stop rather than divide by 0.
            break;
        };
        let mut leaving: Option<usize> = None;
        for i in 0..m {
            if ratio_of(i).is_some_and(|ratio| ratio <= least + EPSILON) {
                let better = match leaving {
                    None => true,
                    Some(l) => lexicographically_less(&tableau, width, n, e, i, l),
                };
                if better {
                    leaving = Some(i);
                }
            }
        }
        let Some(r) = leaving else { break };
        let pivot = tableau[r * width + e];
        for (p, t) in pivot_line
            .iter_mut()
            .zip(&tableau[r * width..(r + 1) * width])
        {
            *p = t / pivot;
        }
        for (i, line) in tableau.chunks_exact_mut(width).enumerate() {
            if i == r {
                line.copy_from_slice(&pivot_line);
                continue;
            }
            let factor = line[e];
            if factor != 0.0 {
                for (t, p) in line.iter_mut().zip(&pivot_line) {
                    *t -= factor * p;
                }
                line[e] = 0.0;
                line[rhs] = line[rhs].max(0.0);
            }
        }
        let factor = objective[e];
        for (t, p) in objective.iter_mut().zip(&pivot_line) {
            *t -= factor * p;
        }
        objective[e] = 0.0;
        basis[r] = e;
    }
    let mut primal = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            primal[b] = tableau[i * width + rhs];
        }
    }
    LpOptimum {
        primal,
        duals: objective[n..n + m].to_vec(),
        objective: objective[rhs],
    }
}

/// Whether row `i` of the basis inverse scaled by its entry in column `e`
/// is lexicographically less than row `l`'s, with differences within
/// rounding taken as equal.
fn lexicographically_less(
    tableau: &[f64],
    width: usize,
    n: usize,
    e: usize,
    i: usize,
    l: usize,
) -> bool {
    let (a, b) = (&tableau[i * width..], &tableau[l * width..]);
    let (pa, pb) = (a[e], b[e]);
    let inverse = n..width - 1;
    for (x, y) in a[inverse.clone()].iter().zip(&b[inverse]) {
        let (x, y) = (x / pa, y / pb);
        if (x - y).abs() > EPSILON {
            return x < y;
        }
    }
    false
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The first index whose value `better` prefers to every other's.
fn arg_best(values: &[f64], better: impl Fn(f64, f64) -> bool) -> (usize, f64) {
    let mut best = (0, values[0]);
    for (i, &v) in values.iter().enumerate().skip(1) {
        if better(v, best.1) {
            best = (i, v);
        }
    }
    best
}

/// Probabilities from weights: negatives (rounding) clamped to zero, then
/// scaled to sum to 1; uniform if nothing positive is left.
fn normalised(mut weights: Vec<f64>) -> Vec<f64> {
    for w in &mut weights {
        *w = w.max(0.0);
    }
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        for w in &mut weights {
            *w /= total;
        }
    } else {
        let uniform = 1.0 / weights.len() as f64;
        weights.fill(uniform);
    }
    weights
}

/// Regret matching: the mix proportional to the positive regrets, uniform
/// when none is positive.
fn regret_matched(regrets: &[f64], mix: &mut [f64]) {
    let total: f64 = regrets.iter().sum();
    if total > 0.0 {
        for (p, r) in mix.iter_mut().zip(regrets) {
            *p = r / total;
        }
    } else {
        mix.fill(1.0 / mix.len() as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LP: f64 = 1e-9;

    fn game(rows: usize, cols: usize, payoff: &[f64]) -> MatrixGame {
        MatrixGame::new(rows, cols, payoff.to_vec()).unwrap()
    }

    fn assert_close(actual: &[f64], expected: &[f64], tolerance: f64) {
        assert_eq!(actual.len(), expected.len());
        for (a, e) in actual.iter().zip(expected) {
            assert!((a - e).abs() <= tolerance, "{actual:?} != {expected:?}");
        }
    }

    fn rock_paper_scissors() -> MatrixGame {
        game(3, 3, &[0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0])
    }

    /// Row 1 mixes 2/5 : 3/5 to make the columns indifferent
    /// (3p - 1 = 1 - 2p), the columns likewise, value 6/5 - 1 = 1/5.
    fn two_by_two() -> MatrixGame {
        game(2, 2, &[2.0, -1.0, -1.0, 1.0])
    }

    /// Rock-paper-scissors where rock beating scissors pays 2.
    fn biased() -> MatrixGame {
        game(3, 3, &[0.0, -1.0, 2.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0])
    }

    /// A deterministic pseudo-random payoff in [0, 1) from an integer hash.
    fn hashed(row: usize, col: usize) -> f64 {
        let mut h = (row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (col as u64 + 0x632B);
        h = (h ^ (h >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^= h >> 31;
        (h % 1000) as f64 / 1000.0
    }

    fn hashed_game(rows: usize, cols: usize) -> MatrixGame {
        let payoff = (0..rows * cols)
            .map(|k| hashed(k / cols, k % cols))
            .collect();
        MatrixGame::new(rows, cols, payoff).unwrap()
    }

    #[test]
    fn matching_pennies_is_a_fair_coin_for_both() {
        let solution = game(2, 2, &[1.0, -1.0, -1.0, 1.0]).solve();
        assert_close(&solution.rows, &[0.5, 0.5], LP);
        assert_close(&solution.cols, &[0.5, 0.5], LP);
        assert!(solution.value.abs() <= LP);
        assert!(solution.exploitability.abs() <= LP);
    }

    #[test]
    fn rock_paper_scissors_is_a_third_each_with_value_zero() {
        let solution = rock_paper_scissors().solve();
        let third = 1.0 / 3.0;
        assert_close(&solution.rows, &[third; 3], LP);
        assert_close(&solution.cols, &[third; 3], LP);
        assert!(solution.value.abs() <= LP);
        assert!(solution.exploitability.abs() <= LP);
    }

    #[test]
    fn a_two_by_two_without_saddle_point_mixes_two_fifths_three_fifths() {
        let solution = two_by_two().solve();
        assert_close(&solution.rows, &[0.4, 0.6], LP);
        assert_close(&solution.cols, &[0.4, 0.6], LP);
        assert!((solution.value - 0.2).abs() <= LP);
        assert!(solution.exploitability.abs() <= LP);
    }

    #[test]
    fn a_saddle_point_gives_pure_strategies() {
        // Row 2 dominates; against it column 1 concedes least: value 2.
        let solution = game(3, 3, &[3.0, 1.0, 4.0, 2.0, 0.0, 1.0, 5.0, 2.0, 6.0]).solve();
        assert_eq!(solution.rows, vec![0.0, 0.0, 1.0]);
        assert_eq!(solution.cols, vec![0.0, 1.0, 0.0]);
        assert!((solution.value - 2.0).abs() <= LP);
    }

    #[test]
    fn a_strictly_dominated_row_gets_probability_zero() {
        // Row 2 earns less than rows 0 and 1 against anything.
        let solution = game(3, 2, &[3.0, 1.0, 1.0, 3.0, 0.5, 0.5]).solve();
        assert_eq!(solution.rows[2], 0.0);
        assert_close(&solution.rows, &[0.5, 0.5, 0.0], LP);
        assert_close(&solution.cols, &[0.5, 0.5], LP);
        assert!((solution.value - 2.0).abs() <= LP);
    }

    #[test]
    fn a_three_by_four_game_has_the_value_computed_by_hand() {
        // Rows 0 and 1 against columns 0 and 1 is [[4, 1], [2, 3]]: rows
        // 1/4 : 3/4 (2p + 2 = 3 - 2p), columns 1/2 : 1/2, value 5/2.
        // Against those rows columns 2 and 3 concede 3 and 15/4; against
        // those columns row 2 earns 2. The solution is unique (column 0
        // forces p0 >= 1/4, column 1 forces p1 >= p0 + 1/2).
        let solution = game(
            3,
            4,
            &[
                4.0, 1.0, 3.0, 0.0, //
                2.0, 3.0, 3.0, 5.0, //
                2.0, 2.0, 1.0, 1.0,
            ],
        )
        .solve();
        assert_close(&solution.rows, &[0.25, 0.75, 0.0], LP);
        assert_close(&solution.cols, &[0.5, 0.5, 0.0, 0.0], LP);
        assert!((solution.value - 2.5).abs() <= LP);
        assert!(solution.exploitability.abs() <= LP);
    }

    #[test]
    fn a_constant_game_is_solved_at_its_constant() {
        let solution = game(2, 3, &[0.7; 6]).solve();
        assert!((solution.value - 0.7).abs() <= LP);
        assert!(solution.exploitability.abs() <= LP);
        assert!((solution.rows.iter().sum::<f64>() - 1.0).abs() <= LP);
    }

    #[test]
    fn a_three_hundred_square_game_solves_exactly() {
        let game = hashed_game(300, 300);
        let solution = game.solve();
        assert!(
            solution.exploitability.abs() <= LP,
            "{}",
            solution.exploitability
        );
        assert!(solution
            .rows
            .iter()
            .chain(&solution.cols)
            .all(|&p| p >= 0.0));
        assert!((solution.rows.iter().sum::<f64>() - 1.0).abs() <= LP);
        assert!((solution.cols.iter().sum::<f64>() - 1.0).abs() <= LP);
        let value = game.value_against(&solution.rows, &solution.cols);
        assert!((solution.value - value).abs() <= LP);
    }

    #[test]
    fn a_three_hundred_square_game_of_zeros_and_ones_solves_exactly() {
        // Equal entries everywhere: most pivots are degenerate.
        let n = 300;
        let payoff = (0..n * n)
            .map(|k| f64::from(u8::from(hashed(k / n, k % n) >= 0.5)))
            .collect();
        let game = MatrixGame::new(n, n, payoff).unwrap();
        let solution = game.solve();
        assert!(
            solution.exploitability.abs() <= LP,
            "{}",
            solution.exploitability
        );
        let value = game.value_against(&solution.rows, &solution.cols);
        assert!((solution.value - value).abs() <= LP);
    }

    #[test]
    fn regret_matching_comes_within_a_thousandth_of_the_linear_program() {
        // The biased game too: uniform play, where rock-paper-scissors
        // starts, is no equilibrium there.
        for game in [rock_paper_scissors(), two_by_two(), biased()] {
            let exact = game.solve();
            let approximate = game.regret_matching(10_000);
            assert!(approximate.exploitability <= 1e-3, "{approximate:?}");
            assert!((approximate.value - exact.value).abs() <= 1e-3);
            assert_close(&approximate.rows, &exact.rows, 1e-2);
            assert_close(&approximate.cols, &exact.cols, 1e-2);
        }
    }

    #[test]
    fn regret_matching_is_deterministic() {
        let game = hashed_game(7, 5);
        assert_eq!(game.regret_matching(1_000), game.regret_matching(1_000));
    }

    #[test]
    fn exploitability_of_uniform_mixes_on_a_biased_game_is_exact() {
        // Against uniform columns the rows earn 1/3, 0, 0; against uniform
        // rows the columns concede 0, 0, 1/3.
        let game = biased();
        let uniform = [1.0 / 3.0; 3];
        assert_eq!(game.best_row_response(&uniform).0, 0);
        assert!((game.best_row_response(&uniform).1 - 1.0 / 3.0).abs() <= 1e-15);
        assert_eq!(game.best_col_response(&uniform), (0, 0.0));
        assert!((game.exploitability(&uniform, &uniform) - 1.0 / 3.0).abs() <= 1e-15);
    }

    #[test]
    fn bad_input_is_refused_with_a_typed_error() {
        assert_eq!(
            MatrixGame::new(0, 3, vec![]),
            Err(EquilibriumError::Empty { rows: 0, cols: 3 })
        );
        assert_eq!(
            MatrixGame::new(2, 2, vec![1.0; 3]),
            Err(EquilibriumError::LengthMismatch {
                expected: 4,
                found: 3
            })
        );
        assert_eq!(
            MatrixGame::new(2, 2, vec![1.0, 2.0, f64::NAN, 0.0]),
            Err(EquilibriumError::NonFinite { row: 1, col: 0 })
        );
        assert_eq!(
            double_oracle(2, 2, |_, _| 0.0, 2, 0, 10, 1e-9),
            Err(EquilibriumError::StartOutOfRange {
                row: 2,
                col: 0,
                rows: 2,
                cols: 2
            })
        );
        assert_eq!(
            double_oracle(2, 2, |_, _| f64::INFINITY, 0, 0, 10, 1e-9),
            Err(EquilibriumError::NonFinite { row: 0, col: 0 })
        );
    }

    #[test]
    fn double_oracle_finds_the_value_of_the_full_game_from_fewer_entries() {
        let full = hashed_game(30, 30).solve();
        let found = double_oracle(30, 30, hashed, 0, 0, 1_000, 1e-12).unwrap();
        assert!((found.solution.value - full.value).abs() <= LP);
        assert!(found.solution.exploitability.abs() <= LP);
        assert_eq!(found.solution.rows.len(), 30);
        assert_eq!(found.solution.cols.len(), 30);
        assert!(found.entries_evaluated < 900, "{found:?}");
    }
}
