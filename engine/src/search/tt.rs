//! The transposition table: what earlier searches learnt about a position,
//! keyed by its Zobrist key ([`heterodox_env::Position::repetition_key`]).
//!
//! Allocated once, at its configured size, and never during a search.
//! Entries are two 64-bit words (the key XORed with the data, and the
//! data), read and written with relaxed atomics: threads of one search may
//! share a table, and a torn entry fails its key check instead of being
//! believed (the classic lockless XOR scheme). Four entries make a 64-byte
//! bucket; a position goes to one bucket and, when it is not there yet,
//! replaces the entry that is shallowest once older searches' entries are
//! aged down.
//!
//! The best action is stored as its index in the position's legal action
//! list: every variant generates its actions in a fixed order, so the index
//! names the same action whenever the position recurs, and an entry has
//! the same size for every variant's action type. An index from a key
//! collision is at worst another legal action (or out of range and
//! ignored).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::search::config::{ConfigError, MAX_HASH_MIB, MIN_HASH_MIB};

const ENTRIES_PER_BUCKET: usize = 4;
const WORDS_PER_BUCKET: usize = 2 * ENTRIES_PER_BUCKET;
const BUCKET_BYTES: u64 = 8 * WORDS_PER_BUCKET as u64;

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every action failed low).
    Upper = 1,
    /// The true score is at least this (an action failed high).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

impl Bound {
    /// What a search of the window (`alpha`, `beta`) that found `best` says:
    /// at least `best` when it failed high, at most when no action raised
    /// `alpha`, exactly `best` otherwise.
    pub fn of_search(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// One entry, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best action in the legal action list, if one was found.
    pub action_index: Option<u16>,
    /// Score in table form ([`crate::search::score::to_table`]).
    pub score: i32,
    /// The static evaluation of the position.
    pub eval: i32,
    /// Remaining depth of the search that stored it (0: quiescence).
    pub depth: i32,
    pub bound: Bound,
}

/// A fixed-size, shareable transposition table.
pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    buckets: u64,
    generation: u8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} buckets)", self.buckets)
    }
}

impl TranspositionTable {
    /// A table of `mib` MiB, zeroed. Refuses sizes outside
    /// [`MIN_HASH_MIB`]..=[`MAX_HASH_MIB`] and reports a failed allocation
    /// as an error instead of aborting.
    pub fn new(mib: u64) -> Result<TranspositionTable, ConfigError> {
        if !(MIN_HASH_MIB..=MAX_HASH_MIB).contains(&mib) {
            return Err(ConfigError::HashSize(mib));
        }
        let buckets = mib * 1024 * 1024 / BUCKET_BYTES;
        let len = buckets as usize * WORDS_PER_BUCKET;
        let mut words = Vec::new();
        words
            .try_reserve_exact(len)
            .map_err(|_| ConfigError::HashAllocation(mib))?;
        words.extend((0..len).map(|_| AtomicU64::new(0)));
        Ok(TranspositionTable {
            words,
            buckets,
            generation: 0,
        })
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// Starts a new search: entries of earlier searches age, so they are
    /// replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any bucket count, not only
        // powers of two.
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * WORDS_PER_BUCKET
    }

