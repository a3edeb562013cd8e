//! Random and malformed input for `heterodox uci` and `heterodox xboard`,
//! from a fixed seed: a few hundred lines each of commands with good, bad
//! and absurd arguments, garbage, bytes that are not UTF-8, an overlong
//! line. Whatever comes in, the session must survive it (a clean exit on
//! `quit`, nothing on stderr, where a panic would print), answer every
//! `go` (UCI: one `bestmove` each; XBoard: a move, a result or an error
//! before the next `pong`), and leave the position as it was after each
//! command it refuses: a probe that prints the position (UCI's `d`; an
//! XBoard move that is always illegal, whose refusal names the position)
//! runs before and after each of those, and the two must agree.

use crate::support;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use support::{heterodox_fed, text};

/// `heterodox ARGS` fed `script` as bytes (which need not be UTF-8),
/// which must end cleanly on its `quit` with nothing on stderr (a panic
/// prints there): its stdout.
fn run_cleanly(args: &[&str], script: &[u8]) -> String {
    let out = heterodox_fed(args, script, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "",
        "nothing on stderr (a panic prints there)"
    );
    text(&out.stdout)
}

fn pick<'a>(rng: &mut ChaCha8Rng, items: &[&'a str]) -> &'a str {
    items[rng.random_range(0..items.len())]
}

/// A line of junk: printable noise, control characters, or an overlong
/// word. Never starts with a command's name (it starts with `#` or a
/// symbol), so it is refused as unknown.
fn garbage(rng: &mut ChaCha8Rng) -> Vec<u8> {
    match rng.random_range(0..4) {
        0 => {
            let len = rng.random_range(1..40);
            let mut line = vec![b'#'];
            line.extend((0..len).map(|_| rng.random_range(b' '..=b'~')));
            line
        }
        1 => vec![b'%', 0xff, 0xfe, b'x', 0xc3, b' ', 0x80],
        2 => {
            let mut line = b"@".to_vec();
            line.extend(std::iter::repeat_n(b'z', 10_000));
            line
        }
        _ => b"\t \x0b ~ \x01\x02 \x7f".to_vec(),
    }
}

const VARIANTS: [&str; 5] = ["chess", "poison", "hostage", "madscientist", "traitor"];

/// Fen-like strings, good and bad, for every variant.
const POSITIONS: [&str; 8] = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "4k3/8/8/8/8/8/1d6/2B1K3 w - - 0 1 -",
    "4k3/8/8/8/8/8/1q6/2B1K3[-/-/-/-] w - - 0 1",
    "4k3/8/8/8/8/8/1q6/2B1K3 w - - - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "not a position at all",
    "9/9/9 w",
];

const MOVES: [&str; 12] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "d2d4", "P@e4", "e4*e5", "F-f1", "T-h8", "S-h8", "e2e5", "zz9",
];

/// The commands UCI must refuse without touching the position: each is
/// probed with `d` on either side. A `go` among them is answered with the
/// null move.
const UCI_REFUSED: [&str; 18] = [
    "position somewhere",
    "position fen not a position",
    "position startpos moves e2e5",
    "position startpos moves e2e4 zz9",
    "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8 a1a8",
    "position startpos rubbish e2e4",
    "setoption name UCI_Variant value shogi",
    "setoption name Rules value mode=nonsense",
    "setoption name Agent value ab@0",
    "setoption name MultiPV value 0",
    "setoption name Hash value lots",
    "setoption name Threads value 8",
    "setoption name Contempt value 10",
    "setoption value 3",
    "go depth 0",
    "go nodes many",
    "go movetime -5",
    "go ponder",
];

