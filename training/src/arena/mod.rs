//! The arena: agents play paired games on one variant and rule set, in a
//! gauntlet (the first agent against each other) or a round robin; each
//! pairing is scored with a confidence interval, an Elo difference from
//! its pentanomial statistics, and optionally decided by an SPRT that
//! stops as soon as it can.
//!
//! Every pairing plays the same seeded openings (`opening_plies` random
//! plies from the start, each opening with both colours;
//! [`heterodox_selfplay::duel`]), so the pairings are comparable.

pub mod agent;
pub mod contender;
pub mod player;
pub mod rating;
pub mod rating_list;
pub mod sprt;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_models::tch::Device;
use heterodox_models::{NetEvaluator, Network};
use heterodox_selfplay::agent::builtin_evaluator;
use heterodox_selfplay::{
    Duel, DuelConfig, DuelGame, DuelPart, DuelTally, Evaluator, SearchConfig,
};

use crate::arena::agent::{AgentKind, AgentSpec};
use crate::arena::contender::Contender;
use crate::arena::rating::ScoreEstimate;
use crate::arena::sprt::{Pentanomial, Sprt, SprtDecision};
use crate::error::TrainError;
use crate::journal::Journal;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The first agent against each of the others.
    Gauntlet,
    /// Every agent against every other.
    RoundRobin,
}

/// Settings of an arena run.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// Games per pairing (whole pairs); with an SPRT, the most it plays.
    pub games: u32,
    pub concurrent: u32,
    /// A longer game is cut and scored a draw (0: the variant's cap).
    pub max_plies: u32,
    pub opening_plies: u32,
    /// Position strings the pairs start from in turn, before their
    /// `opening_plies` (an opening book; [`heterodox_selfplay::openings`]).
    /// Empty: the variant's start position.
    pub openings: Vec<String>,
    pub seed: u64,
    pub history: usize,
    /// The searching agents' settings besides budget and root.
    pub search: SearchConfig,
    pub schedule: Schedule,
    /// Decide "A is `elo1` rather than `elo0` stronger" (two agents only).
    pub sprt: Option<Sprt>,
    pub device: Device,
    /// Where each pairing's games are written as they finish, and read
    /// back instead of played again (`--resume`, the parts of a run on a
    /// cluster); `None`: the games stay in memory.
    pub journal: Option<Journal>,
    /// Play only this part of each pairing's games (with a journal): a
    /// task of a run split across machines.
    pub part: Option<DuelPart>,
}

/// The result of one pairing, from agent `a`'s side.
#[derive(Clone, Debug)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub games: Vec<DuelGame>,
    pub score: ScoreEstimate,
    pub pentanomial: Pentanomial,
    /// Elo from the pairs, and its 95% interval.
    pub elo: (Option<f64>, Option<f64>, Option<f64>),
    /// The SPRT's log-likelihood ratio and decision, when one ran.
    pub sprt: Option<(f64, SprtDecision)>,
}

impl Pairing {
    pub fn draw_rate(&self) -> f64 {
        f64::from(self.score.draws) / f64::from(self.score.games.max(1))
    }
}

/// An agent's evaluator for variant `P`.
pub fn evaluator_for<P: GameVariant>(
    spec: &AgentSpec,
    encoding: &EncodingSpec,
    seed: u64,
    device: Device,
) -> Result<Option<Box<dyn Evaluator<P>>>, TrainError> {
    Ok(match &spec.kind {
        AgentKind::Net(_) | AgentKind::Zoo(_) => {
            let path = spec
                .kind
                .network_dir()
                .map_err(|e| TrainError::Checkpoint {
                    path: spec.to_string().into(),
                    message: e.to_string(),
                })?
                .expect("a network agent");
            let network =
                Network::load_for(&path, encoding, device).map_err(|e| TrainError::Checkpoint {
                    path: path.clone(),
                    message: e.to_string(),
                })?;
            Some(Box::new(NetEvaluator::new(network, encoding)?))
        }
        _ => builtin_evaluator::<P>(spec, seed),
    })
}

