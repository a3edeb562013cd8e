//! `heterodox claim` and `heterodox play --agent` as a user runs them.

use crate::support;

use support::{
    assert_contains, assert_starts_with, heterodox, heterodox_ok, heterodox_quiet_into,
    heterodox_with_input, one_line_error, read_json, scratch, string_fields, text,
};

use std::process::{Command, Output};

/// `heterodox play ARGS` with `input` typed at its prompts, its game's
/// PGN written to a scratch file (not beside the tests).
fn play(args: &[&str], input: &str) -> Output {
    static GAMES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = GAMES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let pgn = scratch(&format!("play-{n}.pgn")).display().to_string();
    let mut all = vec!["play", "--pgn", &pgn];
    all.extend_from_slice(args);
    let output = heterodox_with_input(&all, input);
    let _ = std::fs::remove_file(&pgn);
    output
}

/// [`play`], which must succeed: its stdout.
fn play_ok(args: &[&str], input: &str) -> String {
    let result = play(args, input);
    assert!(result.status.success(), "{}", text(&result.stderr));
    text(&result.stdout)
}

#[test]
fn claims_are_listed() {
    let result = heterodox_ok(&["claim", "--list"]);
    let names: Vec<String> = text(&result.stdout)
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("default agent"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        names,
        [
            "hostage-favours-the-attacker",
            "poison-two-harpies-draw",
            "first-move-advantage",
            "piece-values"
        ]
    );
    assert_contains(&text(&result.stdout), "default agent: ab@20000n\n");
    assert_contains(
        &text(&result.stdout),
        "  60 games per variant or rule set by default, 2 with --quick; \
         10 calibration games per opponent by default\n",
    );
    assert_contains(
        &text(&result.stdout),
        "  160 games per variant or rule set by default, 16 with --quick; \
         20 calibration games per opponent by default\n",
    );
}

