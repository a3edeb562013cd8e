//! Fitting the beliefs' move model ([`crate::hidden::beliefs`]) on
//! self-play: the engine plays games from random secrets, then each
//! player's posterior is replayed through every game under each model of a
//! grid (temperature x noise), and the model whose posteriors put the most
//! weight on the true secret wins. The measure is the information gained
//! about the true secret, `log2(p_true · n)` bits over the `n` consistent
//! secrets (0 for a uniform posterior), averaged over the views after at
//! least one opponent turn was weighed; a posterior that rules the truth
//! out scores very low, so the noise is fitted as well.
//!
//! The true secret is read here, to score the posteriors, never by them.

use std::collections::HashMap;

use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::{Color, Game, GameVariant, Position};

use crate::hidden::beliefs::{Beliefs, MoveModel};
use crate::search::limits::Limits;
use crate::{Engine, EngineConfig, EngineError};

/// How the self-play games are played, and the grid of models.
#[derive(Clone, Debug)]
pub struct FitSettings {
    pub games: u32,
    /// Nodes each side searches a move.
    pub nodes: u64,
    /// Plies played at random first (the secret selections among them).
    pub opening_plies: u32,
    /// Games stop here if not over.
    pub max_plies: u32,
    pub seed: u64,
    pub temperatures_cp: Vec<f64>,
    pub noises: Vec<f64>,
}

/// One model's fit.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitRow {
    pub model: MoveModel,
    /// Mean bits gained about the true secret per view.
    pub bits: f64,
    /// The share of views where the true secret's probability is at
    /// least the uniform share.
    pub above_uniform: f64,
}

/// The grid's fits, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    pub games: u32,
    /// Views measured (per model).
    pub views: u64,
    /// Mean plies of the games.
    pub plies: f64,
    pub rows: Vec<FitRow>,
}

/// A game's positions, each with the step taken there.
type Record<P> = Vec<(P, <P as Position>::Action)>;

/// The move model's scores of a state's steps, by the state's two
/// information-set keys (the whole state): computed once for the grid.
type ScoreCache<A> = HashMap<(u64, u64), Vec<(A, i32)>>;

/// Plays the games and fits the grid. `config` is the players' engine
/// (each side its own, through a game).
pub fn fit<P: GameVariant>(
    start: &P,
    settings: &FitSettings,
    config: EngineConfig,
) -> Result<FitReport, EngineError> {
    let records = (0..settings.games)
        .map(|g| play(start, settings, config, g))
        .collect::<Result<Vec<_>, _>>()?;
    let mut scorer = Engine::<P>::new(config)?;
    let mut cache: ScoreCache<P::Action> = HashMap::new();
    let mut rows = Vec::new();
    let mut views = 0;
    for &temperature_cp in &settings.temperatures_cp {
        for &noise in &settings.noises {
            let model = MoveModel {
                temperature_cp,
                noise,
            };
            let (mut bits, mut above) = (0.0, 0u64);
            views = 0;
            for record in &records {
                for observer in [Color::White, Color::Black] {
                    let mut beliefs = Beliefs::<P>::with_model(model);
                    for (position, action) in record.iter().filter(|(p, _)| p.turn() == observer) {
                        beliefs.update(position, |state| {
                            let key = (
                                state.information_set_key(Color::White),
                                state.information_set_key(Color::Black),
                            );
                            cache
                                .entry(key)
                                .or_insert_with(|| scorer.score_steps(state))
                                .clone()
                        });
                        beliefs.played(*action);
                        let weighed = beliefs.report().is_some_and(|r| r.turns > 0);
                        if let Some(p) = weighed.then(|| truth(&beliefs, position)).flatten() {
                            let n = beliefs.states().count() as f64;
                            bits += (p * n).max(f64::MIN_POSITIVE).log2();
                            above += u64::from(p * n >= 1.0 - 1e-9);
                            views += 1;
                        }
                    }
                }
            }
            let per = views.max(1) as f64;
            rows.push(FitRow {
                model,
                bits: bits / per,
                above_uniform: above as f64 / per,
            });
        }
    }
    rows.sort_by(|a, b| b.bits.total_cmp(&a.bits));
    let plies = records.iter().map(|r| r.len() as f64).sum::<f64>() / records.len().max(1) as f64;
    Ok(FitReport {
        games: settings.games,
        views,
        plies,
        rows,
    })
}

/// The posterior's probability of `position`'s true opponent secret, when
/// the view hides one.
fn truth<P: GameVariant>(beliefs: &Beliefs<P>, position: &P) -> Option<f64> {
    let opponent = !position.turn();
    let key = position.information_set_key(opponent);
    let mut states = beliefs.states().peekable();
    states.peek()?;
    let all: Vec<(&P, f64)> = states.collect();
    if all.len() < 2 {
        return None;
    }
    all.iter()
        .find(|(state, _)| state.information_set_key(opponent) == key)
        .map(|&(_, p)| p)
}

/// One self-play game: random plies, then each side's engine at the node
/// budget.
fn play<P: GameVariant>(
    start: &P,
    settings: &FitSettings,
    config: EngineConfig,
    number: u32,
) -> Result<Record<P>, EngineError> {
    let seed = derive_seed(settings.seed, number as usize, 0);
    let mut rng = SplitMix64::new(seed);
    let mut engines = [
        Engine::<P>::new(EngineConfig { seed, ..config })?,
        Engine::<P>::new(EngineConfig { seed, ..config })?,
    ];
    let limits = Limits::nodes(settings.nodes);
    let mut game = Game::new(start.clone());
    let mut record = Vec::new();
    let mut legal = Vec::new();
    while game.plies() < settings.max_plies && game.outcome().is_none() {
        let position = game.position().clone();
        let action = if game.plies() < settings.opening_plies {
            game.legal_actions(&mut legal);
            legal[rng.below(legal.len())]
        } else {
            engines[position.turn().index()]
                .search(&game, &limits, |_| {})?
                .best
        };
        game.play_unchecked(&action);
        record.push((position, action));
    }
    Ok(record)
}