/// Plays the arena of `agents` on variant `P` under `rules`; `on_game` is
/// called with (pairing number, games of it done) after each game.
pub fn run_arena<P: GameVariant>(
    rules: &P::Rules,
    agents: &[AgentSpec],
    config: &ArenaConfig,
    mut on_game: impl FnMut(usize, u32),
) -> Result<Vec<Pairing>, TrainError> {
    if agents.len() < 2 {
        return Err(TrainError::Config {
            path: None,
            message: format!("the arena needs at least two agents, got {}", agents.len()),
        });
    }
    if config.sprt.is_some() && (config.journal.is_some() || config.part.is_some()) {
        return Err(TrainError::Config {
            path: None,
            message: "an SPRT decides as its games come in: it runs on one machine, without \
                      --part or --resume"
                .to_owned(),
        });
    }
    if config.part.is_some() && config.journal.is_none() {
        return Err(TrainError::Config {
            path: None,
            message: "a part of an arena writes its games to a journal: it needs one".to_owned(),
        });
    }
    if config.sprt.is_some() && agents.len() != 2 {
        return Err(TrainError::Config {
            path: None,
            message: "an SPRT compares exactly two agents".to_owned(),
        });
    }
    let duel_config = |seed| DuelConfig {
        games: config.games,
        concurrent: config.concurrent,
        max_plies: config.max_plies,
        opening_plies: config.opening_plies,
        seed,
        history: config.history,
        starts: config.openings.clone(),
        paired: true,
    };
    let probe = Duel::<P>::new(rules.clone(), duel_config(config.seed))?;
    let encoding = probe.spec().clone();
    let contenders = agents
        .iter()
        .enumerate()
        .map(|(k, agent)| {
            Contender::<P>::new(
                agent,
                &encoding,
                &config.search,
                derive_seed(config.seed, k, 7),
                config.device,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let player = |k: usize| contenders[k].player();
    let pairings: Vec<(usize, usize)> = match config.schedule {
        Schedule::Gauntlet => (1..agents.len()).map(|b| (0, b)).collect(),
        Schedule::RoundRobin => (0..agents.len())
            .flat_map(|a| (a + 1..agents.len()).map(move |b| (a, b)))
            .collect(),
    };
    let mut results = Vec::with_capacity(pairings.len());
    for (number, &(a, b)) in pairings.iter().enumerate() {
        let mut games: Vec<DuelGame> = Vec::new();
        let mut sprt_state = None;
        match config.sprt {
            None => {
                let duel = Duel::<P>::new(rules.clone(), duel_config(config.seed))?;
                let mut done = 0;
                games = match &config.journal {
                    None => duel.run(player(a), player(b), |_| {
                        done += 1;
                        on_game(number, done);
                    })?,
                    Some(journal) => {
                        // Pairings share the duel's seed: the agents'
                        // numbers tell their files apart.
                        let key = format!("{}-{a}-vs-{b}-{:016x}", P::VARIANT.name(), duel.seed());
                        let (kept, mut log) = journal.duel(&key)?;
                        done = kept.len() as u32;
                        on_game(number, done);
                        duel.run_part(player(a), player(b), kept, config.part, |game| {
                            log.append(game);
                            done += 1;
                            on_game(number, done);
                        })?
                    }
                };
            }
            Some(sprt) => {
                // Rounds of pairs, each with its own openings, until the
                // test decides or the budget is spent.
                let round_games = config
                    .concurrent
                    .saturating_mul(2)
                    .clamp(2, config.games.max(2));
                let mut round = 0usize;
                while (games.len() as u32) < config.games {
                    let mut c = duel_config(derive_seed(config.seed, round, 11));
                    c.games = round_games.min(config.games - games.len() as u32);
                    let offset = games.len() as u32;
                    // The book goes on where the last round left it, as
                    // one long duel would take it.
                    let book = c.starts.len().max(1);
                    c.starts.rotate_left((offset as usize / 2) % book);
                    let duel = Duel::<P>::new(rules.clone(), c)?;
                    let mut done = offset;
                    let mut played = duel.run(player(a), player(b), |_| {
                        done += 1;
                        on_game(number, done);
                    })?;
                    for game in &mut played {
                        game.index += offset;
                    }
                    games.extend(played);
                    round += 1;
                    let pairs = Pentanomial::of(&games);
                    let decision = sprt.decision(&pairs);
                    sprt_state = Some((sprt.llr(&pairs), decision));
                    if decision != SprtDecision::Continue {
                        break;
                    }
                }
            }
        }
        let pentanomial = Pentanomial::of(&games);
        results.push(Pairing {
            a,
            b,
            score: ScoreEstimate::of(DuelTally::of(&games)),
            elo: pentanomial.elo_interval(),
            pentanomial,
            sprt: sprt_state,
            games,
        });
    }
    Ok(results)
}
