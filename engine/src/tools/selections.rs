//! Builds a Traitor rule set's selection strategy
//! ([`crate::hidden::selection::SelectionStrategy`], the file the engine
//! ships): a payoff matrix of White's selections against Black's, each
//! entry a search of the position after both with everything known, solved
//! by the double oracle ([`crate::hidden::equilibrium::double_oracle`]).
//! `heterodox selection` and `make selections` run it.
//!
//! Holding more traitors never hurts (an announcement is optional and the
//! secret shows nothing of its size), so only the selections no other one
//! contains are candidates: 658 of Standard's 2204, 12 of Simplified's 46.
//!
//! When one side's equilibrium wins outright whatever the other holds
//! (Standard Traitor: White holding Black's queen mates at once, rulings
//! T4a), every mix of the other side is an equilibrium, and the solver's
//! pick says nothing. The loser then holds its best response to the winner
//! choosing uniformly among its other candidates ([`REFINEMENT_SAMPLE`] of
//! them, seeded): what to hold against an opponent who did not find the
//! win.

use heterodox_env::rng::SplitMix64;
use heterodox_env::traitor::{Selection, Step, Traitor, TraitorRules};
use heterodox_env::{Game, Position, TraitorAction};

use crate::hidden::equilibrium::{double_oracle, EquilibriumError, Solution};
use crate::hidden::selection::{SelectionStrategy, Weighted, FORMAT};
use crate::nnue::network::rules_string;
use crate::search::limits::Limits;
use crate::{Engine, EngineConfig, EngineError};

/// When one side wins outright, the other answers this many of its other
/// candidates, drawn with [`REFINEMENT_SEED`].
pub const REFINEMENT_SAMPLE: usize = 32;
const REFINEMENT_SEED: u64 = 0x5e1ec7;

/// Weights below this are the solver's rounding, not a choice.
const NEGLIGIBLE: f64 = 1e-9;

