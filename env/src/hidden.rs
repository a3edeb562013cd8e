//! Hidden information as an interface: what one player may know of a
//! state, a key that is equal exactly when that player cannot tell two
//! states apart, and a sampler of full states consistent with what it knows.
//!
//! A search for a player of a hidden-information variant (Traitor's secret
//! selections) must read only its [`HiddenInformation::View`]: it keys its
//! statistics by [`HiddenInformation::information_set_key`] and, to play
//! moves forward, draws complete states from a [`StateSampler`] built from
//! the view. Variants with perfect information implement the interface
//! trivially through [`perfect_information!`]: the view is the state, the
//! key its identity, and the sampler returns the state itself.

use std::fmt::Debug;

use crate::rng::SplitMix64;
use crate::{Color, Position};

/// What each player may know of a position.
pub trait HiddenInformation: Position {
    /// True when both players always see everything.
    const PERFECT_INFORMATION: bool;

    /// One player's information about a state.
    type View: Clone + Debug + Send + Sync + 'static;

    /// Draws full states consistent with one view.
    type Sampler: StateSampler<Self>;

    /// What `observer` may know of this state.
    fn view(&self, observer: Color) -> Self::View;

    /// A 64-bit key of `observer`'s view: equal for two states exactly
    /// when `observer` cannot tell them apart (up to hash collisions).
    /// Perfect information: the state's own key.
    fn information_set_key(&self, observer: Color) -> u64;

    /// The sampler of full states consistent with `view`. Enumerates the
    /// candidates once (the expensive part); drawing from it is cheap and
    /// allocation-free.
    fn sampler(view: &Self::View) -> Self::Sampler;

    /// The view as text (Traitor: the position string with `?` for the
    /// opponent's secret).
    fn view_string(view: &Self::View) -> String;

    /// What `owner` keeps secret in this state, as text (Traitor: what
    /// remains of its selection, `c1,g2` or `NP`); empty when it hides
    /// nothing. For displays of a belief about the secret (which states
    /// it weighs), never read by a player's search.
    fn secret_text(&self, _owner: Color) -> String {
        String::new()
    }
}

/// Full states consistent with one player's view.
pub trait StateSampler<P>: Clone + Send + Sync {
    /// How many distinct states are consistent with the view (at least 1).
    fn len(&self) -> usize;

    /// Never empty: a view always comes from at least one state.
    fn is_empty(&self) -> bool {
        false
    }

    /// The `index`-th consistent state (`index < len()`), in a fixed order.
    fn state(&self, index: usize) -> P;

    /// A consistent state drawn uniformly with `rng`.
    fn sample(&self, rng: &mut SplitMix64) -> P {
        self.state(rng.below(self.len()))
    }

    /// Indices of a few states that between them allow every first step of
    /// a turn that any consistent state allows the hidden side: whatever
    /// the hidden side may do on its next turn, it may do in one of them.
    /// A search that must not miss a threat of the hidden information (the
    /// engine's threat guard) checks these instead of every state. Default:
    /// every state (exact, and as slow as there are states).
    fn covering(&self) -> Vec<usize> {
        (0..self.len()).collect()
    }
}

/// The sampler of a perfect-information variant: the one state there is.
#[derive(Clone, Debug)]
pub struct Known<P>(pub P);

impl<P: Position> StateSampler<P> for Known<P> {
    fn len(&self) -> usize {
        1
    }

    fn state(&self, _index: usize) -> P {
        self.0.clone()
    }
}

/// Implements [`HiddenInformation`] for variants where both players see
/// everything: the view is the position and the information-set key its
/// repetition key (everything that identifies the position for play; the
/// move counters are left out, as for repetition).
macro_rules! perfect_information {
    ($($position:ty),* $(,)?) => {$(
        impl $crate::hidden::HiddenInformation for $position {
            const PERFECT_INFORMATION: bool = true;
            type View = $position;
            type Sampler = $crate::hidden::Known<$position>;

            fn view(&self, _observer: $crate::Color) -> $position {
                self.clone()
            }

            fn information_set_key(&self, _observer: $crate::Color) -> u64 {
                $crate::Position::repetition_key(self)
            }

            fn sampler(view: &$position) -> $crate::hidden::Known<$position> {
                $crate::hidden::Known(view.clone())
            }

            fn view_string(view: &$position) -> String {
                $crate::Position::fen(view)
            }
        }
    )*};
}

pub(crate) use perfect_information;
