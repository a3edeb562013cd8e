//! The learned evaluation's inputs: each variant's feature set names a
//! list of active binary features per position and perspective, and the
//! helpers every feature set is written with.
//!
//! A feature is an index below the set's `inputs`. Every set is written
//! from a **perspective** (the player whose accumulator it feeds): colours
//! are "ours" and "theirs" relative to it and squares are flipped top to
//! bottom for Black, so one set of weights serves both sides and the
//! network learns each pattern once (Stockfish's and Bullet's mirrored
//! perspective). Counts (prisons, hands, budgets) are thermometer coded,
//! one feature per unit up to a cap, so that they add to the accumulator
//! linearly and a capture changes one feature, not two.
//!
//! The features of a position are a pure function of what the evaluation
//! may read: the position and, under hidden information, the observer
//! (the player who searches). Traitor reads the observer's own secret and
//! nothing of the opponent's (`engine/tests/integration/nnue.rs` proves it on the
//! feature lists themselves).
//!
//! Each registered variant's set lives in `features/<variant>.rs`, behind
//! [`Features`], and its position type names it ([`Featured`]), as
//! `crate::eval` names each type's search knowledge: the dispatch below
//! compares type ids the compiler folds (eval/mod.rs says how), over the
//! registry's list, so a registered type without a [`Featured`] impl does
//! not compile and each instantiation calls its own set directly. A
//! variant without a set ([`NoFeatures`]) has no net.

mod chess;
mod hostage;
#[cfg(feature = "test-variant")]
mod kingofthehill;
mod madscientist;
mod poison;
mod traitor;

use std::any::{Any, TypeId};
use std::marker::PhantomData;

use heterodox_env::{Color, GameVariant, Square};

/// The most features one perspective of a position may have active: a
/// board of 64 pieces with several features each, plus reserves.
pub const MAX_ACTIVE: usize = 320;

/// A variant's inputs: its name and version (stored in every net file, so
/// a net is never read with another set's meaning) and how many there are.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    pub name: &'static str,
    pub version: u32,
    pub inputs: usize,
}

/// The active features of one perspective, sorted ascending (the
/// accumulator's update is the difference of two sorted lists). A fixed
/// array: filling one never allocates.
#[derive(Clone)]
pub struct FeatureList {
    len: usize,
    items: [u16; MAX_ACTIVE],
}

impl Default for FeatureList {
    fn default() -> FeatureList {
        FeatureList {
            len: 0,
            items: [0; MAX_ACTIVE],
        }
    }
}