/// Why a strategy cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum SelectionError {
    #[error("these rules have no selection phase ({0})")]
    NoSelectionPhase(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Equilibrium(#[from] EquilibriumError),
    #[error("the strategy's selection '{0}' is not a candidate of these rules")]
    UnknownSelection(String),
}

/// The selections no other selection contains, in generation order.
fn undominated(actions: &[TraitorAction]) -> Vec<TraitorAction> {
    let contains = |a: &Selection, b: &Selection| match (a, b) {
        (Selection::Pieces(a), Selection::Pieces(b)) => (*a & *b) == *b && a != b,
        (Selection::Types(a), Selection::Types(b)) => {
            a != b && a.0.iter().zip(b.0.iter()).all(|(x, y)| x >= y)
        }
        _ => false,
    };
    let selections: Vec<Selection> = actions
        .iter()
        .filter_map(|a| match a {
            TraitorAction::Select(s) => Some(*s),
            _ => None,
        })
        .collect();
    selections
        .iter()
        .filter(|s| !selections.iter().any(|other| contains(other, s)))
        .map(|s| TraitorAction::Select(*s))
        .collect()
}

/// The game being solved: both sides' candidates and the engine whose
/// searches are its entries.
struct Matrix {
    engine: Engine<Traitor>,
    start: Traitor,
    rows: Vec<TraitorAction>,
    cols: Vec<TraitorAction>,
    depth: u32,
    /// Entries searched so far.
    entries: usize,
    /// Each entry from an empty table and history, so that it is the same
    /// in any order (an evaluation); the solver keeps them between entries
    /// (its shipped files were made so).
    fresh: bool,
}

impl Matrix {
    /// The matrix of `rules`' candidates, entries searched at `depth`.
    fn new(
        rules: TraitorRules,
        depth: u32,
        config: EngineConfig,
    ) -> Result<Matrix, SelectionError> {
        let rules_text = rules_string::<Traitor>(&rules);
        let start =
            Traitor::new(rules).map_err(|e| SelectionError::NoSelectionPhase(e.to_string()))?;
        if start.step() != Step::Select {
            return Err(SelectionError::NoSelectionPhase(rules_text));
        }
        let mut actions = Vec::new();
        start.legal_actions(&mut actions);
        let rows = undominated(&actions);
        // Black's selections do not depend on White's.
        let mut after = start.clone();
        after.play_unchecked(&actions[0]);
        after.legal_actions(&mut actions);
        let cols = undominated(&actions);
        Ok(Matrix {
            engine: Engine::<Traitor>::new(config)?,
            start,
            rows,
            cols,
            depth,
            entries: 0,
            fresh: false,
        })
    }

    /// A strategy file's mix as weights over `candidates`.
    fn mix(
        mix: &[Weighted],
        candidates: &[TraitorAction],
    ) -> Result<Vec<(usize, f64)>, SelectionError> {
        mix.iter()
            .map(|w| {
                candidates
                    .iter()
                    .position(|c| c.to_string() == w.selection)
                    .map(|k| (k, w.probability))
                    .ok_or_else(|| SelectionError::UnknownSelection(w.selection.clone()))
            })
            .collect()
    }

    /// White's expected score after White's `row` and Black's `col`, from
    /// a search at the matrix's depth that knows both secrets.
    fn payoff(&mut self, row: usize, col: usize) -> Result<f64, EngineError> {
        let mut pos = self.start.clone();
        pos.play_unchecked(&self.rows[row]);
        pos.play_unchecked(&self.cols[col]);
        self.entries += 1;
        if self.fresh {
            self.engine.new_game();
        }
        let limits = Limits::depth(self.depth);
        let report = self
            .engine
            .search_knowing_everything(&Game::new(pos), &limits)?;
        Ok((1.0 + f64::from(report.score.expected_result())) / 2.0)
    }

    /// The loser's best response (a pure mix over its candidates) to the
    /// winner choosing uniformly among a seeded sample of its candidates
    /// outside `winning` (the equilibrium's support).
    fn answer_to_a_winner_who_missed(
        &mut self,
        white_wins: bool,
        winning: &[usize],
    ) -> Result<Option<Vec<f64>>, EngineError> {
        let (winners, losers) = if white_wins {
            (self.rows.len(), self.cols.len())
        } else {
            (self.cols.len(), self.rows.len())
        };
        let mut others: Vec<usize> = (0..winners).filter(|k| !winning.contains(k)).collect();
        let mut rng = SplitMix64::new(REFINEMENT_SEED);
        for k in (1..others.len()).rev() {
            others.swap(k, rng.below(k + 1));
        }
        others.truncate(REFINEMENT_SAMPLE);
        if others.is_empty() {
            return Ok(None);
        }
        let mut best = (0, f64::NEG_INFINITY);
        for loser in 0..losers {
            let mut score = 0.0;
            for &winner in &others {
                score += if white_wins {
                    1.0 - self.payoff(winner, loser)?
                } else {
                    self.payoff(loser, winner)?
                };
            }
            if score > best.1 {
                best = (loser, score);
            }
        }
        Ok(Some(
            (0..losers)
                .map(|k| f64::from(u8::from(k == best.0)))
                .collect(),
        ))
    }
}

/// What a strategy's two mixes are worth in the matrix of `rules` searched
/// at `depth` (which need not be the depth it was solved at).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// White's expected score when White's best selection answers Black's
    /// mix.
    pub white_best: f64,
    /// White's expected score when Black's best selection answers White's
    /// mix.
    pub black_best: f64,
    /// `white_best - black_best`: what best responses gain against the
    /// mixes (0 at an equilibrium of this matrix).
    pub exploitability: f64,
    /// Payoff entries searched.
    pub entries: usize,
}

/// Evaluates `strategy`'s mixes in the matrix of `rules` at `depth`: each
/// candidate of either side against the other side's mix (every row
/// against Black's support, every column against White's), each entry
/// searched from an empty table. A best answer never loses against the
/// mix, so the exploitability is at least 0.
pub fn evaluate(
    strategy: &SelectionStrategy,
    rules: TraitorRules,
    depth: u32,
    config: EngineConfig,
) -> Result<Evaluation, SelectionError> {
    let mut matrix = Matrix::new(rules, depth, config)?;
    matrix.fresh = true;
    let white = Matrix::mix(&strategy.white, &matrix.rows)?;
    let black = Matrix::mix(&strategy.black, &matrix.cols)?;
    let mut white_best = f64::NEG_INFINITY;
    for row in 0..matrix.rows.len() {
        let mut score = 0.0;
        for &(col, p) in &black {
            score += p * matrix.payoff(row, col)?;
        }
        white_best = white_best.max(score);
    }
    let mut black_best = f64::INFINITY;
    for col in 0..matrix.cols.len() {
        let mut score = 0.0;
        for &(row, p) in &white {
            score += p * matrix.payoff(row, col)?;
        }
        black_best = black_best.min(score);
    }
    Ok(Evaluation {
        white_best,
        black_best,
        exploitability: white_best - black_best,
        entries: matrix.entries,
    })
}