#[test]
fn a_quick_piece_values_run_fits_every_variant_and_states_strengths() {
    let out = scratch("piece-values");
    // --quick with its sizes made smaller still (the sizes given win over
    // --quick's own, 16 and 6, which `claims_are_listed` and the settings'
    // unit test check): a third of the time.
    let stdout = heterodox_quiet_into(
        &out,
        &[
            "claim",
            "piece-values",
            "--quick",
            "--games",
            "4",
            "--calibration-games",
            "2",
            "--agent",
            "ab@2000n",
            "--seed",
            "1",
        ],
    );
    assert_starts_with(&stdout, "piece-values: ");
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    // The report says it is a quick run, with its sizes.
    assert_contains(
        &summary,
        "heterodox claim piece-values --agent ab@2000n --quick --games 4 --calibration-games 2 ",
    );
    assert_contains(
        &summary,
        "**A quick run (--quick): an example, not evidence:** 4 games per variant or rule set \
         and 2 calibration games per opponent.\n",
    );
    assert_contains(
        &summary,
        "The calibration rule: an agent whose score against random play has a lower 95% bound \
         below 60% is too weak for a verdict; a verdict needs every agent it rests on to clear it.",
    );
    assert_contains(
        &summary,
        "| variant | rules | agent | vs random | vs greedy | vs rollout@64 | vs the other family \
         | strong enough |",
    );
    // The engine's other family is the network shipped for each variant's
    // rules; none ships for Traitor's default rules.
    assert_contains(&summary, "| chess | default | `ab@2000n` | ");
    assert_contains(&summary, " | `zoo:chess@64`: ");
    assert_contains(&summary, " | none for these rules | ");
    let claim = read_json(&out.join("claim.json"));
    assert_starts_with(
        claim["conclusion"].as_str().unwrap(),
        "This is a quick run (--quick): an example, not evidence. ",
    );
    assert_contains(
        &stdout,
        "\nThis is a quick run (--quick): an example, not evidence. ",
    );
    let variants = &claim["results"]["variants"];
    assert_eq!(
        string_fields(variants, "variant"),
        ["chess", "poison", "hostage", "madscientist", "traitor"]
    );
    let chess = &variants[0]["fit"];
    assert_eq!(chess["games"], 4);
    assert_eq!(
        string_fields(&chess["values"], "kind"),
        ["pawn", "knight", "bishop", "rook", "queen"]
    );
    assert_eq!(claim["agents"].as_array().unwrap().len(), 5);
    assert_eq!(claim["agents"][0]["vs_greedy"]["games"], 2);
    let others: Vec<Option<&str>> = claim["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| agent["vs_other_family"]["agent"].as_str())
        .collect();
    assert_eq!(
        others,
        [
            Some("zoo:chess@64"),
            Some("zoo:poison@64"),
            Some("zoo:hostage@64"),
            Some("zoo:madscientist@64"),
            None,
        ]
    );
    assert_eq!(claim["agents"][0]["vs_other_family"]["score"]["games"], 2);
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_starts_with(&csv, "variant,game,ply,white_score,differences\nchess,");
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn a_claim_run_prints_its_verdict_and_writes_its_report() {
    let out = scratch("harpies");
    let stdout = heterodox_quiet_into(
        &out,
        &[
            "claim",
            "poison-two-harpies-draw",
            "--agent",
            "random",
            "--games",
            "4",
            "--calibration-games",
            "2",
            "--max-plies",
            "40",
            "--seed",
            "3",
        ],
    );
    assert_starts_with(
        &stdout,
        "poison-two-harpies-draw: no verdict: the agents are too weak\n",
    );
    assert_contains(&stdout, &format!("report: {}/summary.md", out.display()));
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    // The Harpies apply the calibration rule every claim applies; random
    // play does not clear it. Not a quick run: no such note.
    assert_contains(&summary, "| poison | default | `random` | ");
    assert_contains(&summary, " | none for these rules | no |\n");
    assert_contains(
        &stdout,
        "\nThe agent does not clearly beat random play (poison random: ",
    );
    assert!(!summary.contains("--quick"), "{summary}");
    // The command that reproduces it, every setting explicit.
    let command = format!(
        "heterodox claim poison-two-harpies-draw --agent random --games 4 --calibration-games 2 \
         --ply 24 --max-plies 40 --opening-plies 4 --seed 3 --concurrent 32 --device auto --out {}",
        out.display()
    );
    assert_contains(&summary, &command);
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn without_matplotlib_the_report_says_how_to_draw_its_plots() {
    let out = scratch("no-python");
    let result = Command::new(env!("CARGO_BIN_EXE_heterodox"))
        .args([
            "claim",
            "poison-two-harpies-draw",
            "--agent",
            "random",
            "--games",
            "2",
        ])
        .args([
            "--calibration-games",
            "2",
            "--max-plies",
            "30",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .env("HETERODOX_PYTHON", "/nonexistent/python")
        .output()
        .unwrap();
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert_contains(
        &text(&result.stdout),
        "plots not drawn: cannot run /nonexistent/python",
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert_contains(&summary, "Not drawn (cannot run /nonexistent/python");
    assert_contains(&summary, "`python -m heterodox.plot REPORT_DIR`");
    assert!(!out.join("plots").exists());
    let _ = std::fs::remove_dir_all(out);
}

/// The indices of the games in a journal's duel files, per file name.
fn journal_games(journal: &std::path::Path) -> Vec<(String, Vec<u64>)> {
    let mut files: Vec<(String, Vec<u64>)> = std::fs::read_dir(journal)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "jsonl"))
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut indices: Vec<u64> = text
                .lines()
                .map(|line| {
                    serde_json::from_str::<serde_json::Value>(line).unwrap()["index"]
                        .as_u64()
                        .unwrap()
                })
                .collect();
            indices.sort_unstable();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                indices,
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn parts_play_their_share_of_every_duel_and_continue_their_journals() {
    let args = [
        "claim",
        "poison-two-harpies-draw",
        "--agent",
        "random",
        "--games",
        "6",
        "--calibration-games",
        "4",
        "--max-plies",
        "40",
        "--quiet",
    ];
    let whole = scratch("whole");
    let mut run: Vec<&str> = args.to_vec();
    let whole_text = whole.display().to_string();
    run.extend(["--out", &whole_text]);
    heterodox_ok(&run);
    let parts: Vec<std::path::PathBuf> = (0..2).map(|k| scratch(&format!("part-{k}"))).collect();
    for (k, out) in parts.iter().enumerate() {
        let (out_text, part) = (out.display().to_string(), format!("{k}/2"));
        let mut run: Vec<&str> = args.to_vec();
        run.extend(["--out", &out_text, "--part", &part]);
        let stdout = text(&heterodox_ok(&run).stdout);
        let journal = std::path::PathBuf::from(format!("{out_text}.journal"));
        // No report, and the part's games only: pair k of the paired
        // calibration duels (games 2k and 2k + 1 of 4), games k mod 2 of
        // the unpaired self-play duels.
        assert!(!out.exists(), "a part writes no report");
        let games = journal_games(&journal);
        assert_eq!(games.len(), 5, "{games:?}");
        for (name, indices) in &games {
            let expected: Vec<u64> = if name.contains("-self-") {
                (0..6).filter(|i| i % 2 == k as u64).collect()
            } else {
                (0..4).filter(|i| (i / 2) % 2 == k as u64).collect()
            };
            assert_eq!(indices, &expected, "{name}");
        }
        let count: usize = games.iter().map(|(_, i)| i.len()).sum();
        assert_eq!(
            stdout,
            format!(
                "poison-two-harpies-draw: part {k}/2: {count} games in {}\n",
                journal.display()
            )
        );
        // Run again, the part continues its journal and plays nothing.
        let again = text(&heterodox_ok(&run).stdout);
        assert_eq!(again, stdout);
    }
    let bad = one_line_error(
        &heterodox(&["claim", "poison-two-harpies-draw", "--part", "2/2"]),
        "--part 2/2",
    );
    assert_contains(&bad, "'2/2' is not K/N with 0 <= K < N <= 65536 (e.g. 0/4)");
    let _ = std::fs::remove_dir_all(&whole);
    for out in &parts {
        let _ = std::fs::remove_dir_all(format!("{}.journal", out.display()));
    }
}

#[test]
fn bad_claim_arguments_are_one_line_errors() {
    for (args, message) in [
        (
            vec!["claim", "hostage-favours-the-defender"],
            "unknown claim 'hostage-favours-the-defender'",
        ),
        (
            vec!["claim", "first-move-advantage", "--agent", "alphabeta"],
            "bad agent 'alphabeta'",
        ),
        (
            vec!["claim", "first-move-advantage", "--agent", "chesss=random"],
            "chesss",
        ),
        (
            vec!["claim", "first-move-advantage", "--games", "0"],
            "games = 0 is out of range",
        ),
    ] {
        let stderr = one_line_error(&heterodox(&args), &format!("{args:?}"));
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn playing_an_agent_answers_moves_and_explains_illegal_ones() {
    let stdout = play_ok(
        &["--agent", "uniform@8", "--top", "3"],
        "e5\nmoves\ne4\nNf3\nquit\n",
    );
    assert_starts_with(&stdout, "chess against uniform@8; you play white.");
    assert_contains(&stdout, "illegal: ");
    assert_contains(&stdout, "legal: Na3 Nc3 Nf3 Nh3 a3 a4 ");
    assert_contains(&stdout, "you play e4\nuniform@8 plays ");
    let played = stdout
        .lines()
        .find(|l| l.starts_with("uniform@8 plays "))
        .unwrap();
    let search = stdout
        .lines()
        .find(|l| l.starts_with("search: value "))
        .unwrap();
    assert_eq!(search.matches(" visits, policy ").count(), 3, "{search}");
    // The move played is listed first.
    let first = search
        .split("top moves: ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(played, format!("uniform@8 plays {first}"));
    assert_contains(&stdout, "> stopped\n");
    assert_contains(&stdout, "\nresult: unfinished (abandoned)\ngame saved to ");
}

#[test]
fn the_agent_moves_first_when_the_human_takes_black() {
    let stdout = play_ok(
        &[
            "--variant",
            "hostage",
            "--agent",
            "random",
            "--color",
            "black",
            "--seed",
            "4",
        ],
        "",
    );
    let first = stdout.lines().nth(1).unwrap();
    assert!(first.starts_with("random plays "), "{stdout}");
    // Prisons and airfields are drawn beside the board.
    assert_contains(&stdout, "white prison: ");
    assert_contains(&stdout, "black to move> ");
    assert_contains(&stdout, "end of input: the game stops unfinished\n");
    assert_contains(&stdout, "\nresult: unfinished (abandoned)\ngame saved to ");
}

#[test]
fn the_human_never_sees_the_agents_traitor_secret() {
    let stdout = play_ok(
        &[
            "--variant",
            "traitor",
            "--option",
            "selection=random",
            "--agent",
            "random",
            "--color",
            "black",
        ],
        "",
    );
    assert!(!stdout.contains("secrets:"), "{stdout}");
    let view = stdout
        .lines()
        .find(|l| l.contains("your view: "))
        .expect("a view line");
    assert!(view.contains('?'), "{view}");
}

#[test]
fn the_agents_secret_selection_is_announced_without_its_pieces() {
    // Traitor's default selection phase: the agent (White) selects first,
    // in secret. Its selection `(S-...)` and its search's candidate
    // selections must not reach the human.
    let stdout = play_ok(
        &[
            "--variant",
            "traitor",
            "--agent",
            "uniform@8",
            "--color",
            "black",
        ],
        "quit\n",
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[1], "uniform@8 makes its secret choice", "{stdout}");
    assert_eq!(
        lines[2], "search: withheld while the agent holds a secret you cannot see",
        "{stdout}"
    );
    assert!(!stdout.contains("(S-"), "{stdout}");
    assert!(!stdout.contains("top moves"), "{stdout}");
    assert_contains(&stdout, "black to select");
}

#[test]
fn play_refuses_bad_agents_and_colours() {
    let result = play(&["--agent", "uniform@zero"], "");
    assert!(!result.status.success());
    assert!(text(&result.stderr).contains("bad agent 'uniform@zero'"));
    let result = play(&["--agent", "random", "--color", "green"], "");
    assert!(!result.status.success());
    assert!(text(&result.stderr).contains("unknown colour 'green' (valid colours: white, black)"));
    let result = play(&["--random", "--agent", "random"], "");
    assert!(!result.status.success());
}
