//! The games a claim is measured on: an agent against itself on one rule
//! set (every game its own opening), and the agent's strength against
//! random play, so that a report can say whether its agents are strong
//! enough for a verdict.

use heterodox_data::pgn;
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::derive_seed;
use heterodox_env::GameVariant;
use heterodox_selfplay::{Duel, DuelConfig, DuelGame, DuelTally, Player, SelfPlayError};

use super::{AgentStrength, Calibration, ClaimSettings, FamilyScore};
use crate::arena::agent::{zoo_network_for, AgentKind, AgentSpec};
use crate::arena::contender::contender;
use crate::arena::rating::ScoreEstimate;
use crate::error::TrainError;

/// Which games of an agent against itself to play.
pub(crate) struct GameSet {
    pub games: u32,
    /// Position strings the games start from in turn; empty: the start
    /// position.
    pub starts: Vec<String>,
    /// Random plies after the start.
    pub opening_plies: u32,
    /// The seed stream: sets with different streams play different games.
    pub stream: usize,
}

/// The games of `set`: `agent` against itself under `rules`, every game its
/// own opening; `on_game` after each.
pub(crate) fn self_play<P: GameVariant>(
    rules: &P::Rules,
    agent: &AgentSpec,
    settings: &ClaimSettings,
    set: GameSet,
    on_game: &mut dyn FnMut(),
) -> Result<Vec<DuelGame>, TrainError> {
    let stream = set.stream;
    let duel = Duel::<P>::new(
        rules.clone(),
        DuelConfig {
            games: set.games,
            concurrent: settings.concurrent,
            max_plies: settings.max_plies,
            opening_plies: set.opening_plies,
            seed: derive_seed(settings.seed, stream, 0),
            history: 1,
            starts: set.starts,
            paired: false,
        },
    )?;
    let contender = contender::<P>(
        agent,
        duel.spec(),
        &settings.search,
        derive_seed(settings.seed, stream, 1),
        settings.device,
    )?;
    let player = contender.player();
    run_duel(&duel, player, player, settings, "self", on_game)
}

/// `duel`'s games between `a` and `b` (`role` names the pairing), through
/// the run's journal (journal.rs): the games it kept for this duel are not
/// played again, and each new game is written as it ends. `on_game` after
/// every game, the kept ones first, so that progress counts the whole
/// duel.
fn run_duel<P: GameVariant>(
    duel: &Duel<P>,
    a: Player<'_, P>,
    b: Player<'_, P>,
    settings: &ClaimSettings,
    role: &str,
    on_game: &mut dyn FnMut(),
) -> Result<Vec<DuelGame>, TrainError> {
    let journal = settings
        .journal
        .as_ref()
        .expect("run_claim opens the journal before any game");
    // The duel's seed tells apart every duel of a run (each rule set and
    // opponent has its own seed stream).
    let key = format!("{}-{}-{:016x}", P::VARIANT.name(), role, duel.seed());
    let (kept, mut log) = journal.duel(&key)?;
    for _ in &kept {
        on_game();
    }
    duel.run_part(a, b, kept, settings.part, |game| {
        log.append(game);
        on_game();
    })
    .map_err(|e| match e {
        SelfPlayError::Kept(reason) => TrainError::RunDir {
            path: journal.duel_file(&key),
            message: format!("holds a game that is not this duel's: {reason}"),
        },
        other => other.into(),
    })
}

/// The fixed opponents every claim report measures its agents against
/// (docs/claims.md): random play, `greedy` (one ply of material) and
/// the search with random playouts at 64 simulations.
pub(crate) const CALIBRATION_OPPONENTS: [&str; 3] = ["random", "greedy", "rollout@64"];

/// The other family's agent that a report also measures `agent` against
/// (docs/claims.md): a network plays the engine at its teacher's depth
/// (`ab@1`, the row every agent card reports), the engine plays the
/// network shipped for `encoding`'s rules ([`zoo_network_for`]). Other
/// agents, and the engine where no network ships for the rules, have none.
pub(crate) fn other_family(agent: &AgentSpec, encoding: &EncodingSpec) -> Option<AgentSpec> {
    match agent.kind {
        AgentKind::Net(_) | AgentKind::Zoo(_) => {
            Some("ab@1".parse().expect("the engine's agent string parses"))
        }
        AgentKind::Engine(..) => zoo_network_for(encoding),
        AgentKind::Random | AgentKind::Greedy | AgentKind::Uniform | AgentKind::Rollout => None,
    }
}

