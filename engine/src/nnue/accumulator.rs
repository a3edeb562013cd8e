//! The accumulators of the search: one frame per ply holding each
//! perspective's active features and the transformer's sums over them,
//! updated from the parent's frame by the difference of the two feature
//! lists.
//!
//! The update never needs to know what an action did (a drop, an
//! exchange, a poisoning, a part taken off a piece all look alike): the
//! child's features are listed (a few dozen, sorted) and merged with the
//! frame's; each feature only in the old list subtracts its row, each only
//! in the new adds it. A frame's sums always equal its own list's, so the
//! result is exact whichever frame it starts from; starting from the
//! parent's makes it a handful of rows. A frame whose difference would be
//! more rows than a refresh is recomputed from the bias instead.
//!
//! Everything is allocated once per search state; an evaluation allocates
//! nothing.
//!
//! The row arithmetic is plain loops over slices that the compiler
//! vectorizes. The baseline x86-64 build has SSE2 only (4 lanes of i32),
//! so on x86-64 an evaluation is compiled a second time with AVX2 (8
//! lanes) and that copy runs where the processor has it, chosen once per
//! [`Accumulators`]: the same integer arithmetic in another width, so the
//! same sums and the same score (the tests compare every frame with the
//! portable [`refresh`]).

use std::sync::Arc;

use heterodox_env::{Color, GameVariant};

use super::features::FeatureList;
use super::network::Network;

/// One ply's features and sums.
#[derive(Clone, Debug)]
struct Frame {
    /// False until the frame has been computed once.
    valid: bool,
    features: [FeatureList; 2],
    /// White's perspective's `hidden` sums, then Black's.
    sums: Vec<i32>,
}

/// The learned evaluation of one searcher.
#[derive(Clone, Debug)]
pub struct Accumulators {
    net: Arc<Network>,
    frames: Vec<Frame>,
    /// Full recomputations and incremental updates since creation (for the
    /// tests and benchmarks).
    pub refreshes: u64,
    pub updates: u64,
    /// Whether this processor runs the AVX2 copy of [`Self::evaluate`].
    avx2: bool,
}

impl Accumulators {
    /// Frames for `plies` plies of `net`.
    pub fn new(net: Arc<Network>, plies: usize) -> Accumulators {
        let hidden = net.hidden();
        let frame = Frame {
            valid: false,
            features: [FeatureList::default(), FeatureList::default()],
            sums: vec![0; 2 * hidden],
        };
        Accumulators {
            net,
            frames: vec![frame; plies],
            refreshes: 0,
            updates: 0,
            avx2: has_avx2(),
        }
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Forgets every frame (a new search: the next evaluation at each ply
    /// starts from its parent or from scratch).
    pub fn clear(&mut self) {
        for frame in &mut self.frames {
            frame.valid = false;
        }
    }

    /// The net's score of `pos` in centipawns for its player to act,
    /// computed in frame `ply` from frame `ply - 1`. `observer` is the
    /// player searching (what a hidden-information feature set may read).
    #[inline]
    pub fn evaluate<P: GameVariant>(&mut self, pos: &P, observer: Color, ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor reports AVX2.
            return unsafe { self.evaluate_avx2(pos, observer, ply) };
        }
        self.evaluate_portable(pos, observer, ply)
    }

    /// [`Self::evaluate`] compiled with AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2<P: GameVariant>(&mut self, pos: &P, observer: Color, ply: usize) -> i32 {
        self.evaluate_portable(pos, observer, ply)
    }

    #[inline(always)]
    fn evaluate_portable<P: GameVariant>(&mut self, pos: &P, observer: Color, ply: usize) -> i32 {
        let ply = ply.min(self.frames.len() - 1);
        let (before, rest) = self.frames.split_at_mut(ply);
        let frame = &mut rest[0];
        let hidden = self.net.hidden();
        for perspective in [Color::White, Color::Black] {
            let list = &mut frame.features[perspective.index()];
            list.clear();
            crate::nnue::features::active(pos, perspective, observer, list);
        }
        let parent = before.last().filter(|parent| parent.valid);
        let net = &*self.net;
        let mut changes = [([0u16; MAX_CHANGES], [0u16; MAX_CHANGES], 0, 0); 2];
        let update = parent.filter(|parent| {
            (0..2).all(|p| {
                let (removed, added, r, a) = &mut changes[p];
                let old = parent.features[p].as_slice();
                match difference(old, frame.features[p].as_slice(), removed, added) {
                    Some((nr, na)) => {
                        (*r, *a) = (nr, na);
                        true
                    }
                    None => false,
                }
            })
        });
        match update {
            Some(parent) => {
                frame.sums.copy_from_slice(&parent.sums);
                for (perspective, (removed, added, r, a)) in changes.iter().enumerate() {
                    let sums = &mut frame.sums[perspective * hidden..][..hidden];
                    for &f in &removed[..*r] {
                        sub_row(sums, net.row(f));
                    }
                    for &f in &added[..*a] {
                        add_row(sums, net.row(f));
                    }
                }
                self.updates += 1;
            }
            None => {
                for perspective in 0..2 {
                    let sums = &mut frame.sums[perspective * hidden..][..hidden];
                    refresh(net, frame.features[perspective].as_slice(), sums);
                }
                self.refreshes += 1;
            }
        }
        frame.valid = true;
        let turn = pos.turn().index();
        let us = &frame.sums[turn * hidden..][..hidden];
        let them = &frame.sums[(1 - turn) * hidden..][..hidden];
        net.output(us, them)
    }

    /// The sums of frame `ply` (White's then Black's), for the tests that
    /// compare them with a refresh.
    pub fn sums(&self, ply: usize) -> &[i32] {
        &self.frames[ply].sums
    }
}

/// Whether the processor has AVX2 (checked once by the standard library,
/// then cached).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The sums of `features` from scratch: the bias plus each row.
#[inline(always)]
pub fn refresh(net: &Network, features: &[u16], sums: &mut [i32]) {
    for (s, &b) in sums.iter_mut().zip(&net.ft_bias) {
        *s = i32::from(b);
    }
    for &f in features {
        add_row(sums, net.row(f));
    }
}

#[inline(always)]
fn add_row(sums: &mut [i32], row: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(row) {
        *s += i32::from(w);
    }
}

#[inline(always)]
fn sub_row(sums: &mut [i32], row: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(row) {
        *s -= i32::from(w);
    }
}

/// The most rows an update applies per perspective before a refresh is
/// cheaper (a move changes two to four; a fresh root, or a frame left by
/// another line, many).
const MAX_CHANGES: usize = 16;

/// The features only in `old` and only in `new` (both sorted), or `None`
/// when there are more than [`MAX_CHANGES`] in all or `new` is so short
/// that a refresh costs less.
fn difference(
    old: &[u16],
    new: &[u16],
    removed: &mut [u16; MAX_CHANGES],
    added: &mut [u16; MAX_CHANGES],
) -> Option<(usize, usize)> {
    let (mut i, mut j, mut r, mut a) = (0, 0, 0, 0);
    let limit = MAX_CHANGES.min(new.len());
    loop {
        let take_old = match (old.get(i), new.get(j)) {
            (None, None) => return Some((r, a)),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(x), Some(y)) if x == y => {
                i += 1;
                j += 1;
                continue;
            }
            (Some(x), Some(y)) => x < y,
        };
        if r + a >= limit {
            return None;
        }
        if take_old {
            removed[r] = old[i];
            r += 1;
            i += 1;
        } else {
            added[a] = new[j];
            a += 1;
            j += 1;
        }
    }
}
