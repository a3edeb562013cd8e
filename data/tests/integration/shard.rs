//! Shards: exact round trips, atomic writes, and a typed error (never a
//! panic) for every kind of bad file.

use crate::support;

use std::fs;
use std::path::{Path, PathBuf};

use heterodox_data::shard::{
    checksum, decode_shard, dequantize_probability, encode_shard, list_shards,
    quantize_probability, read_shard, read_shard_for, write_shard, HeaderError, Shard,
    ShardErrorKind, ShardHeader, FORMAT_VERSION, MAX_HEADER_LEN,
};
use heterodox_data::{GameRecord, GameResult, StepRecord};
use heterodox_env::encoding::EncodingSpec;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{Chess, GameVariant, Hostage, Traitor};

use support::{random_records, record_from_moves, test_policy, SCHOLARS_MATE};

/// A fresh, empty directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("shard-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn header() -> ShardHeader {
    ShardHeader::new::<Chess>(&(), "test: uniform policy")
}

/// Games with every field exercised; probabilities are multiples of
/// 1/65535, so the round trip is exact.
fn games() -> Vec<GameRecord> {
    let q = |k: u16| dequantize_probability(k);
    let mut mate = record_from_moves::<Chess>(&(), None, &SCHOLARS_MATE, test_policy);
    for step in &mut mate.steps {
        for entry in &mut step.policy {
            entry.1 = q(quantize_probability(entry.1));
        }
    }
    vec![
        mate,
        GameRecord {
            seed: u64::MAX,
            start: Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".to_owned()),
            steps: vec![
                StepRecord {
                    action: 4671,
                    root_value: -0.123_456_78,
                    policy: vec![(0, q(1)), (4671, q(65534))],
                    surprise: 0.375,
                },
                StepRecord {
                    action: 7,
                    root_value: f32::MIN_POSITIVE,
                    policy: Vec::new(),
                    surprise: 0.0,
                },
            ],
            result: GameResult::Truncated,
            termination: "ply cap".to_owned(),
        },
        GameRecord {
            seed: 0,
            start: None,
            steps: Vec::new(),
            result: GameResult::Draw,
            termination: String::new(),
        },
    ]
}

fn bytes() -> Vec<u8> {
    encode_shard(&header(), &games()).unwrap()
}

