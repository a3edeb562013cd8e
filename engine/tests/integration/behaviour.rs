//! The engine's contract: limits and configuration are checked with typed
//! errors naming the argument; searches are deterministic for a depth or
//! node limit; the table's size does not change a fixed-depth answer;
//! scores keep their sign across same-player steps; every variant plays.

use crate::support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use heterodox_engine::{
    ConfigError, Engine, EngineConfig, EngineError, Greedy, LimitError, Limits, Score,
};
use heterodox_env::traitor::Commitment;
use heterodox_env::{
    new_position, Chess, Game, GameVariant, MadAction, MadScientist, Position, RuleOptions,
    Traitor, TraitorAction, Variant, VariantVisitor,
};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn chess_game(fen: &str) -> Game<Chess> {
    Game::new(Chess::from_fen(fen).unwrap())
}

#[test]
fn bad_limits_are_typed_errors_naming_the_argument() {
    let game = Game::new(Chess::new());
    let mut engine = support::engine::<Chess>(1);
    let mut error = |limits: Limits| engine_error(&mut engine, &game, limits);
    assert_eq!(
        error(Limits::depth(0)),
        EngineError::Limit(LimitError::Depth(0))
    );
    assert_eq!(
        error(Limits::depth(65)).to_string(),
        "depth 65 is out of range (1 to 64)"
    );
    assert_eq!(
        error(Limits::movetime(Duration::ZERO)).to_string(),
        "movetime 0 ms is out of range (at least 1 ms)"
    );
    assert_eq!(
        error(Limits::nodes(0)).to_string(),
        "nodes 0 is out of range (at least 1)"
    );
    assert_eq!(
        error(Limits::default()).to_string(),
        "no limit given: set depth, nodes, movetime or a stop flag"
    );
}

fn engine_error(engine: &mut Engine<Chess>, game: &Game<Chess>, limits: Limits) -> EngineError {
    engine.search(game, &limits, |_| {}).unwrap_err()
}

#[test]
fn bad_configurations_are_typed_errors_naming_the_field() {
    let config = |hash_mib, threads, determinizations| EngineConfig {
        hash_mib,
        threads,
        determinizations,
        seed: 0,
        ..EngineConfig::default()
    };
    let error = |c: EngineConfig| Engine::<Chess>::new(c).unwrap_err();
    assert_eq!(
        error(config(0, 1, 1)).to_string(),
        "hash 0 MiB is out of range (1 to 65536 MiB)"
    );
    assert_eq!(
        error(config(1 << 40, 1, 1)),
        EngineError::Config(ConfigError::HashSize(1 << 40))
    );
    assert_eq!(
        error(config(1, 0, 1)).to_string(),
        "threads 0 is out of range (1 to 256)"
    );
    assert_eq!(
        error(config(1, 1, 0)).to_string(),
        "determinizations 0 is out of range (1 to 1024)"
    );
}

#[test]
fn a_finished_game_is_refused() {
    let game = chess_game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let error = support::engine::<Chess>(1)
        .search(&game, &Limits::depth(3), |_| {})
        .unwrap_err();
    assert_eq!(error.to_string(), "the game is over: 1-0 (checkmate)");
}

#[test]
fn same_depth_same_search_and_new_game_forgets() {
    let game = chess_game(KIWIPETE);
    let limits = Limits::depth(7);
    let strip = |mut r: heterodox_engine::SearchReport<_>| {
        r.elapsed = Duration::ZERO;
        r
    };
    // A fresh engine's report, its timing left out.
    let fresh = |limits: &Limits| {
        strip(
            support::engine::<Chess>(16)
                .search(&game, limits, |_| {})
                .unwrap(),
        )
    };
    let first = fresh(&limits);
    let second = fresh(&limits);
    assert_eq!(first, second);
    assert_eq!(first.depth, 7);
    // The same engine after new_game() searches as a fresh one.
    let mut engine = support::engine::<Chess>(16);
    engine
        .search(
            &chess_game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
            &limits,
            |_| {},
        )
        .unwrap();
    engine.new_game();
    assert_eq!(strip(engine.search(&game, &limits, |_| {}).unwrap()), first);
    // A node limit stops at exactly the same place every time.
    let limits = Limits::nodes(5_000);
    let a = fresh(&limits);
    let b = fresh(&limits);
    assert_eq!(a, b);
    assert_eq!(a.nodes, 5_000);
}

