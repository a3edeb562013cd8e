//! The claims on small budgets: report directories complete and
//! reproducible, the rules' facts they must find, bad settings refused, and
//! an interrupted run resumed to the same report.

use std::path::{Path, PathBuf};

use heterodox_training::claims::journal::journal_dir;
use heterodox_training::claims::{run_claim, AgentChoice, ClaimSettings, Verdict, CLAIMS};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("heterodox-claims-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn settings(claim: usize, agent: &str, games: u32) -> ClaimSettings {
    let mut s = ClaimSettings::new(
        &CLAIMS[claim],
        AgentChoice::parse(&[agent.to_owned()]).unwrap(),
    );
    s.games = games;
    s.calibration_games = 2;
    s.max_plies = 60;
    s.ply = 10;
    s.concurrent = 8;
    s.seed = 5;
    s
}

fn json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("claim.json")).unwrap()).unwrap()
}

/// Runs claim `name` (number `claim` of [`CLAIMS`]) for the random agent,
/// `games` games, into a fresh [`scratch`] directory `dir`; returns the
/// directory and its claim.json.
fn run(name: &str, claim: usize, games: u32, dir: &str) -> (PathBuf, serde_json::Value) {
    let out = scratch(dir);
    let s = settings(claim, "random", games);
    run_claim(name, &s, &out, "c", &mut |_| {}).unwrap();
    let claim = json(&out);
    (out, claim)
}

