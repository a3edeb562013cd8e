//! What the search costs beside the network: on the CPU, with the default
//! chess network (`NetConfig::for_spec`, 4 blocks x 64 channels, T = 1),
//! measured in the same run:
//!
//! * (a) the network's own forward throughput (positions/s) at batch 64 and
//!   256: `forward_t` on random input, evaluation mode, no autograd;
//! * (b) search simulations/s of many games searched together, their leaves
//!   joined into one evaluator call per round at the same nominal batch
//!   (games x `leaves_per_round`: 8 x 8 = 64, 32 x 8 = 256), through
//!   `NetEvaluator` directly and through `QueuedEvaluator`;
//!
//! and prints the ratio (b) / (a). The search is single-threaded, on the
//! calling thread, between forward passes: this measures the overhead a
//! round adds to its forward pass. The row `queued 2 wk` splits the games
//! over two worker threads sharing the queue, which merges their batches
//! (up to the same nominal batch) while the other worker searches: the
//! overlap that self-play workers get. Each game plays the best move and searches on (tree reuse), and starts
//! over when it ends or reaches 200 plies.
//!
//! Simulations are counted at the roots (completed visits, whether the
//! leaf was evaluated or terminal), from a round after every game's first
//! search to the first round after the deadline. Leaves/s (positions the
//! network evaluated) is printed beside it; terminal simulations cost no
//! evaluation, so sims/s can exceed it.
//!
//! Each figure is the best of `HETERODOX_BENCH_REPS` (default 3)
//! interleaved measurements of `HETERODOX_BENCH_SECONDS` (default 2) each;
//! the row `search only` runs the search alone (uniform evaluator, leaves
//! still encoded as for the network), whose
//! rate bounds the ratio: `1 / (1 + forward/search)` when nothing overlaps.
//!
//! `HETERODOX_BENCH_THREADS` sets libtorch's intra-op threads (default:
//! the machine's available parallelism). On a machine whose cores are
//! busy with other work, run with `OMP_WAIT_POLICY=passive`: libtorch's
//! OpenMP workers otherwise spin between parallel regions, and on a
//! 2-core machine under load the main thread's forward passes ran 5x
//! slower with 2 threads than with 1 (a spawned thread's did not).
//! `HETERODOX_BENCH_DEVICE=cuda` runs the network on the first GPU instead
//! (the bench binary does not link libtorch's CUDA library: preload it,
//! `LD_PRELOAD=.../libtorch_cuda.so`).
//!
//! ```text
//! cargo bench -p heterodox-models --bench search
//! ```

use std::time::{Duration, Instant};

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{new_position, Chess, Game, RuleOptions};
use heterodox_models::tch::{self, Device, Kind, Tensor};
use heterodox_models::{NetConfig, NetEvaluator, Network, QueueConfig, QueuedEvaluator};
use heterodox_selfplay::{
    Evaluator, LeafBatch, RootPolicy, Search, SearchConfig, UniformEvaluator,
};

const SIMULATIONS: u32 = 64;
const LEAVES_PER_ROUND: u32 = 8;
const MAX_PLIES: u32 = 200;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn start() -> Chess {
    new_position(None, &RuleOptions::new(), 0).expect("chess start position")
}

/// Forward passes of `batch` random positions for about `seconds`:
/// positions per second.
fn forward_throughput(network: &Network, spec: &EncodingSpec, batch: i64, seconds: f64) -> f64 {
    let [c, h, w] = spec.observation_shape().map(|x| x as i64);
    let device = network.var_store().device();
    let xs = Tensor::randn([batch, c, h, w], (Kind::Float, device));
    let _guard = tch::no_grad_guard();
    for _ in 0..2 {
        let _ = network.forward_t(&xs, false);
    }
    let begin = Instant::now();
    let mut passes = 0u64;
    while begin.elapsed().as_secs_f64() < seconds {
        let (policy, _value) = network.forward_t(&xs, false);
        // Reading one logit makes sure the pass has run.
        let _ = policy.double_value(&[0, 0]);
        passes += 1;
    }
    (passes * batch as u64) as f64 / begin.elapsed().as_secs_f64()
}

/// One game searched move after move.
struct Slot {
    game: Game<Chess>,
    search: Search<Chess>,
    batch: LeafBatch<Chess>,
    seed: u64,
    /// Root visits when the current search started (a reused subtree
    /// brings its own).
    base: u64,
}

/// Simulations completed at the root of a search so far.
fn root_visits(search: &mut Search<Chess>) -> u64 {
    search.result().visits.iter().map(|&v| u64::from(v)).sum()
}