/// `agent`'s scores against [`CALIBRATION_OPPONENTS`] and its
/// [`other_family`] under `rules`, each over `settings.calibration_games`
/// paired games; `on_game` after each, with the opponent's name.
pub(crate) fn strength<P: GameVariant>(
    rules: &P::Rules,
    agent: &AgentSpec,
    settings: &ClaimSettings,
    stream: usize,
    on_game: &mut dyn FnMut(&str),
) -> Result<Calibration, TrainError> {
    let mut scores = Vec::with_capacity(CALIBRATION_OPPONENTS.len());
    for (k, name) in CALIBRATION_OPPONENTS.iter().enumerate() {
        let opponent: AgentSpec = name.parse().expect("the calibration opponents parse");
        let duel = calibration_duel::<P>(rules, settings, stream, k)?;
        scores.push(score_against(
            &duel, agent, &opponent, settings, stream, k, on_game,
        )?);
    }
    // The other family plays last, on its own seeds, so that adding it
    // changed none of the earlier reports' games.
    let k = CALIBRATION_OPPONENTS.len();
    let duel = calibration_duel::<P>(rules, settings, stream, k)?;
    let vs_other_family = match other_family(agent, duel.spec()) {
        Some(opponent) => Some(FamilyScore {
            agent: opponent.to_string(),
            score: score_against(&duel, agent, &opponent, settings, stream, k, on_game)?,
        }),
        None => None,
    };
    let [vs_random, vs_greedy, vs_rollout] = <[ScoreEstimate; 3]>::try_from(scores)
        .unwrap_or_else(|_| unreachable!("one score per calibration opponent"));
    Ok(Calibration {
        vs_random,
        vs_greedy,
        vs_rollout,
        vs_other_family,
    })
}

/// The paired games of calibration opponent number `k` under `rules`.
fn calibration_duel<P: GameVariant>(
    rules: &P::Rules,
    settings: &ClaimSettings,
    stream: usize,
    k: usize,
) -> Result<Duel<P>, TrainError> {
    Ok(Duel::<P>::new(
        rules.clone(),
        DuelConfig {
            games: settings.calibration_games,
            concurrent: settings.concurrent,
            max_plies: settings.max_plies,
            opening_plies: settings.opening_plies,
            // Random play keeps the seeds of the reports before the
            // other opponents were added.
            seed: derive_seed(settings.seed, stream, 2 + 10 * k as u64),
            history: 1,
            starts: Vec::new(),
            paired: true,
        },
    )?)
}

/// `agent`'s score over `duel`'s games against `opponent`, calibration
/// opponent number `k`; `on_game` after each game.
fn score_against<P: GameVariant>(
    duel: &Duel<P>,
    agent: &AgentSpec,
    opponent: &AgentSpec,
    settings: &ClaimSettings,
    stream: usize,
    k: usize,
    on_game: &mut dyn FnMut(&str),
) -> Result<ScoreEstimate, TrainError> {
    let name = opponent.to_string();
    let contender_for = |spec: &AgentSpec, offset: u64| {
        contender::<P>(
            spec,
            duel.spec(),
            &settings.search,
            derive_seed(settings.seed, stream, offset + 10 * k as u64),
            settings.device,
        )
    };
    let contender = contender_for(agent, 3)?;
    let other = contender_for(opponent, 4)?;
    let games = run_duel(
        duel,
        contender.player(),
        other.player(),
        settings,
        &format!("vs{k}"),
        &mut || on_game(&name),
    )?;
    Ok(ScoreEstimate::of(DuelTally::of(&games)))
}