#[test]
fn round_trip_is_exact() {
    let shard = decode_shard(&bytes()).unwrap();
    assert_eq!(
        shard,
        Shard {
            header: header(),
            games: games()
        }
    );
    assert_eq!(shard.header.encoding_version, 1);
    assert_eq!(shard.header.crate_version, env!("CARGO_PKG_VERSION"));
    let dir = test_dir("round-trip");
    let path = dir.join("games.hdxshard");
    write_shard(&path, &header(), &games()).unwrap();
    assert_eq!(fs::read(&path).unwrap(), bytes());
    assert_eq!(read_shard(&path).unwrap(), shard);
    // Nothing but the shard is left in the directory.
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn the_layout_is_as_documented() {
    let empty = encode_shard(&header(), &[]).unwrap();
    let json = serde_json::to_vec(&header()).unwrap();
    assert_eq!(&empty[..8], b"HDXSHARD");
    assert_eq!(&empty[8..12], &FORMAT_VERSION.to_le_bytes());
    assert_eq!(&empty[12..20], &(empty.len() as u64).to_le_bytes());
    assert_eq!(&empty[20..24], &(json.len() as u32).to_le_bytes());
    assert_eq!(&empty[24..24 + json.len()], &json[..]);
    // No games, indices as u16, then the checksum of everything before it.
    assert_eq!(&empty[24 + json.len()..empty.len() - 8], &[0, 0, 0, 0, 2]);
    let n = empty.len();
    assert_eq!(&empty[n - 8..], &checksum(&empty[..n - 8]).to_le_bytes());
    assert_eq!(
        String::from_utf8(json).unwrap(),
        format!(
            r#"{{"variant":"chess","options":{{}},"encoding_version":1,"producer":"test: uniform policy","crate_version":"{}"}}"#,
            env!("CARGO_PKG_VERSION")
        )
    );
    // FNV-1a 64 reference values.
    assert_eq!(checksum(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(checksum(b"a"), 0xaf63_dc4c_8601_ec8c);
}

#[test]
fn probabilities_round_trip_within_half_a_step() {
    let mut rng = SplitMix64::new(3);
    let mut policy = Vec::new();
    for k in 0..4000u32 {
        let p = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        policy.push((k, p));
    }
    policy.extend([(4000, 0.0), (4001, 1.0), (4002, 0.5)]);
    let record = GameRecord {
        seed: 1,
        start: None,
        steps: vec![StepRecord {
            action: 0,
            root_value: 0.0,
            policy: policy.clone(),
            surprise: 0.0,
        }],
        result: GameResult::Truncated,
        termination: "ply cap".into(),
    };
    let shard = decode_shard(&encode_shard(&header(), &[record]).unwrap()).unwrap();
    let read = &shard.games[0].steps[0].policy;
    for (&(i, p), &(j, q)) in policy.iter().zip(read) {
        assert_eq!(i, j);
        assert!((p - q).abs() <= 0.5 / 65535.0 + 1e-7, "{p} -> {q}");
    }
    assert_eq!(
        read[4000..],
        [(4000, 0.0), (4001, 1.0), (4002, 32768.0 / 65535.0)]
    );
    for q in [0, 1, 2, 32767, 32768, 65534, 65535] {
        assert_eq!(quantize_probability(dequantize_probability(q)), q);
    }
}

#[test]
fn wide_action_indices_use_four_bytes() {
    let record = GameRecord {
        seed: 1,
        start: None,
        steps: vec![StepRecord {
            action: 70_000,
            root_value: 0.5,
            policy: vec![(70_000, 1.0), (3, 0.0)],
            surprise: 2.5,
        }],
        result: GameResult::WhiteWins,
        termination: "checkmate".into(),
    };
    let bytes = encode_shard(&header(), std::slice::from_ref(&record)).unwrap();
    let json_len = serde_json::to_vec(&header()).unwrap().len();
    assert_eq!(bytes[24 + json_len + 4], 4, "index width");
    assert_eq!(decode_shard(&bytes).unwrap().games, [record]);
}

/// The error a corrupted copy of `bytes()` must give, by where the bad byte is.
fn expect_corruption_error(offset: usize, len: usize, error: &ShardErrorKind) {
    let ok = match offset {
        0..=7 => matches!(error, ShardErrorKind::BadMagic { .. }),
        8..=11 => matches!(
            error,
            ShardErrorKind::UnsupportedVersion { supported: 2, .. }
        ),
        12..=19 => matches!(
            error,
            ShardErrorKind::Truncated { actual, .. } | ShardErrorKind::TrailingBytes { actual, .. }
                if *actual == len as u64
        ),
        _ => matches!(error, ShardErrorKind::ChecksumMismatch { .. }),
    };
    assert!(ok, "byte {offset}: {error}");
}

#[test]
fn every_flipped_byte_is_caught() {
    let good = bytes();
    for offset in 0..good.len() {
        for mask in [0x01, 0x80, 0xff] {
            let mut bad = good.clone();
            bad[offset] ^= mask;
            let error = decode_shard(&bad).unwrap_err();
            expect_corruption_error(offset, good.len(), &error);
        }
    }
}

#[test]
fn every_truncation_is_caught() {
    let good = bytes();
    let n = good.len() as u64;
    for cut in 0..good.len() {
        match decode_shard(&good[..cut]).unwrap_err() {
            ShardErrorKind::Truncated { expected, actual } => {
                assert_eq!(actual, cut as u64);
                let declared = if cut >= 20 { n } else { 37 };
                assert_eq!(expected, declared, "cut at {cut}");
            }
            other => panic!("cut at {cut}: {other}"),
        }
    }
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        decode_shard(&long).unwrap_err(),
        ShardErrorKind::TrailingBytes { expected, actual } if expected == n && actual == n + 1
    ));
}

#[test]
fn wrong_magic_and_version() {
    let mut bad = bytes();
    bad[..8].copy_from_slice(b"PK\x03\x04xxxx");
    let error = decode_shard(&bad).unwrap_err();
    assert!(matches!(&error, ShardErrorKind::BadMagic { found } if found == b"PK\x03\x04xxxx"));
    assert_eq!(
        error.to_string(),
        r#"not a shard: the file starts with [80, 75, 3, 4, 120, 120, 120, 120], not "HDXSHARD""#
    );
    let mut bad = bytes();
    bad[8..12].copy_from_slice(&3u32.to_le_bytes());
    let error = decode_shard(&bad).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unsupported shard format version 3 (this build reads versions 1 to 2)"
    );
    assert!(matches!(
        decode_shard(b"hello").unwrap_err(),
        ShardErrorKind::BadMagic { .. }
    ));
}

