//! A bounded cache of recent leaf evaluations, keyed by a 64-bit hash of
//! what the network reads.
//!
//! **Key.** [`leaf_key`] hashes the leaf's observation floats (every
//! stacked history plane and the repetition planes included) and its legal
//! action indices. Why the observation rather than a position key such as
//! `repetition_key` or `information_set_key`: the network's output is a
//! function of its input, so two leaves with equal observations get equal
//! outputs and may share an entry, and two with different inputs never do
//! (up to 64-bit collisions). A position key would merge leaves whose
//! history stacks differ (T > 1) or whose repetition counts differ, and
//! under hidden information a full-state key would read secrets the
//! searcher does not know; the observation is by construction the
//! searcher's view. The cost is hashing `L` floats per leaf (chess with
//! T = 1: 1408 floats, about half a microsecond with the 4-lane hash
//! below), small beside the forward pass that a hit saves (tens of
//! microseconds per position on a CPU).
//!
//! **Policy.** Direct-mapped: `capacity` slots, a key goes to one slot
//! (multiply-shift of the key), and an insertion replaces whatever was
//! there. No ordering to maintain, O(1) with no allocation once each slot's
//! priors buffer has grown to the largest legal list it has held. A hit
//! requires the stored key and the number of legal actions to match; it
//! returns the stored priors and value exactly as the network produced them
//! (no re-normalisation, no noise: root noise is added by the search after
//! evaluation). A collision of two different leaves on one 64-bit key is
//! not detected beyond the length check (odds about `entries / 2^64` per
//! lookup). Capacity 0 turns the cache off: nothing is hashed or stored.
//!
//! **Memory.** About `capacity * (40 + 4 * legal)` bytes when full (chess
//! middlegames: ~35 legal actions, so ~180 bytes an entry; 2^20 entries
//! ~ 180 MB).

use heterodox_env::rng::mix64;

/// Multipliers of the four hash lanes (odd 64-bit constants from
/// SplitMix64, xxHash and wyhash).
const LANE_MUL: [u64; 4] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xc2b2_ae3d_27d4_eb4f,
];

/// One step of a lane: a bijection of `lane ^ word`, so a lane's state
/// never collapses whatever the input.
#[inline(always)]
fn step(lane: u64, word: u64, mul: u64) -> u64 {
    let x = (lane ^ word).wrapping_mul(mul);
    x ^ (x >> 29)
}

/// The cache key of a leaf: a 64-bit hash of its observation's float bits
/// and its legal action indices (and both lengths). Four independent lanes
/// over 64-bit words (two floats each) keep the multiplier chains busy in
/// parallel; the lanes and lengths are combined with SplitMix64's mixer.
pub fn leaf_key(observation: &[f32], legal: &[u32]) -> u64 {
    let mut lanes = [
        0x243f_6a88_85a3_08d3_u64,
        0x1319_8a2e_0370_7344,
        0xa409_3822_299f_31d0,
        0x082e_fa98_ec4e_6c89,
    ];
    let pair = |a: u32, b: u32| u64::from(a) | (u64::from(b) << 32);
    let mut chunks = observation.chunks_exact(8);
    for c in &mut chunks {
        for j in 0..4 {
            let word = pair(c[2 * j].to_bits(), c[2 * j + 1].to_bits());
            lanes[j] = step(lanes[j], word, LANE_MUL[j]);
        }
    }
    for (j, c) in chunks.remainder().chunks(2).enumerate() {
        let word = pair(c[0].to_bits(), c.get(1).map_or(0, |x| x.to_bits()));
        lanes[j] = step(lanes[j], word, LANE_MUL[j]);
    }
    let mut chunks = legal.chunks_exact(2);
    for (k, c) in (&mut chunks).enumerate() {
        let j = k % 4;
        lanes[j] = step(lanes[j], pair(c[0], c[1]), LANE_MUL[j]);
    }
    if let [last] = chunks.remainder() {
        lanes[0] = step(lanes[0], pair(*last, u32::MAX), LANE_MUL[0]);
    }
    let mut h = mix64(observation.len() as u64 ^ ((legal.len() as u64) << 32));
    for lane in lanes {
        h = mix64(h ^ lane);
    }
    h
}

