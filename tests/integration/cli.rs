//! The `heterodox` program as a user runs it.

use crate::support;

use support::{
    assert_contains, assert_refused_with_message, heterodox, heterodox_ok, stderr, stdout,
};

use std::process::Command;

/// `heterodox perft --variant VARIANT ARGS`, which must succeed: its stdout.
fn perft(variant: &str, args: &[&str]) -> String {
    let mut all = vec!["perft", "--variant", variant];
    all.extend_from_slice(args);
    stdout(&heterodox_ok(&all))
}

/// The last line of [`perft`]: the total, `nodes N`.
fn perft_total(variant: &str, args: &[&str]) -> String {
    let text = perft(variant, args);
    text.lines().last().unwrap_or_default().to_owned()
}

/// `heterodox perft --variant VARIANT ARGS`, which must fail: its stderr.
fn perft_error(variant: &str, args: &[&str]) -> String {
    let mut all = vec!["perft", "--variant", variant];
    all.extend_from_slice(args);
    let out = heterodox(&all);
    assert!(!out.status.success(), "{variant} {args:?}");
    stderr(&out)
}

#[test]
fn perft_prints_nodes_on_the_last_line() {
    assert_eq!(perft_total("chess", &["--depth", "5"]), "nodes 4865609");
}

#[test]
fn perft_from_a_fen_with_divide() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let text = stdout(&heterodox_ok(&[
        "perft", "--fen", kiwipete, "--depth", "2", "--divide",
    ]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 49, "48 moves and the total");
    assert!(lines.contains(&"e1g1: 43"), "{text}");
    assert!(lines.contains(&"e5f7: 44"), "{text}");
    assert_eq!(lines.last(), Some(&"nodes 2039"));
}

#[test]
fn bad_input_is_one_line_on_stderr_and_a_failure() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["perft", "--variant", "foo", "--depth", "3"],
            "error: unknown variant 'foo' (valid variants: chess, poison, hostage, madscientist, traitor)",
        ),
        (
            &["perft", "--depth", "13"],
            "error: depth 13 is out of range (0 to 12)",
        ),
        (
            &["perft", "--fen", "8/8/8 w - - 0 1", "--depth", "1"],
            "error: invalid board field '8/8/8': expected 8 ranks separated by '/', found 3",
        ),
        (
            &["perft", "--depth", "abc"],
            "error: invalid value 'abc' for '--depth <DEPTH>': invalid digit found in string",
        ),
        (
            &["perft"],
            "error: the following required arguments were not provided:",
        ),
    ];
    assert_refused_with_message(&cases);
}

#[test]
fn random_games_are_reproducible_from_the_seed() {
    let a = stdout(&heterodox(&["play", "--random", "--seed", "3"]));
    let b = stdout(&heterodox(&["play", "--random", "--seed", "3"]));
    let c = stdout(&heterodox(&["play", "--random", "--seed", "4"]));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.starts_with("[Variant \"chess\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n1. "));
    assert!(a.lines().last().unwrap().starts_with("final FEN "));
}

#[test]
fn variants_are_listed() {
    assert_eq!(
        stdout(&heterodox(&["variants"])),
        "chess\npoison\nhostage\nmadscientist\ntraitor\n"
    );
}

#[test]
fn hostage_perft_from_a_position_with_full_prisons() {
    let fen = "4k3/3P4/8/8/8/8/8/K7[qrbnpppp/PPPP/QRRBBNNPPP/rbnpppp] w - - 0 1";
    assert_eq!(
        perft_total("hostage", &["--fen", fen, "--depth", "1"]),
        "nodes 529"
    );
    assert_eq!(perft_total("hostage", &["--depth", "5"]), "nodes 4865877");
    // A composed position with six men (tests/data/hostage.perft, 8).
    let six_men = "4k3/1P6/8/8/8/8/6p1/4K2R[-/-/N/-] w K - 0 1";
    assert_eq!(
        perft_total("hostage", &["--fen", six_men, "--depth", "2"]),
        "nodes 336"
    );
}

