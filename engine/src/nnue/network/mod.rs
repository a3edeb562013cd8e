//! The net file and the two forms of a net: [`FloatNetwork`], the trained
//! numbers as the file stores them (safetensors, float32), and
//! [`Network`], the quantized integers the search evaluates with.
//!
//! # Architecture
//!
//! `inputs -> 2 x hidden -> 1`: one feature transformer (a weight row per
//! input plus a bias) applied to each perspective's active features gives
//! two accumulators, the side to act's first; both go through a clipped
//! ReLU (0 to 1) and one linear output layer reads all `2 hidden` of them.
//! The output times [`SCALE`] is centipawns for the side to act. Only the
//! accumulators depend on the position, and they change by a few rows per
//! action (`accumulator.rs`).
//!
//! By concept: `header.rs` (what a net says of itself: the file's
//! metadata, with its bounds), `float.rs` (the trained numbers and the
//! file itself), `quantized.rs` (the integers the search reads, with their
//! scales) and `error.rs` (why a net cannot be read, written or used).
//! error.rs comes first, then header, float and quantized, each importing
//! only those before it and never this module, which re-exports them: the
//! paths `nnue::network::*` name all of it, as before the split.

mod error;
mod float;
mod header;
mod quantized;

pub use error::NnueError;
pub use float::{read_f32_tensor, FloatNetwork, MAX_FILE_BYTES};
pub use header::{
    rules_string, rules_text, Base, NetworkHeader, FORMAT, FORMAT_VERSION, MAX_HIDDEN, MAX_INPUTS,
    SCALE,
};
pub use quantized::{Network, QA, QB, WEIGHT_LIMIT};