#[derive(Clone, Debug, Default)]
struct Slot {
    filled: bool,
    key: u64,
    value: f32,
    priors: Vec<f32>,
}

/// A direct-mapped table of `capacity` evaluations (see the module docs for
/// the key, the replacement policy and the memory).
#[derive(Clone, Debug, Default)]
pub struct EvalCache {
    slots: Vec<Slot>,
}

impl EvalCache {
    /// A cache of `capacity` entries; 0 turns it off.
    pub fn new(capacity: usize) -> EvalCache {
        EvalCache {
            slots: vec![Slot::default(); capacity],
        }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn is_enabled(&self) -> bool {
        !self.slots.is_empty()
    }

    /// Filled entries.
    pub fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.filled).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// On a hit (same key, same number of legal actions), copies the stored
    /// priors into `priors` and returns the stored value.
    pub fn get(&self, key: u64, priors: &mut [f32]) -> Option<f32> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = &self.slots[self.slot(key)];
        if slot.filled && slot.key == key && slot.priors.len() == priors.len() {
            priors.copy_from_slice(&slot.priors);
            Some(slot.value)
        } else {
            None
        }
    }

    /// Stores an evaluation, replacing the slot's previous one.
    pub fn insert(&mut self, key: u64, priors: &[f32], value: f32) {
        if self.slots.is_empty() {
            return;
        }
        let i = self.slot(key);
        let slot = &mut self.slots[i];
        slot.filled = true;
        slot.key = key;
        slot.value = value;
        slot.priors.clear();
        slot.priors.extend_from_slice(priors);
    }

    /// Forgets every entry (keeps the buffers).
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            slot.filled = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_see_every_float_and_legal_index() {
        let obs: Vec<f32> = (0..1411).map(|i| (i % 3) as f32).collect();
        let legal = [3_u32, 17, 99];
        let base = leaf_key(&obs, &legal);
        assert_eq!(base, leaf_key(&obs, &legal));
        for i in 0..obs.len() {
            let mut other = obs.clone();
            other[i] += 1.0;
            assert_ne!(leaf_key(&other, &legal), base, "float {i}");
        }
        assert_ne!(leaf_key(&obs, &[3, 17]), base);
        assert_ne!(leaf_key(&obs, &[3, 17, 98]), base);
        assert_ne!(leaf_key(&obs, &[17, 3, 99]), base);
        assert_ne!(leaf_key(&obs[..1410], &legal), base);
    }

    #[test]
    fn direct_mapped_hits_misses_and_replacement() {
        let mut cache = EvalCache::new(4);
        let mut out = [0.0; 2];
        assert_eq!(cache.get(7, &mut out), None);
        cache.insert(7, &[0.25, 0.75], -0.5);
        assert_eq!(cache.get(7, &mut out), Some(-0.5));
        assert_eq!(out, [0.25, 0.75]);
        // Another legal count under the same key is a miss.
        assert_eq!(cache.get(7, &mut [0.0; 3]), None);
        // A key mapping to the same slot replaces the entry.
        let same_slot = (1..u64::MAX)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .find(|&k| k != 7 && cache.slot(k) == cache.slot(7))
            .unwrap();
        cache.insert(same_slot, &[1.0, 0.0], 0.5);
        assert_eq!(cache.get(7, &mut out), None);
        assert_eq!(cache.get(same_slot, &mut out), Some(0.5));
        assert_eq!(cache.len(), 1);
        cache.clear();
        assert!(cache.is_empty());
        let mut off = EvalCache::new(0);
        off.insert(7, &[1.0], 0.0);
        assert!(!off.is_enabled());
        assert_eq!(off.get(7, &mut [0.0]), None);
    }
}