#[test]
fn poison_perft_and_divide_from_the_texts_problem() {
    assert_eq!(perft_total("poison", &["--depth", "4"]), "nodes 197269");
    let problem = "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -";
    let text = perft("poison", &["--fen", problem, "--depth", "2", "--divide"]);
    assert!(text.lines().any(|l| l == "e5*f5: 0"), "{text}");
    assert_eq!(text.lines().last(), Some("nodes 940"));
}

#[test]
fn traitor_perft_with_mode_and_commitment_flags() {
    let flags = [
        "--mode",
        "defector",
        "--commitment",
        "impromptu",
        "--depth",
        "2",
    ];
    assert_eq!(perft_total("traitor", &flags), "nodes 937");
    assert_contains(
        &perft_error("traitor", &["--mode", "spy", "--depth", "1"]),
        "valid values: traitor, defector, double-agent",
    );
}

#[test]
fn traitor_announce_check_option() {
    // T4a: at the Impromptu Traitor start only T-d8 would check; the
    // setting removes it (35 actions by the text, 34 with it).
    let divide = |setting: &str| {
        let flags = [
            "--commitment",
            "impromptu",
            "--option",
            setting,
            "--depth",
            "1",
            "--divide",
        ];
        perft("traitor", &flags)
    };
    let text = divide("announce_check=allowed");
    assert!(text.lines().any(|l| l == "T-d8: 1"), "{text}");
    assert_eq!(text.lines().last(), Some("nodes 35"));
    let strict = divide("announce_check=forbidden");
    assert!(!strict.contains("T-d8"), "{strict}");
    assert_eq!(strict.lines().last(), Some("nodes 34"));
    assert_contains(
        &perft_error(
            "traitor",
            &["--option", "announce_check=never", "--depth", "1"],
        ),
        "valid values: allowed, forbidden",
    );
}

