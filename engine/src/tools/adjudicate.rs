//! The result of a game cut at its ply cap, judged by a search of its last
//! position: a win for the side the engine favours by at least a threshold
//! (or a mate it sees), otherwise a draw.
//!
//! Why: a game that nobody converts would otherwise end "truncated", which
//! teaches a value head nothing about who was winning. The teacher's games
//! and the trainer's self-play games are scored by this one rule, so a
//! threshold means the same in both (docs/training.md has the measurement
//! it was chosen by).

use heterodox_data::GameResult;
use heterodox_env::{Color, Game, GameVariant};

use crate::search::engine::Engine;
use crate::search::error::EngineError;
use crate::search::limits::Limits;
use crate::search::score::Score;

/// What the adjudication decided, and the termination text a record keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjudication {
    pub result: GameResult,
    /// The engine's score for the side to move.
    pub score: Score,
    /// `adjudicated at the ply cap (engine +312 for the side to move)`.
    pub termination: String,
}

/// Judges the last position of `game` with a search of `depth` plies: a
/// lead of `threshold_cp` or more (or a mate) wins, anything less draws.
pub fn adjudicate<P: GameVariant>(
    engine: &mut Engine<P>,
    game: &Game<P>,
    depth: u32,
    threshold_cp: i32,
) -> Result<Adjudication, EngineError> {
    let report = engine.search(game, &Limits::depth(depth), |_| {})?;
    let mover = game.position().turn();
    let winner = match report.score {
        Score::Mate(n) if n > 0 => Some(mover),
        Score::Mate(_) => Some(!mover),
        Score::Cp(cp) if cp >= threshold_cp => Some(mover),
        Score::Cp(cp) if cp <= -threshold_cp => Some(!mover),
        Score::Cp(_) => None,
    };
    let result = match winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    Ok(Adjudication {
        result,
        score: report.score,
        termination: format!(
            "adjudicated at the ply cap (engine {} for the side to move)",
            report.score
        ),
    })
}