/// One random UCI command (never `d`, which only the probes send).
fn uci_line(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let line = match rng.random_range(0..16) {
        0 => pick(rng, &["uci", "isready", "ucinewgame", "stop", "quitting"]).to_owned(),
        1 => format!(
            "setoption name UCI_Variant value {}",
            pick(
                rng,
                &[
                    VARIANTS[..].concat().as_str(),
                    "chess",
                    "hostage",
                    "",
                    "traitor"
                ]
            )
        ),
        2 => format!(
            "setoption name {} value {}",
            pick(rng, &["MultiPV", "multipv", "Hash", "Threads", "MULTIPV"]),
            pick(rng, &["1", "2", "3", "0", "-1", "x", "300", "8", "1e3", ""])
        ),
        3 => format!(
            "setoption name Agent value {}",
            pick(
                rng,
                &[
                    "ab@1",
                    "ab@2",
                    "greedy",
                    "random",
                    "ab@0",
                    "foo",
                    "net:/none@1"
                ]
            )
        ),
        4 => format!(
            "setoption name Rules value {}",
            pick(
                rng,
                &[
                    "<empty>",
                    "mode=defector",
                    "commitment=impromptu",
                    "x=y",
                    "=="
                ]
            )
        ),
        5 => {
            let moves: Vec<&str> = (0..rng.random_range(0..5))
                .map(|_| pick(rng, &MOVES))
                .collect();
            format!("position startpos moves {}", moves.join(" "))
        }
        6 => format!("position fen {}", pick(rng, &POSITIONS)),
        7 => format!(
            "go depth {}",
            pick(rng, &["1", "2", "3", "0", "-1", "abc", "99 nodes 2000", ""])
        ),
        8 => format!(
            "go nodes {}",
            pick(rng, &["1", "500", "3000", "0", "x", "18446744073709551616"])
        ),
        9 => format!(
            "go movetime {}",
            pick(rng, &["1", "5", "20", "0", "-5", ""])
        ),
        10 => format!(
            "go wtime {} btime {} winc {} movestogo {}",
            rng.random_range(0..600),
            rng.random_range(0..600),
            rng.random_range(0..20),
            rng.random_range(0..5)
        ),
        11 => pick(
            rng,
            &[
                "go",
                "go infinite\nstop",
                "go searchmoves e2e4",
                "go mate 2",
                "go fast",
            ],
        )
        .to_owned(),
        12 => pick(
            rng,
            &[
                "position",
                "position fen",
                "setoption",
                "setoption name",
                "go depth",
            ],
        )
        .to_owned(),
        _ => return garbage(rng),
    };
    line.into_bytes()
}

/// A probed refusal, or a random line, until `lines` lines are written.
fn uci_script(seed: u64, lines: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut script = b"uci\nsetoption name MultiPV value 2\n".to_vec();
    for _ in 0..lines {
        if rng.random_range(0..3) == 0 {
            script.extend_from_slice(b"d\n");
            script.extend_from_slice(pick(&mut rng, &UCI_REFUSED).as_bytes());
            script.extend_from_slice(b"\nd\n");
        } else {
            script.extend(uci_line(&mut rng));
            script.push(b'\n');
        }
    }
    script.extend_from_slice(b"quit\n");
    script
}

/// The lines of `script` as the session reads them.
fn script_lines(script: &[u8]) -> Vec<String> {
    script
        .split(|&b| b == b'\n')
        .map(|line| String::from_utf8_lossy(line).into_owned())
        .collect()
}

#[test]
fn uci_survives_random_input_answers_every_go_and_keeps_the_position_on_errors() {
    let script = uci_script(7, 300);
    let stdout = run_cleanly(&["uci", "--agent", "ab@1"], &script);
    let lines = script_lines(&script);
    let gos = lines
        .iter()
        .filter(|l| l.split_whitespace().next() == Some("go"))
        .count();
    let bestmoves = stdout
        .lines()
        .filter(|l| l.starts_with("bestmove "))
        .count();
    assert!(gos > 50, "{gos} go commands");
    assert_eq!(bestmoves, gos, "one bestmove per go");
    // `d` is sent only around refused commands: its positions pair up.
    let fens: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("info string fen "))
        .collect();
    let probes = lines.iter().filter(|l| *l == "d").count();
    assert_eq!(fens.len(), probes);
    assert!(probes > 100, "{probes} probes");
    for pair in fens.chunks(2) {
        assert_eq!(pair[0], pair[1], "a refused command changed the position");
    }
    // Every refusal says why.
    let errors = stdout
        .lines()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    assert!(errors >= probes / 2, "{errors} errors for {probes} probes");
}