/// Everything `heterodox model` prints after its first line (the CUDA
/// device count, which depends on the machine).
fn model_report(args: &[&str]) -> String {
    let out = heterodox(args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (first, rest) = text.split_once('\n').unwrap();
    assert!(first.starts_with("cuda devices "), "{text}");
    rest.to_owned()
}

#[test]
fn model_builds_the_network_of_a_variant_and_runs_it() {
    assert_eq!(
        model_report(&["model"]),
        "device Cpu\n\
         encoding chess v1 T=1 [22x8x8] 4672 actions\n\
         config {\"input_channels\":22,\"board_height\":8,\"board_width\":8,\"blocks\":4,\
         \"channels\":64,\"policy_planes\":73,\"policy_flat\":0,\"value_hidden\":128}\n\
         parameters 321996\n\
         policy [2, 4672] value [2]\n"
    );
    // Traitor's secret selections come from the flat head.
    assert_eq!(
        model_report(&["model", "--variant", "traitor"]),
        "device Cpu\n\
         encoding traitor (announce_check=allowed,commitment=standard,mode=traitor,no_immediate_undo=on,selection=phase) \
         v1 T=1 [34x8x8] 6940 actions\n\
         config {\"input_channels\":34,\"board_height\":8,\"board_width\":8,\"blocks\":4,\
         \"channels\":64,\"policy_planes\":74,\"policy_flat\":2204,\"value_hidden\":128}\n\
         parameters 613421\n\
         policy [2, 6940] value [2]\n"
    );
    let text = model_report(&[
        "model",
        "--variant",
        "traitor",
        "--option",
        "commitment=simplified",
        "--history",
        "2",
    ]);
    assert!(
        text.contains("v1 T=2 [74x8x8] 4785 actions\n")
            && text.contains("\npolicy [2, 4785] value [2]\n"),
        "{text}"
    );
}

#[test]
fn model_checks_its_arguments_and_config_against_the_encoding() {
    let error = |args: &[&str]| {
        let out = heterodox(args);
        assert!(!out.status.success(), "{args:?}");
        stderr(&out)
    };
    assert_eq!(
        error(&["model", "--config", "/nonexistent/net.json"]),
        "error: I/O error on /nonexistent/net.json: No such file or directory (os error 2)\n"
    );
    assert_eq!(
        error(&["model", "--variant", "shogi"]),
        "error: unknown variant 'shogi' (valid variants: chess, poison, hostage, madscientist, traitor)\n"
    );
    assert_eq!(
        error(&["model", "--history", "0"]),
        "error: history (T) must be at least 1\n"
    );
    // A config written before encodings were recorded (18 input planes)
    // does not fit chess's encoding.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-model");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("old.json");
    std::fs::write(
        &config,
        r#"{"input_channels":18,"board_height":8,"board_width":8,"blocks":4,
            "channels":64,"policy_planes":73,"value_hidden":128}"#,
    )
    .unwrap();
    assert_eq!(
        error(&["model", "--config", config.to_str().unwrap()]),
        "error: network config does not fit the encoding chess v1 T=1 [22x8x8] 4672 actions: \
         input_channels is 18, the encoding needs 22\n"
    );
    // With the right shapes and another tower it runs, and saves its spec.
    std::fs::write(
        &config,
        r#"{"input_channels":31,"board_height":8,"board_width":8,"blocks":1,
            "channels":8,"policy_planes":88,"policy_flat":4,"value_hidden":8}"#,
    )
    .unwrap();
    let save = dir.join("net");
    let _ = std::fs::remove_dir_all(&save);
    let text = model_report(&[
        "model",
        "--variant",
        "madscientist",
        "--config",
        config.to_str().unwrap(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(
        text.ends_with(&format!(
            "policy [2, 5636] value [2]\nsaved {}\n",
            save.display()
        )),
        "{text}"
    );
    assert!(save.join("spec.json").is_file());
}

/// `heterodox model` is served by `heterodox-net` (src/cli/net.rs): its
/// options, help and errors arrive unchanged through `heterodox`.
#[test]
fn network_subcommands_are_passed_to_heterodox_net() {
    let help = heterodox(&["model", "--help"]);
    assert!(help.status.success());
    let text = stdout(&help);
    assert!(
        text.starts_with(
            "Builds a network, runs one forward pass, reports sizes and device\n\n\
             Usage: heterodox model [OPTIONS]\n"
        ),
        "{text}"
    );
    assert!(text.contains("      --cuda "), "{text}");
    let bad = heterodox(&["model", "--bogus"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stderr(&bad), "error: unexpected argument '--bogus' found\n");
    assert_eq!(stdout(&bad), "");
    // The same command, run directly.
    let direct = Command::new(env!("CARGO_BIN_EXE_heterodox-net"))
        .args(["model", "--help"])
        .output()
        .expect("heterodox-net runs");
    assert_eq!(stdout(&direct), text);
}

/// The rules-only commands start without libtorch: `heterodox` does not
/// link it (only `heterodox-net` does), which keeps their start-up in
/// milliseconds instead of half a second.
#[cfg(target_os = "linux")]
#[test]
fn heterodox_does_not_link_libtorch() {
    let needed = |binary: &str| {
        let out = Command::new("ldd").arg(binary).output().expect("ldd runs");
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let rules = needed(env!("CARGO_BIN_EXE_heterodox"));
    assert!(
        !rules.contains("libtorch") && !rules.contains("libc10"),
        "{rules}"
    );
    let net = needed(env!("CARGO_BIN_EXE_heterodox-net"));
    // libtorch_cuda registers the CUDA device, so build.rs keeps it loaded
    // wherever the libtorch in use has one (a CPU-only build has none).
    let cpu = net
        .lines()
        .find_map(|line| line.trim().strip_prefix("libtorch_cpu.so => "))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("heterodox-net links libtorch_cpu: {net}"));
    let cuda = std::path::Path::new(cpu).with_file_name("libtorch_cuda.so");
    assert_eq!(net.contains("libtorch_cuda.so => "), cuda.exists(), "{net}");
}

#[test]
fn multi_step_turns_print_together() {
    let out = stdout(&heterodox(&[
        "play",
        "--random",
        "--seed",
        "2",
        "--variant",
        "traitor",
    ]));
    let moves = out.lines().nth(2).unwrap();
    assert!(
        moves
            .starts_with("1. (S-d7,e7,f7,g7,h7,Ng8) (S-Nb1,Bc1,c2,f2,g2) 2. b4 e5 3. (T-e7)g4 b5 "),
        "{moves}"
    );
}