#[test]
fn every_table_size_gives_the_same_answer_at_a_fixed_depth() {
    for (fen, depth) in [
        ("rr4k1/5ppp/8/8/8/3R4/3R1PPP/3R2K1 w - - 0 1", 7),
        (KIWIPETE, 6),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            7,
        ),
    ] {
        let game = chess_game(fen);
        let answers: Vec<(String, Score)> = [1, 2, 8, 64]
            .into_iter()
            .map(|mib| {
                let report = support::engine::<Chess>(mib)
                    .search(&game, &Limits::depth(depth), |_| {})
                    .unwrap();
                (game.position().notation(&report.best), report.score)
            })
            .collect();
        assert!(
            answers.windows(2).all(|w| w[0] == w[1]),
            "{fen}: {answers:?}"
        );
    }
}

#[test]
fn helper_threads_share_the_table_and_find_the_mate() {
    let game = chess_game("rr4k1/5ppp/8/8/8/3R4/3R1PPP/3R2K1 w - - 0 1");
    let config = EngineConfig {
        hash_mib: 8,
        threads: 3,
        ..EngineConfig::default()
    };
    let report = Engine::<Chess>::new(config)
        .unwrap()
        .search(&game, &Limits::depth(8), |_| {})
        .unwrap();
    assert_eq!(game.position().notation(&report.best), "Rd8+");
    assert_eq!(report.score, Score::Mate(3));
}

#[test]
fn iterations_are_reported_in_order() {
    let game = chess_game(KIWIPETE);
    let mut depths = Vec::new();
    let report = support::engine::<Chess>(4)
        .search(&game, &Limits::depth(5), |info| {
            assert_eq!(info.pv.first().copied(), Some(info.pv[0]));
            assert!(game.position().is_legal(&info.pv[0]));
            depths.push(info.depth);
        })
        .unwrap();
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(report.pv[0], report.best);
}

#[test]
fn a_stop_flag_or_a_movetime_ends_the_search_with_a_legal_move() {
    let game = Game::new(Chess::new());
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
    });
    let report = support::engine::<Chess>(4)
        .search(&game, &limits, |_| {})
        .unwrap();
    setter.join().unwrap();
    assert!(game.position().is_legal(&report.best));
    let report = support::engine::<Chess>(4)
        .search(&game, &Limits::movetime(Duration::from_millis(50)), |_| {})
        .unwrap();
    assert!(game.position().is_legal(&report.best));
    assert!(report.depth >= 1);
}

