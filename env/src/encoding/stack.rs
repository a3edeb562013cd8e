//! The network input of a position in a game: T stacked encodings and the
//! repetition planes. Written once, here, and used by the batched
//! environment, the search's leaves and the game-record loader, so that a
//! network sees at play exactly what it saw in training.

use super::{Encoding, SQUARES};
use crate::Color;

/// Names of the two repetition planes appended after the stacked encodings.
pub const REPETITION_CHANNELS: [&str; 2] = ["repetition_1", "repetition_2"];

/// The plane names of a stacked observation: `base` for the current
/// position, `t-k:<name>` for the position k steps earlier (k < `history`),
/// then [`REPETITION_CHANNELS`].
pub fn stacked_channel_names(base: &[String], history: usize) -> Vec<String> {
    let mut names = Vec::with_capacity(history * base.len() + REPETITION_CHANNELS.len());
    for k in 0..history {
        for name in base {
            names.push(if k == 0 {
                name.clone()
            } else {
                format!("t-{k}:{name}")
            });
        }
    }
    names.extend(REPETITION_CHANNELS.map(str::to_owned));
    names
}

/// Floats in a stacked observation of `P` with `history` positions.
pub fn stacked_len<P: Encoding>(position: &P, history: usize) -> usize {
    (history * position.num_channels() + REPETITION_CHANNELS.len()) * SQUARES
}

/// Writes the observation of `current` seen by `observer`: `history`
/// blocks of `num_channels() * 64` floats (the current position, then the
/// `earlier` positions, most recent first; blocks with no position are
/// zero), then `repetition_1` (the current position occurred once before)
/// and `repetition_2` (twice before) as constant planes. Every float of
/// `out` (`stacked_len` of them) is written; nothing is allocated.
///
/// Earlier positions are encoded from `observer`'s point of view too, so a
/// hidden-information variant shows them only as `observer` knew them.
pub fn encode_stacked<'a, P: Encoding + 'a>(
    current: &P,
    earlier: impl IntoIterator<Item = &'a P>,
    repetitions: usize,
    history: usize,
    observer: Color,
    out: &mut [f32],
) {
    let block = current.num_channels() * SQUARES;
    let (stack, repetition) = out.split_at_mut(history * block);
    let mut blocks = stack.chunks_exact_mut(block);
    if let Some(first) = blocks.next() {
        current.encode(observer, first);
    }
    let mut earlier = earlier.into_iter();
    for block in blocks {
        match earlier.next() {
            Some(position) => position.encode(observer, block),
            None => block.fill(0.0),
        }
    }
    let (once, twice) = repetition.split_at_mut(SQUARES);
    once.fill(if repetitions >= 2 { 1.0 } else { 0.0 });
    twice[..SQUARES].fill(if repetitions >= 3 { 1.0 } else { 0.0 });
}
