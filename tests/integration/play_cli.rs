//! `heterodox play --agent`: a person's game against an agent in the
//! terminal, typed on standard input. Depth-limited engines make the
//! agent's moves the same every run; where a move is the engine's own
//! choice, the test reads it from the output and checks everything around
//! it exactly.

use crate::support;

use std::path::Path;
use std::process::Output;

use support::{heterodox, heterodox_fed, heterodox_with_input, scratch_dir, stdout, text};

/// `heterodox play ARGS --pgn PGN` with `input` typed at its prompts; it
/// must succeed. Its stdout.
fn play(args: &[&str], pgn: &Path, input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--pgn", pgn.to_str().unwrap()]);
    let out = heterodox_with_input(&all, input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    stdout(&out)
}

/// The PGN at `path` with its `Date` tag (today's) checked and set aside.
fn pgn_without_date(path: &Path) -> String {
    let pgn = std::fs::read_to_string(path).expect("the PGN was written");
    let mut lines: Vec<&str> = pgn.lines().collect();
    let date = lines.remove(2);
    let digits: String = date.chars().filter(char::is_ascii_digit).collect();
    assert!(date.starts_with("[Date \"") && digits.len() == 8, "{date}");
    lines.join("\n") + "\n"
}

/// The PGN's tags before `Date`, then those after it up to `Result`.
fn tags(white: &str, black: &str, result: &str) -> String {
    format!(
        "[Event \"heterodox play\"]\n[Site \"?\"]\n[Round \"-\"]\n[White \"{white}\"]\n\
         [Black \"{black}\"]\n[Result \"{result}\"]\n"
    )
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn undo_takes_back_the_last_move_pair_and_nothing_at_the_start() {
    let dir = scratch_dir("play-undo");
    let pgn = dir.join("game.pgn");
    let out = play(&["--agent", "ab@2"], &pgn, "undo\ne4\nundo\nquit\n");
    let prompts: Vec<&str> = out.split("white to move> ").collect();
    // The start, after `undo`, after `e4` and the reply, after `undo`,
    // after `quit`.
    assert_eq!(prompts.len(), 5, "{out}");
    assert!(prompts[1].starts_with("nothing to undo\n"), "{out}");
    let reply = prompts[2]
        .strip_prefix("you play e4\nab@2 plays ")
        .and_then(|rest| rest.split('\n').next())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        prompts[3].starts_with(&format!("took back e4 {reply}\n")),
        "{out}"
    );
    // The board after the undo is the start's, drawn the same.
    let board = |after: &str| after[after.find("\n\n").unwrap()..].to_owned();
    let start = out.split("white to move> ").next().unwrap();
    assert_eq!(board(prompts[1]), board(start));
    assert_eq!(board(prompts[3]), board(start));
    assert!(prompts[4].starts_with("stopped\n"), "{out}");
    assert!(
        out.ends_with(&format!(
            "result: unfinished (abandoned)\ngame saved to {}\n",
            pgn.display()
        )),
        "{out}"
    );
    assert_eq!(
        pgn_without_date(&pgn),
        format!(
            "{}[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"{START}\"]\n\
             [Termination \"abandoned\"]\n\n*\n",
            tags("human", "ab@2", "*")
        )
    );
}

#[test]
fn undo_after_moves_keeps_the_rest_of_the_game_in_the_pgn() {
    let dir = scratch_dir("play-undo-pgn");
    let pgn = dir.join("game.pgn");
    let out = play(&["--agent", "ab@2"], &pgn, "d4\nNf3\nundo\nc4\nresign\n");
    let replies: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("ab@2 plays "))
        .collect();
    // d4, a reply; Nf3, a reply (taken back with Nf3); c4, a reply.
    assert_eq!(replies.len(), 3, "{out}");
    assert!(
        out.contains(&format!("took back Nf3 {}\n", replies[1])),
        "{out}"
    );
    assert!(out.contains("you resign\n"), "{out}");
    assert!(out.contains("result: black wins by resignation\n"), "{out}");
    assert_eq!(
        pgn_without_date(&pgn),
        format!(
            "{}[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"{START}\"]\n\
             [Termination \"resignation\"]\n\n1. d4 {} 2. c4 {} 0-1\n",
            tags("human", "ab@2", "0-1"),
            replies[0],
            replies[2]
        )
    );
}