/// `bytes` with the length and checksum fields made right again, as a
/// buggy or malicious writer would leave them.
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len();
    bytes[12..20].copy_from_slice(&(n as u64).to_le_bytes());
    let sum = checksum(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// Offsets in `bytes()`: the game count, and the fields of the first game.
struct Offsets {
    game_count: usize,
    first_game: usize,
}

fn offsets() -> Offsets {
    let json_len = serde_json::to_vec(&header()).unwrap().len();
    let game_count = 24 + json_len;
    Offsets {
        game_count,
        first_game: game_count + 5,
    }
}

fn absurd_field(bytes: Vec<u8>) -> (&'static str, u64, u64) {
    match decode_shard(&reseal(bytes)).unwrap_err() {
        ShardErrorKind::Absurd {
            field,
            value,
            limit,
        } => (field, value, limit),
        other => panic!("{other}"),
    }
}

#[test]
fn huge_length_fields_are_refused_before_allocating() {
    let good = bytes();
    let o = offsets();
    let mut bad = good.clone();
    bad[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        absurd_field(bad),
        ("header length", u64::from(u32::MAX), MAX_HEADER_LEN)
    );
    let mut bad = good.clone();
    bad[20..24].copy_from_slice(&(good.len() as u32).to_le_bytes());
    assert_eq!(absurd_field(bad).0, "header length");
    let mut bad = good.clone();
    bad[o.game_count..o.game_count + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let (field, value, limit) = absurd_field(bad);
    assert_eq!((field, value), ("game count", u64::from(u32::MAX)));
    assert!(limit < 100, "{limit}");
    // First game: seed (8), result (1), termination length (2) "checkmate" (9),
    // start flag (1), step count (4), then the first step.
    let g = o.first_game;
    let mut bad = good.clone();
    bad[g + 9..g + 11].copy_from_slice(&u16::MAX.to_le_bytes());
    let mut bad_start = good.clone();
    bad_start[g + 20] = 1; // a start string follows: its length is read from the step count
    let mut bad_steps = good.clone();
    bad_steps[g + 21..g + 25].copy_from_slice(&u32::MAX.to_le_bytes());
    let mut bad_policy = good.clone();
    bad_policy[g + 31..g + 33].copy_from_slice(&u16::MAX.to_le_bytes());
    assert_eq!(absurd_field(bad).0, "termination length");
    assert_eq!(absurd_field(bad_steps).0, "step count");
    assert_eq!(absurd_field(bad_policy).0, "policy length");
    // Seven steps read as a start string of 7 bytes: then garbage follows.
    assert!(decode_shard(&reseal(bad_start)).is_err());
}

#[test]
fn bad_fields_behind_a_valid_checksum() {
    let good = bytes();
    let o = offsets();
    let json_len = o.game_count - 24;
    let mut bad = good.clone();
    bad[24] = b'[';
    assert!(matches!(
        decode_shard(&reseal(bad)).unwrap_err(),
        ShardErrorKind::BadHeaderJson(_)
    ));
    // An unknown header key is refused, not ignored.
    let mut json = serde_json::to_value(header()).unwrap();
    json["extra"] = 1.into();
    let json = serde_json::to_vec(&json).unwrap();
    let mut bad = good[..20].to_vec();
    bad.extend_from_slice(&(json.len() as u32).to_le_bytes());
    bad.extend_from_slice(&json);
    bad.extend_from_slice(&good[24 + json_len..]);
    match decode_shard(&reseal(bad)).unwrap_err() {
        ShardErrorKind::BadHeaderJson(message) => {
            assert!(message.starts_with("unknown field `extra`"), "{message}")
        }
        other => panic!("{other}"),
    }
    let mut bad = good.clone();
    bad[o.game_count + 4] = 3;
    assert_eq!(
        decode_shard(&reseal(bad)).unwrap_err().to_string(),
        "bad index width: 3 (expected 2 or 4)"
    );
    let mut bad = good.clone();
    bad[o.first_game + 8] = 9;
    assert_eq!(
        decode_shard(&reseal(bad)).unwrap_err().to_string(),
        "bad result: code 9 (expected 0 to 3)"
    );
    let mut bad = good.clone();
    bad[o.first_game + 11] = 0xff;
    assert!(matches!(
        decode_shard(&reseal(bad)).unwrap_err(),
        ShardErrorKind::BadField {
            field: "termination",
            ..
        }
    ));
    // One game fewer than the data holds: bytes left over.
    let mut bad = good.clone();
    bad[o.game_count] -= 1;
    assert!(matches!(
        decode_shard(&reseal(bad)).unwrap_err(),
        ShardErrorKind::BadField {
            field: "game data",
            ..
        }
    ));
}

#[test]
fn random_damage_never_panics() {
    let good = bytes();
    let mut rng = SplitMix64::new(11);
    for _ in 0..3000 {
        let mut bad = good.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bad.len());
            bad[at] = rng.next_u64() as u8;
        }
        if rng.below(2) == 0 {
            bad = reseal(bad);
        }
        if let Ok(shard) = decode_shard(&bad) {
            // Only damage that keeps the file well-formed gets through.
            assert_eq!(shard.games.len(), 3);
        }
    }
}

