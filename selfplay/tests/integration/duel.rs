//! Duels between two players: pairs share their opening with colours
//! swapped, identical deterministic players score exactly one half, every
//! game replays through the rules, the same seed plays the same games, and
//! the search beats random play.

use heterodox_data::GameResult;
use heterodox_env::chess::Chess;
use heterodox_env::hostage::Hostage;
use heterodox_env::traitor::{Traitor, TraitorRules};
use heterodox_env::{Game, GameVariant, Position};
use heterodox_selfplay::{
    Duel, DuelConfig, DuelGame, DuelTally, Player, RootPolicy, SearchConfig, UniformEvaluator,
};

fn config(games: u32, max_plies: u32, opening_plies: u32) -> DuelConfig {
    DuelConfig {
        games,
        concurrent: 3,
        max_plies,
        opening_plies,
        seed: 11,
        history: 1,
        ..DuelConfig::default()
    }
}

fn search(simulations: u32, root_policy: RootPolicy) -> SearchConfig {
    SearchConfig {
        simulations,
        root_policy,
        gumbel_actions: 8,
        determinizations: 2,
        ..SearchConfig::default()
    }
}

/// A search player with `settings` guided by the rules alone.
fn uniform_search<P: GameVariant>(settings: &SearchConfig) -> Player<'_, P> {
    Player::Search {
        config: settings,
        evaluator: &UniformEvaluator,
    }
}

/// Plays the games `config` asks for between `a` and `b`.
fn play<P: GameVariant>(
    rules: P::Rules,
    config: DuelConfig,
    a: Player<'_, P>,
    b: Player<'_, P>,
) -> Vec<DuelGame> {
    Duel::<P>::new(rules, config)
        .unwrap()
        .run(a, b, |_| {})
        .unwrap()
}

/// Replays every step of `game` through the rules; returns the end.
fn replay<P: GameVariant>(rules: &P::Rules, game: &DuelGame) -> Game<P> {
    let mut replayed = Game::new(P::start(rules, game.record.seed).unwrap());
    let mut actions = Vec::new();
    for step in &game.record.steps {
        replayed.legal_actions(&mut actions);
        let action = actions
            .iter()
            .find(|a| replayed.position().action_index(a) as u32 == step.action)
            .copied()
            .expect("a legal action");
        replayed.play(&action).unwrap();
    }
    replayed
}

/// The steps of `game` a search chose (they carry its target).
fn searched_plies(game: &DuelGame) -> u64 {
    game.record
        .steps
        .iter()
        .filter(|s| !s.policy.is_empty())
        .count() as u64
}

#[test]
fn pairs_share_their_opening_with_colours_swapped() {
    let games = play::<Hostage>((), config(6, 30, 4), Player::Random, Player::Random);
    assert_eq!(
        games.iter().map(|g| g.index).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4, 5]
    );
    assert_eq!(
        games.iter().map(|g| g.a_white).collect::<Vec<_>>(),
        [true, false, true, false, true, false]
    );
    for pair in games.chunks(2) {
        let opening = |g: &DuelGame| {
            g.record.steps[..4]
                .iter()
                .map(|s| s.action)
                .collect::<Vec<_>>()
        };
        assert_eq!(opening(&pair[0]), opening(&pair[1]));
        assert_eq!(pair[0].record.seed, pair[1].record.seed);
        // Opening and random plies carry no search policy.
        assert!(pair[0].record.steps.iter().all(|s| s.policy.is_empty()));
    }
    assert_ne!(games[0].record.steps[..4], games[2].record.steps[..4]);
    for game in &games {
        let end = replay::<Hostage>(&(), game);
        match game.record.result {
            GameResult::Truncated => assert_eq!(end.plies(), 30),
            result => assert_eq!(Some(result), end.outcome().map(GameResult::from_outcome)),
        }
    }
}

#[test]
fn an_odd_number_of_games_is_rounded_up_to_whole_pairs() {
    let duel = Duel::<Chess>::new((), config(3, 10, 2)).unwrap();
    let mut seen = 0;
    let games = duel
        .run(Player::Random, Player::Random, |_| seen += 1)
        .unwrap();
    assert_eq!((games.len(), seen), (4, 4));
}