#[test]
fn the_pgn_is_written_when_the_game_ends() {
    let dir = scratch_dir("play-mate");
    let pgn = dir.join("mate.pgn");
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let out = play(&["--agent", "ab@2", "--fen", fen], &pgn, "Ra8#\n");
    assert!(
        out.ends_with(&format!(
            "result: 1-0 (checkmate)\ngame saved to {}\n",
            pgn.display()
        )),
        "{out}"
    );
    assert_eq!(
        pgn_without_date(&pgn),
        format!(
            "{}[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
             [Termination \"checkmate\"]\n\n1. Ra8# 1-0\n",
            tags("human", "ab@2", "1-0")
        )
    );
}

#[test]
fn black_sees_the_board_from_its_side() {
    let dir = scratch_dir("play-black");
    let pgn = dir.join("black.pgn");
    // White's only move takes the queen, and the two Kings draw.
    let fen = "7k/8/8/8/8/8/6q1/7K w - - 0 1";
    let out = play(
        &["--agent", "ab@2", "--color", "black", "--fen", fen],
        &pgn,
        "",
    );
    assert_eq!(
        out,
        format!(
            "chess against ab@2; you play black. Type a move in the variant's notation, \
             'moves' for the legal moves, 'undo' to take back your last move, 'resign', \
             or 'quit' to stop.\n\
             ab@2 plays Kxg2\n\
             engine: score +0.00 at depth 2; line: Kxg2\n\
             \n\
             \x20  h  g  f  e  d  c  b  a\n\
             1  .  .  .  .  .  .  .  .  1\n\
             2  .  K  .  .  .  .  .  .  2\n\
             3  .  .  .  .  .  .  .  .  3\n\
             4  .  .  .  .  .  .  .  .  4\n\
             5  .  .  .  .  .  .  .  .  5\n\
             6  .  .  .  .  .  .  .  .  6\n\
             7  .  .  .  .  .  .  .  .  7\n\
             8  k  .  .  .  .  .  .  .  8\n\
             \x20  h  g  f  e  d  c  b  a\n\
             black to move\n\
             \n\
             result: 1/2-1/2 (insufficient material)\n\
             game saved to {}\n",
            pgn.display()
        )
    );
    assert_eq!(
        pgn_without_date(&pgn),
        format!(
            "{}[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
             [Termination \"insufficient material\"]\n\n1. Kxg2 1/2-1/2\n",
            tags("ab@2", "human", "1/2-1/2")
        )
    );
}

/// White wins the queen with the knight (`Nxd5`) or the rook (`Rxd5`).
const TWO_CAPTURES: &str = "6k1/5pp1/4p2p/3q4/8/2N4P/5PP1/3R2K1 w - - 0 1";

/// The line of `out` that starts with `prefix`, without it.
fn line_after<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{out}"))
}

#[test]
fn the_engine_lists_its_best_lines_as_top_moves() {
    let dir = scratch_dir("play-top");
    let args = ["--agent", "ab@3", "--color", "black", "--fen", TWO_CAPTURES];
    let mut with_top = args.to_vec();
    with_top.extend_from_slice(&["--top", "3"]);
    let out = play(&with_top, &dir.join("top.pgn"), "quit\n");
    assert_eq!(line_after(&out, "ab@3 plays "), "Nxd5");
    let thoughts = line_after(&out, "engine: score ");
    let (head, top) = thoughts.split_once("; top moves: ").unwrap();
    let moves: Vec<(&str, f64)> = top
        .split(", ")
        .map(|m| {
            let (name, score) = m.split_once(' ').unwrap();
            (name, score.parse().unwrap())
        })
        .collect();
    assert_eq!(moves.len(), 3, "{thoughts}");
    assert_eq!((moves[0].0, moves[1].0), ("Nxd5", "Rxd5"), "{thoughts}");
    assert!(moves[0].1 > moves[1].1 && moves[1].1 > 2.0 && moves[2].1 < 1.0);
    // The score is the first line's, at the depth asked.
    assert_eq!(head, format!("{:+.2} at depth 3", moves[0].1));

    // Without --top the engine searches one line and shows it.
    let out = play(&args, &dir.join("line.pgn"), "quit\n");
    let thoughts = line_after(&out, "engine: score ");
    let line = thoughts.split_once("; line: ").unwrap().1;
    assert!(line.starts_with("Nxd5 exd5"), "{thoughts}");

    // A tree search lists its most visited moves.
    let out = play(
        &["--agent", "uniform@16", "--top", "2"],
        &dir.join("tree.pgn"),
        "quit\n",
    );
    assert!(!out.contains("top moves"), "White moves first: {out}");
    let out = play(
        &["--agent", "uniform@16", "--top", "2", "--color", "black"],
        &dir.join("tree.pgn"),
        "quit\n",
    );
    let top = line_after(&out, "search: value ")
        .split_once("; top moves: ")
        .unwrap()
        .1;
    assert_eq!(top.matches(" visits, policy ").count(), 2, "{top}");
}

#[test]
fn help_names_the_prompt_commands() {
    for args in [
        &["play", "--help"][..],
        &["play", "--agent", "random", "--help"][..],
    ] {
        let out = heterodox(args);
        assert!(out.status.success(), "{args:?}");
        let help = stdout(&out);
        for needle in [
            "  moves       the legal moves",
            "  undo        takes back your last move and the agent's reply",
            "  resign      ends the game as a loss",
            "  quit        stops the game unfinished",
            "--pgn <PGN>",
            "--top <TOP>",
        ] {
            assert!(help.contains(needle), "{args:?}: {needle:?} not in\n{help}");
        }
    }
}

#[test]
fn a_pgn_in_a_missing_directory_is_refused_before_the_game() {
    let out = heterodox(&[
        "play",
        "--agent",
        "random",
        "--pgn",
        "/nonexistent-heterodox/game.pgn",
    ]);
    assert!(!out.status.success());
    assert_eq!(
        text(&out.stderr),
        "error: cannot write the game to /nonexistent-heterodox/game.pgn: \
         /nonexistent-heterodox is not a directory\n"
    );
    assert_eq!(stdout(&out), "");
}

/// `heterodox play ARGS` run in `dir` with `input` typed.
fn play_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    heterodox_fed(&all, input.as_bytes(), Some(dir))
}

#[test]
fn without_pgn_the_game_goes_to_a_dated_file_here() {
    let dir = scratch_dir("play-default");
    let out = play_in(
        &dir,
        &["--agent", "random", "--variant", "hostage"],
        "quit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let name = line_after(&stdout(&out), "game saved to ").to_owned();
    // play-hostage-YYYYMMDD-HHMMSS.pgn
    let stamp = name
        .strip_prefix("play-hostage-")
        .and_then(|rest| rest.strip_suffix(".pgn"))
        .unwrap_or_else(|| panic!("{name}"));
    assert_eq!(stamp.len(), 15, "{name}");
    assert!(stamp.chars().enumerate().all(|(i, c)| if i == 8 {
        c == '-'
    } else {
        c.is_ascii_digit()
    }));
    let pgn = std::fs::read_to_string(dir.join(&name)).unwrap();
    assert!(pgn.contains("[Variant \"hostage\"]\n"), "{pgn}");
}
