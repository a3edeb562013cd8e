//! `heterodox selfplay` as a user runs it: shards and PGN written, the same
//! seed giving the same bytes, a saved network used as evaluator, and bad
//! input refused with one line and nothing written.

use crate::support;

use support::{assert_starts_with, heterodox, heterodox_ok, one_line_error, scratch, text};

use std::path::Path;
use std::process::Output;

use heterodox_data::shard::{list_shards, read_shard};

fn selfplay(out: &Path, extra: &[&str]) -> Output {
    let out = out.to_str().unwrap();
    let mut args = vec![
        "selfplay",
        "--games",
        "4",
        "--concurrent",
        "2",
        "--sims",
        "8",
        "--max-plies",
        "40",
        "--seed",
        "1",
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    heterodox(&args)
}

#[test]
fn selfplay_writes_shards_and_pgn_and_replays_by_seed() {
    let first = scratch("selfplay-a");
    let out = selfplay(
        &first,
        &["--variant", "hostage", "--net", "uniform", "--pgn"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.starts_with("4 games, "), "{report}");
    assert!(report.contains("wrote 1 shard(s)"), "{report}");
    let shards = list_shards(&first).unwrap();
    assert_eq!(shards, [first.join("shard-00000.hdxshard")]);
    let shard = read_shard(&shards[0]).unwrap();
    assert_eq!(shard.header.variant, "hostage");
    assert_eq!(shard.games.len(), 4);
    assert!(shard
        .games
        .iter()
        .all(|g| !g.steps.is_empty() && g.steps.len() <= 40));
    let pgn = std::fs::read_to_string(first.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Variant \"hostage\"]").count(), 4);
    // Games are separated by a blank line, as PGN readers expect.
    assert_eq!(pgn.matches("\n\n[Event ").count(), 3);

    // Same seed, same evaluator: the same games, byte for byte.
    let second = scratch("selfplay-b");
    let again = selfplay(
        &second,
        &["--variant", "hostage", "--net", "uniform", "--pgn"],
    );
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(
        std::fs::read(&shards[0]).unwrap(),
        std::fs::read(second.join("shard-00000.hdxshard")).unwrap()
    );
    let _ = std::fs::remove_dir_all(&first);
    let _ = std::fs::remove_dir_all(&second);
}

#[test]
fn selfplay_with_a_saved_network_and_its_encoding_checked() {
    let dir = scratch("selfplay-net");
    let net = dir.join("net");
    heterodox_ok(&[
        "model",
        "--variant",
        "chess",
        "--save",
        net.to_str().unwrap(),
    ]);
    // Self-play of `variant` into `out` with the saved network, on the CPU.
    let with_net = |out: &Path, variant: &str| {
        let net = net.to_str().unwrap();
        selfplay(
            out,
            &["--variant", variant, "--net", net, "--device", "cpu"],
        )
    };
    let games = dir.join("games");
    let out = with_net(&games, "chess");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        read_shard(&games.join("shard-00000.hdxshard"))
            .unwrap()
            .games
            .len(),
        4
    );
    // A chess network for a Hostage run: refused before anything is written.
    let wrong = dir.join("wrong");
    let out = with_net(&wrong, "hostage");
    assert!(!out.status.success());
    let message = text(&out.stderr);
    assert!(message.starts_with("error: checkpoint "), "{message}");
    assert!(message.contains("encoding mismatch"), "{message}");
    assert!(!wrong.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn selfplay_refuses_bad_input_with_one_line() {
    let dir = scratch("selfplay-bad");
    for (args, expected) in [
        (vec!["--variant", "foo"], "error: unknown variant 'foo'"),
        (
            vec!["--variant", "chess", "--option", "mode=defector"],
            "error: chess has no rule option 'mode'",
        ),
        (
            vec!["--variant", "chess", "--games", "0"],
            "error: setting games = 0 is out of range (at least 1)",
        ),
        (
            vec!["--variant", "chess", "--sims", "0"],
            "error: setting simulations = 0 is out of range (1 to 1048576)",
        ),
        (
            vec!["--variant", "chess", "--policy", "best"],
            "error: unknown root policy 'best' (valid policies: puct, gumbel)",
        ),
        (
            vec!["--variant", "chess", "--net", "/nonexistent/net"],
            "error: checkpoint /nonexistent/net: ",
        ),
    ] {
        let mut full = vec!["selfplay", "--quiet", "--out", dir.to_str().unwrap()];
        full.extend_from_slice(&args);
        let message = one_line_error(&heterodox(&full), &format!("{args:?}"));
        assert!(message.starts_with(expected), "{args:?}: {message}");
        assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
    }
    // An output directory that cannot be made.
    let out = selfplay(Path::new("/proc/heterodox/out"), &["--variant", "chess"]);
    assert!(!out.status.success());
    assert_starts_with(
        &text(&out.stderr),
        "error: cannot create output directory /proc/heterodox/out",
    );
}
