//! `heterodox arena` as a user runs it: a gauntlet's table, its games as
//! PGN and its results as JSON; an SPRT run; an agent against itself
//! (unpaired, repeats counted once); White's score; bad agents refused.

use crate::support;

use support::{
    assert_contains, assert_refused_with, assert_starts_with, heterodox, heterodox_quiet_into,
    read_json, scratch, text,
};

use std::path::Path;
use std::process::Command;

/// `heterodox arena --agents AGENTS --games GAMES --max-plies PLIES ARGS`,
/// quiet, into `out`: its stdout.
fn arena(out: &Path, agents: &str, games: u32, max_plies: u32, args: &[&str]) -> String {
    let (games, max_plies) = (games.to_string(), max_plies.to_string());
    let mut all = vec!["arena", "--agents", agents, "--games", &games];
    all.extend_from_slice(&["--max-plies", &max_plies]);
    all.extend_from_slice(args);
    heterodox_quiet_into(out, &all)
}

#[test]
fn a_gauntlet_writes_its_table_games_and_results() {
    let out = scratch("gauntlet");
    let stdout = arena(
        &out,
        "uniform@16,random,rollout@8",
        4,
        40,
        &["--variant", "chess", "--opening-plies", "2"],
    );
    // The pairings' table comes first, up to the blank line before the
    // rating list.
    let rows: Vec<&str> = stdout
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("uniform@16 "))
        .collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(rows[0].contains(" random "), "{stdout}");
    assert!(rows[1].contains(" rollout@8 "), "{stdout}");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"heterodox arena\"]").count(), 8);
    assert_eq!(pgn.matches("[White \"uniform@16\"]").count(), 4);
    let results = read_json(&out.join("results.json"));
    let pairings = results["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    // Three agents: a rating list, the anchor first at 0, and in the table.
    let ratings = results["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 3);
    assert_eq!(ratings[0]["agent"], "uniform@16");
    assert_eq!(ratings[0]["elo"], 0.0);
    assert_eq!(ratings[0]["games"], 8);
    assert_eq!(results["prior_draws"], 2.0);
    assert_contains(
        &stdout,
        "ratings (Bayesian, 2 virtual draws per pairing; uniform@16 = 0):",
    );
    assert_contains(&stdout, "0 (anchor)");
    for p in pairings {
        assert_eq!(p["agent"], "uniform@16");
        assert_eq!(p["score"]["games"], 4);
        assert_eq!(p["games"], 4);
        assert_eq!(p["paired"], true);
        assert_eq!(p["white_score"]["games"], 4);
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
fn without_out_the_games_go_to_a_new_numbered_directory() {
    let cwd = scratch("default-out");
    std::fs::create_dir_all(&cwd).unwrap();
    for n in 1..=2 {
        let result = Command::new(env!("CARGO_BIN_EXE_heterodox"))
            .args([
                "arena",
                "--agents",
                "random,random",
                "--games",
                "2",
                "--max-plies",
                "6",
            ])
            .current_dir(&cwd)
            .output()
            .unwrap();
        assert!(result.status.success(), "{}", text(&result.stderr));
        let dir = format!("runs/arena/chess-{n}");
        let stdout = text(&result.stdout);
        let written = format!("games: {dir}/games.pgn, results: {dir}/results.json\n");
        assert!(stdout.ends_with(&written), "{stdout}");
        let pgn = std::fs::read_to_string(cwd.join(&dir).join("games.pgn")).unwrap();
        assert_eq!(pgn.matches("[Event \"heterodox arena\"]").count(), 2);
    }
    std::fs::remove_dir_all(&cwd).unwrap();
}

#[test]
fn an_sprt_reports_its_decision() {
    let out = scratch("sprt");
    let stdout = arena(
        &out,
        "uniform@8,random",
        8,
        30,
        &["--variant", "chess", "--sprt", "0,200", "--concurrent", "2"],
    );
    assert_contains(&stdout, "SPRT: LLR ");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_arena_arguments_are_one_line_errors() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["arena", "--agents", "uniform@8,alphabeta"],
            "error: bad agent 'alphabeta': unknown kind of agent (agents: random, greedy, ab@DEPTH, ab@MSms, ab@NODESn optionally /classical or /hand, /naive, then /vary=PLIES:CP, uniform@SIMS, rollout@SIMS, net:DIR@SIMS, zoo:NAME@SIMS; searches optionally /puct or /gumbel, networks also /nolosses or /nowins, searches then /quiescence or /quiescence=W, last /beliefs)",
        ),
        (&["arena", "--agents", "uniform@8"], "error: config: the arena needs at least two agents, got 1"),
        (
            &["arena", "--agents", "uniform@8,random,random", "--sprt", "0,10"],
            "error: config: an SPRT compares exactly two agents",
        ),
        (
            &["arena", "--agents", "ab@2,ab@2", "--sprt", "0,10"],
            "error: config: an SPRT needs paired games between two different agents: ab@2 \
             against itself plays unpaired games",
        ),
        (
            &["arena", "--agents", "uniform,random", "--schedule", "swiss"],
            "error: unknown schedule 'swiss' (valid schedules: gauntlet, round-robin)",
        ),
    ];
    assert_refused_with(&cases);
    let missing = heterodox(&["arena", "--agents", "net:/nonexistent/ckpt@8,random"]);
    assert_starts_with(
        &text(&missing.stderr),
        "error: checkpoint /nonexistent/ckpt: ",
    );
}

#[test]
fn an_sprt_takes_the_book_in_turn_across_its_rounds() {
    // One pair per round (--concurrent 1), four pairs (too few to decide):
    // each of the four openings is played by exactly one pair.
    let out = scratch("sprt-book");
    std::fs::create_dir_all(&out).unwrap();
    let book = out.join("book.txt");
    let openings = [
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
        "rnbqkbnr/pppppppp/8/8/8/6P1/PPPPPP1P/RNBQKBNR b KQkq - 0 1",
    ];
    std::fs::write(&book, openings.join("\n")).unwrap();
    let book_path = book.to_str().unwrap();
    let stdout = arena(
        &out,
        "uniform@4,random",
        8,
        10,
        &[
            "--opening-plies",
            "0",
            "--openings",
            book_path,
            "--sprt",
            "0,10",
            "--concurrent",
            "1",
        ],
    );
    assert_contains(&stdout, "undecided after all games");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event \"heterodox arena\"]").count(), 8);
    for fen in openings {
        assert_eq!(
            pgn.matches(&format!("[FEN \"{fen}\"]")).count(),
            2,
            "{fen}\n{pgn}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn an_opening_book_gives_the_pairs_their_start_positions() {
    let out = scratch("book");
    std::fs::create_dir_all(&out).unwrap();
    let book = out.join("book.txt");
    std::fs::write(
        &book,
        "# two openings, numbers run into moves or not\n1.e4 e5 2. Nf3 *\n\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let book_path = book.to_str().unwrap();
    let stdout = arena(
        &out,
        "uniform@4,random",
        4,
        12,
        &["--opening-plies", "0", "--openings", book_path],
    );
    assert_contains(&stdout, "openings from a book of 2, then of 0 random plies");
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
        book_path,
    ]);
    assert!(!result.status.success());
    assert_contains(
        &text(&result.stderr),
        "book.txt: opening book line 2: '1. e4 Ke7' is neither a position nor a line of moves",
    );

    // A bad move run into its number is named without the number.
    std::fs::write(&book, "1.e4 e5 2.Nf3\n1.e4 1...e9\n").unwrap();
    let result = heterodox(&[
        "arena",
        "--agents",
        "random,random",
        "--openings",
        book_path,
    ]);
    assert!(!result.status.success());
    assert_contains(
        &text(&result.stderr),
        "book.txt: opening book line 2: '1.e4 1...e9' is neither a position nor a line of moves \
         from the start (as a position: ",
    );
    assert_contains(
        &text(&result.stderr),
        "; as moves: 'e9': cannot read move 'e9': bad destination square)",
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_table_names_the_rule_settings_it_was_played_under() {
    let out = scratch("rules-header");
    let stdout = arena(
        &out,
        "greedy,random",
        2,
        20,
        &[
            "--variant",
            "traitor",
            "--commitment",
            "impromptu",
            "--option",
            "announce_check=forbidden",
        ],
    );
    assert_eq!(
        stdout.lines().next(),
        Some(
            "traitor (announce_check=forbidden,commitment=impromptu), \
             openings of 4 random plies, seed 0"
        )
    );
}

#[test]
fn parts_of_an_arena_merged_and_resumed_are_the_whole_run() {
    let agents = "greedy,random";
    let whole = scratch("arena-whole");
    let whole_table = arena(&whole, agents, 8, 40, &[]);
    let merged = scratch("arena-merged");
    let journal = |out: &Path| std::path::PathBuf::from(format!("{}.journal", out.display()));
    std::fs::create_dir_all(journal(&merged)).unwrap();
    for k in 0..2 {
        let part = scratch(&format!("arena-part-{k}"));
        let spec = format!("{k}/2");
        let stdout = arena(&part, agents, 8, 40, &["--part", &spec]);
        assert_eq!(
            stdout,
            format!(
                "arena: part {k}/2: 4 games in {}\n",
                journal(&part).display()
            )
        );
        assert!(
            !part.join("results.json").exists(),
            "a part writes no results"
        );
        // The driver's merge: every part's lines in the run's journal.
        for entry in std::fs::read_dir(journal(&part)).unwrap() {
            let path = entry.unwrap().path();
            let target = journal(&merged).join(path.file_name().unwrap());
            let mut text = std::fs::read_to_string(&target).unwrap_or_default();
            if path.extension().is_some_and(|e| e == "jsonl") || !target.exists() {
                text.push_str(&std::fs::read_to_string(&path).unwrap());
            }
            std::fs::write(&target, text).unwrap();
        }
        let _ = std::fs::remove_dir_all(journal(&part));
        let _ = std::fs::remove_dir_all(&part);
    }
    let table = arena(&merged, agents, 8, 40, &["--resume"]);
    let strip = |t: &str| {
        t.lines()
            .take_while(|l| !l.starts_with("games: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&table), strip(&whole_table));
    for file in ["games.pgn", "results.json"] {
        assert_eq!(
            std::fs::read(merged.join(file)).unwrap(),
            std::fs::read(whole.join(file)).unwrap(),
            "{file}"
        );
    }
    assert!(
        !journal(&merged).exists(),
        "the journal goes once the results are out"
    );
    let sprt = heterodox(&[
        "arena",
        "--agents",
        agents,
        "--sprt",
        "0,50",
        "--part",
        "0/2",
        "--out",
        &merged.display().to_string(),
    ]);
    assert_contains(&text(&sprt.stderr), "an SPRT decides as its games come in");
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&merged);
}

/// The move text of every game of `pgn`, in order.
fn move_texts(pgn: &str) -> Vec<&str> {
    pgn.split("[Event ")
        .skip(1)
        .map(|game| game.split("\n\n").nth(1).unwrap().trim())
        .collect()
}

/// White's wins, draws and losses from `pgn`'s result tags.
fn white_results(pgn: &str) -> [usize; 3] {
    ["1-0", "1/2-1/2", "0-1"].map(|r| pgn.matches(&format!("[Result \"{r}\"]")).count())
}

#[test]
fn an_agent_against_itself_plays_unpaired_distinct_games() {
    let out = scratch("self-play");
    let stdout = arena(&out, "ab@2,ab@2", 6, 200, &[]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[1],
        "agent                        opponent                      games distinct         \
         score [95% CI]  draws   White's score [95% CI]             Elo [95% CI]     \
         pairs 0/.5/1/1.5/2"
    );
    // Six games, each from its own opening: six distinct games. White
    // lost five and drew one; A (White in the even games) scored 3.5.
    assert_eq!(
        lines[2],
        "ab@2                         ab@2                              6        6     \
         58.3% [24.1, 86.1]    17%         8.3% [0.9, 48.3]         +58 [-199, +316]               \
         unpaired"
    );
    assert_eq!(
        lines[3],
        "  unpaired (an agent against itself): each game its own opening; no pentanomial, \
         Elo from the games' Wilson interval"
    );
    assert_starts_with(lines[4], "games: ");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let games = move_texts(&pgn);
    assert_eq!(games.len(), 6);
    let distinct: std::collections::BTreeSet<&str> = games.iter().copied().collect();
    assert_eq!(distinct.len(), 6, "{pgn}");
    // Six openings, not three pairs of them: no two games share their
    // first four plies.
    let openings: std::collections::BTreeSet<String> = games
        .iter()
        .map(|g| g.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(openings.len(), 6, "{pgn}");
    assert_eq!(white_results(&pgn), [0, 1, 5]);
    let results = read_json(&out.join("results.json"));
    let p = &results["pairings"][0];
    assert_eq!(p["games"], 6);
    assert_eq!(p["distinct_games"], 6);
    assert_eq!(p["paired"], false);
    assert!(p["pentanomial"].is_null());
    assert_eq!(p["score"]["games"], 6);
    assert_eq!(p["score"]["wins"], 3);
    assert_eq!(p["score"]["draws"], 1);
    // Elo from the score's Wilson interval.
    assert_eq!(p["elo_low"], p["score"]["elo_low"]);
    assert_eq!(p["elo_high"], p["score"]["elo_high"]);
    let white = &p["white_score"];
    assert_eq!(
        [&white["wins"], &white["draws"], &white["losses"]],
        [
            &serde_json::json!(0),
            &serde_json::json!(1),
            &serde_json::json!(5)
        ]
    );
    assert_eq!(white["score"], 0.5 / 6.0);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn repeated_games_are_counted_once() {
    // Without random opening plies a deterministic agent against itself
    // plays the same game every time: six games, one distinct.
    let out = scratch("repeats");
    let stdout = arena(&out, "ab@2,ab@2", 6, 40, &["--opening-plies", "0"]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[2],
        "ab@2                         ab@2                              6        1      \
         50.0% [5.5, 94.5]   100%        50.0% [5.5, 94.5]          +0 [-495, +495]               \
         unpaired"
    );
    assert_eq!(
        lines[4],
        "  6 games, 1 distinct: a game that repeats an earlier one (same start, same moves) \
         counts once"
    );
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    let games = move_texts(&pgn);
    assert_eq!(games.len(), 6, "every game is written");
    assert!(games.iter().all(|g| *g == games[0]), "{pgn}");
    let results = read_json(&out.join("results.json"));
    let p = &results["pairings"][0];
    assert_eq!(p["games"], 6);
    assert_eq!(p["distinct_games"], 1);
    assert_eq!(p["score"]["games"], 1);
    assert_eq!(p["white_score"]["games"], 1);
    assert_eq!(p["white_score"]["draws"], 1);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn two_agents_report_whites_score_and_no_rating_list() {
    let out = scratch("white");
    let stdout = arena(&out, "ab@1,random", 4, 200, &[]);
    // ab@1 wins all four games, two with White: White scores 50%.
    assert_eq!(
        stdout.lines().nth(2),
        Some(
            "ab@1                         random                            4        4   \
             100.0% [51.0, 100.0]     0%       50.0% [15.0, 85.0]        +inf [+542, +inf]              \
             0/0/0/0/2"
        )
    );
    assert!(!stdout.contains("ratings"), "{stdout}");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(white_results(&pgn), [2, 0, 2]);
    let results = read_json(&out.join("results.json"));
    let p = &results["pairings"][0];
    assert_eq!(p["paired"], true);
    assert_eq!(p["distinct_games"], 4);
    assert_eq!(p["pentanomial"], serde_json::json!([0, 0, 0, 0, 2]));
    let white = &p["white_score"];
    assert_eq!(white["games"], 4);
    assert_eq!(white["wins"], 2);
    assert_eq!(white["losses"], 2);
    assert_eq!(white["score"], 0.5);
    // Wilson's interval for 2 of 4.
    assert_eq!(
        format!("{:.4}", white["score_low"].as_f64().unwrap()),
        "0.1500"
    );
    assert_eq!(
        format!("{:.4}", white["score_high"].as_f64().unwrap()),
        "0.8500"
    );
    // Ratings need three or more agents.
    let keys: Vec<&String> = results.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["pairings"]);
    let _ = std::fs::remove_dir_all(&out);
}
