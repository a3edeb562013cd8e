//! PGN export of records: exact text, the variant's notation, multi-step
//! turns kept together, errors for records that do not replay.

use crate::support;

use heterodox_data::pgn::{record_to_pgn, shard_to_pgn, PgnError};
use heterodox_data::replay::ReplayErrorKind;
use heterodox_data::shard::{Shard, ShardHeader};
use heterodox_env::{Chess, GameVariant, RuleOptions, Traitor};

use support::{random_records, record_from_moves, test_policy, uniform_policy, SCHOLARS_MATE};

#[test]
fn scholars_mate_as_pgn() {
    let record = record_from_moves::<Chess>(&(), None, &SCHOLARS_MATE, test_policy);
    assert_eq!(
        record_to_pgn::<Chess>(&record, &(), "heterodox self-play", 0).unwrap(),
        r#"[Event "heterodox self-play"]
[Site "?"]
[Date "????.??.??"]
[Round "1"]
[White "?"]
[Black "?"]
[Result "1-0"]
[Variant "chess"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
[Termination "checkmate"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
"#
    );
}

#[test]
fn traitor_turns_keep_announcement_and_move_together() {
    let rules = Traitor::parse_rules(&RuleOptions::parse("selection=fixed").unwrap()).unwrap();
    let fen =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- d8/c1,g2,h1 open - -";
    let moves = [
        "e4", "e5", "Nf3", "Nf6", "Bc4", "Ng4", "O-O", "Bc5", "Nc3", "T-h1", "g4f2",
    ];
    let record = record_from_moves::<Traitor>(&rules, Some(fen), &moves, |_, legal, _| {
        uniform_policy(legal)
    });
    let pgn = record_to_pgn::<Traitor>(&record, &rules, "sample", 4).unwrap();
    // The position string as the variant writes it (secret pieces in board order).
    let canonical = fen.replace("c1,g2,h1", "c1,h1,g2");
    assert_eq!(
        pgn,
        format!(
            r#"[Event "sample"]
[Site "?"]
[Date "????.??.??"]
[Round "5"]
[White "?"]
[Black "?"]
[Result "0-1"]
[Variant "traitor"]
[VariantOptions "announce_check=allowed,commitment=standard,mode=traitor,no_immediate_undo=on,selection=fixed"]
[SetUp "1"]
[FEN "{canonical}"]
[Termination "checkmate"]

1. e4 e5 2. Nf3 Nf6 3. Bc4 Ng4 4. O-O Bc5 5. Nc3 (T-Rh1)N:f2# 0-1
"#
        )
    );
}

#[test]
fn a_shard_exports_every_game_with_selections_and_announcements() {
    let rules = Traitor::parse_rules(&RuleOptions::new()).unwrap();
    let games = random_records::<Traitor>(&rules, 5, 400);
    let shard = Shard {
        header: ShardHeader::new::<Traitor>(&rules, "random games"),
        games,
    };
    let pgn = shard_to_pgn(&shard).unwrap();
    assert_eq!(pgn.matches("[Event \"random games\"]").count(), 5);
    assert_eq!(
        pgn.matches("\n\n[Event").count(),
        4,
        "one blank line between games"
    );
    let movetext: String = pgn
        .split("\n\n")
        .filter(|part| !part.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let tokens: Vec<&str> = movetext.split_whitespace().collect();
    // Selections open the games, one per player.
    assert_eq!(&tokens[..3], &["1.", tokens[1], tokens[2]]);
    assert!(tokens[1].starts_with("(S-") && tokens[2].starts_with("(S-"));
    // An announcement is never a token of its own: its move follows at once.
    let announcements: Vec<&&str> = tokens.iter().filter(|t| t.starts_with("(T-")).collect();
    assert!(!announcements.is_empty(), "the random games announce");
    for token in announcements {
        let after = &token[token.find(')').unwrap() + 1..];
        assert!(!after.is_empty(), "{token}");
    }
}

#[test]
fn records_that_do_not_replay_are_errors() {
    let mut record = record_from_moves::<Chess>(&(), None, &SCHOLARS_MATE, test_policy);
    record.steps[2].action = 1;
    let shard = Shard {
        header: ShardHeader::new::<Chess>(&(), "x"),
        games: vec![record],
    };
    match shard_to_pgn(&shard).unwrap_err() {
        PgnError::Replay(error) => {
            assert_eq!((error.game, error.step), (0, Some(2)));
            assert!(matches!(
                error.kind,
                ReplayErrorKind::IllegalAction { index: 1, .. }
            ));
        }
        other => panic!("{other}"),
    }
    let mut unknown = shard;
    unknown.header.variant = "shogi".into();
    assert_eq!(
        shard_to_pgn(&unknown).unwrap_err().to_string(),
        "shard header: unknown variant 'shogi' (valid variants: chess, poison, hostage, madscientist, traitor)"
    );
}

#[test]
fn players_are_named_in_the_tags() {
    let pgn = "[Event \"e\"]\n[White \"?\"]\n[Black \"?\"]\n\n1. e4 *\n";
    assert_eq!(
        heterodox_data::pgn::with_players(pgn, "net:runs/a@64", "random"),
        "[Event \"e\"]\n[White \"net:runs/a@64\"]\n[Black \"random\"]\n\n1. e4 *\n"
    );
    assert_eq!(
        heterodox_data::pgn::with_players("[White \"?\"]", "a", "b"),
        "[White \"a\"]"
    );
}
