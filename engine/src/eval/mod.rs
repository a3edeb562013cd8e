//! What the search knows of a variant beside its rules: the evaluation,
//! which actions are noisy (quiescence) and how much material they move
//! (exchange evaluation), check, which prunings are sound and how to pass
//! the turn (null move). That is [`Knowledge`]; the evaluation's numbers
//! the tuner moves are [`Tuning`] (weights.rs), its supertrait, since the
//! evaluation reads them. What else a variant has lives with whoever asks
//! for it: its learned evaluation's inputs in `crate::nnue::features`
//! (`nnue/features/<variant>.rs`), its benchmark positions in the bench
//! tool (`crate::tools::bench`).
//!
//! Each registered variant has its module here, named as its folder in
//! env (`eval/<variant>.rs`), which says which [`Knowledge`] its position
//! type gets ([`Evaluated`]): its own, or the [`GenericKnowledge`] (terminal
//! scores and mobility only) in one line until it has one.
//!
//! # Dispatch without a dispatch point
//!
//! [`heterodox_env::Variant::visit`] stays the only place a run-time variant
//! becomes a type; the engine is generic over `P: GameVariant` and must work
//! for any `P`. Stable Rust has no specialisation, so the functions below
//! (`evaluate::<P>`, `noisy::<P>`, ...) pick the variant's [`Knowledge`] by
//! comparing `P` with each registered position type through
//! [`std::any::Any`]: a downcast of a `&P` to `&Chess` compares two
//! `TypeId` constants, which monomorphisation folds, so each instantiation
//! of the search compiles to a direct call of its own variant's code and
//! the other branches vanish. No allocation, no `unsafe`, no run-time cost
//! (the `bench` figures are the check).
//!
//! The list compared against is the registry's, expanded by
//! [`heterodox_env::for_each_variant!`], never one kept here: a variant
//! added to the registry is dispatched at once, and one whose position type
//! lacks an [`Evaluated`] impl is a compile error, not a variant silently
//! searched with the wrong knowledge. A position type outside the registry
//! (a test's) gets the generic knowledge. The learned evaluation's feature
//! sets are dispatched the same way, by their own trait
//! (`crate::nnue::features`), over the same registry.

mod chess;
mod endgame;
mod fide;
mod fide_moves;
pub(crate) mod generic;
mod hostage;
#[cfg(feature = "test-variant")]
mod kingofthehill;
mod madscientist;
mod poison;
mod pst;
mod taper;
mod traitor;
pub(crate) mod weights;

use std::any::{Any, TypeId};
use std::marker::PhantomData;
use std::ops::Sub;

use heterodox_env::{Color, GameVariant, Position, Setup};

pub(crate) use weights::Tuning;
pub use weights::{EvalWeights, Evaluation, UnknownEvaluation, UnknownWeights};

/// What an action does to material, for move ordering and quiescence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Noisy {
    /// The material the mover wins at once by the evaluation's values
    /// (a captured piece, a promotion's gain, a poisoned or cured piece).
    pub gain: i32,
    /// The value of the piece that acts (least valuable attacker first).
    pub mover: i32,
}

/// Which forward prunings are sound in a variant (docs/engine.md says why
/// for each).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Late-move reductions of quiet actions.
    pub late_move_reductions: bool,
    /// Reverse futility (static null move) and late-move pruning at low
    /// depth: the evaluation is trusted to bound the score.
    pub futility: bool,
}

impl Pruning {
    /// Every pruning: for the variants whose evaluation knows material and
    /// check well enough to bound the score (all known ones so far).
    pub const ALL: Pruning = Pruning {
        late_move_reductions: true,
        futility: true,
    };
}

/// The largest evaluation a position may get: far from mate scores
/// (`crate::search::score::MATE_BOUND`), so a static evaluation never
/// reads as a mate.
pub const EVAL_LIMIT: i32 = 20_000;

/// Bonus for the side to act, added by every known variant's evaluation.
pub(crate) const TEMPO: i32 = 12;

/// The last step of every known variant's evaluation: a score from
/// White's side turned to the side to act's, plus [`TEMPO`].
#[inline]
pub(crate) fn for_side_to_act(white: i32, turn: Color) -> i32 {
    let score = if turn == Color::White { white } else { -white };
    score + TEMPO
}