/// The XBoard commands that must be refused without a change.
const XBOARD_REFUSED: [&str; 12] = [
    "usermove h1h1",
    "usermove zz9",
    "usermove",
    "variant shogi",
    "setboard not a position",
    "setboard 8/8/8/8/8/8/8/8 w - - 0 1",
    "sd x",
    "sd 0",
    "st soon",
    "time -3",
    "level 40",
    "#nonsense",
];

/// The probe: a move that is never legal; its refusal names the position.
const XBOARD_PROBE: &str = "usermove a1a1";

fn xboard_line(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let line = match rng.random_range(0..14) {
        0 => pick(
            rng,
            &[
                "xboard",
                "protover 2",
                "new",
                "force",
                "post",
                "nopost",
                "hard",
                "easy",
                "random",
                "computer",
                "accepted setboard",
            ],
        )
        .to_owned(),
        1 => format!(
            "variant {}",
            pick(
                rng,
                &[
                    "normal",
                    "poison",
                    "hostage",
                    "madscientist",
                    "traitor",
                    "crazyhouse"
                ]
            )
        ),
        2 | 3 => format!("usermove {}", pick(rng, &MOVES)),
        4 => pick(rng, &MOVES).to_owned(),
        5 => pick(rng, &["undo", "remove", "playother", "force"]).to_owned(),
        6 => format!("sd {}", pick(rng, &["1", "2", "0", "-1", "x", ""])),
        7 => format!("setboard {}", pick(rng, &POSITIONS)),
        8 => format!(
            "{} {}",
            pick(rng, &["st", "time", "level"]),
            pick(rng, &["", "x", "-1", "1 2", "a b c"])
        ),
        9 => format!("otim {}", rng.random_range(0..1000)),
        10 => pick(
            rng,
            &["result 1-0 {x}", "name someone", "rating 1 2", "ics -"],
        )
        .to_owned(),
        _ => return garbage(rng),
    };
    line.into_bytes()
}

#[test]
fn xboard_survives_random_input_answers_every_go_and_keeps_the_position_on_errors() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut script = b"xboard\nprotover 2\nsd 1\n".to_vec();
    let mut pings = 0;
    for _ in 0..300 {
        match rng.random_range(0..4) {
            0 => {
                let refused = pick(&mut rng, &XBOARD_REFUSED);
                script.extend(format!("{XBOARD_PROBE}\n{refused}\n{XBOARD_PROBE}\n").bytes());
            }
            1 => {
                // Between two pings, so that its answer is told from
                // those of the moves before it. (`new` forgets `sd`: every
                // go is bounded anyway by the agent's own depth, ab@1.)
                pings += 2;
                script.extend(format!("ping {}\ngo\nping {pings}\n", pings - 1).bytes());
            }
            _ => {
                script.extend(xboard_line(&mut rng));
                script.push(b'\n');
            }
        }
    }
    script.extend_from_slice(b"quit\n");
    let stdout = run_cleanly(&["xboard", "--agent", "ab@1"], &script);
    let gos = pings / 2;
    assert!(gos > 50, "{gos} go commands");
    // Between `pong 2k-1` and `pong 2k`: the answer to the k-th `go`.
    let mut answered = 0;
    let mut since = Vec::new();
    for line in stdout.lines() {
        if let Some(number) = line.strip_prefix("pong ") {
            let number: usize = number.parse().expect("our own ping");
            if number % 2 == 0 {
                let answer = since.iter().any(|l: &&str| {
                    l.starts_with("move ")
                        || l.starts_with("Error (")
                        || ["1-0 {", "0-1 {", "1/2-1/2 {"]
                            .iter()
                            .any(|result| l.starts_with(result))
                });
                assert!(answer, "go {} has no answer: {since:#?}", number / 2);
                answered += 1;
            }
            since.clear();
        } else {
            since.push(line);
        }
    }
    assert_eq!(answered, gos);
    let probes: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("Illegal move (") && l.ends_with(": a1a1"))
        .collect();
    assert!(probes.len() > 100, "{} probes", probes.len());
    assert_eq!(probes.len() % 2, 0);
    for pair in probes.chunks(2) {
        assert_eq!(pair[0], pair[1], "a refused command changed the position");
    }
}
