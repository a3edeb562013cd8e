//! The benchmark: a fixed list of positions per variant (the start
//! position, then those listed here), each searched to
//! a fixed depth on one thread by a fresh engine. The node count is the
//! search's signature: it changes exactly when the search's behaviour
//! does (a pruning, an ordering, an evaluation term), so a change that
//! should not alter the search can be checked by it; nodes per second is
//! the speed figure.

use std::time::{Duration, Instant};

use heterodox_env::{
    new_position, Game, GameVariant, NewGameError, RuleOptions, Variant, VariantVisitor,
};

use crate::eval::EvalWeights;
use crate::search::config::EngineConfig;
use crate::search::engine::Engine;
use crate::search::error::EngineError;
use crate::search::limits::Limits;

/// The depth `heterodox bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// One variant's part of the benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub variant: Variant,
    pub positions: usize,
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchResult {
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Why the benchmark could not run (a position string a variant no longer
/// reads, or a bad depth).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("benchmark position of {variant}: {error}")]
    Position {
        variant: Variant,
        error: NewGameError,
    },
}

/// The positions each variant's benchmark searches after its start
/// position, as position strings under the default rules: middlegames and
/// endgames that exercise its own rules (drops, poison, parts, secrets).
/// A variant not listed searches the start position only. They belong to
/// the benchmark, not to the evaluation: changing one changes the
/// signature, nothing else.
const POSITIONS: &[(Variant, &[&str])] = &[
    (
        Variant::Chess,
        &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ],
    ),
    (
        Variant::Poison,
        &[
        "2d1k3/p2p1p1N/hp4pp/b3Hn2/2P4B/P3D2P/1P3PP1/6K1 w - - 0 1 -",
            "h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2",
            "h1bdkbnh/ppp2ppp/2n5/3pp3/4P3/2N2N2/PPPP1PPP/H1BDKB1H w KQkq - 0 4 -",
        ],
    ),
    (
        Variant::Hostage,
        &[
        "r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8",
            "r3k1nr/p4ppp/8/1p1qp3/P1p5/Kpb5/n4PPP/1R3BNR[b/PP/QBNPP/-] b kq - 1 24",
        ],
    ),
    (
        Variant::MadScientist,
        &[
        "r3k2r/2[cc]5/8/8/8/8/5[BB]2/R3K2R w KQkq - WWFCb 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - - 4 4",
        ],
    ),
    (
        Variant::Traitor,
        &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- c8,g7/c1,g2,h1 open - -",
            "7k/r7/8/4n3/8/2b5/8/R6K w - - 0 1 h8=e8,e5=b8,c3=c8,a7=a8,h1=e1 c3,e5 0,9 b8,c8/- -/- open - -",
        ],
    ),
];

/// The position strings of `variant`'s benchmark, the start position
/// (`None`) first, then its [`POSITIONS`].
pub fn positions(variant: Variant) -> Vec<Option<&'static str>> {
    let listed = POSITIONS
        .iter()
        .find(|(listed, _)| *listed == variant)
        .map_or(&[][..], |(_, fens)| *fens);
    std::iter::once(None)
        .chain(listed.iter().map(|fen| Some(*fen)))
        .collect()
}

/// Runs the benchmark of every registered variant at `depth`.
pub fn run(depth: u32) -> Result<Vec<BenchResult>, BenchError> {
    Variant::ALL
        .into_iter()
        .map(|variant| variant.visit(BenchVariant { variant, depth }))
        .collect()
}

struct BenchVariant {
    variant: Variant,
    depth: u32,
}

impl VariantVisitor for BenchVariant {
    type Output = Result<BenchResult, BenchError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let variant = self.variant;
        let config = EngineConfig {
            hash_mib: 16,
            threads: 1,
            determinizations: 4,
            seed: 0,
            weights: EvalWeights::Tuned,
            threat_guard: true,
            selection_strategy: true,
            beliefs: true,
        };
        let mut engine = Engine::<P>::new(config)?;
        let limits = Limits::depth(self.depth);
        let mut nodes = 0;
        let mut elapsed = Duration::ZERO;
        let list = positions(variant);
        for fen in &list {
            let position = new_position::<P>(*fen, &RuleOptions::new(), 0)
                .map_err(|error| BenchError::Position { variant, error })?;
            let game = Game::new(position);
            engine.new_game();
            let start = Instant::now();
            let report = engine.search(&game, &limits, |_| {})?;
            elapsed += start.elapsed();
            nodes += report.nodes;
        }
        Ok(BenchResult {
            variant,
            positions: list.len(),
            nodes,
            elapsed,
        })
    }
}