    /// Asks the processor to fetch the bucket of `key` (a hint, no effect
    /// on results): issued as soon as a child's key is known, so the
    /// child's probe finds the bucket in cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let pointer = self.words[self.bucket(key)..].as_ptr().cast::<i8>();
            // SAFETY: SSE is part of x86_64; a prefetch reads nothing into
            // the program and cannot fault.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(pointer);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry of `key`, if the table holds one.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let base = self.bucket(key);
        for slot in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * slot].load(Ordering::Relaxed);
            let data = self.words[base + 2 * slot + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return decode(data);
            }
        }
        None
    }

    /// Stores what a search found. `action_index` is kept from an earlier
    /// entry of the same position when the new one has none.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        action_index: Option<u16>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let base = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut kept_action = action_index;
        for slot in 0..ENTRIES_PER_BUCKET {
            let check = self.words[base + 2 * slot].load(Ordering::Relaxed);
            let data = self.words[base + 2 * slot + 1].load(Ordering::Relaxed);
            if data == 0 {
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            }
            if check ^ data == key {
                let old = decode(data);
                if let Some(old) = old {
                    // A shallower result of the same search does not push
                    // out a deeper exact one.
                    if bound != Bound::Exact
                        && old.depth > depth + 2
                        && generation_of(data) == self.generation
                    {
                        return;
                    }
                    if kept_action.is_none() {
                        kept_action = old.action_index;
                    }
                }
                victim = slot;
                break;
            }
            let age = i32::from((self.generation + 64 - generation_of(data)) & 63);
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        let data = encode(kept_action, score, eval, depth, bound, self.generation);
        self.words[base + 2 * victim].store(key ^ data, Ordering::Relaxed);
        self.words[base + 2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand buckets' entries written by the
    /// current search (UCI's `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let buckets = (self.buckets as usize).min(250);
        let mut used = 0;
        for bucket in 0..buckets {
            for slot in 0..ENTRIES_PER_BUCKET {
                let data =
                    self.words[bucket * WORDS_PER_BUCKET + 2 * slot + 1].load(Ordering::Relaxed);
                if data != 0 && generation_of(data) == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (buckets * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

#[inline]
fn encode(
    action_index: Option<u16>,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
) -> u64 {
    let action = action_index.map_or(0, |i| u64::from(i) + 1) & 0xffff;
    let score = u64::from(score.clamp(-32_767, 32_767) as i16 as u16);
    let eval = u64::from(eval.clamp(-32_767, 32_767) as i16 as u16);
    let depth = depth.clamp(0, 255) as u64;
    action
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | u64::from(generation & 63) << 58
}

#[inline]
fn decode(data: u64) -> Option<Entry> {
    let bound = Bound::from_bits((data >> 56) & 3)?;
    let action = (data & 0xffff) as u16;
    Some(Entry {
        action_index: action.checked_sub(1),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: depth_of(data),
        bound,
    })
}

#[inline]
fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32
}

#[inline]
fn generation_of(data: u64) -> u8 {
    (data >> 58) as u8 & 63
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_bounded_and_named() {
        assert_eq!(
            TranspositionTable::new(0).unwrap_err().to_string(),
            "hash 0 MiB is out of range (1 to 65536 MiB)"
        );
        assert_eq!(
            TranspositionTable::new(1 << 40).unwrap_err(),
            ConfigError::HashSize(1 << 40)
        );
        let table = TranspositionTable::new(1).unwrap();
        assert_eq!(table.buckets, 16_384);
    }

    #[test]
    fn entries_round_trip_and_miss_other_keys() {
        let table = TranspositionTable::new(1).unwrap();
        table.store(0xdead_beef, Some(7), -1234, 56, 9, Bound::Lower);
        let entry = table.probe(0xdead_beef).unwrap();
        assert_eq!(
            entry,
            Entry {
                action_index: Some(7),
                score: -1234,
                eval: 56,
                depth: 9,
                bound: Bound::Lower
            }
        );
        assert_eq!(table.probe(0xdead_bee0), None);
        // A later store without an action keeps the earlier action.
        table.store(0xdead_beef, None, 10, 56, 9, Bound::Upper);
        assert_eq!(table.probe(0xdead_beef).unwrap().action_index, Some(7));
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let table = TranspositionTable::new(1).unwrap();
        // Keys in the same bucket: the bucket is chosen by the high bits.
        let keys: Vec<u64> = (0..5).map(|i| 0x1000 + i).collect();
        for (depth, key) in [5, 2, 7, 9].into_iter().zip(&keys) {
            table.store(*key, None, 0, 0, depth, Bound::Exact);
        }
        table.store(keys[4], None, 0, 0, 3, Bound::Exact);
        assert!(table.probe(keys[1]).is_none(), "depth 2 entry replaced");
        for key in [keys[0], keys[2], keys[3], keys[4]] {
            assert!(table.probe(key).is_some());
        }
    }
}
