//! What a search pays per node in the rules core, per variant,
//! single-threaded, before and after the search API (one run, same games):
//!
//! * `before`: the pre-search-API pattern: `legal_actions`, indices by
//!   `action_index`, a random pick, the action found back by scanning the
//!   list for its index, `Game::play_unchecked` (full Zobrist key, history
//!   push) and `Game::outcome` (a second generation pass for the terminal
//!   test, plus the repetition count);
//! * `after`: `ActionSet::generate` (one pass: list, indices, index map,
//!   outcome), the action from its index in O(1), `play_unchecked` on the
//!   position, and a `RepetitionPath` push and count;
//! * `key`: the cost of the full `repetition_key` alone per node, the part
//!   incremental Zobrist keys would save.
//!
//! Run: `cargo bench -p heterodox-env --bench search_step`. Prints nodes/s
//! and the after/before ratio.

#[path = "rate/mod.rs"]
mod rate;

use std::hint::black_box;

use heterodox_env::encoding::ActionSet;
use heterodox_env::repetition::RepetitionPath;
use heterodox_env::rng::SplitMix64;
use heterodox_env::{new_position, Game, GameVariant, RuleOptions, Variant, VariantVisitor};
use rate::measure;

const MAX_PLIES: u32 = 300;
const NODES_PER_CALL: u64 = 4096;

fn before<P: GameVariant>(start: &P, rng: &mut SplitMix64) -> u64 {
    let mut legal = Vec::with_capacity(256);
    let mut indices = Vec::with_capacity(256);
    let mut nodes = 0;
    while nodes < NODES_PER_CALL {
        let mut game = Game::new(start.clone());
        while game.plies() < MAX_PLIES {
            nodes += 1;
            if game.outcome().is_some() {
                break;
            }
            game.position().legal_actions(&mut legal);
            indices.clear();
            indices.extend(legal.iter().map(|a| game.position().action_index(a)));
            let index = indices[rng.below(indices.len())];
            let k = indices.iter().position(|&i| i == index).expect("listed");
            game.play_unchecked(black_box(&legal[k]));
        }
    }
    nodes
}

fn after<P: GameVariant>(start: &P, rng: &mut SplitMix64) -> u64 {
    let mut set = ActionSet::<P>::new(start.num_actions());
    let mut path = RepetitionPath::default();
    let mut nodes = 0;
    while nodes < NODES_PER_CALL {
        let mut position = start.clone();
        path.truncate(0);
        path.push(position.repetition_key(), true);
        for _ in 0..MAX_PLIES {
            nodes += 1;
            if set.generate(&position).is_some() || path.repetitions() >= 3 {
                break;
            }
            let index = set.indices()[rng.below(set.len())];
            let action = set.action_of(index as usize).expect("listed");
            let irreversible = position.is_irreversible(&action);
            position.play_unchecked(black_box(&action));
            path.push(position.repetition_key(), irreversible);
        }
    }
    nodes
}

/// Full keys along random games: the time a key takes, per node.
fn keys<P: GameVariant>(start: &P, rng: &mut SplitMix64) -> (u64, f64) {
    let mut set = ActionSet::<P>::new(start.num_actions());
    let mut positions = Vec::new();
    let mut position = start.clone();
    for _ in 0..MAX_PLIES {
        if set.generate(&position).is_some() {
            break;
        }
        positions.push(position.clone());
        let action = set.actions()[rng.below(set.len())];
        position.play_unchecked(&action);
    }
    let rate = measure(|| {
        let mut acc = 0u64;
        for p in &positions {
            acc ^= black_box(p).repetition_key();
        }
        black_box(acc);
        positions.len() as u64
    });
    (positions.len() as u64, rate)
}

struct Bench;

impl VariantVisitor for Bench {
    type Output = ();

    fn visit<P: GameVariant>(self) {
        let start: P = new_position(None, &RuleOptions::new(), 0).expect("start");
        let mut rng = SplitMix64::new(1);
        let old = measure(|| before(&start, &mut rng));
        let mut rng = SplitMix64::new(1);
        let new = measure(|| after(&start, &mut rng));
        let (_, key_rate) = keys(&start, &mut SplitMix64::new(2));
        println!(
            "{:<13} before {:>10.0} nodes/s  after {:>10.0} nodes/s  ratio {:>5.2}  \
             full key {:>5.1} ns = {:>4.1}% of an after-node",
            P::VARIANT.name(),
            old,
            new,
            new / old,
            1e9 / key_rate,
            100.0 * new / key_rate
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument picks variants.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for variant in Variant::ALL {
        if filter.is_empty() || filter.iter().any(|f| variant.name().contains(f.as_str())) {
            variant.visit(Bench);
        }
    }
}
