//! `heterodox teach` as a user runs it: teacher shards that the loader
//! reads, a stopped run continued, and bad arguments refused.

use crate::support;

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
        .map(|p| heterodox_data::shard::read_shard(&p).unwrap())
        .collect();
    let labelled = |game: &heterodox_data::GameRecord| {
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
fn a_shard_alone_is_the_whole_run_s_shard_byte_for_byte() {
    let whole = scratch("teach-whole");
    let parts = scratch("teach-shards");
    let args = |out: &std::path::Path| {
        [
            "teach",
            "--variant",
            "hostage",
            "--engine",
            "ab@1",
            "--positions",
            "40",
            "--max-plies",
            "10",
            "--games-per-shard",
            "2",
            "--seed",
            "5",
            "--quiet",
            "--out",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain([out.display().to_string()])
        .collect::<Vec<String>>()
    };
    let run = |args: &[String]| {
        let output = heterodox(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
    };
    run(&args(&whole));
    let shards = std::fs::read_dir(&whole)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "hdxshard")
        })
        .count();
    assert!(shards >= 2, "{shards} shards");
    // The shards one at a time, the last first: the same files.
    for k in (0..shards).rev() {
        let mut shard_args = args(&parts);
        shard_args.extend(["--shard".to_owned(), k.to_string()]);
        let stdout = run(&shard_args);
        let path = parts.join(format!("teach-{k:05}.hdxshard"));
        assert!(
            stdout.starts_with(&format!("shard {k}: "))
                && stdout.ends_with(&format!(" games: {}\n", path.display())),
            "{stdout}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(whole.join(format!("teach-{k:05}.hdxshard"))).unwrap(),
            "shard {k}"
        );
        // Asked again, the shard is kept and described the same.
        assert_eq!(run(&shard_args), stdout);
    }
    // The whole run over the shards' directory finds its target reached.
    let again = run(&args(&parts));
    assert!(
        again.contains("this run: 0 positions in 0 games"),
        "{again}"
    );
    let mut bad = args(&parts);
    bad.extend(["--shard".to_owned(), "1048577".to_owned()]);
    let stderr = one_line_error(
        &heterodox(&bad.iter().map(String::as_str).collect::<Vec<_>>()),
        "--shard 1048577",
    );
    assert!(
        stderr.contains("teacher setting shard = 1048577 is out of range (0 to 1048576)"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}

#[test]
fn bad_teach_arguments_are_one_line_errors() {
    let out = scratch("teach-bad");
    let dir = out.to_str().unwrap();
    for (args, expected) in [
        (
            vec!["teach", "--engine", "ab@300ms", "--out", dir],
            "error: --engine 'ab@300ms': the teacher is the engine at a fixed depth, ab@DEPTH or ab@DEPTH/classical (e.g. ab@2)\n",
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
        (
            vec!["teach", "--engine", "ab@2/classical", "--net", "x.safetensors", "--out", dir],
            "error: --engine ab@2/classical asks for the classical evaluation; --net gives a learned one: choose one\n",
        ),
        (
            vec!["teach", "--net", "missing.safetensors", "--out", dir],
            "error: teacher net: missing.safetensors: No such file or directory (os error 2)\n",
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

#[test]
fn tune_reads_teacher_shards_prints_passes_and_writes_its_report() {
    let out = scratch("tune");
    let data = out.join("data");
    let report = out.join("tune.json");
    let teach = heterodox(&[
        "teach",
        "--variant",
        "chess",
        "--engine",
        "ab@1",
        "--positions",
        "100",
        "--max-plies",
        "30",
        "--games-per-shard",
        "8",
        "--out",
        data.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(teach.status.success(), "{}", text(&teach.stderr));
    let args = [
        "tune",
        "--variant",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--steps",
        "8,2",
        "--max-passes",
        "2",
        "--out",
        report.to_str().unwrap(),
    ];
    let output = heterodox(&args);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let passes = json["passes"].as_array().unwrap();
    // One line per pass, the summary, two error lines, one line per number.
    assert_eq!(lines.len(), passes.len() + 3 + 18, "{stdout}");
    assert!(lines[0].starts_with("step   8 pass  1: "), "{stdout}");
    let summary = lines[passes.len()];
    assert!(summary.starts_with("chess: "), "{summary}");
    assert!(
        summary.contains(&format!("from {} games", json["games"])),
        "{summary}"
    );
    assert!(
        lines[passes.len() + 1].starts_with("hand:  error "),
        "{stdout}"
    );
    assert_eq!(json["names"][0], "value.pawn.mg");
    assert_eq!(json["start"][0], 85);
    let first = &lines[passes.len() + 3];
    assert!(
        first.starts_with("value.pawn.mg                    85 -> "),
        "{first}"
    );
    // Again from the same shards: the same numbers.
    let again = heterodox(&args);
    let again: Vec<String> = text(&again.stdout)
        .lines()
        .filter(|l| !l.starts_with("chess: "))
        .map(str::to_owned)
        .collect();
    let first_run: Vec<String> = lines
        .iter()
        .filter(|l| !l.starts_with("chess: "))
        .map(|l| l.to_string())
        .collect();
    assert_eq!(again, first_run);
    for (args, expected) in [
        (
            vec!["tune", "--variant", "traitor", "--data", data.to_str().unwrap()],
            "error: traitor's evaluation has no tunable numbers (tunable: chess, poison, hostage)\n",
        ),
        (
            vec!["tune", "--data", "/nonexistent/shards"],
            "error: /nonexistent/shards: no such shard or directory\n",
        ),
        (
            vec!["tune", "--data", data.to_str().unwrap(), "--steps", "0"],
            "error: tuning setting steps = [0] is out of range (one or more steps from 1 to 1000)\n",
        ),
    ] {
        let output = heterodox(&args);
        assert_eq!(one_line_error(&output, &args.join(" ")), expected);
    }
    let _ = std::fs::remove_dir_all(&out);
}