impl Slot {
    /// Simulations the current search has completed since it started.
    fn progress(&mut self) -> u64 {
        root_visits(&mut self.search) - self.base
    }
}

struct SearchFigures {
    sims_per_s: f64,
    leaves_per_s: f64,
    mean_batch: f64,
}

/// Searches `games` games together with `evaluator` for about `seconds`
/// (after one warm-up move each). Simulations are counted exactly: those
/// of searches completed, plus the progress of the searches under way at
/// the window's ends.
fn search_throughput<E: Evaluator<Chess>>(
    evaluator: &E,
    spec: &EncodingSpec,
    games: usize,
    seed: u64,
    seconds: f64,
) -> SearchFigures {
    let config = SearchConfig {
        simulations: SIMULATIONS,
        leaves_per_round: LEAVES_PER_ROUND,
        root_policy: RootPolicy::Puct,
        ..SearchConfig::default()
    };
    let mut slots: Vec<Slot> = (0..games)
        .map(|g| {
            let game = Game::new(start());
            let mut search = Search::new(config.clone(), spec).expect("search config");
            let seed = seed + g as u64;
            search.start(&game, &[], seed).expect("game not over");
            Slot {
                game,
                search,
                batch: LeafBatch::new(spec),
                seed,
                base: 0,
            }
        })
        .collect();
    let mut combined = LeafBatch::new(spec);
    let (mut priors, mut values) = (Vec::new(), Vec::new());
    let mut completed = 0u64;
    // Simulations of completed searches, leaves evaluated, rounds.
    let (mut sims, mut leaves, mut rounds) = (0u64, 0u64, 0u64);
    let mut window: Option<(Instant, u64, u64, u64)> = None;
    let total = |slots: &mut [Slot], sims: u64| -> u64 {
        sims + slots.iter_mut().map(Slot::progress).sum::<u64>()
    };
    loop {
        combined.clear();
        for slot in &mut slots {
            slot.batch.clear();
            slot.search.gather(&mut slot.batch);
            combined.extend_from(&slot.batch);
        }
        priors.clear();
        priors.resize(combined.total_legal(), 0.0);
        values.clear();
        values.resize(combined.len(), 0.0);
        if !combined.is_empty() {
            evaluator.evaluate(&combined, &mut priors, &mut values);
        }
        let (mut p, mut v) = (0, 0);
        for slot in &mut slots {
            let (np, nv) = (slot.batch.total_legal(), slot.batch.len());
            slot.search
                .apply(&priors[p..p + np], &values[v..v + nv])
                .expect("evaluations match the leaves");
            p += np;
            v += nv;
        }
        leaves += combined.len() as u64;
        rounds += 1;
        for slot in &mut slots {
            if !slot.search.is_done() {
                continue;
            }
            completed += 1;
            let result = slot.search.result();
            let visits: u64 = result.visits.iter().map(|&v| u64::from(v)).sum();
            sims += visits - slot.base;
            let action = result.actions[result.best];
            slot.search.advance(result.indices[result.best]);
            slot.game.play(&action).expect("searched actions are legal");
            if slot.game.outcome().is_some() || slot.game.plies() >= MAX_PLIES {
                slot.game = Game::new(start());
            }
            slot.seed += games as u64;
            slot.search
                .start(&slot.game, &[], slot.seed)
                .expect("game not over");
            slot.base = root_visits(&mut slot.search);
        }
        match window {
            None if completed >= games as u64 => {
                window = Some((Instant::now(), total(&mut slots, sims), leaves, rounds));
            }
            Some((t0, ..)) if t0.elapsed().as_secs_f64() >= seconds => break,
            _ => {}
        }
    }
    let (t0, s0, l0, r0) = window.expect("the clock started");
    let elapsed = t0.elapsed().as_secs_f64();
    let s1 = total(&mut slots, sims);
    SearchFigures {
        sims_per_s: (s1 - s0) as f64 / elapsed,
        leaves_per_s: (leaves - l0) as f64 / elapsed,
        mean_batch: (leaves - l0) as f64 / (rounds - r0).max(1) as f64,
    }
}

