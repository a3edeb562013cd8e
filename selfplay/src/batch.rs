//! [`LeafBatch`]: the leaves one gather round asks an evaluator about,
//! from many games at once: their positions, observations (the shared
//! encoding contract, stacked) and legal action indices, in flat reused
//! buffers.

use std::ops::Range;

use heterodox_env::encoding::EncodingSpec;
use heterodox_env::{Color, GameVariant};

/// Leaves awaiting evaluation. Observation `i` is
/// `observations()[i * L..(i + 1) * L]` with `L = spec.observation_len()`;
/// its legal action indices are `legal(i)`.
#[derive(Clone, Debug)]
pub struct LeafBatch<P: GameVariant> {
    /// Whether leaves carry observations ([`LeafBatch::set_observations`]).
    encode: bool,
    observation_len: usize,
    num_actions: usize,
    positions: Vec<P>,
    observations: Vec<f32>,
    legal: Vec<u32>,
    /// `legal_offsets[i]..legal_offsets[i + 1]` is leaf `i`'s range.
    legal_offsets: Vec<usize>,
}

impl<P: GameVariant> LeafBatch<P> {
    pub fn new(spec: &EncodingSpec) -> LeafBatch<P> {
        LeafBatch {
            encode: true,
            observation_len: spec.observation_len(),
            num_actions: spec.num_actions,
            positions: Vec::new(),
            observations: Vec::new(),
            legal: Vec::new(),
            legal_offsets: vec![0],
        }
    }

    /// Turns observations on or off: an evaluator that does not read them
    /// ([`crate::Evaluator::needs_observations`]) spares the search the
    /// encoding. Off, [`LeafBatch::observations`] is empty.
    pub fn set_observations(&mut self, encode: bool) {
        self.encode = encode;
        self.clear();
    }

    /// Whether leaves carry observations.
    pub fn has_observations(&self) -> bool {
        self.encode
    }

    /// Empties the batch, keeping its buffers.
    pub fn clear(&mut self) {
        self.positions.clear();
        self.observations.clear();
        self.legal.clear();
        self.legal_offsets.truncate(1);
    }

    /// Adds a leaf: its position, legal indices, and space for its
    /// observation, which `write` fills.
    pub fn push(&mut self, position: &P, legal: &[u32], write: impl FnOnce(&mut [f32])) {
        self.positions.push(position.clone());
        if self.encode {
            let start = self.observations.len();
            self.observations.resize(start + self.observation_len, 0.0);
            write(&mut self.observations[start..]);
        }
        self.legal.extend_from_slice(legal);
        self.legal_offsets.push(self.legal.len());
    }

    /// Appends every leaf of `other` (batches of several games joined).
    pub fn extend_from(&mut self, other: &LeafBatch<P>) {
        let base = self.legal.len();
        self.positions.extend_from_slice(&other.positions);
        self.observations.extend_from_slice(&other.observations);
        self.legal.extend_from_slice(&other.legal);
        self.legal_offsets
            .extend(other.legal_offsets[1..].iter().map(|&o| o + base));
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Floats per observation.
    pub fn observation_len(&self) -> usize {
        self.observation_len
    }

    /// Size of the action space (for dense policy outputs).
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// All observations, leaf-major: `len() * observation_len()` floats
    /// (none when observations are off).
    pub fn observations(&self) -> &[f32] {
        &self.observations
    }

    pub fn observation(&self, i: usize) -> &[f32] {
        &self.observations[i * self.observation_len..(i + 1) * self.observation_len]
    }

    /// Leaf `i`'s legal action indices.
    pub fn legal(&self, i: usize) -> &[u32] {
        &self.legal[self.legal_range(i)]
    }

    /// Where leaf `i`'s legal actions (and its priors) sit in the flat
    /// legal-index and prior buffers.
    pub fn legal_range(&self, i: usize) -> Range<usize> {
        self.legal_offsets[i]..self.legal_offsets[i + 1]
    }

    /// Total legal actions over the batch: the length of the priors buffer.
    pub fn total_legal(&self) -> usize {
        self.legal.len()
    }

    /// All legal indices, flat (see [`LeafBatch::legal_range`]).
    pub fn all_legal(&self) -> &[u32] {
        &self.legal
    }

    /// Leaf `i`'s position (a sampled full state under hidden information:
    /// never the true state of a game whose searcher may not know it).
    pub fn position(&self, i: usize) -> &P {
        &self.positions[i]
    }

    /// The player to act at leaf `i` (values are from its side).
    pub fn player(&self, i: usize) -> Color {
        self.positions[i].turn()
    }
}