/// A term each side scores for itself (Hostage's reserves, Poison's
/// poisoned pieces, Mad Scientist's parts), seen from White's side as the
/// evaluations add their terms up: White's minus Black's. `side` is called
/// for White first.
#[inline]
pub(crate) fn white_minus_black<T: Sub<Output = T>>(mut side: impl FnMut(Color) -> T) -> T {
    let white = side(Color::White);
    white - side(Color::Black)
}

/// The null move on the FIDE fields of a variant's setup: the opponent is
/// to act, and no en passant capture is open (the one a double step
/// offered was the passer's to take, and a pass lets it go).
#[inline]
pub(crate) fn pass_turn<B>(setup: &mut Setup<B>) {
    setup.turn = !setup.turn;
    setup.ep_square = None;
}

/// One variant's search knowledge, for its position type `Pos`: what the
/// search asks of a variant. Its evaluation is parameterised by the
/// [`Tuning`] numbers (the search reads the hand-set or the tuned ones,
/// the tuner its own).
pub(crate) trait Knowledge: Tuning {
    type Pos: GameVariant;

    /// Which prunings are sound.
    const PRUNING: Pruning;

    /// The static evaluation in centipawns from the side to act's point of
    /// view, within `±EVAL_LIMIT`, with `weights`. Reads only the position
    /// it is given (under hidden information a determinization, never the
    /// true state).
    fn evaluate(pos: &Self::Pos, weights: &Self::Weights) -> i32;

    /// `side`'s material by the evaluation's values minus the opponent's
    /// (the greedy player's measure).
    fn material(pos: &Self::Pos, side: Color) -> i32;

    /// True when the side to act must answer a threat to its royal piece:
    /// no standing pat in quiescence, check extension, no null move.
    fn in_check(pos: &Self::Pos) -> bool;

    /// `Some` for an action quiescence searches (captures, promotions and
    /// each variant's own material-changing actions), `None` for a quiet
    /// one.
    fn noisy(pos: &Self::Pos, action: &<Self::Pos as Position>::Action) -> Option<Noisy>;

    /// Fills `out` with the noisy legal actions only (quiescence's list when
    /// not in check: cheaper than listing every action and skipping the
    /// quiet ones); `false` when the variant has no such generator.
    fn noisy_actions(_pos: &Self::Pos, _out: &mut Vec<<Self::Pos as Position>::Action>) -> bool {
        false
    }

    /// Static exchange evaluation: true when `action` wins at least
    /// `threshold` once every recapture on its square is played out.
    /// Variants without an exchange model say yes (no pruning).
    fn see_at_least(
        _pos: &Self::Pos,
        _action: &<Self::Pos as Position>::Action,
        _threshold: i32,
    ) -> bool {
        true
    }

    /// The position with the turn passed to the opponent, when passing is
    /// sound here (null-move pruning); `None` when it is not.
    fn null_move(_pos: &Self::Pos) -> Option<Self::Pos> {
        None
    }

    /// True at a step whose actions are searched only to quiescence
    /// (Traitor's selection phase: thousands of secret choices).
    fn shallow_step(_pos: &Self::Pos) -> bool {
        false
    }

    /// True at a step the same player must complete before the position
    /// means anything (Mad Scientist's discards): quiescence searches every
    /// action there instead of standing pat.
    fn must_act(_pos: &Self::Pos) -> bool {
        false
    }
}

/// A registered position type with the [`Knowledge`] the engine searches
/// it with. Every type in the registry implements it, in its variant's
/// module here (`impl Evaluated for Chess { type Knowledge =
/// ChessKnowledge; }`); the dispatch below asks it of each, so a variant
/// without it does not compile.
pub(crate) trait Evaluated: GameVariant {
    type Knowledge: Knowledge<Pos = Self>;
}

/// The knowledge of a variant the engine has no module of its own for
/// (`generic`): terminal scores from the rules and the side to act's
/// mobility, nothing tuned. A registered variant
/// takes it with one line, `type Knowledge = GenericKnowledge<Self>;`; the
/// trait's defaults are the generic answers (no noisy-move generator, no
/// exchange model, no null move).
pub(crate) struct GenericKnowledge<P>(PhantomData<P>);

