//! The arena: agents play paired games on one variant and rule set, in a
//! gauntlet (the first agent against each other) or a round robin; each
//! pairing is scored with a confidence interval, an Elo difference from
//! its pentanomial statistics, and optionally decided by an SPRT that
//! stops as soon as it can.
//!
//! Every pairing of two different agents plays the same seeded openings
//! (`opening_plies` random plies from the start, each opening with both
//! colours; [`heterodox_selfplay::duel`]), so the pairings are comparable.
//! An agent against itself plays unpaired games instead, each from its own
//! opening and seeds: a deterministic agent playing itself from a pair's
//! opening would play one game twice. It has no pentanomial (no pairs);
//! its Elo comes from the per-game Wilson interval.
//!
//! Games can still repeat (a deterministic agent without random opening
//! plies plays the same game every time): a pairing's statistics count each
//! distinct game once ([`GameKey`]: the same start, the same moves and, for
//! two different agents, the same agent with White) and say how many of its
//! games were distinct. Each pairing also reports White's score.

pub mod agent;
pub mod contender;
pub mod player;
pub mod rating;
pub mod rating_list;
pub mod sprt;

use std::collections::HashSet;

use heterodox_data::{GameRecord, GameResult};
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
use crate::arena::contender::contender;
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
    /// Every game played, repeats included.
    pub games: Vec<DuelGame>,
    /// Whether the games came in pairs (one opening, both colours): false
    /// for an agent against itself, whose games are each its own opening.
    pub paired: bool,
    /// The games that repeat no earlier game of the pairing ([`GameKey`]):
    /// the statistics below count only these.
    pub distinct: u32,
    /// Agent `a`'s score over the distinct games.
    pub score: ScoreEstimate,
    /// White's score over the distinct games (whoever had White).
    pub white: ScoreEstimate,
    /// The distinct pairs counted by `a`'s score ([`distinct_pairs`]);
    /// `None` for unpaired games.
    pub pentanomial: Option<Pentanomial>,
    /// Elo and its 95% interval: from the pentanomial when paired, from
    /// the per-game Wilson interval of `score` when not.
    pub elo: (Option<f64>, Option<f64>, Option<f64>),
    /// The SPRT's log-likelihood ratio and decision, when one ran.
    pub sprt: Option<(f64, SprtDecision)>,
}

impl Pairing {
    /// Draws among the distinct games.
    pub fn draw_rate(&self) -> f64 {
        f64::from(self.score.draws) / f64::from(self.score.games.max(1))
    }
}

/// What makes two games of one pairing the same game: the position they
/// started from, every move (the opening plies included) and, between two
/// different agents, which agent had White (`None` for an agent against
/// itself, where the colours name the same agent).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameKey {
    /// The start position in the variant's FEN dialect.
    pub start: String,
    /// The action indices played, in order.
    pub actions: Vec<u32>,
    pub a_white: Option<bool>,
}

impl GameKey {
    /// The key of `game`, which started from `start`; `same_agent`: both
    /// sides are one agent.
    pub fn of(game: &DuelGame, start: String, same_agent: bool) -> GameKey {
        GameKey {
            start,
            actions: game.record.steps.iter().map(|s| s.action).collect(),
            a_white: (!same_agent).then_some(game.a_white),
        }
    }
}

/// Whether each game is distinct: `false` for a game whose key (`keys[k]`
/// is `games[k]`'s, in index order) an earlier game has.
pub fn distinct_flags(keys: &[GameKey]) -> Vec<bool> {
    let mut seen = HashSet::with_capacity(keys.len());
    keys.iter().map(|key| seen.insert(key)).collect()
}

/// The distinct games of `games` (in index order, `keys` theirs), without
/// their moves: what the scores count.
pub fn distinct_games(games: &[DuelGame], keys: &[GameKey]) -> Vec<DuelGame> {
    games
        .iter()
        .zip(distinct_flags(keys))
        .filter(|(_, distinct)| *distinct)
        .map(|(game, _)| outcome_only(game))
        .collect()
}