/// Builds both sides' equilibrium selections for `rules` from searches at
/// `depth` with an engine made with `config`, at most `max_iterations`
/// double-oracle iterations. Deterministic: the same arguments give the
/// same file.
pub fn build(
    rules: TraitorRules,
    depth: u32,
    config: EngineConfig,
    max_iterations: u32,
) -> Result<SelectionStrategy, SelectionError> {
    let rules_text = rules_string::<Traitor>(&rules);
    let mut matrix = Matrix::new(rules, depth, config)?;
    let mut failure: Option<EngineError> = None;
    let (rows, cols) = (matrix.rows.len(), matrix.cols.len());
    let solved = double_oracle(
        rows,
        cols,
        |r, c| {
            matrix.payoff(r, c).unwrap_or_else(|e| {
                failure.get_or_insert(e);
                0.5
            })
        },
        0,
        0,
        max_iterations,
        1e-9,
    )?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    let Solution {
        rows: mut white,
        cols: mut black,
        value,
        exploitability,
    } = solved.solution;
    const OUTRIGHT: f64 = 1e-6;
    if value >= 1.0 - OUTRIGHT {
        if let Some(mix) = matrix.answer_to_a_winner_who_missed(true, &support(&white))? {
            black = mix;
        }
    } else if value <= OUTRIGHT {
        if let Some(mix) = matrix.answer_to_a_winner_who_missed(false, &support(&black))? {
            white = mix;
        }
    }
    Ok(SelectionStrategy {
        format: FORMAT.to_owned(),
        variant: "traitor".to_owned(),
        command: format!(
            "heterodox selection --variant traitor --option {rules_text} --depth {depth} \
             --iterations {max_iterations}"
        ),
        rules: rules_text,
        depth,
        white: weighted(&white, &matrix.rows),
        black: weighted(&black, &matrix.cols),
        value,
        exploitability,
        candidates: [rows, cols],
        entries: matrix.entries,
        iterations: solved.iterations,
    })
}

/// A mix over `actions` as the file writes it: the solver's rounding
/// leaves weights of 1e-15, dropped, the rest renormalised.
fn weighted(mix: &[f64], actions: &[TraitorAction]) -> Vec<Weighted> {
    let kept: Vec<(f64, &TraitorAction)> = mix
        .iter()
        .zip(actions)
        .filter(|(p, _)| **p > NEGLIGIBLE)
        .map(|(p, a)| (*p, a))
        .collect();
    let total: f64 = kept.iter().map(|(p, _)| p).sum();
    kept.into_iter()
        .map(|(p, a)| Weighted {
            selection: a.to_string(),
            probability: p / total,
        })
        .collect()
}

