//! Training-loader throughput: positions per second decoded into float32
//! batches (observation, mask, policy target, value target), for chess and
//! hostage, T = 1 and T = 8, on rayon pools of 1 and 2 threads.
//!
//! The data is a synthetic shard of random legal games (uniform policy over
//! the legal actions, cut at 300 plies), encoded and decoded as a file
//! would be. Batches of 256 rows sampled uniformly. Each figure is the
//! median of five rounds of about half a second.
//!
//! Run: `cargo bench -p heterodox-data --bench loader`. Training
//! consumes some 5,000 to 20,000 positions/s on a CPU; the loader should be
//! well above that on one thread.

#[path = "../../env/benches/rate/mod.rs"]
mod rate;
#[path = "../tests/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::Instant;

use rate::measure;

use heterodox_data::loader::{Loader, LoaderConfig};
use heterodox_data::shard::{decode_shard, encode_shard, ShardHeader};
use heterodox_env::{Chess, GameVariant, Hostage};

const GAMES: u64 = 200;
const MAX_PLIES: usize = 300;
const BATCH: usize = 256;
fn bench_variant<P: GameVariant>(rules: P::Rules) {
    let games = support::random_records::<P>(&rules, GAMES, MAX_PLIES);
    let header = ShardHeader::new::<P>(&rules, "bench: random legal games, uniform policy");
    let bytes = encode_shard(&header, &games).expect("valid records");
    let shard = decode_shard(&bytes).expect("a valid shard");
    let positions: usize = shard.games.iter().map(|g| g.steps.len()).sum();
    println!(
        "{}: {} games, {} positions, shard {} KiB ({:.1} bytes/position)",
        P::VARIANT,
        GAMES,
        positions,
        bytes.len() / 1024,
        bytes.len() as f64 / positions as f64
    );
    for history in [1, 8] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            pool.install(|| {
                let config = LoaderConfig::default().with_history(history).with_seed(1);
                let start = Instant::now();
                let mut loader =
                    Loader::<P>::from_shards(vec![shard.clone()], &config).expect("loads");
                let load = start.elapsed();
                let mut batch = loader.new_batch(BATCH);
                let rate = measure(|| {
                    loader.fill_batch(&mut batch).expect("fills");
                    black_box(&batch);
                    BATCH as u64
                });
                println!(
                    "  T={history} threads={threads}: {rate:>10.0} positions/s (load {:.0} ms)",
                    load.as_secs_f64() * 1000.0
                );
            });
        }
    }
}

fn main() {
    bench_variant::<Chess>(());
    bench_variant::<Hostage>(());
}
