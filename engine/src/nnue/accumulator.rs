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
    pub fn evaluate<P: GameVariant>(&mut self, pos: &P, observer: Color, ply: usize) -> i32 {
        let ply = ply.min(self.frames.len() - 1);
        let (before, rest) = self.frames.split_at_mut(ply);
        let frame = &mut rest[0];
        let hidden = self.net.hidden();
        for perspective in [Color::White, Color::Black] {
            let list = &mut frame.features[perspective.index()];
            list.clear();
            crate::eval::features(pos, perspective, observer, list);
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

/// The sums of `features` from scratch: the bias plus each row.
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