impl std::fmt::Debug for FeatureList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl PartialEq for FeatureList {
    fn eq(&self, other: &FeatureList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl FeatureList {
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds feature `index`. A list already full drops it: no position of
    /// any variant comes near [`MAX_ACTIVE`] (a board holds 64 pieces), so
    /// this is a bound against a malformed position, not a case that
    /// happens.
    #[inline]
    pub fn push(&mut self, index: usize) {
        if self.len < MAX_ACTIVE {
            self.items[self.len] = index as u16;
            self.len += 1;
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.items[..self.len]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Sorts the list, as every feature function leaves it (most come
    /// out sorted: then it only checks).
    #[inline]
    pub fn sort(&mut self) {
        let items = &mut self.items[..self.len];
        if !items.is_sorted() {
            items.sort_unstable();
        }
    }
}

/// 0 for `color` seen as "ours" from `perspective`, 1 for "theirs".
#[inline(always)]
pub fn side(color: Color, perspective: Color) -> usize {
    usize::from(color != perspective)
}

/// The square as `perspective` sees the board: White's as it is, Black's
/// flipped top to bottom, so that each side's first rank is rank 1.
#[inline(always)]
pub fn square(sq: Square, perspective: Color) -> usize {
    match perspective {
        Color::White => sq.index(),
        Color::Black => sq.flip_vertical().index(),
    }
}

/// Pushes a thermometer code of `count` (capped at `cap`): features
/// `base .. base + min(count, cap)`.
#[inline(always)]
pub fn thermometer(out: &mut FeatureList, base: usize, count: usize, cap: usize) {
    for k in 0..count.min(cap) {
        out.push(base + k);
    }
}

/// Piece-square features of a bitboard board, `roles` roles a side:
/// `(side * roles + role) * 64 + square`, first of every set that has a
/// FIDE board (chess 6 roles, Poison 9).
#[inline]
pub fn board_features(
    board: &heterodox_env::Board,
    roles: usize,
    perspective: Color,
    out: &mut FeatureList,
) {
    // Ours first, then theirs, each role in turn, squares ascending as
    // `perspective` sees them (Black's board flipped as a whole): the
    // list comes out sorted, and the sort after it finds nothing to do.
    for color in [perspective, !perspective] {
        let ours = board.by_color(color);
        for role in &heterodox_env::Role::ALL[..roles] {
            let kind = side(color, perspective) * roles + role.index();
            let mut pieces = ours & board.by_role(*role);
            if perspective == Color::Black {
                pieces = pieces.flip_vertical();
            }
            for sq in pieces {
                out.push(kind * 64 + sq.index());
            }
        }
    }
}

/// One variant's feature set, for its position type `Pos`.
pub(crate) trait Features {
    type Pos: GameVariant;

    /// The set's name, version and size; `None` for a variant that has no
    /// feature set, which then has no net.
    const SET: Option<FeatureSet>;

    /// Pushes the active features of `pos` from `perspective` (in any
    /// order: the caller sorts them), reading only what `observer` may
    /// know.
    fn features(pos: &Self::Pos, perspective: Color, observer: Color, out: &mut FeatureList);
}

/// A registered position type with the feature set its net reads. Every
/// type in the registry implements it (in `features/<variant>.rs`, or
/// below with [`NoFeatures`]); the dispatch asks it of each, so a variant
/// without it does not compile.
pub(crate) trait Featured: GameVariant {
    type Features: Features<Pos = Self>;
}

/// The set of a variant without one: no inputs, so no net. A position type
/// outside the registry gets it too.
pub(crate) struct NoFeatures<P>(PhantomData<P>);

impl<P: GameVariant> Features for NoFeatures<P> {
    type Pos = P;

    const SET: Option<FeatureSet> = None;

    fn features(_pos: &P, _perspective: Color, _observer: Color, _out: &mut FeatureList) {}
}

/// [`set_of`]'s body, a callback of [`heterodox_env::for_each_variant!`]:
/// the registered type that is `P` gives its set.
macro_rules! set_arms {
    (($P:ty) $($(#[$meta:meta])* $arm:ident => $Position:ty;)*) => {{
        let p = TypeId::of::<$P>();
        $(
            $(#[$meta])*
            {
                if p == TypeId::of::<$Position>() {
                    return <<$Position as Featured>::Features as Features>::SET;
                }
            }
        )*
        NoFeatures::<$P>::SET
    }};
}

/// The feature set of `P`; `None` for a variant without one or a position
/// type outside the registry.
pub(crate) fn set_of<P: GameVariant>() -> Option<FeatureSet> {
    heterodox_env::for_each_variant!(set_arms, P)
}

/// [`active`]'s body, a callback of [`heterodox_env::for_each_variant!`]:
/// one downcast per registered type, folded at compile time.
macro_rules! feature_arms {
    (($P:ty, $pos:ident, $perspective:ident, $observer:ident, $out:ident)
        $($(#[$meta:meta])* $arm:ident => $Position:ty;)*) => {{
        let position: &dyn Any = $pos;
        $(
            $(#[$meta])*
            {
                if let Some(p) = position.downcast_ref::<$Position>() {
                    <<$Position as Featured>::Features as Features>::features(
                        p,
                        $perspective,
                        $observer,
                        $out,
                    );
                    return;
                }
            }
        )*
        NoFeatures::<$P>::features($pos, $perspective, $observer, $out)
    }};
}

/// Pushes `pos`'s active features from `perspective` (nothing for a type
/// without a set), as `observer` may know them.
#[inline]
fn push<P: GameVariant>(pos: &P, perspective: Color, observer: Color, out: &mut FeatureList) {
    heterodox_env::for_each_variant!(feature_arms, P, pos, perspective, observer, out)
}

/// [`Features::features`] of `P`'s set added to `out`, then sorted.
#[inline]
pub(crate) fn active<P: GameVariant>(
    pos: &P,
    perspective: Color,
    observer: Color,
    out: &mut FeatureList,
) {
    push(pos, perspective, observer, out);
    out.sort();
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::{Chess, PoisonChess};

    #[test]
    fn each_variant_gets_its_own_feature_set() {
        // Poison and chess share the start files but not the inputs: the
        // dispatch must not hand one the other's set.
        assert_eq!(set_of::<Chess>().map(|set| set.name), Some("chess-psq"));
        assert_eq!(
            set_of::<PoisonChess>().map(|set| set.name),
            Some("poison-psq-countdown")
        );
        let mut list = FeatureList::default();
        active(&Chess::new(), Color::White, Color::White, &mut list);
        assert_eq!(list.len(), 32);
        assert!(list.as_slice().is_sorted());
    }
}
