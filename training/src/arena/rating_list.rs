//! One rating per agent from all the pairings of an arena, as BayesElo and
//! Ordo give for a tournament: with three or more agents the pairwise Elo
//! differences do not say where each agent stands, and they need not even
//! be consistent with one another.
//!
//! The model is the logistic (Bradley-Terry) one of the pairwise table:
//! agent `i` scores `1 / (1 + 10^(-(r_i - r_j) / 400))` against `j`, a draw
//! counting half a win. The estimate is the maximum a posteriori with
//! BayesElo's default prior, [`PRIOR_DRAWS`] virtual draws between every
//! pair of agents that met, which keeps the ratings finite when an agent
//! won or lost every game and pulls them towards each other by about one
//! game's worth. The first agent is the anchor (rating 0: a gauntlet's
//! agent under test); each other rating's 95% interval is the normal one
//! from the inverse of the posterior's curvature with the anchor fixed
//! (the Laplace approximation), so it is the uncertainty of the difference
//! to the anchor. Counting a draw as half a win gives it the Bernoulli
//! variance, an upper bound of the variance with draws: the intervals are
//! conservative when agents draw often.

use heterodox_engine::score::sigmoid;
use serde::Serialize;

use crate::arena::rating::Z95;

/// Virtual draws added to every pairing (BayesElo's `prior`).
pub const PRIOR_DRAWS: f64 = 2.0;

/// Elo per unit of the logistic model's natural scale.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The games between two agents: `score_a` is agent `a`'s points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    pub a: usize,
    pub b: usize,
    pub games: u32,
    pub score_a: f64,
}

/// One agent's line of the list.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    pub agent: usize,
    /// Elo relative to the anchor (agent 0).
    pub elo: f64,
    /// 95% interval; the anchor's is (0, 0).
    pub low: f64,
    pub high: f64,
    pub games: u32,
    /// Points scored, draws counting half.
    pub score: f64,
}

/// The ratings of `agents` agents from their `meetings`; `None` when some
/// agent is not connected to the anchor by games (its rating relative to
/// it is not defined).
pub fn rating_list(agents: usize, meetings: &[Meeting]) -> Option<Vec<Rating>> {
    if agents == 0 || meetings.iter().any(|m| m.a >= agents || m.b >= agents) {
        return None;
    }
    // Scores and games with the prior's draws folded in.
    let mut games = vec![vec![0.0f64; agents]; agents];
    let mut points = vec![vec![0.0f64; agents]; agents];
    for m in meetings.iter().filter(|m| m.games > 0 && m.a != m.b) {
        let n = f64::from(m.games);
        games[m.a][m.b] += n;
        games[m.b][m.a] += n;
        points[m.a][m.b] += m.score_a;
        points[m.b][m.a] += n - m.score_a;
    }
    for i in 0..agents {
        for j in 0..agents {
            if games[i][j] > 0.0 {
                games[i][j] += PRIOR_DRAWS;
                points[i][j] += PRIOR_DRAWS / 2.0;
            }
        }
    }
    if !connected(&games) {
        return None;
    }
    // Newton's method on the log-posterior in natural units, agent 0 fixed
    // at 0. The posterior is concave and, with the prior, has its maximum
    // at finite ratings; a step is halved while it does not improve it.
    let free = agents - 1;
    let mut beta = vec![0.0f64; agents];
    let log_posterior = |beta: &[f64]| -> f64 {
        let mut total = 0.0;
        for i in 0..agents {
            for j in 0..agents {
                if games[i][j] > 0.0 {
                    // log sigma(d) = -softplus(-d), computed stably.
                    let d = beta[i] - beta[j];
                    total -= points[i][j] * ((-d).max(0.0) + (-d.abs()).exp().ln_1p());
                }
            }
        }
        total
    };
    let mut hessian = vec![vec![0.0f64; free]; free];
    for _ in 0..100 {
        let mut gradient = vec![0.0f64; free];
        for row in &mut hessian {
            row.iter_mut().for_each(|h| *h = 0.0);
        }
        for i in 0..agents {
            for j in 0..agents {
                if i == j || games[i][j] == 0.0 {
                    continue;
                }
                let p = sigmoid(beta[i] - beta[j]);
                if i > 0 {
                    gradient[i - 1] += points[i][j] - games[i][j] * p;
                    let w = games[i][j] * p * (1.0 - p);
                    hessian[i - 1][i - 1] += w;
                    if j > 0 {
                        hessian[i - 1][j - 1] -= w;
                    }
                }
            }
        }
        // The negative Hessian is positive definite: solve for the step.
        let step = solve(&hessian, &gradient)?;
        let before = log_posterior(&beta);
        let mut scale = 1.0;
        let mut next = beta.clone();
        for _ in 0..30 {
            for k in 0..free {
                next[k + 1] = beta[k + 1] + scale * step[k];
            }
            if log_posterior(&next) >= before - 1e-12 {
                break;
            }
            scale /= 2.0;
        }
        let moved = step.iter().map(|s| (scale * s).abs()).fold(0.0, f64::max);
        beta = next;
        if moved < 1e-12 {
            break;
        }
    }
    let covariance = invert(&hessian)?;
    let mut list = Vec::with_capacity(agents);
    for i in 0..agents {
        let elo = ELO_PER_NAT * beta[i];
        let half = if i == 0 {
            0.0
        } else {
            Z95 * ELO_PER_NAT * covariance[i - 1][i - 1].max(0.0).sqrt()
        };
        let (mut played, mut score) = (0u32, 0.0);
        for m in meetings.iter().filter(|m| m.a != m.b) {
            if m.a == i {
                played += m.games;
                score += m.score_a;
            } else if m.b == i {
                played += m.games;
                score += f64::from(m.games) - m.score_a;
            }
        }
        list.push(Rating {
            agent: i,
            elo,
            low: elo - half,
            high: elo + half,
            games: played,
            score,
        });
    }
    Some(list)
}

