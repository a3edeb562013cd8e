//! The one perft driver for every registered variant: each variant of
//! `Variant::ALL` has its file `tests/data/<variant>.perft` (format in
//! support::perft), and every count in it must match. A variant joins by
//! adding its file.

mod support;

use heterodox_env::{AnyGame, Variant};
use support::perft::{perft_file, read_perft_file};

fn run_file(variant: Variant) -> usize {
    let path = perft_file(variant);
    let positions = read_perft_file(&path);
    let mut cases = 0;
    for position in &positions {
        let game = AnyGame::with_options(variant, Some(&position.fen), &position.options)
            .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), position.line));
        for &(depth, nodes, line) in &position.counts {
            assert_eq!(
                game.perft(depth),
                nodes,
                "{}:{line}: perft {depth} of {}",
                path.display(),
                position.fen
            );
            cases += 1;
        }
    }
    cases
}

#[test]
fn every_registered_variant_has_a_perft_file_that_matches() {
    for variant in Variant::ALL {
        assert!(run_file(variant) > 0, "{variant}.perft has no cases");
    }
}

#[test]
fn chess_perft_file_has_the_required_depths() {
    let positions = read_perft_file(&perft_file(Variant::Chess));
    let has = |fen: &str, depth: u32, nodes: u64| {
        positions
            .iter()
            .any(|p| p.fen == fen && p.counts.iter().any(|c| (c.0, c.1) == (depth, nodes)))
    };
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(has(start, 5, 4_865_609));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert!(has(kiwipete, 4, 4_085_603));
}
