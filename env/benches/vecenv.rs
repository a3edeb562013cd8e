//! Random-playout throughput of the learning environment, per variant,
//! single-threaded (a one-thread rayon pool):
//!
//! * `rules`: `Game<P>` alone: legal actions, a random pick, play, outcome
//!   (the rules core, no codec, no buffers);
//! * `vecenv, no obs`: `VecEnv` steps with action indices and masks but
//!   observations off;
//! * `vecenv, obs`: the same with float32 observations written each step.
//!
//! Each figure is the median of several timed rounds of about half a second.
//! Run: `cargo bench -p heterodox-env --bench vecenv`. Targets (issue 7):
//! at least 1,000,000 steps/s per core without observations for chess,
//! poison, hostage and traitor; at least 400,000 for madscientist.

#[path = "rate/mod.rs"]
mod rate;

use std::hint::black_box;

use rate::{measure, ROUNDS};

use heterodox_env::vecenv::SplitMix64;
use heterodox_env::GameVariant;
use heterodox_env::{Chess, EnvConfig, Game, Hostage, MadScientist, PoisonChess, Traitor, VecEnv};

const ENVS: usize = 64;

/// Plays random games through `Game<P>` for about 4,096 steps per call.
fn rules_playouts<P: GameVariant>(make: &impl Fn(u64) -> P, rng: &mut SplitMix64) -> u64 {
    let mut actions = Vec::with_capacity(256);
    let mut steps = 0;
    while steps < 4096 {
        let mut game = Game::new(make(rng.next_u64()));
        while game.plies() < 512 {
            game.legal_actions(&mut actions);
            if actions.is_empty() {
                break;
            }
            let action = actions[rng.below(actions.len())];
            game.play_unchecked(black_box(&action));
            steps += 1;
        }
    }
    steps
}

fn vecenv_steps<P: GameVariant>(
    env: &mut VecEnv<P>,
    rng: &mut SplitMix64,
    actions: &mut [i64],
) -> u64 {
    for _ in 0..64 {
        env.random_legal_actions(rng, actions);
        env.step(actions).expect("random legal actions are legal");
    }
    black_box(env.observations());
    64 * env.num_envs() as u64
}

fn bench_variant<P: GameVariant>(
    name: &str,
    make: impl Fn(u64) -> P + Send + Sync + Clone + 'static,
) {
    let mut rng = SplitMix64::new(1);
    let rules = measure(|| rules_playouts(&make, &mut rng));
    let mut figures = vec![("rules", rules)];
    for observations in [false, true] {
        let config = EnvConfig::new(ENVS)
            .with_seed(1)
            .with_observations(observations);
        let mut env = VecEnv::new(config, make.clone()).expect("valid config");
        let mut actions = vec![0; ENVS];
        let label = if observations {
            "vecenv, obs"
        } else {
            "vecenv, no obs"
        };
        figures.push((
            label,
            measure(|| vecenv_steps(&mut env, &mut rng, &mut actions)),
        ));
    }
    for (label, rate) in figures {
        println!("{name:<14} {label:<16} {rate:>12.0} steps/s");
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a plain filter argument picks variants.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    println!("random playouts, single thread, {ENVS} envs per VecEnv (median of {ROUNDS} rounds)");
    pool.install(|| {
        let wanted =
            |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
        if wanted("chess") {
            bench_variant("chess", |_| Chess::new());
        }
        if wanted("poison") {
            bench_variant("poison", |_| PoisonChess::new());
        }
        if wanted("hostage") {
            bench_variant("hostage", |_| Hostage::new());
        }
        if wanted("traitor") {
            bench_variant("traitor", |_| {
                Traitor::new(Default::default()).expect("default rules are valid")
            });
        }
        if wanted("madscientist") {
            bench_variant("madscientist", |_| MadScientist::new());
        }
    });
}