#[test]
fn root_scores_are_exact_and_sorted() {
    let game = chess_game("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    let scores = support::engine::<Chess>(4)
        .score_root_moves(&game, 3)
        .unwrap();
    assert_eq!(scores.len(), game.position().count_legal_actions());
    assert_eq!(game.position().notation(&scores[0].action), "Qxf7#");
    assert_eq!(scores[0].score, Score::Mate(1));
    assert!(scores.windows(2).all(|w| w[0].value >= w[1].value));
    assert!(scores.iter().all(|s| s.pv[0] == s.action));
    // Every action has its own score, not a bound: the queen given away
    // on f6 scores the queen lost.
    let blunder = scores
        .iter()
        .find(|s| game.position().notation(&s.action) == "Qf6")
        .unwrap();
    assert!(
        blunder.value < -500,
        "Qf6 hangs the queen: {}",
        blunder.score
    );
}

#[test]
fn mad_scientist_discards_are_the_same_players_steps() {
    // Black must discard one part (nine in hand); then White takes the
    // Scientist. Black's score is a loss: a discard is not a turn, so the
    // score is not negated between Black's discard and White's capture.
    let pos = MadScientist::from_fen("4k3/8/8/8/8/8/8/4R1K1 b - - WFwwwffccbb 0 1").unwrap();
    assert!(pos.is_discarding());
    let report = support::search(&pos, 3);
    assert!(matches!(report.best, MadAction::Discard { .. }));
    assert_eq!(report.score, Score::Mate(-1));
    assert_eq!(report.pv.len(), 2);
}

#[test]
fn mad_scientist_quiescence_ends_in_exchanges_that_fill_the_hands() {
    // Three queens each on the d-file and full hands: every capture puts
    // four parts in a full hand, four discards follow, each a ply with
    // every part type to choose from and no standing pat, and the
    // exchange goes on. Quiescence stops after 16 plies: without the
    // limit this depth-1 search reaches ply 22 (606,420 nodes), and such
    // exchanges made one teacher game run for over 30 minutes
    // (docs/engine.md).
    let pos = MadScientist::from_fen(
        "3k4/3[wwff]4/3[wwff]4/3[wwff]4/8/3[WWFF]4/3[WWFF]4/3K4 w - - WWFFCCBBwwffccbb 0 1",
    )
    .unwrap();
    let report = support::search(&pos, 1);
    assert_eq!(
        (report.nodes, report.seldepth),
        (779_362, 20),
        "{}",
        pos.notation(&report.best)
    );
    assert_eq!(pos.notation(&report.best), "C@c1");
}

#[test]
fn traitor_announcement_and_move_are_one_turn() {
    // T4a: with the black queen among White's traitors, (T-Qd8) and any
    // move mates. Two steps by White: mate in one move.
    let pos = support::traitor_after(Commitment::Standard, &["S-d8", "S-a1"]);
    let report = support::search(&pos, 3);
    assert_eq!(report.best, TraitorAction::Announce("d8".parse().unwrap()));
    assert_eq!(report.score, Score::Mate(1));
    assert!(matches!(report.pv[1], TraitorAction::Move(_)));
}

#[test]
fn engines_and_greedy_players_move_between_threads() {
    fn send<T: Send>(_: &T) {}
    send(&support::engine::<Traitor>(1));
    send(&support::engine::<MadScientist>(1));
    send(&Greedy::new(0));
}

#[test]
fn greedy_takes_the_most_material_and_is_seeded() {
    // The queen on d5 hangs to the knight and to the pawn.
    let game = chess_game("4k3/8/8/3q4/4P3/2N5/8/4K3 w - - 0 1");
    let mut greedy = Greedy::new(3);
    let choice = greedy.choose(&game).unwrap();
    assert!(["exd5", "Nxd5"].contains(&game.position().notation(&choice).as_str()));
    // Among equals it draws with its seed: the same seed, the same game.
    let start = Game::new(Chess::new());
    let draws = |seed| {
        let mut g = Greedy::new(seed);
        (0..10)
            .map(|_| g.choose(&start).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(draws(7), draws(7));
    assert_ne!(draws(7), draws(8));
    assert!(Greedy::new(0)
        .choose(&chess_game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"))
        .is_none());
}

/// Plays a short game between the engine (both sides) and checks every
/// action it chooses is legal: twelve steps, or fewer when the game ends.
struct ShortGame;

impl VariantVisitor for ShortGame {
    type Output = bool;

    fn visit<P: GameVariant>(self) -> bool {
        let position: P = new_position(None, &RuleOptions::new(), 1).unwrap();
        let mut game = Game::new(position);
        let mut engine = support::engine::<P>(4);
        let mut plies = 0;
        while game.outcome().is_none() && plies < 12 {
            let report = engine.search(&game, &Limits::nodes(3_000), |_| {}).unwrap();
            game.play(&report.best).unwrap();
            plies += 1;
        }
        plies == 12 || game.outcome().is_some()
    }
}

#[test]
fn every_variant_plays_legal_moves() {
    for variant in Variant::ALL {
        assert!(variant.visit(ShortGame), "{variant}");
    }
}
