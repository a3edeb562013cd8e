//! `heterodox teach` as a user runs it: teacher shards that the loader
//! reads, a stopped run continued, and bad arguments refused.

mod support;

use support::{heterodox, one_line_error, scratch, text};

#[test]
fn teach_writes_labelled_shards_and_continues_a_directory() {
    let out = scratch("teach");
    let dir = out.to_str().unwrap();
    let args = |positions: &str| {
        [
            "teach",
            "--variant",
            "poison",
            "--engine",
            "ab@1",
            "--positions",
            positions,
            "--max-plies",
            "12",
            "--games-per-shard",
            "4",
            "--out",
            dir,
            "--quiet",
        ]
        .map(str::to_owned)
    };
    let run = |positions: &str| {
        let args = args(positions);
        let output = heterodox(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    let first = run("30");
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 2, "{first}");
    // Shards of four games of at most 12 labelled steps, until 30.
    let shards: Vec<_> = (0..)
        .map(|k| out.join(format!("teach-{k:05}.hdxshard")))
        .take_while(|p| p.is_file())
        .map(|p| heterodox_selfplay::shard::read_shard(&p).unwrap())
        .collect();
    let labelled = |game: &heterodox_selfplay::GameRecord| {
        game.steps.iter().filter(|s| !s.policy.is_empty()).count()
    };
    let positions: usize = shards.iter().flat_map(|s| &s.games).map(labelled).sum();
    let games: usize = shards.iter().map(|s| s.games.len()).sum();
    assert!(positions >= 30 && positions - 30 < 48, "{positions}");
    assert_eq!(games, 4 * shards.len());
    assert_eq!(
        lines[0],
        format!(
            "{positions} positions in {games} games, {} shards in {dir}",
            shards.len()
        )
    );
    for shard in &shards {
        assert_eq!(shard.header.variant, "poison");
        for game in &shard.games {
            assert!(labelled(game) <= 12);
            for step in game.steps.iter().filter(|s| !s.policy.is_empty()) {
                let total: f32 = step.policy.iter().map(|(_, p)| p).sum();
                assert!((total - 1.0).abs() < 1e-3, "{total}");
                assert!((-1.0..=1.0).contains(&step.root_value));
            }
        }
    }
    // Asked for more, the directory grows; asked again, nothing is made.
    let more = run("200");
    assert!(more.contains("this run: "), "{more}");
    let again = run("200");
    assert!(
        again.contains("this run: 0 positions in 0 games"),
        "{again}"
    );
    // Other settings for the same directory are refused.
    let output = heterodox(&[
        "teach",
        "--variant",
        "poison",
        "--engine",
        "ab@2",
        "--positions",
        "10",
        "--out",
        dir,
    ]);
    let error = one_line_error(&output, "other settings");
    assert!(
        error.contains("holds teacher data made with other settings"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bad_teach_arguments_are_one_line_errors() {
    let out = scratch("teach-bad");
    let dir = out.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["teach", "--engine", "ab@300ms", "--out", dir],
            "error: --engine 'ab@300ms': the teacher is the engine at a fixed depth, ab@DEPTH (e.g. ab@2)\n",
        ),
        (
            vec!["teach", "--engine", "ab@0", "--out", dir],
            "error: teacher setting depth = 0 is out of range (1 to 64)\n",
        ),
        (
            vec!["teach", "--policy-temperature", "0", "--out", dir],
            "error: teacher setting policy_temperature = 0 is out of range (a finite number > 0)\n",
        ),
        (
            vec!["teach", "--variant", "shogi", "--out", dir],
            "",
        ),
    ] {
        let output = heterodox(&args);
        let error = one_line_error(&output, &args.join(" "));
        if expected.is_empty() {
            assert!(error.contains("shogi"), "{error}");
        } else {
            assert_eq!(error, expected);
        }
    }
    assert!(!out.exists(), "nothing is written for bad arguments");
}
