//! The learned evaluation (NNUE: an efficiently updatable neural
//! network): a small net over each variant's feature set whose first layer
//! is kept up to date as the search moves, read by the engine without
//! libtorch.
//!
//! * [`features`]: what a feature set is, the helpers every variant's set
//!   is written with, and each variant's set (`features/<variant>.rs`),
//!   apart from its classical evaluation: the two share nothing but the
//!   position they read.
//! * [`network`]: the net file's header (`network/header.rs`), the float
//!   net it stores (`network/float.rs`) and the quantized net the search
//!   evaluates with (`network/quantized.rs`).
//! * [`accumulator`]: the per-ply accumulators the search updates from
//!   parent to child.
//! * [`data`]: training positions from teacher shards.
//!
//! docs/engine.md ("Learned evaluation") describes the sets, the training
//! and the measured strength.

pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;

use heterodox_env::{Color, GameVariant};

pub use accumulator::Accumulators;
pub use data::{read_teach_data, NnueData};
pub use features::{FeatureList, FeatureSet, MAX_ACTIVE};
pub use network::{Base, FloatNetwork, Network, NetworkHeader, NnueError};

/// The feature set of `P`, `None` for a variant without one.
pub fn feature_set<P: GameVariant>() -> Option<FeatureSet> {
    features::set_of::<P>()
}

/// Fills `out` with `pos`'s active features from `perspective`, sorted, as
/// `observer` may know them (the player searching; it matters only under
/// hidden information).
pub fn features<P: GameVariant>(
    pos: &P,
    perspective: Color,
    observer: Color,
    out: &mut FeatureList,
) {
    out.clear();
    features::active(pos, perspective, observer, out);
}