/// `workers` threads, each searching `games / workers` games with its own
/// rounds, sharing the queue, which merges their batches: summed rates,
/// and the mean forward-pass batch from the queue's counters.
fn workers_throughput(
    queued: &QueuedEvaluator,
    spec: &EncodingSpec,
    games: usize,
    workers: usize,
    seconds: f64,
) -> SearchFigures {
    let before = queued.stats();
    let figures: Vec<SearchFigures> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                scope.spawn(move || {
                    search_throughput(queued, spec, games / workers, 1000 * w as u64, seconds)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = queued.stats();
    SearchFigures {
        sims_per_s: figures.iter().map(|f| f.sims_per_s).sum(),
        leaves_per_s: figures.iter().map(|f| f.leaves_per_s).sum(),
        mean_batch: (after.forwarded - before.forwarded) as f64
            / (after.forward_passes - before.forward_passes).max(1) as f64,
    }
}

/// The best (highest) of several measurements: on a shared machine the
/// others' load only ever slows a measurement down.
fn best(a: SearchFigures, b: SearchFigures) -> SearchFigures {
    if b.sims_per_s > a.sims_per_s {
        b
    } else {
        a
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is understood.
    let parallelism = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: i32 = env_or("HETERODOX_BENCH_THREADS", parallelism as i32);
    let seconds: f64 = env_or("HETERODOX_BENCH_SECONDS", 2.0);
    let reps: usize = env_or("HETERODOX_BENCH_REPS", 3_usize).max(1);
    let device = match std::env::var("HETERODOX_BENCH_DEVICE").as_deref() {
        Ok("cuda") if tch::Cuda::is_available() => Device::Cuda(0),
        Ok("cuda") => panic!("HETERODOX_BENCH_DEVICE=cuda but CUDA is not available"),
        _ => Device::Cpu,
    };
    tch::set_num_threads(threads);
    tch::manual_seed(0);
    let spec = EncodingSpec::of(&start(), 1);
    let config = NetConfig::for_spec(&spec);
    let mut network = Network::for_spec(&spec, &config, device).expect("default network");
    println!(
        "search bench: chess T=1, network {} blocks x {} channels ({} parameters), {:?}, \
         torch intra-op threads {} (get_num_threads = {}), OMP_WAIT_POLICY={}, \
         {} simulations per move, {} leaves per round, best of {} x {:.1} s per figure",
        config.blocks,
        config.channels,
        network.parameter_count(),
        device,
        threads,
        tch::get_num_threads(),
        std::env::var("OMP_WAIT_POLICY").unwrap_or_else(|_| "unset".to_owned()),
        SIMULATIONS,
        LEAVES_PER_ROUND,
        reps,
        seconds,
    );
    println!(
        "{:>5} {:>6} {:>12} {:>10} {:>10} {:>10} {:>10} {:>9}",
        "batch", "games", "evaluator", "fwd pos/s", "sims/s", "leaves/s", "mean batch", "sims/fwd"
    );
    for batch in [64_usize, 256] {
        let games = batch / LEAVES_PER_ROUND as usize;
        let queue = QueueConfig {
            max_batch: batch,
            max_wait: Duration::from_millis(1),
            cache_size: 0,
        };
        let mut forward = 0.0f64;
        let mut rows: Vec<Option<SearchFigures>> = vec![None, None, None];
        // Interleaved repetitions, so that a burst of load elsewhere hits
        // one repetition of each figure rather than all of one.
        for _ in 0..reps {
            forward = forward.max(forward_throughput(&network, &spec, batch as i64, seconds));
            let direct = NetEvaluator::new(network, &spec).expect("network fits its spec");
            let d = search_throughput(&direct, &spec, games, 0, seconds);
            network = direct.into_network();
            let queued =
                QueuedEvaluator::new(network, &spec, queue).expect("network fits its spec");
            let q = search_throughput(&queued, &spec, games, 0, seconds);
            let q2 = workers_throughput(&queued, &spec, games, 2, seconds);
            network = queued.shutdown().expect("runner alive");
            for (row, f) in rows.iter_mut().zip([d, q, q2]) {
                *row = Some(match row.take() {
                    Some(r) => best(r, f),
                    None => f,
                });
            }
        }
        // The search alone (uniform priors, no network): its own cost.
        let u = search_throughput(&UniformEvaluator, &spec, games, 0, seconds);
        let names = ["direct", "queued", "queued 2 wk", "search only"];
        for (name, f) in names.iter().zip(rows.into_iter().flatten().chain([u])) {
            println!(
                "{:>5} {:>6} {:>12} {:>10.0} {:>10.0} {:>10.0} {:>10.1} {:>9.3}",
                batch,
                games,
                name,
                forward,
                f.sims_per_s,
                f.leaves_per_s,
                f.mean_batch,
                f.sims_per_s / forward,
            );
        }
    }
    drop(network);
}
