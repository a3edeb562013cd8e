//! Positions with a known answer from the rule texts: the Poison problem,
//! the Hostage Fried Liver line, and the Mad Scientist captured at once.

use crate::support;

use heterodox_engine::{Score, SearchReport};
use heterodox_env::hostage::Hostage;
use heterodox_env::{Game, GameVariant, HostageAction, MadScientist, PoisonChess, Position, Role};

/// The engine at `depth` plays `best` (in the variant's notation) from
/// `fen` and scores it a mate in one; returns the position and the report.
fn mates_in_one<P: GameVariant<Rules = ()>>(
    fen: &str,
    depth: u32,
    best: &str,
) -> (P, SearchReport<P::Action>) {
    let pos = P::from_position_string(fen, &()).unwrap();
    let report = support::search(&pos, depth);
    assert_eq!(pos.notation(&report.best), best);
    assert_eq!(report.score, Score::Mate(1));
    (pos, report)
}

#[test]
fn poison_the_texts_problem_is_solved_by_the_poisoning() {
    // poison-chess.txt: Black just played 1...Nf5??; 2.xHe5#[f5,5] mates.
    let fen = "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -";
    let (pos, report) = mates_in_one::<PoisonChess>(fen, 4, "xHe5#[f5,5]");
    assert_eq!(report.pv.len(), 1);
    // The text's point: any other Harpy move lets the knight take the Doctor.
    assert_eq!(support::mating_actions(&pos, 1), vec![report.best]);
}

#[test]
fn hostage_fried_liver_exchange_wins_the_queen() {
    // hostage-chess.txt: after 8.Bxd5+ Qxd5, 9.(N-B)B*f7+ wins the queen.
    let mut game = Game::new(Hostage::new());
    let line = "e4 e5 Nf3 Nc6 Bc4 Nf6 Ng5 d5 exd5 Nxd5 Nxf7 Kxf7 Qf3+ Ke6 Bxd5+ Qxd5";
    for text in line.split(' ') {
        game.play_text(text).unwrap();
    }
    let pos = game.position().clone();
    let exchange = HostageAction::Exchange {
        given: Role::Knight,
        rescued: Role::Bishop,
        to: "f7".parse().unwrap(),
    };
    assert_eq!(pos.notation(&exchange), "(N-B)B*f7+");
    let depth = 5;
    let report = support::engine::<Hostage>(16)
        .search(&game, &heterodox_engine::Limits::depth(depth), |_| {})
        .unwrap();
    let scores = support::engine::<Hostage>(16)
        .score_root_moves(&game, depth)
        .unwrap();
    let exchange_score = scores.iter().find(|s| s.action == exchange).unwrap();
    let best_score = scores.iter().find(|s| s.action == report.best).unwrap();
    // The engine plays the exchange, or a move its exact scores show to be
    // at least as good; either way White is a queen's worth up.
    assert!(
        report.best == exchange || best_score.value >= exchange_score.value,
        "{} ({}) against (N-B)B*f7+ ({})",
        pos.notation(&report.best),
        best_score.score,
        exchange_score.score
    );
    assert!(exchange_score.value >= 500, "{}", exchange_score.score);
    assert_eq!(report.best, exchange);
}

#[test]
fn mad_scientist_the_scientist_is_captured_when_it_can_be() {
    // White may take a queen or the Scientist: the Scientist wins at once.
    mates_in_one::<MadScientist>("4k3/8/8/8/3q4/2B5/8/4R1K1 w - - - 0 1", 3, "Rxe8");
    // A crab rider (two Crabs) reaches it in two (1, 2) steps, while the
    // black queen attacks White's Scientist.
    mates_in_one::<MadScientist>("8/4k3/8/8/8/2[CC]5/8/q5K1 w - - - 0 1", 3, "[CC]xe7");
}
