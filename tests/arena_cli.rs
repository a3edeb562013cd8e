//! `heterodox arena` as a user runs it: a gauntlet's table, its games as
//! PGN and its results as JSON; an SPRT run; bad agents refused.

use std::path::PathBuf;
use std::process::{Command, Output};

fn heterodox(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heterodox"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("heterodox-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_gauntlet_writes_its_table_games_and_results() {
    let out = scratch("gauntlet");
    let result = heterodox(&[
        "arena",
        "--variant",
        "chess",
        "--agents",
        "uniform@16,random,rollout@8",
        "--games",
        "4",
        "--max-plies",
        "40",
        "--opening-plies",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("uniform@16 "))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(rows[0].contains(" random "), "{stdout}");
    assert!(rows[1].contains(" rollout@8 "), "{stdout}");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"heterodox arena\"]").count(), 8);
    assert_eq!(pgn.matches("[White \"uniform@16\"]").count(), 4);
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let pairings = results.as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    for p in pairings {
        assert_eq!(p["agent"], "uniform@16");
        assert_eq!(p["score"]["games"], 4);
        let pairs: u64 = p["pentanomial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .sum();
        assert_eq!(pairs, 2);
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn an_sprt_reports_its_decision() {
    let result = heterodox(&[
        "arena",
        "--variant",
        "chess",
        "--agents",
        "uniform@8,random",
        "--games",
        "8",
        "--max-plies",
        "30",
        "--sprt",
        "0,200",
        "--concurrent",
        "2",
        "--quiet",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.contains("SPRT: LLR "), "{stdout}");
}

#[test]
fn bad_arena_arguments_are_one_line_errors() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["arena", "--agents", "uniform@8,alphabeta"],
            "error: bad agent 'alphabeta': unknown kind of agent (agents: random, uniform@SIMS, rollout@SIMS, net:DIR@SIMS, each optionally /puct or /gumbel)",
        ),
        (&["arena", "--agents", "uniform@8"], "error: config: the arena needs at least two agents, got 1"),
        (
            &["arena", "--agents", "uniform@8,random,random", "--sprt", "0,10"],
            "error: config: an SPRT compares exactly two agents",
        ),
        (
            &["arena", "--agents", "uniform,random", "--schedule", "swiss"],
            "error: unknown schedule 'swiss' (valid schedules: gauntlet, round-robin)",
        ),
    ];
    for (args, expected) in cases {
        let out = heterodox(args);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(text(&out.stderr).trim_end(), expected, "{args:?}");
    }
    let missing = heterodox(&["arena", "--agents", "net:/nonexistent/ckpt@8,random"]);
    assert!(
        text(&missing.stderr).starts_with("error: checkpoint /nonexistent/ckpt: "),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn an_opening_book_gives_the_pairs_their_start_positions() {
    let out = scratch("book");
    std::fs::create_dir_all(&out).unwrap();
    let book = out.join("book.txt");
    std::fs::write(
        &book,
        "# two openings\n1. e4 e5 2. Nf3\n\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let result = heterodox(&[
        "arena",
        "--agents",
        "uniform@4,random",
        "--games",
        "4",
        "--max-plies",
        "12",
        "--opening-plies",
        "0",
        "--openings",
        book.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert!(
        text(&result.stdout).contains("openings from a book of 2, then of 0 random plies"),
        "{}",
        text(&result.stdout)
    );
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let after_nf3 = "[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"]";
    let after_d4 = "[FEN \"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]";
    assert_eq!(pgn.matches(after_nf3).count(), 2, "{pgn}");
    assert_eq!(pgn.matches(after_d4).count(), 2, "{pgn}");

    std::fs::write(&book, "1. e4 e5\n1. e4 Ke7\n").unwrap();
    let result = heterodox(&[
        "arena",
        "--agents",
        "random,random",
        "--openings",
        book.to_str().unwrap(),
    ]);
    assert!(!result.status.success());
    let stderr = text(&result.stderr);
    assert!(
        stderr.contains(
            "book.txt: opening book line 2: '1. e4 Ke7' is neither a position nor a line of moves"
        ),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