/// What a claim comparing variants or rule sets plays on each: `agent`'s
/// [`strength`], then its [`self_play`] from the start
/// position, both on seed stream `stream`; every game is reported to
/// `progress` as a line naming `label` (the variant or rule set).
pub(crate) fn strength_and_self_play<P: GameVariant>(
    rules: &P::Rules,
    agent: &AgentSpec,
    settings: &ClaimSettings,
    stream: usize,
    label: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<(Calibration, Vec<DuelGame>), TrainError> {
    let mut done = 0;
    let calibration = strength::<P>(rules, agent, settings, stream, &mut |opponent| {
        done += 1;
        progress(&format!(
            "{label}: {agent} against {opponent}, calibration game {done}"
        ));
    })?;
    let mut done = 0;
    let games = self_play::<P>(
        rules,
        agent,
        settings,
        GameSet {
            games: settings.games,
            starts: Vec::new(),
            opening_plies: settings.opening_plies,
            stream,
        },
        &mut || {
            done += 1;
            progress(&format!(
                "{label}: {agent} against itself, game {done} of {}",
                settings.games
            ));
        },
    )?;
    Ok((calibration, games))
}

/// Appends the games as PGN to `pgn` (a blank line after what is there),
/// both players named `agent`, with `event`.
pub(crate) fn append_games_pgn<P: GameVariant>(
    pgn: &mut String,
    rules: &P::Rules,
    games: &[DuelGame],
    agent: &str,
    event: &str,
) -> Result<(), TrainError> {
    for game in games {
        let one = pgn::record_to_pgn::<P>(&game.record, rules, event, game.index as usize)
            .map_err(|e| TrainError::Rules(e.to_string()))?;
        if !pgn.is_empty() {
            pgn.push('\n');
        }
        pgn.push_str(&pgn::with_players(&one, agent, agent));
    }
    Ok(())
}

/// What a claim that measures whole variants plays on each: the default
/// rules, the agent's strength and its games against itself.
pub(crate) struct VariantGames<P: GameVariant> {
    pub rules: P::Rules,
    pub strength: AgentStrength,
    pub games: Vec<DuelGame>,
}

/// [`strength_and_self_play`] in `P`'s default rules with the settings'
/// agent for `P`, on seed stream `stream`; the games are appended to `pgn`
/// as `event`.
pub(crate) fn default_rules_games<P: GameVariant>(
    settings: &ClaimSettings,
    stream: usize,
    progress: &mut dyn FnMut(&str),
    event: &str,
    pgn: &mut String,
) -> Result<VariantGames<P>, TrainError> {
    let variant = P::VARIANT;
    let rules =
        P::parse_rules(&Default::default()).map_err(|e| TrainError::Rules(e.to_string()))?;
    let agent = settings
        .agents
        .for_rules(variant, &P::rule_options(&rules))
        .clone();
    let (calibration, games) =
        strength_and_self_play::<P>(&rules, &agent, settings, stream, variant.name(), progress)?;
    append_games_pgn::<P>(pgn, &rules, &games, &agent.to_string(), event)?;
    Ok(VariantGames {
        rules,
        strength: AgentStrength::new(variant.name(), "default", &agent, calibration),
        games,
    })
}

/// White's score in a game: 1, 1/2 (draws and cut games) or 0.
pub(crate) fn white_score(game: &DuelGame) -> f64 {
    use heterodox_data::GameResult;
    match game.record.result {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw | GameResult::Truncated => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::{Hostage, RuleOptions, Traitor};

    fn encoding<P: GameVariant>(options: &str) -> EncodingSpec {
        let rules = P::parse_rules(&RuleOptions::parse(options).unwrap()).unwrap();
        EncodingSpec::of(&P::start(&rules, 0).unwrap(), 1)
    }

    fn other(agent: &str, encoding: &EncodingSpec) -> Option<String> {
        other_family(&agent.parse().unwrap(), encoding).map(|spec| spec.to_string())
    }

    #[test]
    fn the_other_family_is_the_engine_for_a_network_and_the_shipped_network_for_the_engine() {
        let hostage = encoding::<Hostage>("");
        let defector = encoding::<Traitor>("mode=defector,commitment=impromptu");
        let standard_defector = encoding::<Traitor>("mode=defector");
        let hostage_history_2 = EncodingSpec::of(&Hostage::start(&(), 0).unwrap(), 2);
        let cases = [
            ("zoo:hostage@64", &hostage, Some("ab@1")),
            ("net:runs/x/last@400", &hostage, Some("ab@1")),
            // agents/hostage, the one Hostage network of agents/ (agents/archive/
            // holds no spec.json of its own: it is skipped).
            ("ab@20000n", &hostage, Some("zoo:hostage@64")),
            ("ab@1/hand", &hostage, Some("zoo:hostage@64")),
            ("ab@20000n", &defector, Some("zoo:traitor-defector@64")),
            // No network ships for Standard commitment, nor for history 2.
            ("ab@20000n", &standard_defector, None),
            ("ab@20000n", &hostage_history_2, None),
            ("random", &hostage, None),
            ("greedy", &hostage, None),
            ("uniform@8", &hostage, None),
            ("rollout@64", &hostage, None),
        ];
        for (agent, encoding, expected) in cases {
            assert_eq!(
                other(agent, encoding).as_deref(),
                expected,
                "{agent} on {}",
                encoding.summary()
            );
        }
    }
}
