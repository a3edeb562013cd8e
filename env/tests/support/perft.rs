//! The perft files `tests/data/<variant>.perft`, read once for every test
//! that uses them: the generic driver (tests/perft.rs) and the tests that
//! check a variant's reference generator against the same counts.
//!
//! A file holds `epd <position string>` lines, each followed by
//! `perft <depth> <nodes>` lines (`#` starts a comment). An
//! `options key=value,...` line sets the rule options of the `epd` lines
//! after it (e.g. `options mode=defector`).

#![allow(dead_code)] // each test file uses a subset

use std::fs;
use std::path::{Path, PathBuf};

use heterodox_env::{Position, RuleOptions, Variant};

/// One `epd` line with its rule options and its `perft` lines.
pub struct PerftPosition {
    /// The 1-based line of the `epd` line.
    pub line: usize,
    pub options: RuleOptions,
    pub fen: String,
    /// (depth, nodes, line) of each `perft` line.
    pub counts: Vec<(u32, u64, usize)>,
}

/// Perft by a reference generator: `legal(position)` lists the actions,
/// and each is played to count the tree below it (slow; small depths only).
pub fn reference_perft<P: Position>(
    position: &P,
    depth: u32,
    legal: &impl Fn(&P) -> Vec<P::Action>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = legal(position);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|a| {
            let mut child = position.clone();
            child.play_unchecked(a);
            reference_perft(&child, depth - 1, legal)
        })
        .sum()
}

/// The perft file of `variant`: `tests/data/<name>.perft`.
pub fn perft_file(variant: Variant) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{}.perft", variant.name()))
}

/// Every position of a perft file, in file order. Panics with the file and
/// line on anything malformed: a test data error, not an input error.
pub fn read_perft_file(path: &Path) -> Vec<PerftPosition> {
    let text =
        fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut positions: Vec<PerftPosition> = Vec::new();
    let mut options = RuleOptions::new();
    for (index, raw) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), index + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("options ") {
            options = RuleOptions::parse(rest).unwrap_or_else(|e| panic!("{}: {e}", at()));
        } else if let Some(rest) = line.strip_prefix("epd ") {
            positions.push(PerftPosition {
                line: index + 1,
                options: options.clone(),
                fen: rest.trim().to_owned(),
                counts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let nodes = parts.next().and_then(|n| n.parse().ok());
            let (Some(depth), Some(nodes), Some(position)) = (depth, nodes, positions.last_mut())
            else {
                panic!("{}: malformed line '{raw}'", at());
            };
            position.counts.push((depth, nodes, index + 1));
        } else {
            panic!("{}: unknown line '{raw}'", at());
        }
    }
    positions
}