#[test]
fn the_attacker_claim_writes_a_reproducible_report() {
    let (first, second) = (scratch("attacker-1"), scratch("attacker-2"));
    let s = settings(0, "uniform@4", 6);
    let mut lines = 0;
    let outcome = run_claim(
        "hostage-favours-the-attacker",
        &s,
        &first,
        "heterodox claim x",
        &mut |_| lines += 1,
    )
    .unwrap();
    // 2 variants x 3 opponents x 2 calibration games and 2 x 6 games,
    // one progress line each.
    assert_eq!(lines, 24);
    run_claim(
        "hostage-favours-the-attacker",
        &s,
        &second,
        "heterodox claim x",
        &mut |_| {},
    )
    .unwrap();
    for file in ["games.csv", "games.pgn", "claim.json"] {
        assert_eq!(
            std::fs::read(first.join(file)).unwrap(),
            std::fs::read(second.join(file)).unwrap(),
            "{file} differs between two runs with one seed"
        );
    }
    let csv = std::fs::read_to_string(first.join("games.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "variant,game,plies,result,termination,white_score,pressure_lead,material_lead"
    );
    assert_eq!(rows.len(), 1 + 12);
    assert_eq!(rows.iter().filter(|r| r.starts_with("hostage,")).count(), 6);
    assert_eq!(rows.iter().filter(|r| r.starts_with("chess,")).count(), 6);
    let pgn = std::fs::read_to_string(first.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"hostage\"]").count(), 6);
    assert_eq!(pgn.matches("[Variant \"chess\"]").count(), 6);
    assert_eq!(pgn.matches("[White \"uniform@4\"]").count(), 12);
    let claim = json(&first);
    assert_eq!(claim["claim"], "hostage-favours-the-attacker");
    assert_eq!(claim["games"], 12);
    assert_eq!(claim["command"], "heterodox claim x");
    assert_eq!(claim["agents"].as_array().unwrap().len(), 2);
    assert_eq!(claim["agents"][0]["vs_random"]["games"], 2);
    assert_eq!(claim["agents"][0]["vs_greedy"]["games"], 2);
    assert_eq!(claim["agents"][0]["vs_rollout"]["games"], 2);
    // Two calibration games can never bound a score above 60%.
    assert_eq!(outcome.verdict, Verdict::AgentsTooWeak);
    assert_eq!(claim["verdict"], "agents-too-weak");
    let summary = std::fs::read_to_string(first.join("summary.md")).unwrap();
    assert!(
        summary.starts_with("# Claim `hostage-favours-the-attacker`"),
        "{summary}"
    );
    assert!(
        summary.contains("**Verdict: no verdict: the agents are too weak.**"),
        "{summary}"
    );
    assert!(
        summary.contains("```sh\nheterodox claim x\n```"),
        "{summary}"
    );
    if let Ok(plots) = &outcome.plots {
        assert_eq!(
            plots,
            &["a-initiative.png", "b-sacrifices.png", "c-decisiveness.png"]
        );
        for plot in plots {
            assert!(first.join("plots").join(plot).is_file());
            assert!(summary.contains(&format!("![{plot}](plots/{plot})")));
        }
    }
    for dir in [first, second] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn two_harpies_never_win_under_any_play() {
    // A Harpy never gives check and a poisoned lone King is stalemated, so
    // even random play cannot win with two Harpies (P6, P10).
    let (out, claim) = run("poison-two-harpies-draw", 1, 40, "harpies");
    let harpies = &claim["results"]["harpies"];
    assert_eq!(harpies["white_win_rate"]["n"], 40);
    assert_eq!(harpies["white_win_rate"]["mean"], 0.0);
    assert_eq!(harpies["black_wins"], 0);
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(csv.lines().filter(|l| l.starts_with("KHH-K,")).count(), 40);
    assert_eq!(csv.lines().filter(|l| l.starts_with("KD-K,")).count(), 40);
    // Random play does not convert King and Doctor: no verdict.
    assert_eq!(claim["verdict"], "agents-too-weak");
    let pgn = std::fs::read_to_string(out.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[SetUp \"1\"]").count(), 80);
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn first_move_advantage_covers_nineteen_rule_sets() {
    let (out, claim) = run("first-move-advantage", 2, 2, "first-move");
    let rows = claim["results"].as_array().unwrap();
    assert_eq!(rows.len(), 19);
    assert_eq!(rows[0]["rule_set"], "chess");
    assert_eq!(rows[18]["rule_set"], "traitor mercenary/impromptu");
    assert!(rows.iter().all(|r| r["white_score"]["n"] == 2));
    assert_eq!(claim["agents"].as_array().unwrap().len(), 19);
    assert_eq!(
        claim["agents"][18]["rules"],
        "commitment=impromptu,mode=mercenary"
    );
    let _ = std::fs::remove_dir_all(out);
}

#[test]
fn a_directory_that_is_not_a_report_is_never_replaced() {
    let out = scratch("occupied");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let s = settings(1, "random", 2);
    let e = run_claim("poison-two-harpies-draw", &s, &out, "c", &mut |_| {}).unwrap_err();
    assert!(
        e.to_string().contains("exists and is not a claim report"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // A previous report is replaced whole.
    let report = scratch("replaced");
    run_claim("poison-two-harpies-draw", &s, &report, "first", &mut |_| {}).unwrap();
    run_claim(
        "poison-two-harpies-draw",
        &s,
        &report,
        "second",
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(json(&report)["command"], "second");
    let leftovers: Vec<_> = std::fs::read_dir(report.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&format!(
                ".{}",
                report.file_name().unwrap().to_string_lossy()
            ))
        })
        .collect();
    assert!(
        leftovers.is_empty(),
        "staging directories left: {leftovers:?}"
    );
    for dir in [out, report] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn bad_claim_settings_are_refused_before_any_game() {
    let out = scratch("bad");
    let e = run_claim(
        "no-such-claim",
        &settings(0, "random", 2),
        &out,
        "c",
        &mut |_| {},
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("config: unknown claim 'no-such-claim' (claims: "),
        "{e}"
    );
    let mut s = settings(0, "random", 2);
    s.ply = 60;
    let e = run_claim("hostage-favours-the-attacker", &s, &out, "c", &mut |_| {
        panic!("played")
    })
    .unwrap_err();
    assert!(e.to_string().contains("ply = 60 is out of range"), "{e}");
    let s = settings(0, "net:/nonexistent/checkpoint@4", 2);
    let e = run_claim("hostage-favours-the-attacker", &s, &out, "c", &mut |_| {
        panic!("played")
    })
    .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/checkpoint"), "{e}");
    // Every variant's agent is checked before the first variant's games.
    let mut s = settings(0, "uniform@4", 2);
    s.agents = AgentChoice::parse(&[
        "uniform@4".to_owned(),
        "chess=net:/nonexistent/chess@4".to_owned(),
    ])
    .unwrap();
    let e = run_claim("hostage-favours-the-attacker", &s, &out, "c", &mut |_| {
        panic!("played")
    })
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("agent net:/nonexistent/chess@4: its weights cannot be read"),
        "{e}"
    );
    // A network for rules the claim does not play: named, before any game.
    let mut s = settings(0, "uniform@4", 2);
    let chess = format!("net:{}/../agents/chess@4", env!("CARGO_MANIFEST_DIR"));
    s.agents = AgentChoice::parse(&[format!("hostage={chess}")]).unwrap();
    let e = run_claim("hostage-favours-the-attacker", &s, &out, "c", &mut |_| {
        panic!("played")
    })
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "config: agent {chess} cannot play hostage, which the claim \
             hostage-favours-the-attacker plays: it was trained for chess"
        )
    );
    assert!(!out.exists());
    assert!(!journal_dir(&out).unwrap().exists());
}

#[test]
fn piece_values_read_positions_every_eight_plies_and_reproduce() {
    let (first, second) = (scratch("values-1"), scratch("values-2"));
    let mut s = settings(3, "ab@1", 6);
    // Games cut at 34 plies (positions read at plies 10, 18 and 26): the
    // calibration games against rollout@64 and the networks, most of the
    // time, take half as long as at 60.
    s.max_plies = 34;
    assert_eq!(CLAIMS[3].name, "piece-values");
    let outcome = run_claim("piece-values", &s, &first, "c", &mut |_| {}).unwrap();
    run_claim("piece-values", &s, &second, "c", &mut |_| {}).unwrap();
    for file in ["games.csv", "games.pgn", "claim.json"] {
        assert_eq!(
            std::fs::read(first.join(file)).unwrap(),
            std::fs::read(second.join(file)).unwrap(),
            "{file} differs between two runs with one seed"
        );
    }
    // Two calibration games cannot show that the chess agent beats random
    // play: no verdict, whatever the fit.
    assert_eq!(outcome.verdict, Verdict::AgentsTooWeak);
    let csv = std::fs::read_to_string(first.join("games.csv")).unwrap();
    let mut rows = csv.lines();
    assert_eq!(
        rows.next(),
        Some("variant,game,ply,white_score,differences")
    );
    let mut variants = std::collections::BTreeSet::new();
    for row in rows {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 5, "{row}");
        variants.insert(fields[0].to_owned());
        // --ply 10: plies 10, 18 and 26 (before the 34-ply cut).
        let ply: usize = fields[2].parse().unwrap();
        assert!([10, 18, 26].contains(&ply), "{row}");
        assert!(["0", "0.5", "1"].contains(&fields[3]), "{row}");
        for item in fields[4].split(';').filter(|i| !i.is_empty()) {
            let (_, count) = item.split_once(':').unwrap();
            assert_ne!(count.parse::<i32>().unwrap(), 0, "{row}");
        }
    }
    assert_eq!(variants.len(), 5, "{variants:?}");
    let claim = json(&first);
    assert_eq!(claim["results"]["sample_every_plies"], 8);
    assert_eq!(claim["results"]["resamples"], 200);
    let hostage = &claim["results"]["variants"][2];
    assert_eq!(hostage["variant"], "hostage");
    assert_eq!(hostage["fit"]["values"].as_array().unwrap().len(), 15);
    assert_eq!(hostage["fit"]["games"], 6);
    for dir in [first, second] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The lines of every duel file in `journal`.
fn journal_games(journal: &Path) -> usize {
    std::fs::read_dir(journal)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| std::fs::read_to_string(p).unwrap().lines().count())
        .sum()
}

