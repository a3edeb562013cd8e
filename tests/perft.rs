//! The one perft driver for every variant: each file `tests/data/<variant>.perft`
//! holds `epd <fen>` lines, each followed by `perft <depth> <nodes>` lines
//! (`#` starts a comment). An `options key=value,...` line sets rule options
//! for the `epd` lines after it (e.g. `options mode=defector`). A variant
//! joins by adding its file.

use std::fs;
use std::path::{Path, PathBuf};

use heterodox_env::{AnyGame, RuleOptions, Variant};

struct Case {
    line: usize,
    options: RuleOptions,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn parse_perft_file(path: &Path) -> Vec<Case> {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    let mut fen: Option<String> = None;
    let mut options = RuleOptions::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("options ") {
            options = RuleOptions::parse(rest)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), index + 1));
        } else if let Some(rest) = line.strip_prefix("epd ") {
            fen = Some(rest.trim().to_owned());
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let nodes = parts.next().and_then(|n| n.parse().ok());
            let (Some(depth), Some(nodes), Some(fen)) = (depth, nodes, fen.clone()) else {
                panic!("{}:{}: malformed line '{raw}'", path.display(), index + 1);
            };
            cases.push(Case {
                line: index + 1,
                options: options.clone(),
                fen,
                depth,
                nodes,
            });
        } else {
            panic!("{}:{}: unknown line '{raw}'", path.display(), index + 1);
        }
    }
    cases
}

fn perft_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    files
}

fn run_file(path: &Path) -> usize {
    let variant: Variant = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("utf-8 name")
        .parse()
        .expect("file named after a variant");
    let cases = parse_perft_file(path);
    assert!(!cases.is_empty(), "{} has no cases", path.display());
    for case in &cases {
        let game = AnyGame::with_options(variant, Some(&case.fen), &case.options)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), case.line));
        assert_eq!(
            game.perft(case.depth),
            case.nodes,
            "{}:{}: perft {} of {}",
            path.display(),
            case.line,
            case.depth,
            case.fen
        );
    }
    cases.len()
}

#[test]
fn every_perft_file_matches() {
    let files = perft_files();
    assert!(
        files.iter().any(|f| f.ends_with("chess.perft")),
        "chess.perft is missing"
    );
    for file in files {
        run_file(&file);
    }
}

#[test]
fn chess_perft_file_has_the_required_depths() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/chess.perft");
    let cases = parse_perft_file(&path);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(cases
        .iter()
        .any(|c| c.fen == start && c.depth == 5 && c.nodes == 4_865_609));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert!(cases
        .iter()
        .any(|c| c.fen == kiwipete && c.depth == 4 && c.nodes == 4_085_603));
}