impl<P> Tuning for GenericKnowledge<P> {
    type Weights = ();
    const HAND: () = ();
    const TUNED: () = ();
}

impl<P: GameVariant> Knowledge for GenericKnowledge<P> {
    type Pos = P;

    const PRUNING: Pruning = generic::PRUNING;

    fn evaluate(pos: &P, _weights: &()) -> i32 {
        generic::evaluate(pos)
    }

    fn material(pos: &P, side: Color) -> i32 {
        generic::material(pos, side)
    }

    fn in_check(pos: &P) -> bool {
        generic::in_check(pos)
    }

    fn noisy(pos: &P, action: &P::Action) -> Option<Noisy> {
        generic::noisy(pos, action)
    }
}

/// The generic knowledge, short, for the fallbacks of [`with_knowledge!`].
type G<P> = GenericKnowledge<P>;

/// `value` as a `T` when it is one: a comparison of two type ids, folded
/// at compile time.
#[inline(always)]
fn cast<T: 'static, U: 'static>(value: &T) -> Option<&U> {
    (value as &dyn Any).downcast_ref::<U>()
}

/// Runs `$body` with `K` the [`Knowledge`] of `P` and `$p` the position as
/// its concrete type, or `$generic` with `$p: &P` when `P` is no registered
/// position type: the same call on [`G`]`::<P>`, the generic knowledge,
/// spelled out because a type alias inside the function cannot name its
/// generic `P`. The registered types come from the registry
/// (`knowledge_arms`).
macro_rules! with_knowledge {
    ($P:ty, $pos:expr, |$p:ident| $body:expr, generic: $generic:expr) => {
        heterodox_env::for_each_variant!(knowledge_arms, $P, $pos, |$p| $body, $generic)
    };
}