#[test]
fn a_killed_writer_leaves_nothing_a_reader_takes() {
    let dir = test_dir("killed-writer");
    // What a writer killed before its rename leaves: half a file under a
    // temporary name.
    let temp = dir.join(".games.hdxshard.tmp-4242-0");
    fs::write(&temp, &bytes()[..100]).unwrap();
    fs::write(dir.join("notes.txt"), "not a shard").unwrap();
    assert_eq!(list_shards(&dir).unwrap(), Vec::<PathBuf>::new());
    let error = read_shard(&temp).unwrap_err();
    assert!(matches!(error.kind, ShardErrorKind::BadName(_)), "{error}");
    assert_eq!(
        error.to_string(),
        format!(
            "shard {}: not a shard file name: .games.hdxshard.tmp-4242-0 is a writer's temporary file",
            temp.display()
        )
    );
    write_shard(&dir.join("games.hdxshard"), &header(), &games()).unwrap();
    write_shard(&dir.join("a.hdxshard"), &header(), &[]).unwrap();
    assert_eq!(
        list_shards(&dir).unwrap(),
        [dir.join("a.hdxshard"), dir.join("games.hdxshard")]
    );
    // The writer's own temporary files are gone.
    let mut names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".games.hdxshard.tmp-4242-0",
            "a.hdxshard",
            "games.hdxshard",
            "notes.txt"
        ]
    );
}

#[test]
fn invalid_records_and_names_are_refused_before_writing() {
    let dir = test_dir("refused");
    let mut bad = games();
    bad[1].steps[0].policy[0].1 = f32::NAN;
    let error = write_shard(&dir.join("x.hdxshard"), &header(), &bad).unwrap_err();
    assert_eq!(
        error.kind.to_string(),
        "game 1, step 0: policy probability NaN is outside [0, 1]"
    );
    let mut bad = games();
    bad[0].steps[2].root_value = f32::INFINITY;
    let error = write_shard(&dir.join("x.hdxshard"), &header(), &bad).unwrap_err();
    assert_eq!(
        error.kind.to_string(),
        "game 0, step 2: root value inf is not finite"
    );
    let error = write_shard(&dir.join("x.bin"), &header(), &games()).unwrap_err();
    assert_eq!(
        error.kind.to_string(),
        "not a shard file name: x.bin does not end in .hdxshard"
    );
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "nothing written");
    let error = read_shard(&dir.join("missing.hdxshard")).unwrap_err();
    assert!(matches!(error.kind, ShardErrorKind::Io(_)), "{error}");
}

#[test]
fn a_reader_with_an_expected_spec_names_both_sides() {
    let dir = test_dir("expected");
    let path = dir.join("chess.hdxshard");
    write_shard(&path, &header(), &games()).unwrap();
    let chess = EncodingSpec::of(&Chess::default(), 1);
    assert_eq!(read_shard_for(&path, &chess).unwrap().games, games());
    let hostage = EncodingSpec::of(&Hostage::default(), 8);
    let error = read_shard_for(&path, &hostage).unwrap_err();
    assert_eq!(
        error.kind.to_string(),
        "shard header: encoding mismatch: expected hostage v1 T=8 [338x8x8] 6208 actions, found chess v1 (variant hostage vs chess)"
    );
    let mut newer = header();
    newer.encoding_version = 2;
    let mismatch = newer.check(&chess).unwrap_err();
    assert!(matches!(&mismatch, HeaderError::Mismatch(m) if m.reason == "encoding version 1 vs 2"));
    assert_eq!(
        newer.rules::<Chess>().unwrap_err().to_string(),
        "shard header: encoding mismatch: expected chess v1, found chess v2 (encoding version 1 vs 2)"
    );
    let traitor =
        ShardHeader::new::<Traitor>(&Traitor::parse_rules(&Default::default()).unwrap(), "x");
    assert!(traitor.rules::<Traitor>().is_ok());
    let mut other_rules = traitor.clone();
    other_rules
        .options
        .insert("mode".to_owned(), "defector".to_owned());
    let spec = EncodingSpec::of(
        &Traitor::start(&traitor.rules::<Traitor>().unwrap(), 0).unwrap(),
        1,
    );
    assert!(matches!(
        other_rules.check(&spec).unwrap_err(),
        HeaderError::Mismatch(m) if m.reason == "rule settings differ"
    ));
    let mut bad_option = traitor.clone();
    bad_option.options.insert("mode".into(), "spy".into());
    assert!(matches!(
        bad_option.rules::<Traitor>().unwrap_err(),
        HeaderError::Options(_)
    ));
}