/// The games, without their moves, of the complete pairs of `games` (in
/// index order, `keys` theirs) whose two keys no earlier pair has: what
/// the pentanomial counts. Without repeats, every complete pair.
pub fn distinct_pairs(games: &[DuelGame], keys: &[GameKey]) -> Vec<DuelGame> {
    let mut seen = HashSet::new();
    let mut pairs = Vec::new();
    let mut k = 0;
    while k + 1 < games.len() {
        let (first, second) = (&games[k], &games[k + 1]);
        if first.index % 2 == 0 && second.index == first.index + 1 {
            if seen.insert((&keys[k], &keys[k + 1])) {
                pairs.push(outcome_only(first));
                pairs.push(outcome_only(second));
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    pairs
}

/// `game` without its moves (the statistics read only its number, colours
/// and result).
fn outcome_only(game: &DuelGame) -> DuelGame {
    DuelGame {
        index: game.index,
        a_white: game.a_white,
        record: GameRecord {
            seed: game.record.seed,
            start: None,
            steps: Vec::new(),
            result: game.record.result,
            termination: String::new(),
        },
        simulations: game.simulations,
    }
}

/// White's wins, draws (cut games included) and losses over `games`.
pub fn white_tally(games: &[DuelGame]) -> DuelTally {
    let mut tally = DuelTally::default();
    for game in games {
        match game.record.result {
            GameResult::WhiteWins => tally.wins += 1,
            GameResult::BlackWins => tally.losses += 1,
            GameResult::Draw | GameResult::Truncated => tally.draws += 1,
        }
    }
    tally
}

/// The keys of `games` of a pairing under `rules`: a game's start is its
/// recorded position string, else the variant's seeded start.
fn game_keys<P: GameVariant>(
    rules: &P::Rules,
    games: &[DuelGame],
    same_agent: bool,
) -> Result<Vec<GameKey>, TrainError> {
    games
        .iter()
        .map(|game| {
            let start = match &game.record.start {
                Some(text) => text.clone(),
                None => P::start(rules, game.record.seed)
                    .map_err(|e| TrainError::Config {
                        path: None,
                        message: format!("game {}: its start position: {e}", game.index),
                    })?
                    .fen(),
            };
            Ok(GameKey::of(game, start, same_agent))
        })
        .collect()
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
    // The agent strings say which pairings are an agent against itself.
    let names: Vec<String> = agents.iter().map(ToString::to_string).collect();
    if config.sprt.is_some() && names[0] == names[1] {
        return Err(TrainError::Config {
            path: None,
            message: format!(
                "an SPRT needs paired games between two different agents: {} against itself \
                 plays unpaired games",
                names[0]
            ),
        });
    }
    let duel_config = |seed, paired| DuelConfig {
        games: config.games,
        concurrent: config.concurrent,
        max_plies: config.max_plies,
        opening_plies: config.opening_plies,
        seed,
        history: config.history,
        starts: config.openings.clone(),
        paired,
    };
    let probe = Duel::<P>::new(rules.clone(), duel_config(config.seed, true))?;
    let encoding = probe.spec().clone();
    let contenders = agents
        .iter()
        .enumerate()
        .map(|(k, agent)| {
            contender::<P>(
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
        let same_agent = names[a] == names[b];
        let paired = !same_agent;
        let mut games: Vec<DuelGame> = Vec::new();
        let mut sprt_state = None;
        match config.sprt {
            None => {
                let duel = Duel::<P>::new(rules.clone(), duel_config(config.seed, paired))?;
                let mut done = 0;
                games = match &config.journal {
                    None => duel.run(player(a), player(b), |_| {
                        done += 1;
                        on_game(number, done);
                    })?,
                    Some(journal) => {
                        // Pairings share the duel's seed: the agents'
                        // numbers tell their files apart, and unpaired
                        // games are named so.
                        let key = format!(
                            "{}-{a}-vs-{b}-{:016x}{}",
                            P::VARIANT.name(),
                            duel.seed(),
                            if paired { "" } else { "-unpaired" }
                        );
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
                let mut keys = Vec::new();
                while (games.len() as u32) < config.games {
                    let mut c = duel_config(derive_seed(config.seed, round, 11), true);
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
                    keys.extend(game_keys::<P>(rules, &played, same_agent)?);
                    games.extend(played);
                    round += 1;
                    let pairs = Pentanomial::of(&distinct_pairs(&games, &keys));
                    let decision = sprt.decision(&pairs);
                    sprt_state = Some((sprt.llr(&pairs), decision));
                    if decision != SprtDecision::Continue {
                        break;
                    }
                }
            }
        }
        let keys = game_keys::<P>(rules, &games, same_agent)?;
        let distinct = distinct_games(&games, &keys);
        let score = ScoreEstimate::of(DuelTally::of(&distinct));
        let pentanomial = paired.then(|| Pentanomial::of(&distinct_pairs(&games, &keys)));
        results.push(Pairing {
            a,
            b,
            paired,
            distinct: distinct.len() as u32,
            white: ScoreEstimate::of(white_tally(&distinct)),
            elo: match &pentanomial {
                Some(pentanomial) => pentanomial.elo_interval(),
                None => (score.elo, score.elo_low, score.elo_high),
            },
            score,
            pentanomial,
            sprt: sprt_state,
            games,
        });
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_data::StepRecord;

    /// Game `index` (A White when even) playing `moves`, ending in
    /// `result`.
    fn game(index: u32, moves: &[u32], result: GameResult) -> DuelGame {
        DuelGame {
            index,
            a_white: index % 2 == 0,
            record: GameRecord {
                seed: u64::from(index),
                start: None,
                steps: moves
                    .iter()
                    .map(|&m| StepRecord::unsearched(m, 0.0))
                    .collect(),
                result,
                termination: "checkmate".to_owned(),
            },
            simulations: [0; 2],
        }
    }

    fn keys(games: &[DuelGame], start: &str, same_agent: bool) -> Vec<GameKey> {
        games
            .iter()
            .map(|g| GameKey::of(g, start.to_owned(), same_agent))
            .collect()
    }

    #[test]
    fn repeated_games_are_counted_once() {
        use GameResult::{BlackWins, Draw, WhiteWins};
        // An agent against itself: games 0 and 1 are one game with the
        // colours' names swapped, game 3 repeats game 0, game 2 differs.
        let games = [
            game(0, &[1, 2, 3], WhiteWins),
            game(1, &[1, 2, 3], WhiteWins),
            game(2, &[1, 2, 4], Draw),
            game(3, &[1, 2, 3], WhiteWins),
        ];
        let same = keys(&games, "start", true);
        assert_eq!(distinct_flags(&same), [true, false, true, false]);
        let distinct = distinct_games(&games, &same);
        assert_eq!(distinct.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 2]);
        assert!(distinct.iter().all(|g| g.record.steps.is_empty()));
        // White won one of the two distinct games and drew the other.
        let white = ScoreEstimate::of(white_tally(&distinct));
        assert_eq!((white.games, white.wins, white.draws), (2, 1, 1));
        assert_eq!(white.score, 0.75);
        // A (White in game 0) won game 0 and drew game 2.
        assert_eq!(DuelTally::of(&distinct).wins, 1);
        // Between two agents the colours matter: game 1 (B White) is not
        // game 0 (A White), but game 3 is game 1.
        let different = keys(&games, "start", false);
        assert_eq!(distinct_flags(&different), [true, true, true, false]);
        // Another start makes another game.
        let mut other = keys(&games, "start", true);
        other[3].start = "elsewhere".to_owned();
        assert_eq!(distinct_flags(&other), [true, false, true, true]);
        // Black's win.
        let lost = [game(0, &[5], BlackWins)];
        assert_eq!(white_tally(&lost).losses, 1);
    }

    #[test]
    fn repeated_pairs_are_counted_once() {
        use GameResult::{BlackWins, WhiteWins};
        // Pairs 0 and 2 are the same two games; pair 1 differs; game 6 has
        // no partner.
        let games = [
            game(0, &[1, 2], WhiteWins),
            game(1, &[1, 3], BlackWins),
            game(2, &[4], WhiteWins),
            game(3, &[4], WhiteWins),
            game(4, &[1, 2], WhiteWins),
            game(5, &[1, 3], BlackWins),
            game(6, &[7], WhiteWins),
        ];
        let k = keys(&games, "start", false);
        let pairs = distinct_pairs(&games, &k);
        assert_eq!(
            pairs.iter().map(|g| g.index).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        // A won both games of pair 0 (White in 0, Black in 1) and split
        // pair 1.
        assert_eq!(Pentanomial::of(&pairs).counts, [0, 0, 1, 0, 1]);
        // Without repeats every complete pair counts, as Pentanomial::of
        // counts them.
        let fresh = [
            game(0, &[1], WhiteWins),
            game(1, &[2], WhiteWins),
            game(2, &[3], BlackWins),
            game(3, &[4], WhiteWins),
        ];
        let k = keys(&fresh, "start", false);
        assert_eq!(
            Pentanomial::of(&distinct_pairs(&fresh, &k)),
            Pentanomial::of(&fresh)
        );
    }
}