#[test]
fn an_interrupted_claim_resumes_where_it_stopped_and_reports_the_same() {
    let name = "poison-two-harpies-draw";
    let s = settings(1, "random", 40);
    let whole = scratch("resume-whole");
    run_claim(name, &s, &whole, "c", &mut |_| {}).unwrap();
    assert!(
        !journal_dir(&whole).unwrap().exists(),
        "a finished run keeps no journal"
    );

    // Runs stopped at their `stop`th progress line (the kept games count):
    // 2 calibration games against random play, 2 against greedy, 2 against
    // rollout@64, then 40 King-and-two-Harpies games and 40 controls.
    let out = scratch("resume");
    let journal = journal_dir(&out).unwrap();
    let _ = std::fs::remove_dir_all(&journal);
    let stopped_at = |stop: usize, resume: bool| {
        let mut run = s.clone();
        run.resume = resume;
        let mut lines = 0;
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_claim(name, &run, &out, "c", &mut |_| {
                lines += 1;
                assert!(lines < stop, "stopped");
            })
        }));
        assert!(stopped.is_err());
        assert!(!out.exists());
    };
    // Inside the duel against greedy: one of its two games is kept.
    stopped_at(3, false);
    assert_eq!(journal_games(&journal), 3);
    stopped_at(31, true);
    assert_eq!(journal_games(&journal), 31);
    assert_eq!(
        std::fs::read_dir(&journal).unwrap().count(),
        1 + 3 + 1,
        "run.json, three calibration duels, one ending so far"
    );

    // Without --resume the journal is neither continued nor deleted.
    let e = run_claim(name, &s, &out, "c", &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("holds 31 games"), "{e}");
    assert!(e.to_string().contains("add --resume"), "{e}");
    assert_eq!(journal_games(&journal), 31);
    // Nor is it continued with other settings.
    let mut other = s.clone();
    other.resume = true;
    other.games = 20;
    let e = run_claim(name, &other, &out, "c", &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("games: 40 -> 20"), "{e}");

    // Resumed: 6 + 80 progress lines (the kept games counted), the same
    // report as the uninterrupted run, and no journal left.
    let mut resumed = s.clone();
    resumed.resume = true;
    let mut lines = 0;
    let outcome = run_claim(name, &resumed, &out, "c", &mut |_| lines += 1).unwrap();
    assert_eq!(lines, 86);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    for file in ["games.csv", "games.pgn", "claim.json"] {
        assert_eq!(
            std::fs::read(whole.join(file)).unwrap(),
            std::fs::read(out.join(file)).unwrap(),
            "{file} differs from the uninterrupted run"
        );
    }
    assert!(!journal.exists());
    let e = run_claim(name, &resumed, &out, "c", &mut |_| {}).unwrap_err();
    assert!(
        e.to_string()
            .contains("no interrupted run to resume: no game was written since the report in"),
        "{e}"
    );

    // A run refused before its first game leaves nothing to resume; a
    // journal without games is replaced, whatever run it was for.
    let broken = scratch("resume-broken");
    let bad = settings(1, "net:/nonexistent/run@4", 4);
    let e = run_claim(name, &bad, &broken, "c", &mut |_| {}).unwrap_err();
    assert!(!e.to_string().contains("--resume"), "{e}");
    assert!(!journal_dir(&broken).unwrap().exists());
    let empty = journal_dir(&broken).unwrap();
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(empty.join("run.json"), "{}").unwrap();
    run_claim(name, &settings(1, "random", 2), &broken, "c", &mut |_| {}).unwrap();
    assert!(!empty.exists());

    // A report needs a name of its own: `.` is refused before any game.
    let e = run_claim(name, &s, Path::new("."), "c", &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("needs a name of its own"), "{e}");
    for dir in [whole, out, broken] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
