//! The positions as the model reads them: the held-out split by game, the
//! targets, and batches of index tensors for `embedding_bag`.

use heterodox_engine::nnue::network::SCALE;
use heterodox_engine::nnue::NnueData;
use heterodox_models::tch::{Kind, Tensor};

/// Every game whose index is a multiple of this is held out (game 0, 20,
/// 40, ...: one game in twenty, about 5% of the positions), so that no
/// position of a held-out game is trained on.
pub const HELD_OUT_EVERY: u32 = 20;

/// Whether the positions of game `game` are held out.
pub fn is_held_out(game: u32) -> bool {
    game % HELD_OUT_EVERY == 0
}

/// The positions of `data` split by game: the training ones and the
/// held-out ones, each in data order.
pub fn split(data: &NnueData) -> (Vec<usize>, Vec<usize>) {
    (0..data.len()).partition(|&i| !is_held_out(data.games[i]))
}

/// A fingerprint of the positions below `limit` (their features, values,
/// results and games; FNV-1a, 64 bits, in hex), so that a checkpoint is
/// continued on the data it was made from only.
pub fn fingerprint(data: &NnueData, limit: usize) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |word: u64| {
        for byte in word.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for i in 0..data.len().min(limit) {
        let (us, them) = data.position(i);
        for list in [us, them] {
            add(list.len() as u64);
            list.iter().for_each(|&f| add(u64::from(f)));
        }
        add(u64::from(data.values[i].to_bits()));
        add(u64::from(data.results[i].to_bits()));
        add(u64::from(data.games[i]));
    }
    format!("{hash:016x}")
}

/// The target of a position: the expected result, from the teacher's
/// value `tanh(cp / 400)` and the game's result (both for the side to
/// act, from -1 to 1) mixed by `result_weight`, mapped to 0..1.
pub fn target(value: f32, result: f32, result_weight: f64) -> f64 {
    let w = result_weight;
    (1.0 - w) * (f64::from(value) + 1.0) / 2.0 + w * (f64::from(result) + 1.0) / 2.0
}

/// The mean squared error of predicting the teacher's value alone, `p =
/// (value + 1) / 2`, on `positions`: the floor the net's held-out loss is
/// read against (0 when `result_weight` is 0).
pub fn teacher_loss(data: &NnueData, positions: &[usize], result_weight: f64) -> f64 {
    reference_loss(data, positions, result_weight, |i| {
        (f64::from(data.values[i]) + 1.0) / 2.0
    })
}

/// The mean squared error of the tuned classical evaluation alone, `p =
/// sigmoid(2 cp / 400)`, on `positions`: what a net must beat to be worth
/// its cost, and what a net on the classical base starts from.
pub fn classical_loss(data: &NnueData, positions: &[usize], result_weight: f64) -> f64 {
    reference_loss(data, positions, result_weight, |i| {
        1.0 / (1.0 + (-2.0 * f64::from(data.classical[i]) / f64::from(SCALE)).exp())
    })
}

fn reference_loss(
    data: &NnueData,
    positions: &[usize],
    result_weight: f64,
    predict: impl Fn(usize) -> f64,
) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let sum: f64 = positions
        .iter()
        .map(|&i| {
            let p = predict(i);
            let t = target(data.values[i], data.results[i], result_weight);
            (p - t) * (p - t)
        })
        .sum();
    sum / positions.len() as f64
}

/// Some positions as tensors: each perspective's features flattened
/// (`int64`) with the offset of each position's list, and the targets.
#[derive(Debug)]
pub struct Batch {
    pub us: Tensor,
    pub us_offsets: Tensor,
    pub them: Tensor,
    pub them_offsets: Tensor,
    /// `[n]` float32.
    pub targets: Tensor,
    /// `[n]` float32: the tuned classical evaluation in units of the
    /// net's output (centipawns / `SCALE`), what a net on the classical
    /// base adds its output to.
    pub classical: Tensor,
    pub len: usize,
}

impl Batch {
    /// The positions `positions` of `data`, in that order.
    pub fn of(data: &NnueData, positions: &[usize], result_weight: f64) -> Batch {
        let mut us = Vec::new();
        let mut them = Vec::new();
        let mut us_offsets = Vec::with_capacity(positions.len());
        let mut them_offsets = Vec::with_capacity(positions.len());
        let mut targets = Vec::with_capacity(positions.len());
        let mut classical = Vec::with_capacity(positions.len());
        for &i in positions {
            let (a, b) = data.position(i);
            us_offsets.push(us.len() as i64);
            them_offsets.push(them.len() as i64);
            us.extend(a.iter().map(|&f| i64::from(f)));
            them.extend(b.iter().map(|&f| i64::from(f)));
            targets.push(target(data.values[i], data.results[i], result_weight) as f32);
            classical.push(data.classical[i] / SCALE as f32);
        }
        Batch {
            us: Tensor::from_slice(&us),
            us_offsets: Tensor::from_slice(&us_offsets),
            them: Tensor::from_slice(&them),
            them_offsets: Tensor::from_slice(&them_offsets),
            targets: Tensor::from_slice(&targets).to_kind(Kind::Float),
            classical: Tensor::from_slice(&classical),
            len: positions.len(),
        }
    }
}
