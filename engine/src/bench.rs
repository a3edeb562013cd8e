//! The benchmark: a fixed list of positions per variant (the start
//! position, then those its evaluation module lists), each searched to
//! a fixed depth on one thread by a fresh engine. The node count is the
//! search's signature: it changes exactly when the search's behaviour
//! does (a pruning, an ordering, an evaluation term), so a change that
//! should not alter the search can be checked by it; nodes per second is
//! the speed figure.

use std::time::{Duration, Instant};

use heterodox_env::{
    new_position, Game, GameVariant, NewGameError, RuleOptions, Variant, VariantVisitor,
};

use crate::eval::{visit_knowledge, Knowledge, KnowledgeVisitor};
use crate::{Engine, EngineConfig, EngineError, EvalWeights, Limits};

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

/// The position strings of `variant`'s benchmark, the start position
/// (`None`) first, then the positions its evaluation module lists
/// (`BENCH_POSITIONS` of its knowledge; none by default).
pub fn positions(variant: Variant) -> Vec<Option<&'static str>> {
    struct Listed;
    impl KnowledgeVisitor for Listed {
        type Output = &'static [&'static str];
        fn visit<K: Knowledge>(self) -> Self::Output {
            K::BENCH_POSITIONS
        }
    }
    struct Of;
    impl VariantVisitor for Of {
        type Output = &'static [&'static str];
        fn visit<P: GameVariant>(self) -> Self::Output {
            visit_knowledge::<P, _>(Listed).unwrap_or_default()
        }
    }
    std::iter::once(None)
        .chain(variant.visit(Of).iter().map(|fen| Some(*fen)))
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