#[test]
fn identical_deterministic_players_score_exactly_one_half() {
    let settings = search(16, RootPolicy::Gumbel);
    let player = uniform_search(&settings);
    let games = play::<Chess>((), config(4, 40, 3), player, player);
    for pair in games.chunks(2) {
        // The same moves with the players' colours swapped.
        let moves = |g: &DuelGame| g.record.steps.iter().map(|s| s.action).collect::<Vec<_>>();
        assert_eq!(moves(&pair[0]), moves(&pair[1]));
        assert_eq!(pair[0].record.result, pair[1].record.result);
        assert_eq!(pair[0].score_a() + pair[1].score_a(), 1.0);
        // Searched plies carry the search's target.
        assert!(pair[0].record.steps[3..]
            .iter()
            .all(|s| !s.policy.is_empty()));
    }
    assert_eq!(DuelTally::of(&games).score(), 0.5);
    for game in &games {
        // Each searched ply ran its 16 simulations, the two sides in turn.
        let searched = searched_plies(game);
        assert_eq!(game.simulations[0] + game.simulations[1], 16 * searched);
        assert!(game.simulations[0].abs_diff(game.simulations[1]) <= 16);
    }
}

#[test]
fn the_same_seed_plays_the_same_games() {
    let settings = search(8, RootPolicy::Puct);
    let play = |seed| {
        let mut c = config(4, 24, 2);
        c.seed = seed;
        play::<Hostage>((), c, uniform_search(&settings), Player::Random)
    };
    assert_eq!(play(5), play(5));
    assert_ne!(play(5), play(6));
}

#[test]
fn a_search_beats_random_play() {
    // Chess, 64 simulations guided by the rules alone against uniformly
    // random moves, 20 games of at most 200 plies: the search never loses
    // and mates in a quarter of the games (6 with this seed; a horizon of
    // 64 simulations finds only short mates, the rest are cut).
    let settings = search(64, RootPolicy::Gumbel);
    let games = play::<Chess>(
        (),
        config(20, 200, 2),
        uniform_search(&settings),
        Player::Random,
    );
    let tally = DuelTally::of(&games);
    assert_eq!(tally.games(), 20);
    assert_eq!(tally.losses, 0, "{tally:?}");
    assert!(tally.wins >= 5, "{tally:?}");
}

#[test]
fn hidden_information_players_play_traitor() {
    let rules = TraitorRules::default();
    let settings = search(8, RootPolicy::Gumbel);
    let games = play::<Traitor>(
        rules,
        config(2, 20, 0),
        uniform_search(&settings),
        Player::Random,
    );
    for game in &games {
        replay::<Traitor>(&rules, game);
        // A's searches ran 8 simulations a step (over 2 determinizations),
        // random play none.
        assert_eq!(game.simulations, [8 * searched_plies(game), 0]);
    }
}

#[test]
fn bad_settings_are_refused() {
    let e = |c: DuelConfig| Duel::<Chess>::new((), c).err().unwrap().to_string();
    assert_eq!(
        e(config(0, 10, 0)),
        "setting games = 0 is out of range (1 to 16777216)"
    );
    let mut c = config(2, 10, 0);
    c.concurrent = 0;
    assert_eq!(e(c), "setting concurrent = 0 is out of range (1 to 4096)");
    let mut c = config(2, 10, 0);
    c.history = 65;
    assert_eq!(e(c), "setting history = 65 is out of range (1 to 64)");
    let bad = SearchConfig {
        simulations: 0,
        ..SearchConfig::default()
    };
    let duel = Duel::<Chess>::new((), config(2, 10, 0)).unwrap();
    let error = duel
        .run(uniform_search(&bad), Player::Random, |_| {})
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        "setting simulations = 0 is out of range (1 to 1048576)"
    );
}

#[test]
fn pairs_start_from_the_given_positions_in_turn() {
    let starts = [
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
    ];
    let mut c = config(6, 12, 0);
    c.starts = starts.iter().map(|s| s.to_string()).collect();
    let games = play::<Chess>((), c, Player::Random, Player::Random);
    let used: Vec<&str> = games
        .iter()
        .map(|g| g.record.start.as_deref().unwrap())
        .collect();
    assert_eq!(
        used,
        [starts[0], starts[0], starts[1], starts[1], starts[0], starts[0]]
    );
    for game in &games {
        // The library's replay starts from the record's position string.
        let mut first = None;
        heterodox_data::replay::replay::<Chess>(&game.record, &(), 0, |step| {
            if step.step == 0 {
                first = Some(step.game.position().fen());
            }
        })
        .unwrap();
        assert_eq!(first.as_deref(), game.record.start.as_deref());
    }
}