/// [`with_knowledge!`]'s expansion, a callback of
/// [`heterodox_env::for_each_variant!`]: one `if let` per registered
/// position type (after its line's `#[cfg]`) that breaks out of the block
/// with `$body`, then `$generic`.
macro_rules! knowledge_arms {
    (($P:ty, $pos:expr, |$p:ident| $body:expr, $generic:expr)
        $($(#[$meta:meta])* $arm:ident => $Position:ty;)*) => {{
        let position: &$P = $pos;
        'known: {
            $(
                $(#[$meta])*
                {
                    if let Some($p) = cast::<$P, $Position>(position) {
                        type K = <$Position as Evaluated>::Knowledge;
                        break 'known ($body);
                    }
                }
            )*
            #[allow(unused_variables)]
            let $p = position;
            $generic
        }
    }};
}

/// The action as the known variant's action type.
#[inline(always)]
fn action_as<A: 'static, B: 'static>(action: &A) -> &B {
    cast::<A, B>(action).expect("a variant's action type goes with its position type")
}

#[inline]
pub(crate) fn evaluate<P: GameVariant>(pos: &P, weights: EvalWeights) -> i32 {
    with_knowledge!(
        P,
        pos,
        |p| K::evaluate(p, weights.pick(&K::HAND, &K::TUNED)),
        generic: G::<P>::evaluate(p, &())
    )
}

/// Code that needs a variant's [`Knowledge`] as a type (the tuner calls
/// its evaluation with numbers of its own).
pub(crate) trait KnowledgeVisitor {
    type Output;
    fn visit<K: Knowledge>(self) -> Self::Output;
}

/// [`visit_knowledge`]'s body, a callback of
/// [`heterodox_env::for_each_variant!`]: the registered type that is `P`
/// gets the visitor.
macro_rules! visit_arms {
    (($P:ty, $visitor:ident) $($(#[$meta:meta])* $arm:ident => $Position:ty;)*) => {{
        let p = TypeId::of::<$P>();
        $(
            $(#[$meta])*
            {
                if p == TypeId::of::<$Position>() {
                    return Some($visitor.visit::<<$Position as Evaluated>::Knowledge>());
                }
            }
        )*
        None
    }};
}

/// Runs `visitor` with `P`'s knowledge; `None` for a position type outside
/// the registry.
pub(crate) fn visit_knowledge<P: GameVariant, V: KnowledgeVisitor>(
    visitor: V,
) -> Option<V::Output> {
    heterodox_env::for_each_variant!(visit_arms, P, visitor)
}

#[inline]
pub(crate) fn material<P: GameVariant>(pos: &P, side: Color) -> i32 {
    with_knowledge!(P, pos, |p| K::material(p, side), generic: G::<P>::material(p, side))
}

/// [`material_of_any`]'s body, a callback of
/// [`heterodox_env::for_each_variant!`]: one downcast per registered type.
macro_rules! material_arms {
    (($position:ident, $side:ident) $($(#[$meta:meta])* $arm:ident => $Position:ty;)*) => {{
        $(
            $(#[$meta])*
            {
                if let Some(p) = $position.downcast_ref::<$Position>() {
                    return material(p, $side);
                }
            }
        )*
        0
    }};
}

/// [`material`] of a position handed over as `&dyn Any` (the training
/// loader's material target, [`heterodox_data::loader::MaterialMeasure`]):
/// 0 for a type that is no registered position type.
pub fn material_of_any(position: &dyn Any, side: Color) -> i32 {
    heterodox_env::for_each_variant!(material_arms, position, side)
}

#[inline]
pub(crate) fn in_check<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::in_check(p), generic: G::<P>::in_check(p))
}

#[inline]
pub(crate) fn noisy<P: GameVariant>(pos: &P, action: &P::Action) -> Option<Noisy> {
    with_knowledge!(
        P,
        pos,
        |p| K::noisy(p, action_as(action)),
        generic: G::<P>::noisy(p, action)
    )
}

// A `Vec`, not a slice: it is downcast to the variant's list and filled.
#[allow(clippy::ptr_arg)]
#[inline]
pub(crate) fn noisy_actions<P: GameVariant>(pos: &P, out: &mut Vec<P::Action>) -> bool {
    with_knowledge!(
        P,
        pos,
        |p| match (out as &mut dyn Any).downcast_mut() {
            Some(list) => K::noisy_actions(p, list),
            None => false,
        },
        generic: G::<P>::noisy_actions(p, out)
    )
}

#[inline]
pub(crate) fn see_at_least<P: GameVariant>(pos: &P, action: &P::Action, threshold: i32) -> bool {
    with_knowledge!(
        P,
        pos,
        |p| K::see_at_least(p, action_as(action), threshold),
        generic: G::<P>::see_at_least(p, action, threshold)
    )
}

#[inline]
pub(crate) fn null_move<P: GameVariant>(pos: &P) -> Option<P> {
    let mut passed: Option<P> = None;
    with_knowledge!(
        P,
        pos,
        |p| {
            let result = K::null_move(p);
            if let Some(slot) = (&mut passed as &mut dyn Any).downcast_mut() {
                *slot = result;
            }
        },
        generic: passed = G::<P>::null_move(p)
    );
    passed
}

#[inline]
pub(crate) fn pruning<P: GameVariant>(pos: &P) -> Pruning {
    with_knowledge!(P, pos, |_p| K::PRUNING, generic: G::<P>::PRUNING)
}

#[inline]
pub(crate) fn shallow_step<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::shallow_step(p), generic: G::<P>::shallow_step(p))
}

#[inline]
pub(crate) fn must_act<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::must_act(p), generic: G::<P>::must_act(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::{Chess, PoisonChess};

    #[test]
    fn each_variant_gets_its_own_knowledge() {
        // Poison and chess share the start files but not the values: the
        // dispatch must not hand one the other's evaluation.
        type C = chess::ChessKnowledge;
        assert_eq!(
            evaluate(&Chess::new(), EvalWeights::Tuned),
            C::evaluate(&Chess::new(), &C::TUNED)
        );
        let poison = PoisonChess::new();
        type Q = poison::PoisonKnowledge;
        assert_eq!(
            evaluate(&poison, EvalWeights::Hand),
            Q::evaluate(&poison, &Q::HAND)
        );
        assert!(pruning(&Chess::new()).late_move_reductions);
    }
}
