//! Replaying a [`GameRecord`] through the rules, checking it as it goes.
//!
//! A record holds action indices, not actions, so everything that reads
//! one (the training loader, PGN export) rebuilds the game from its start
//! position. This is also where a corrupted record, or one read under the
//! wrong variant or rule settings, is caught: every recorded index must be
//! a legal action of the replayed position, every policy entry too, and a
//! game that ends by the rules must end with the recorded result. The
//! error names the game and the step.

use heterodox_env::encoding::ActionSet;
use heterodox_env::{FenError, Game, GameVariant, Outcome, Termination};

use crate::record::{GameRecord, GameResult};

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayErrorKind {
    #[error("cannot set up the start position: {0}")]
    Start(#[from] FenError),
    #[error("action index {index} is not a legal action of the replayed position {fen}")]
    IllegalAction { index: u32, fen: String },
    #[error("an action is recorded after the game ended ({outcome})")]
    GameOver { outcome: String },
    #[error("policy entry {index} is not a legal action of the replayed position {fen}")]
    PolicyIllegal { index: u32, fen: String },
    #[error("policy lists action index {index} twice")]
    PolicyDuplicate { index: u32 },
    #[error("policy probability {value} is not a finite non-negative number")]
    PolicyValue { value: f32 },
    #[error("policy probabilities sum to {sum}, not a distribution")]
    PolicySum { sum: f32 },
    #[error("root value {value} is not finite")]
    RootValue { value: f32 },
    #[error("recorded result {recorded:?} but the replayed game ended {replayed}")]
    ResultMismatch {
        recorded: GameResult,
        replayed: String,
    },
}

/// A record that does not replay: corrupted, or read under the wrong
/// variant or rule settings.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("game {game}{}: {kind} (corrupted record, or the wrong variant or rule settings)",
    step.map_or(String::new(), |s| format!(", step {s}")))]
pub struct ReplayError {
    /// The game's index in its shard or list.
    pub game: usize,
    /// The step (0-based), when the problem is at one.
    pub step: Option<usize>,
    pub kind: ReplayErrorKind,
}

/// The start position of `record`: its position string when it has one,
/// otherwise the seeded start under `rules`.
pub fn start_position<P: GameVariant>(
    record: &GameRecord,
    rules: &P::Rules,
) -> Result<P, FenError> {
    match &record.start {
        Some(text) => P::from_position_string(text, rules),
        None => P::start(rules, record.seed),
    }
}

/// One step of a replay, handed to the caller before it is played.
pub struct ReplayStep<'a, P: GameVariant> {
    /// Step number, from 0.
    pub step: usize,
    /// The game before the step (position and repetition history).
    pub game: &'a Game<P>,
    /// The legal actions of that position with their indices.
    pub legal: &'a ActionSet<P>,
    /// The recorded action, decoded.
    pub action: P::Action,
}

/// Replays `record` (game number `game`, for error messages) under `rules`,
/// calling `on_step` before each step is played, and returns the final
/// game. Checks every step: the action index and each policy index are
/// legal, probabilities are finite and non-negative with a positive sum,
/// root values are finite, no action follows the end of the game. A game
/// whose last position is over by the rules must carry that result; a game
/// that is not over may carry any (truncation, resignation, adjudication).
pub fn replay<P: GameVariant>(
    record: &GameRecord,
    rules: &P::Rules,
    game: usize,
    mut on_step: impl FnMut(ReplayStep<'_, P>),
) -> Result<Game<P>, ReplayError> {
    let error = |step: Option<usize>, kind: ReplayErrorKind| ReplayError { game, step, kind };
    let start = start_position::<P>(record, rules).map_err(|e| error(None, e.into()))?;
    let mut legal = ActionSet::new(start.num_actions());
    // Marks policy indices seen at one step (duplicates); cleared after.
    let mut seen = vec![false; start.num_actions()];
    let mut state = Game::new(start);
    for (k, step) in record.steps.iter().enumerate() {
        // The position's own outcome from the one generation pass, then the
        // repetition draw that `Game::outcome` adds.
        let outcome = legal.generate(state.position()).or_else(|| {
            (state.repetitions() >= 3).then_some(Outcome::Draw {
                termination: Termination::ThreefoldRepetition,
            })
        });
        if let Some(outcome) = outcome {
            let outcome = outcome.to_string();
            return Err(error(Some(k), ReplayErrorKind::GameOver { outcome }));
        }
        let Some(action) = legal.action_of(step.action as usize) else {
            let fen = state.position().fen();
            let index = step.action;
            return Err(error(
                Some(k),
                ReplayErrorKind::IllegalAction { index, fen },
            ));
        };
        check_policy(step, &legal, &mut seen, state.position())
            .map_err(|kind| error(Some(k), kind))?;
        if !step.root_value.is_finite() {
            let value = step.root_value;
            return Err(error(Some(k), ReplayErrorKind::RootValue { value }));
        }
        on_step(ReplayStep {
            step: k,
            game: &state,
            legal: &legal,
            action,
        });
        state.play_unchecked(&action);
    }
    if let Some(outcome) = state.outcome() {
        if GameResult::from_outcome(outcome) != record.result {
            let kind = ReplayErrorKind::ResultMismatch {
                recorded: record.result,
                replayed: outcome.to_string(),
            };
            return Err(error(None, kind));
        }
    }
    Ok(state)
}

fn check_policy<P: GameVariant>(
    step: &crate::record::StepRecord,
    legal: &ActionSet<P>,
    seen: &mut [bool],
    position: &P,
) -> Result<(), ReplayErrorKind> {
    let mut sum = 0.0f32;
    let mut result = Ok(());
    for &(index, value) in &step.policy {
        if legal.position_of(index as usize).is_none() {
            let fen = position.fen();
            result = Err(ReplayErrorKind::PolicyIllegal { index, fen });
            break;
        }
        if std::mem::replace(&mut seen[index as usize], true) {
            result = Err(ReplayErrorKind::PolicyDuplicate { index });
            break;
        }
        if !value.is_finite() || value < 0.0 {
            result = Err(ReplayErrorKind::PolicyValue { value });
            break;
        }
        sum += value;
    }
    for &(index, _) in &step.policy {
        if let Some(mark) = seen.get_mut(index as usize) {
            *mark = false;
        }
    }
    result?;
    if !step.policy.is_empty() && (sum <= 0.0 || !sum.is_finite()) {
        return Err(ReplayErrorKind::PolicySum { sum });
    }
    Ok(())
}