#[test]
fn unpaired_games_each_have_their_own_opening() {
    let settings = search(8, RootPolicy::Gumbel);
    let player = uniform_search(&settings);
    let mut c = config(3, 16, 2);
    c.paired = false;
    let games = play::<Chess>((), c, player, player);
    // Not rounded up to pairs, and no two games alike.
    assert_eq!(games.len(), 3);
    let seeds: Vec<u64> = games.iter().map(|g| g.record.seed).collect();
    assert!(seeds[0] != seeds[1] && seeds[1] != seeds[2] && seeds[0] != seeds[2]);
    let moves = |g: &DuelGame| g.record.steps.iter().map(|s| s.action).collect::<Vec<_>>();
    assert_ne!(moves(&games[0]), moves(&games[1]));
    assert_ne!(moves(&games[1]), moves(&games[2]));
}

#[test]
fn a_bad_start_position_is_refused_naming_it() {
    let mut c = config(2, 10, 0);
    c.starts = vec![
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_owned(),
        "not a position".to_owned(),
    ];
    let error = Duel::<Chess>::new((), c).err().unwrap().to_string();
    assert!(
        error.contains("start position 2 ('not a position')"),
        "{error}"
    );
}

#[test]
fn a_resumed_duel_plays_only_the_games_it_lacks_and_the_same_ones() {
    let settings = search(8, RootPolicy::Puct);
    let duel = Duel::<Hostage>::new((), config(7, 24, 2)).unwrap();
    assert_eq!(duel.total_games(), 8);
    let full = duel
        .run(uniform_search(&settings), Player::Random, |_| {})
        .unwrap();
    assert_eq!(full.len(), 8);
    let kept: Vec<DuelGame> = [1, 2, 6].iter().map(|&k| full[k].clone()).collect();
    let mut played = Vec::new();
    let resumed = duel
        .run_resuming(uniform_search(&settings), Player::Random, kept, |g| {
            played.push(g.index)
        })
        .unwrap();
    played.sort_unstable();
    assert_eq!(played, [0, 3, 4, 5, 7]);
    assert_eq!(resumed, full);
    // Everything kept: nothing is played.
    let all = duel
        .run_resuming(
            uniform_search(&settings),
            Player::Random,
            full.clone(),
            |_| panic!("no game is left to play"),
        )
        .unwrap();
    assert_eq!(all, full);
    // Games that are not this duel's are refused before any game.
    let mut stray = full[0].clone();
    stray.index = 8;
    let mut swapped = full[1].clone();
    swapped.a_white = true;
    let mut foreign = full[4].clone();
    foreign.record.seed ^= 1;
    for (kept, named) in [
        (vec![stray], "game 8: this duel has 8 games"),
        (
            vec![full[3].clone(), full[3].clone()],
            "game 3: it is there twice",
        ),
        (vec![swapped], "game 1: A has the other colour in this game"),
        (vec![foreign], "game 4: its seed is another duel's"),
    ] {
        let e = duel
            .run_resuming(uniform_search(&settings), Player::Random, kept, |_| {
                panic!("nothing is played")
            })
            .unwrap_err();
        assert!(e.to_string().contains(named), "{e}");
        assert!(e.to_string().contains("does not fit this duel"), "{e}");
    }
}

#[test]
fn a_stopped_duel_returns_the_games_finished_so_far() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    // One game at a time: the flag, set when the second game ends, stops
    // the duel before a third starts, and the two are returned.
    let mut settings = config(8, 40, 2);
    settings.concurrent = 1;
    let stop = Arc::new(AtomicBool::new(false));
    let duel = Duel::<Chess>::new((), settings)
        .unwrap()
        .stop_when(stop.clone());
    let mut ended = 0;
    let games = duel
        .run(Player::Random, Player::Random, |_| {
            ended += 1;
            if ended == 2 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
    assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1]);
    // Stopped before it begins: no game.
    let stopped = Arc::new(AtomicBool::new(true));
    let duel = Duel::<Chess>::new((), config(8, 40, 2))
        .unwrap()
        .stop_when(stopped);
    assert!(duel
        .run(Player::Random, Player::Random, |_| {})
        .unwrap()
        .is_empty());
}