#[test]
fn random_games_of_every_shape_round_trip() {
    let rules = Traitor::parse_rules(&Default::default()).unwrap();
    let games = random_records::<Traitor>(&rules, 6, 300);
    let header = ShardHeader::new::<Traitor>(&rules, "random");
    let shard = decode_shard(&encode_shard(&header, &games).unwrap()).unwrap();
    assert_eq!(shard.header, header);
    for (read, written) in shard.games.iter().zip(&games) {
        assert_eq!(read.steps.len(), written.steps.len());
        assert_eq!((read.seed, read.result), (written.seed, written.result));
        for (a, b) in read.steps.iter().zip(&written.steps) {
            assert_eq!((a.action, a.root_value), (b.action, b.root_value));
            for (&(i, p), &(j, q)) in a.policy.iter().zip(&b.policy) {
                assert_eq!(i, j);
                assert!((p - q).abs() <= 0.5 / 65535.0 + 1e-7);
            }
        }
    }
}

#[test]
fn files_are_checked_like_bytes() {
    let dir = test_dir("files");
    let good = bytes();
    let cut = dir.join("cut.hdxshard");
    fs::write(&cut, &good[..50]).unwrap();
    let error = read_shard(&cut).unwrap_err();
    assert_eq!(error.path, cut);
    assert!(matches!(
        error.kind,
        ShardErrorKind::Truncated { expected, actual: 50 } if expected == good.len() as u64
    ));
    let other = dir.join("other.hdxshard");
    fs::write(&other, vec![b'x'; 100_000]).unwrap();
    assert!(matches!(
        read_shard(&other).unwrap_err().kind,
        ShardErrorKind::BadMagic { .. }
    ));
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 4;
    let damaged = dir.join("damaged.hdxshard");
    fs::write(&damaged, &flipped).unwrap();
    assert!(matches!(
        read_shard(&damaged).unwrap_err().kind,
        ShardErrorKind::ChecksumMismatch { .. }
    ));
}

/// A version 1 file, written byte by byte as its layout says: one game of
/// one searched step (action 12, root value 0.25, the whole policy on
/// action 12), which has no surprise field.
fn version_1_bytes() -> Vec<u8> {
    let json = serde_json::to_vec(&header()).unwrap();
    let mut out = Vec::new();
    out.extend_from_slice(b"HDXSHARD");
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(&json);
    out.extend_from_slice(&1u32.to_le_bytes()); // games
    out.push(2); // index width
    out.extend_from_slice(&9u64.to_le_bytes()); // seed
    out.push(2); // draw
    out.extend_from_slice(&0u16.to_le_bytes()); // termination ""
    out.push(0); // seeded start
    out.extend_from_slice(&1u32.to_le_bytes()); // steps
    out.extend_from_slice(&12u16.to_le_bytes());
    out.extend_from_slice(&0.25f32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // policy entries
    out.extend_from_slice(&12u16.to_le_bytes());
    out.extend_from_slice(&65535u16.to_le_bytes());
    let total = (out.len() + 8) as u64;
    out[12..20].copy_from_slice(&total.to_le_bytes());
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn a_version_1_shard_reads_with_no_surprise() {
    let shard = decode_shard(&version_1_bytes()).unwrap();
    assert_eq!(
        shard.games,
        [GameRecord {
            seed: 9,
            start: None,
            steps: vec![StepRecord {
                action: 12,
                root_value: 0.25,
                policy: vec![(12, 1.0)],
                surprise: 0.0,
            }],
            result: GameResult::Draw,
            termination: String::new(),
        }]
    );
    // Written again it is version 2: the same bytes and 4 of surprise.
    let again = encode_shard(&header(), &shard.games).unwrap();
    assert_eq!(&again[8..12], &2u32.to_le_bytes());
    assert_eq!(again.len(), version_1_bytes().len() + 4);
    let n = again.len();
    assert_eq!(&again[n - 12..n - 8], &0f32.to_le_bytes());
}

#[test]
fn a_bad_surprise_is_refused_on_writing() {
    let mut games = games();
    games[1].steps[0].surprise = -0.5;
    let error = encode_shard(&header(), &games).unwrap_err();
    assert_eq!(
        error.to_string(),
        "game 1, step 0: surprise -0.5 is not a finite number >= 0"
    );
}