fn support(mix: &[f64]) -> Vec<usize> {
    (0..mix.len()).filter(|&k| mix[k] > 0.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::traitor::{Commitment, Mode};

    fn start(commitment: Commitment) -> Traitor {
        Traitor::new(TraitorRules::new(Mode::Traitor, commitment)).unwrap()
    }

    fn candidates(pos: &Traitor) -> Vec<String> {
        let mut actions = Vec::new();
        pos.legal_actions(&mut actions);
        undominated(&actions)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn simplified_strategy(depth: u32) -> SelectionStrategy {
        let rules = TraitorRules::new(Mode::Traitor, Commitment::Simplified);
        let config = EngineConfig {
            hash_mib: 4,
            ..EngineConfig::default()
        };
        build(rules, depth, config, 100).unwrap()
    }

    #[test]
    fn only_selections_no_other_contains_are_candidates() {
        let standard = candidates(&start(Commitment::Standard));
        assert_eq!(standard.len(), 658);
        assert!(standard.contains(&"S-d8".to_owned()));
        let simplified = candidates(&start(Commitment::Simplified));
        assert_eq!(
            simplified,
            [
                "S-Q",
                "S-BBN",
                "S-BNN",
                "S-RBP",
                "S-RNP",
                "S-BBPPP",
                "S-BNPPP",
                "S-NNPPP",
                "S-RPPPP",
                "S-BPPPPPP",
                "S-NPPPPPP",
                "S-PPPPPPPP"
            ]
        );
    }

    #[test]
    fn simplified_traitor_is_won_by_whoever_holds_the_queen_first() {
        // White's queen traitor mates at once (T4a); Black, against a White
        // without it, holds the queen as well.
        let strategy = simplified_strategy(3);
        assert_eq!(
            (strategy.white.clone(), strategy.black.clone()),
            (
                vec![Weighted {
                    selection: "S-Q".into(),
                    probability: 1.0
                }],
                vec![Weighted {
                    selection: "S-Q".into(),
                    probability: 1.0
                }]
            )
        );
        assert_eq!((strategy.value, strategy.exploitability), (1.0, 0.0));
        assert_eq!((strategy.candidates, strategy.iterations), ([12, 12], 1));
        assert_eq!(strategy, simplified_strategy(3), "deterministic");
        let text = serde_json::to_string(&strategy).unwrap();
        assert_eq!(SelectionStrategy::from_json(&text).unwrap(), strategy);
        // Both hold the queen: every entry against it is a win for the side
        // that moves first, at any depth of the matrix.
        let rules = TraitorRules::new(Mode::Traitor, Commitment::Simplified);
        let config = EngineConfig {
            hash_mib: 4,
            ..EngineConfig::default()
        };
        let found = evaluate(&strategy, rules, 2, config).unwrap();
        assert_eq!(
            (
                found.white_best,
                found.black_best,
                found.exploitability,
                found.entries
            ),
            (1.0, 1.0, 0.0, 12 + 12)
        );
        let other = text.replace(FORMAT, "heterodox-selection-0");
        assert_eq!(
            SelectionStrategy::from_json(&other).unwrap_err().to_string(),
            "not a selection strategy: format 'heterodox-selection-0', expected 'heterodox-selection-1'"
        );
    }

    #[test]
    fn mercenary_selections_mix_with_no_gain_for_a_best_response() {
        let rules = TraitorRules::new(Mode::Mercenary, Commitment::Simplified);
        let config = EngineConfig {
            hash_mib: 4,
            ..EngineConfig::default()
        };
        let strategy = build(rules, 3, config, 100).unwrap();
        let names = |mix: &[Weighted]| mix.iter().map(|w| w.selection.clone()).collect::<Vec<_>>();
        assert_eq!(names(&strategy.white), ["S-RBP", "S-RNP"]);
        assert_eq!(names(&strategy.black), ["S-BBN", "S-RBP"]);
        assert!(
            strategy.exploitability.abs() < 1e-12,
            "{}",
            strategy.exploitability
        );
        assert!((strategy.value - 0.866).abs() < 1e-3, "{}", strategy.value);
        for mix in [&strategy.white, &strategy.black] {
            let total: f64 = mix.iter().map(|w| w.probability).sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        // Evaluated with every entry searched afresh (the solver kept its
        // table between entries): each side's 12 candidates against the
        // other's two; a best answer never loses; the same in any run.
        let own = evaluate(&strategy, rules, 3, config).unwrap();
        assert!(own.white_best >= own.black_best, "{own:?}");
        assert_eq!(own.entries, 12 * 2 + 2 * 12);
        assert_eq!(evaluate(&strategy, rules, 3, config).unwrap(), own);
        // A selection the rules do not offer is named.
        let mut foreign = strategy.clone();
        foreign.white[0].selection = "S-QQ".into();
        assert_eq!(
            evaluate(&foreign, rules, 3, config)
                .unwrap_err()
                .to_string(),
            "the strategy's selection 'S-QQ' is not a candidate of these rules"
        );
    }
}