/// Whether every agent is joined to agent 0 by a chain of meetings.
fn connected(games: &[Vec<f64>]) -> bool {
    let mut seen = vec![false; games.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for (j, &n) in games[i].iter().enumerate() {
            if n > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// for a singular matrix. The lists are a handful of agents.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut row = row.clone();
            row.push(v);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..n).map(|i| m[i][n] / m[i][i]).collect())
}

/// The inverse of a small positive-definite matrix, column by column.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut columns = Vec::with_capacity(n);
    for k in 0..n {
        let mut unit = vec![0.0; n];
        unit[k] = 1.0;
        columns.push(solve(a, &unit)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meeting(a: usize, b: usize, games: u32, score_a: f64) -> Meeting {
        Meeting {
            a,
            b,
            games,
            score_a,
        }
    }

    #[test]
    fn two_agents_match_the_closed_form() {
        // Agent 1 scores 7 of 10, with the two virtual draws 8 of 12:
        // p = 2/3, a rating of 400 log10(2) = +120.41 over agent 0, with
        // the standard error 1 / sqrt(12 p (1 - p)) in natural units.
        let list = rating_list(2, &[meeting(0, 1, 10, 3.0)]).unwrap();
        assert_eq!(list[0].elo, 0.0);
        assert_eq!((list[0].low, list[0].high), (0.0, 0.0));
        assert!(
            (list[1].elo - 120.411_998_265_592_47).abs() < 1e-9,
            "{list:?}"
        );
        let se = ELO_PER_NAT / (12.0f64 * 2.0 / 9.0).sqrt();
        assert!((list[1].high - list[1].elo - Z95 * se).abs() < 1e-9);
        assert!((list[1].elo - list[1].low - Z95 * se).abs() < 1e-9);
        assert_eq!((list[1].games, list[1].score), (10, 7.0));
        assert_eq!((list[0].games, list[0].score), (10, 3.0));
    }

    #[test]
    fn a_perfect_score_stays_finite() {
        // 20 wins of 20: the ML rating is infinite; with the prior agent 1
        // has 1 point of 22: 400 log10(1 / 21) = -528.89.
        let list = rating_list(2, &[meeting(0, 1, 20, 20.0)]).unwrap();
        assert!(
            (list[1].elo - -528.887_717_893_567_7).abs() < 1e-9,
            "{list:?}"
        );
    }

    #[test]
    fn a_round_robin_matches_an_independent_fit() {
        // A beats B 14-6, B beats C 14-6, A and C draw 10-10: no ratings
        // fit all three exactly. The expected values come from Hunter's
        // minorize-maximize iteration (a different algorithm from this
        // Newton's method) on the same posterior, run in Python.
        let list = rating_list(
            3,
            &[
                meeting(0, 1, 20, 14.0),
                meeting(1, 2, 20, 14.0),
                meeting(0, 2, 20, 10.0),
            ],
        )
        .unwrap();
        assert!(
            (list[1].elo - -42.746_444_440_852_93).abs() < 1e-6,
            "{list:?}"
        );
        assert!(
            (list[2].elo - -85.492_888_881_705_88).abs() < 1e-6,
            "{list:?}"
        );
        assert!(list[1].low < list[1].elo && list[1].elo < list[1].high);
        assert_eq!((list[2].games, list[2].score), (40, 16.0));
    }

    #[test]
    fn disconnected_or_unknown_agents_have_no_list() {
        assert_eq!(rating_list(3, &[meeting(0, 1, 4, 2.0)]), None);
        assert_eq!(rating_list(2, &[meeting(0, 5, 4, 2.0)]), None);
        assert_eq!(rating_list(0, &[]), None);
    }
}
