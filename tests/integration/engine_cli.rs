//! `heterodox analyse` and `heterodox bench`: the alpha-beta engine from
//! the command line (rules-only binary; no libtorch).

use crate::support;

use support::{
    assert_refused_with_message, heterodox, heterodox_ok, heterodox_with_fixture_nets, stderr,
    stdout, without_timing,
};

/// `heterodox analyse --variant VARIANT ARGS`, which must succeed: its
/// stdout.
fn analyse(variant: &str, args: &[&str]) -> String {
    let mut all = vec!["analyse", "--variant", variant];
    all.extend_from_slice(args);
    stdout(&heterodox_ok(&all))
}

#[test]
fn analyse_prints_one_info_line_per_iteration_then_the_best_move() {
    let lines = |text: &str| -> Vec<String> { text.lines().map(without_timing).collect() };
    let classical = analyse("chess", &["--depth", "4", "--evaluation", "classical"]);
    assert_eq!(
        lines(&classical),
        [
            "info depth 1 seldepth 1 score cp 50 nodes 41 pv Nc3",
            "info depth 2 seldepth 2 score cp 12 nodes 122 pv Nc3 Nc6",
            "info depth 3 seldepth 3 score cp 50 nodes 333 pv Nc3 Nc6 Nf3",
            "info depth 4 seldepth 5 score cp 12 nodes 869 pv Nc3 Nc6 Nf3 Nf6",
            "bestmove Nc3",
        ]
    );
    // Without a choice, the net the catalogue ships for chess (here the
    // fixture catalogue's, a correction added to the classical
    // evaluation): other scores, another tree.
    let output = heterodox_with_fixture_nets(&["analyse", "--variant", "chess", "--depth", "4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        lines(&text),
        [
            "info depth 1 seldepth 1 score cp -108 nodes 41 pv Nc3",
            "info depth 2 seldepth 2 score cp 166 nodes 102 pv Nc3 Nc6",
            "info depth 3 seldepth 4 score cp -46 nodes 896 pv d4 Na6 Nc3",
            "info depth 4 seldepth 5 score cp 125 nodes 2672 pv d4 Nc6 Nf3 Nxd4",
            "bestmove d4",
        ]
    );
    let first: Vec<&str> = text.lines().next().unwrap().split(' ').collect();
    assert_eq!(&first[..2], ["info", "depth"]);
    assert!(first.contains(&"nps") && first.contains(&"time"));
}

#[test]
fn analyse_finds_the_poison_problems_mate_in_the_variants_notation() {
    let fen = "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -";
    let text = analyse("poison", &["--fen", fen, "--depth", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("info depth 1 seldepth "), "{text}");
    assert!(lines[0].contains(" score mate 1 "), "{text}");
    assert!(lines[0].ends_with(" pv xHe5#[f5,5]"), "{text}");
    assert_eq!(lines[1], "bestmove xHe5#[f5,5]");
}

#[test]
fn analyse_with_options_a_node_limit_and_hidden_information() {
    // Traitor: White's secret holds the black queen; Black's is hidden
    // from the search. (T-Qd8) and any move mate (T4a).
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 e4=e2,e5=e7 - 9,9 -/- d8/a1,b1 open - -";
    let text = analyse(
        "traitor",
        &["--option", "mode=traitor", "--fen", fen, "--nodes", "3000"],
    );
    assert!(
        text.lines().next().unwrap().contains(" score mate 1 "),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("bestmove (T-Qd8)"));
}

#[test]
fn analyse_after_steps_prints_the_belief_about_the_opponent_s_secret() {
    // Standard Traitor from the start: White holds Black's queen, Black
    // White's a1 rook and b1 knight; after 1.e4 e5 White's engine weighs
    // Black's e5: had Black held White's queen (d1) it would have mated by
    // (T-Qd1). The single pawns share the top (docs/hidden.md).
    let text = analyse(
        "traitor",
        &["--moves", "S-d8 S-a1,b1 e2e4 e7e5", "--depth", "4"],
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 2], "bestmove (T-Qd8)");
    assert_eq!(
        lines[lines.len() - 1],
        "info string belief 2204 secrets, 10.88 bits, 1 opponent turns weighed: \
         h2 0.0033, g2 0.0033, f2 0.0033, e2 0.0033, d2 0.0033, c2 0.0033, b2 0.0033, a2 0.0033"
    );
    // Without steps, no belief line; a step that cannot be played is
    // named.
    let plain = analyse("traitor", &["--moves", "", "--depth", "1"]);
    assert!(!plain.contains("belief"), "{plain}");
    assert_refused_with_message(&[(
        &["analyse", "--variant", "traitor", "--moves", "S-d8 e2e4", "--depth", "1"],
        "error: --moves: 'e2e4': illegal move 'e2e4' in position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 - - 9,9 -/- d8/* select - -",
    )]);
}

#[test]
fn beliefs_fits_the_move_model_on_self_play() {
    let out = heterodox_ok(&[
        "beliefs",
        "--variant",
        "traitor",
        "--commitment",
        "simplified",
        "--games",
        "4",
        "--nodes",
        "2000",
        "--temperatures",
        "50,100",
        "--noises",
        "0.05",
    ]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("4 games (29.8 plies on average), 103 views a model, "),
        "{text}"
    );
    assert_eq!(
        &lines[1..],
        [
            "temperature_cp  noise  bits  above_uniform",
            "            50   0.05  +1.684  1.000",
            "           100   0.05  +1.618  1.000",
        ]
    );
    assert_refused_with_message(&[
        (
            &["beliefs", "--variant", "chess"],
            "error: --variant chess: beliefs are about a hidden secret, the Traitor family's (--variant traitor)",
        ),
        (
            &["beliefs", "--variant", "traitor", "--noises", "1"],
            "error: --noises: 1 is not in [0, 1)",
        ),
        (
            &["beliefs", "--variant", "traitor", "--temperatures", "0"],
            "error: --temperatures: 0 is not a positive number of centipawns",
        ),
    ]);
}

#[test]
fn analyse_refuses_bad_limits_with_one_line() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["analyse", "--depth", "0"],
            "error: depth 0 is out of range (1 to 64)",
        ),
        (
            &["analyse", "--depth", "65"],
            "error: depth 65 is out of range (1 to 64)",
        ),
        (
            &["analyse", "--movetime", "0"],
            "error: movetime 0 ms is out of range (at least 1 ms)",
        ),
        (
            &["analyse", "--depth", "3", "--hash", "0"],
            "error: hash 0 MiB is out of range (1 to 65536 MiB)",
        ),
        (
            &["analyse", "--depth", "3", "--nodes", "5"],
            "error: the argument '--depth <DEPTH>' cannot be used with '--nodes <NODES>'",
        ),
    ];
    assert_refused_with_message(&cases);
    let out = heterodox(&[
        "analyse",
        "--fen",
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
        "--depth",
        "2",
    ]);
    assert_eq!(stderr(&out), "error: the game is over: 1-0 (checkmate)\n");
}

#[test]
fn bench_prints_the_node_signature_per_variant_and_in_total() {
    let out = heterodox_ok(&["bench", "--depth", "5"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let nodes = |line: &str| -> (String, u64) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "nodes").unwrap();
        (words[0].to_owned(), words[at + 1].parse().unwrap())
    };
    let per_variant: Vec<(String, u64)> = lines[..5].iter().map(|l| nodes(l)).collect();
    assert_eq!(
        per_variant,
        [
            ("chess".to_owned(), BENCH_5[0]),
            ("poison".to_owned(), BENCH_5[1]),
            ("hostage".to_owned(), BENCH_5[2]),
            ("madscientist".to_owned(), BENCH_5[3]),
            ("traitor".to_owned(), BENCH_5[4]),
        ]
    );
    assert_eq!(lines.len(), 6);
    assert_eq!(nodes(lines[5]), ("total".to_owned(), BENCH_5.iter().sum()));
    assert!(lines[5].contains(" nps "));
}

/// The benchmark's node counts at depth 5: they change exactly when the
/// search does (update them with the change that moves them).
const BENCH_5: [u64; 5] = [19_481, 6_300, 44_836, 10_605, 73_669];
