//! What the search knows of a variant beside its rules: the evaluation,
//! which actions are noisy (quiescence), check, which prunings are sound,
//! and how to pass the turn (null move).
//!
//! Each known variant has its own module implementing [`Knowledge`] for its
//! position type; `generic` serves every other variant (one added to env
//! later runs with it unchanged: terminal scores and mobility only).
//!
//! # Dispatch without a dispatch point
//!
//! [`heterodox_env::Variant::visit`] stays the only place a run-time variant
//! becomes a type; the engine is generic over `P: GameVariant` and must work
//! for any `P`. Stable Rust has no specialisation, so the functions below
//! (`evaluate::<P>`, `noisy::<P>`, ...) pick the variant's [`Knowledge`] by
//! comparing `P` with each known position type through [`std::any::Any`]:
//! a downcast of a `&P` to `&Chess` compares two `TypeId` constants, which
//! monomorphisation folds, so each instantiation of the search compiles to
//! a direct call of its own variant's code and the other branches vanish.
//! No allocation, no `unsafe`, no run-time cost (the `bench` figures are
//! the check), and a new variant needs no change here.

mod chess;
mod endgame;
mod fide;
mod fide_moves;
pub(crate) mod generic;
mod hostage;
mod madscientist;
mod poison;
mod pst;
mod traitor;
pub(crate) mod weights;

use std::any::{Any, TypeId};
use std::ops::Sub;

use heterodox_env::{
    Chess, Color, GameVariant, Hostage, MadScientist, PoisonChess, Position, Setup, Traitor,
};

use weights::ParameterVector;
pub use weights::{EvalWeights, UnknownWeights};

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

/// One variant's search knowledge, for its position type `Pos`.
pub trait Knowledge {
    type Pos: GameVariant;

    /// Which prunings are sound.
    const PRUNING: Pruning;

    /// The evaluation's numbers the tuner may move (`weights.rs`); `()`
    /// for a variant whose evaluation is not tuned.
    type Weights: ParameterVector;
    /// The numbers set by hand: the tuner's starting point.
    const HAND: Self::Weights;
    /// The numbers the tuner found (docs/engine.md, "Tuning").
    const TUNED: Self::Weights;

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

/// `value` as a `T` when it is one: a comparison of two type ids, folded
/// at compile time.
#[inline(always)]
fn cast<T: 'static, U: 'static>(value: &T) -> Option<&U> {
    (value as &dyn Any).downcast_ref::<U>()
}

/// Runs `$body` with `K` the [`Knowledge`] of `P` and `$p` the position as
/// its concrete type, or `$generic` with `$p: &P` when `P` is none of the
/// known variants (a type alias cannot name the generic `P`). The known
/// variants are listed once, each position type with its knowledge; the
/// `@try` arms expand them into one `if let ... else` per variant.
macro_rules! with_knowledge {
    ($P:ty, $pos:expr, |$p:ident| $body:expr, generic: $generic:expr) => {{
        let position: &$P = $pos;
        with_knowledge!(@try $P, position, $p, $body, $generic;
            Chess => chess::ChessKnowledge,
            PoisonChess => poison::PoisonKnowledge,
            Hostage => hostage::HostageKnowledge,
            MadScientist => madscientist::MadKnowledge,
            Traitor => traitor::TraitorKnowledge,
        )
    }};
    (@try $P:ty, $position:ident, $p:ident, $body:expr, $generic:expr;
        $Variant:ty => $Known:ty, $($rest:tt)*) => {
        if let Some($p) = cast::<$P, $Variant>($position) {
            type K = $Known;
            $body
        } else {
            with_knowledge!(@try $P, $position, $p, $body, $generic; $($rest)*)
        }
    };
    (@try $P:ty, $position:ident, $p:ident, $body:expr, $generic:expr;) => {{
        #[allow(unused_variables)]
        let $p = $position;
        $generic
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
        generic: generic::evaluate(p)
    )
}

/// Code that needs a variant's [`Knowledge`] as a type (the tuner calls
/// its evaluation with numbers of its own).
pub(crate) trait KnowledgeVisitor {
    type Output;
    fn visit<K: Knowledge>(self) -> Self::Output;
}

/// Runs `visitor` with `P`'s knowledge; `None` for a variant the engine
/// knows only generically.
pub(crate) fn visit_knowledge<P: GameVariant, V: KnowledgeVisitor>(
    visitor: V,
) -> Option<V::Output> {
    let p = TypeId::of::<P>();
    if p == TypeId::of::<Chess>() {
        Some(visitor.visit::<chess::ChessKnowledge>())
    } else if p == TypeId::of::<PoisonChess>() {
        Some(visitor.visit::<poison::PoisonKnowledge>())
    } else if p == TypeId::of::<Hostage>() {
        Some(visitor.visit::<hostage::HostageKnowledge>())
    } else if p == TypeId::of::<MadScientist>() {
        Some(visitor.visit::<madscientist::MadKnowledge>())
    } else if p == TypeId::of::<Traitor>() {
        Some(visitor.visit::<traitor::TraitorKnowledge>())
    } else {
        None
    }
}

#[inline]
pub(crate) fn material<P: GameVariant>(pos: &P, side: Color) -> i32 {
    with_knowledge!(P, pos, |p| K::material(p, side), generic: generic::material(p, side))
}

/// [`material`] of a position handed over as `&dyn Any` (the training
/// loader's material target, [`heterodox_selfplay::loader::MaterialMeasure`]):
/// 0 for a type that is none of the variants.
pub fn material_of_any(position: &dyn Any, side: Color) -> i32 {
    if let Some(p) = position.downcast_ref::<Chess>() {
        material(p, side)
    } else if let Some(p) = position.downcast_ref::<PoisonChess>() {
        material(p, side)
    } else if let Some(p) = position.downcast_ref::<Hostage>() {
        material(p, side)
    } else if let Some(p) = position.downcast_ref::<MadScientist>() {
        material(p, side)
    } else if let Some(p) = position.downcast_ref::<Traitor>() {
        material(p, side)
    } else {
        0
    }
}

#[inline]
pub(crate) fn in_check<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::in_check(p), generic: generic::in_check(p))
}

#[inline]
pub(crate) fn noisy<P: GameVariant>(pos: &P, action: &P::Action) -> Option<Noisy> {
    with_knowledge!(
        P,
        pos,
        |p| K::noisy(p, action_as(action)),
        generic: generic::noisy(p, action)
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
        generic: false
    )
}

#[inline]
pub(crate) fn see_at_least<P: GameVariant>(pos: &P, action: &P::Action, threshold: i32) -> bool {
    with_knowledge!(
        P,
        pos,
        |p| K::see_at_least(p, action_as(action), threshold),
        generic: true
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
        generic: ()
    );
    passed
}

#[inline]
pub(crate) fn pruning<P: GameVariant>(pos: &P) -> Pruning {
    with_knowledge!(P, pos, |_p| K::PRUNING, generic: generic::PRUNING)
}

#[inline]
pub(crate) fn shallow_step<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::shallow_step(p), generic: false)
}

#[inline]
pub(crate) fn must_act<P: GameVariant>(pos: &P) -> bool {
    with_knowledge!(P, pos, |p| K::must_act(p), generic: false)
}

#[cfg(test)]
mod tests {
    use super::*;

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
