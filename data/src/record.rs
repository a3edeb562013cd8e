//! Game records: what self-play keeps of a game. Compact (action indices,
//! the search's target over the legal actions, root values, the result)
//! and never observation tensors: the loader replays a record through the
//! rules and encodes positions with the shared encoding contract, so one
//! record serves any history length.

use serde::{Deserialize, Serialize};

use heterodox_env::{Color, Outcome};

/// How a recorded game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// Cut at the ply cap: no result (value target 0).
    Truncated,
}

impl GameResult {
    pub fn from_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Decisive {
                winner: Color::White,
                ..
            } => GameResult::WhiteWins,
            Outcome::Decisive { .. } => GameResult::BlackWins,
            Outcome::Draw { .. } => GameResult::Draw,
        }
    }

    /// The result for `player`: +1, -1 or 0 (draws and truncations).
    pub fn value_for(self, player: Color) -> f32 {
        match (self, player) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => -1.0,
            _ => 0.0,
        }
    }

    /// PGN's result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Truncated => "*",
        }
    }
}

/// One step of a recorded game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepRecord {
    /// The action index played (the encoding's index, from the mover's side).
    pub action: u32,
    /// The searcher's value at the root, from the mover's side.
    pub root_value: f32,
    /// The training target over the legal actions: (action index,
    /// probability) pairs, probabilities summing to 1. Empty for a step
    /// played without search (not a training position).
    pub policy: Vec<(u32, f32)>,
    /// How much the search's target differs from the evaluator's prior
    /// (the Kullback-Leibler divergence, nats; `SearchResult::surprise` in
    /// heterodox-selfplay): the loader's surprise weighting draws a
    /// position more often the more it taught. 0 where unknown (teacher
    /// positions, records from before it was kept).
    #[serde(default)]
    pub surprise: f32,
}

impl StepRecord {
    /// A step played without a search (an opening ply, a fixed player's
    /// move): no policy, so not a training position.
    pub fn unsearched(action: u32, root_value: f32) -> StepRecord {
        StepRecord {
            action,
            root_value,
            policy: Vec::new(),
            surprise: 0.0,
        }
    }
}

/// The termination of a game a side resigned.
pub const RESIGNATION: &str = "resignation";

/// A finished (or truncated) self-play game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The seed of the start position (`GameVariant::start(rules, seed)`)
    /// and of the game's search noise.
    pub seed: u64,
    /// The start position's string when the game did not start from the
    /// seeded start (composed positions, openings); `None` otherwise.
    pub start: Option<String>,
    pub steps: Vec<StepRecord>,
    pub result: GameResult,
    /// The rules' termination (`checkmate`, `threefold repetition`, ...)
    /// or `ply cap`.
    pub termination: String,
}

impl GameRecord {
    /// The record of a game that ended with `outcome`, or was cut at the
    /// ply cap (`None`).
    pub fn ended(
        seed: u64,
        start: Option<String>,
        steps: Vec<StepRecord>,
        outcome: Option<Outcome>,
    ) -> GameRecord {
        GameRecord {
            seed,
            start,
            steps,
            result: outcome.map_or(GameResult::Truncated, GameResult::from_outcome),
            termination: outcome
                .map_or("ply cap", |o| o.termination().name())
                .to_owned(),
        }
    }

    /// The record of a game `loser` resigned: the other side wins.
    pub fn resigned(
        seed: u64,
        start: Option<String>,
        steps: Vec<StepRecord>,
        loser: Color,
    ) -> GameRecord {
        GameRecord {
            seed,
            start,
            steps,
            result: match loser {
                Color::White => GameResult::BlackWins,
                Color::Black => GameResult::WhiteWins,
            },
            termination: RESIGNATION.to_owned(),
        }
    }
}
