//! `heterodox uci` and `heterodox xboard` driven as a GUI drives them: a
//! script on standard input, the replies on standard output. Every variant's
//! move tokens are played, a bad one is refused with the position kept, and
//! the engine answers positions whose best move is known.

use crate::support;
use support::{heterodox_with_input, text};

/// The lines of a UCI session that do not depend on the clock: everything
/// but `info depth ...` (nodes and times vary).
fn uci(script: &str) -> Vec<String> {
    let out = heterodox_with_input(&["uci"], script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter(|line| !line.starts_with("info depth"))
        .map(str::to_owned)
        .collect()
}

fn xboard(script: &str) -> Vec<String> {
    let out = heterodox_with_input(&["xboard"], script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_owned).collect()
}

/// What follows `prefix` on the `k`th line that starts with it.
fn nth_after<'a>(lines: &'a [String], prefix: &str, k: usize) -> &'a str {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix(prefix))
        .nth(k)
        .unwrap_or_else(|| panic!("no line {k} starting {prefix:?} in {lines:#?}"))
}

/// `info string fen ...` and the legal list of a `d` line pair.
fn fen_line(lines: &[String], k: usize) -> &str {
    nth_after(lines, "info string fen ", k)
}

fn legal_line(lines: &[String], k: usize) -> Vec<String> {
    nth_after(lines, "info string legal", k)
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn uci_handshake_names_the_variants_and_options() {
    let lines = uci("uci\nisready\nquit\n");
    assert_eq!(
        lines,
        [
            format!("id name Heterodox {}", env!("CARGO_PKG_VERSION")),
            "id author the Heterodox developers".to_owned(),
            "option name UCI_Variant type combo default chess var chess var poison \
             var hostage var madscientist var traitor"
                .to_owned(),
            "option name Rules type string default <empty>".to_owned(),
            "option name Agent type string default ab@1000ms".to_owned(),
            "option name MultiPV type spin default 1 min 1 max 256".to_owned(),
            "option name Hash type spin default 16 min 1 max 1024".to_owned(),
            "option name Threads type spin default 1 min 1 max 1".to_owned(),
            "uciok".to_owned(),
            "readyok".to_owned(),
        ]
    );
}

#[test]
fn uci_finds_the_known_best_move_in_every_variant() {
    // Mate in one (chess); a hanging Doctor or Queen for a bishop elsewhere.
    let cases = [
        ("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
        ("poison", "4k3/8/8/8/8/8/1d6/2B1K3 w - - 0 1 -", "c1b2"),
        (
            "hostage",
            "4k3/8/8/8/8/8/1q6/2B1K3[-/-/-/-] w - - 0 1",
            "c1b2",
        ),
        (
            "madscientist",
            "4k3/8/8/8/8/8/1q6/2B1K3 w - - - 0 1",
            "c1b2",
        ),
    ];
    for (variant, fen, best) in cases {
        let lines = uci(&format!(
            "setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo depth 3\n"
        ));
        assert_eq!(lines, [format!("bestmove {best}")], "{variant}");
    }
}

#[test]
fn uci_plays_every_variant_s_own_tokens_and_refuses_a_bad_one_whole() {
    // Hostage: an exchange (a black pawn given back for a white one, dropped
    // on e4), then Black drops the pawn it was given.
    let lines = uci("setoption name UCI_Variant value hostage\n\
         position startpos moves e2e4 d7d5 e4d5 d8d5 P-P@e4 P@e6\nd\n\
         position startpos moves e2e4 d7d5 e4d5 d8d5 P-P@e4 P@e4\nd\nquit\n");
    let after = "rnb1kbnr/ppp1pppp/4p3/3q4/4P3/8/PPPP1PPP/RNBQKBNR[-/-/-/-] w KQkq - 0 4";
    assert_eq!(fen_line(&lines, 0), after);
    assert_eq!(
        lines[2],
        "info string error: step 6 'P@e4': illegal move 'P@e4' in position \
         rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR[-/-/-/p] b KQkq - 0 3"
    );
    assert_eq!(
        fen_line(&lines, 1),
        after,
        "the refused position kept none of it"
    );

    // Poison: a Harpy poisons (`*`), a Doctor cures (`~`).
    let lines = uci("setoption name UCI_Variant value poison\n\
         position fen 4k3/8/3d4/4p3/4H3/8/8/4K3 w - - 0 1 - moves e4*e5\nd\n\
         position fen 4k3/8/3d4/4p3/4H3/8/8/4K3 w - - 0 1 - moves e4*e5 d6~e5\nd\nquit\n");
    assert_eq!(
        fen_line(&lines, 0),
        "4k3/8/3d4/4p3/8/8/8/4K3 b - - 0 1 e5:5"
    );
    assert!(legal_line(&lines, 0).contains(&"d6~e5".to_owned()));
    assert_eq!(fen_line(&lines, 1), "4k3/8/3d4/4p3/8/8/8/4K3 w - - 0 2 -");
    assert_eq!(legal_line(&lines, 1), ["e1f1", "e1e2", "e1f2"]);

    // Mad Scientist: remove a part (`F-f1`), then attach it again (`F+f1`).
    let lines = uci("setoption name UCI_Variant value madscientist\n\
         position startpos moves F-f1 e7e5\nd\n\
         position startpos moves F-f1 e7e5 F+f1\nd\n\
         position startpos moves F-f1 e7e5 C@e2\nd\nquit\n");
    assert_eq!(
        fen_line(&lines, 0),
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQK[F]NR w KQkq - F 0 2"
    );
    let legal = legal_line(&lines, 0);
    assert_eq!(legal[legal.len() - 4..], ["W-d1", "F-d1", "F+f1", "F-f1"]);
    let attached = fen_line(&lines, 1).to_owned();
    assert!(attached.starts_with("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQK"));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string error: step 3 'C@e2': illegal move 'C@e2'")));
    assert_eq!(
        fen_line(&lines, 2),
        attached,
        "the refused position kept none of it"
    );

    // Traitor: two secret selections, then an announcement and its move
    // are two steps.
    let lines = uci("setoption name UCI_Variant value traitor\n\
         position startpos moves S-h8 S-h1\nd\n\
         position startpos moves S-h8 S-h1 T-h8\nd\nquit\n");
    assert_eq!(
        fen_line(&lines, 0),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- h8/h1 open - -"
    );
    assert_eq!(legal_line(&lines, 0)[0], "T-h8");
    let announced = legal_line(&lines, 1);
    assert!(announced.contains(&"h8g8".to_owned()), "{announced:?}");
    assert!(!announced.contains(&"T-h8".to_owned()));
}

#[test]
fn uci_reports_bad_commands_and_settings_without_dropping_the_session() {
    let lines = uci("setoption name UCI_Variant value shogi\n\
         setoption name Rules value mode=nonsense\n\
         setoption name Agent value ab@0\n\
         position somewhere\n\
         go fast\n\
         jump\n\
         position startpos moves e2e4\nd\nquit\n");
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 6, "{lines:#?}");
    assert!(errors[0].contains("shogi"), "{}", errors[0]);
    assert!(errors[1].contains("mode"), "{}", errors[1]);
    assert!(errors[2].contains("ab@0"), "{}", errors[2]);
    assert_eq!(
        errors[3],
        "info string error: position needs 'startpos' or 'fen FEN'"
    );
    assert_eq!(errors[4], "info string error: unknown go parameter 'fast'");
    assert_eq!(errors[5], "info string error: unknown command 'jump'");
    // The session still plays chess with its first settings.
    assert_eq!(
        fen_line(&lines, 0),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
}

#[test]
fn uci_answers_a_go_it_cannot_start_with_its_error_and_the_null_move() {
    let lines = uci("position startpos moves e2e4\n\
         go movetime -5\n\
         go depth\n\
         d\nquit\n");
    assert_eq!(
        lines,
        [
            "info string error: go movetime: '-5' is not a number",
            "bestmove 0000",
            "info string error: go depth needs a number",
            "bestmove 0000",
            "info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "info string legal b8a6 b8c6 g8f6 g8h6 a7a5 a7a6 b7b5 b7b6 c7c5 c7c6 d7d5 d7d6 e7e5 e7e6 f7f5 f7f6 g7g5 g7g6 h7h5 h7h6",
        ],
        "{lines:#?}"
    );
}

#[test]
fn uci_says_when_the_game_is_over() {
    let lines = uci("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8\ngo depth 2\n");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    assert!(
        lines[0].starts_with("info string the game is over: "),
        "{lines:#?}"
    );
}

#[test]
fn xboard_lists_the_variants_sets_them_up_and_plays() {
    let lines = xboard(
        "xboard\nprotover 2\nping 7\nvariant hostage\nforce\n\
         usermove e2e5\nusermove e2e4\nsd 2\ngo\nquit\n",
    );
    assert_eq!(lines.len(), 5, "{lines:#?}");
    assert_eq!(
        lines[0],
        format!(
            "feature myname=\"Heterodox {}\" variants=\"normal,poison,hostage,madscientist,traitor\" \
             setboard=1 usermove=1 ping=1 playother=1 san=0 sigint=0 sigterm=0 colors=0 \
             analyze=0 reuse=1 done=1",
            env!("CARGO_PKG_VERSION")
        )
    );
    assert_eq!(lines[1], "pong 7");
    assert_eq!(
        lines[2],
        "setup (PNBRQKpnbrqk) 8x8+0_hostage \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1"
    );
    assert_eq!(
        lines[3],
        "Illegal move (illegal move 'e2e5' in position \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-/-/-/-] w KQkq - 0 1): e2e5"
    );
    // e2e4 was kept (the refused e2e5 was not): Black, to move, answers.
    let reply = lines[4].strip_prefix("move ").expect("the engine moves");
    assert!(reply.chars().nth(1) >= Some('5'), "a Black move: {reply}");
}

#[test]
fn xboard_announces_the_result_and_refuses_bad_settings() {
    let lines = xboard(
        "xboard\nnew\nvariant shogi\nsd x\n\
         setboard 6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1\nforce\nsetboard nonsense\n\
         setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\nsd 3\ngo\nquit\n",
    );
    assert!(lines[0].starts_with("Error (variant): "), "{lines:#?}");
    assert_eq!(lines[1], "Error (bad depth): sd x");
    assert!(
        lines[2].starts_with("tellusererror Illegal position: "),
        "{lines:#?}"
    );
    assert_eq!(lines[3..], ["move a1a8", "1-0 {white wins by checkmate}"]);
}

#[test]
fn startpos_is_the_session_s_own_start_under_a_random_set_up() {
    // Traitor's random selection draws from --seed: `position startpos`
    // returns to that draw, not to another seed's.
    let out = heterodox_with_input(
        &[
            "uci",
            "--variant",
            "traitor",
            "--option",
            "selection=random",
            "--seed",
            "3",
        ],
        "d\nposition startpos moves T-d7\nposition startpos\nd\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_owned).collect();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- \
                 d7,f8/b1,b2,e2,f2 open - -";
    assert_eq!(fen_line(&lines, 0), start);
    assert_eq!(fen_line(&lines, 1), start);
}

/// White wins the queen with the knight (`c3d5`, a queen for a knight) or
/// the rook (`d1d5`, a queen for a rook); any other move lets it go.
const TWO_CAPTURES: &str = "6k1/5pp1/4p2p/3q4/8/2N4P/5PP1/3R2K1 w - - 0 1";

/// The words of an `info` line after `key` up to the next key (`score cp
/// 540` gives `["cp", "540"]`).
fn field<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    const KEYS: [&str; 8] = [
        "depth", "multipv", "score", "nodes", "nps", "time", "pv", "seldepth",
    ];
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = words.iter().position(|w| *w == key) else {
        return Vec::new();
    };
    words[start + 1..]
        .iter()
        .take_while(|w| key == "pv" || !KEYS.contains(w))
        .copied()
        .collect()
}

#[test]
fn uci_multipv_reports_each_line_per_depth_best_first() {
    let out = heterodox_with_input(
        &["uci"],
        &format!(
            "setoption name uci_variant value chess\nsetoption name MultiPV value 2\n\
             position fen {TWO_CAPTURES}\ngo depth 3\n\
             setoption name multipv value 1\ngo depth 2\n"
        ),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let split = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    let (two, one) = lines.split_at(split + 1);
    // Two lines per depth, `multipv 1` then `multipv 2`, then the move.
    assert_eq!(two.len(), 3 * 2 + 1, "{two:#?}");
    for depth in 1..=3 {
        let pair = &two[2 * (depth - 1)..2 * depth];
        for (k, line) in pair.iter().enumerate() {
            assert_eq!(field(line, "depth"), [depth.to_string()], "{line}");
            assert_eq!(field(line, "multipv"), [(k + 1).to_string()], "{line}");
        }
        assert_eq!(field(pair[0], "pv")[0], "c3d5", "{}", pair[0]);
        assert_eq!(field(pair[1], "pv")[0], "d1d5", "{}", pair[1]);
        let cp = |line: &str| -> i32 { field(line, "score")[1].parse().unwrap() };
        assert!(cp(pair[0]) > cp(pair[1]) && cp(pair[1]) > 200, "{pair:#?}");
        // One search: both lines of a depth report its nodes.
        assert_eq!(field(pair[0], "nodes"), field(pair[1], "nodes"));
    }
    assert_eq!(two[6], "bestmove c3d5");
    // MultiPV 1 again: the plain `info depth` lines, no `multipv`.
    assert_eq!(one.len(), 3, "{one:#?}");
    assert!(one[..2].iter().all(|l| field(l, "multipv").is_empty()));
    assert_eq!(one[2], "bestmove c3d5");
}

#[test]
fn uci_engine_options_refuse_bad_values_and_keep_their_own() {
    let lines = uci("setoption name threads value 4\n\
         setoption name Threads value 1\n\
         setoption name MultiPV value 0\n\
         setoption name MultiPV value many\n\
         setoption name Hash value 0\n\
         setoption name Hash value 4096\n\
         setoption name Hash value 1\n\
         setoption name MultiPV value 3\n\
         setoption name MultiPV value 999\n\
         position startpos\ngo depth 1\nisready\nquit\n");
    assert_eq!(
        lines[..6],
        [
            "info string error: option Threads: 4 is out of range (1 to 1): \
             the engine searches on one thread",
            "info string error: option MultiPV: 0 is out of range (1 to 256)",
            "info string error: option MultiPV: 'many' is not a number",
            "info string error: option Hash: 0 is out of range (1 to 1024)",
            "info string error: option Hash: 4096 is out of range (1 to 1024)",
            "info string error: option MultiPV: 999 is out of range (1 to 256)",
        ],
        "{lines:#?}"
    );
    // MultiPV kept 3 through the refused 999: three lines at depth 1.
    let out = heterodox_with_input(
        &["uci"],
        "setoption name MultiPV value 3\nsetoption name MultiPV value 999\n\
         position startpos\ngo depth 1\n",
    );
    let stdout = text(&out.stdout);
    let multipv: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| field(l, "multipv"))
        .collect();
    assert_eq!(multipv, [["1"], ["2"], ["3"]]);
}

#[test]
fn uci_answers_a_go_with_a_bad_limit_with_its_error_and_the_null_move() {
    let lines = uci("position startpos\ngo depth 0\ngo nodes abc\ngo nodes 0\n\
         go movetime 0\nd\nquit\n");
    assert_eq!(
        lines,
        [
            "info string error: depth 0 is out of range (1 to 64)",
            "bestmove 0000",
            "info string error: go nodes: 'abc' is not a number",
            "bestmove 0000",
            "info string error: nodes 0 is out of range (at least 1)",
            "bestmove 0000",
            "info string error: movetime 0 ms is out of range (at least 1 ms)",
            "bestmove 0000",
            "info string fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "info string legal b1a3 b1c3 g1f3 g1h3 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 \
             e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4",
        ],
        "{lines:#?}"
    );
}

#[test]
fn xboard_posts_one_line_per_completed_depth() {
    let lines = xboard("xboard\nprotover 2\nnew\npost\nsd 4\ngo\nnew\nnopost\nsd 4\ngo\nquit\n");
    // The feature line, four thinking lines, the move; after `nopost` the
    // move alone.
    assert_eq!(lines.len(), 1 + 4 + 1 + 1, "{lines:#?}");
    let depths: Vec<&str> = lines[1..5]
        .iter()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4"]);
    for line in &lines[1..5] {
        // ply score centiseconds nodes pv...
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words.len() >= 5, "{line}");
        assert!(
            words[1..4].iter().all(|w| w.parse::<i64>().is_ok()),
            "{line}"
        );
    }
    let best = lines[4].split_whitespace().nth(4).unwrap();
    assert_eq!(lines[5], format!("move {best}"));
    // A new game (a fresh engine) from the same position plays the same.
    assert_eq!(lines[6], format!("move {best}"));
}
