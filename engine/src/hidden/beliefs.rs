//! Beliefs about the opponent's secret: a posterior over the states
//! consistent with the searcher's view, updated from what the opponent
//! does.
//!
//! A uniform draw of determinizations treats a secret the opponent's play
//! has all but ruled out (a traitor that would have mated at once, not
//! announced) like any other. Instead, each time the engine's player is to
//! act again, the opponent's steps since its last turn are found (the one
//! sequence of public steps that leads from the engine's last view and its
//! own step to the new view) and every consistent state is weighed by how
//! likely its owner was to take the opponent's first step there:
//!
//! `P(step | state) = (1 - ε) · softmax(score / T)[step] + ε / N`
//!
//! with the softmax over the first steps the state allows the opponent (a
//! secret that holds more traitors allows more announcements) and `N` the
//! first steps any consistent state allows. The noise is the same for
//! every secret, so a step the model cannot explain under any secret
//! leaves the posterior as it was (a noise over each state's own steps
//! would favour the secrets that allow fewest, whatever was played). Each
//! step's score comes
//! from the engine's own exact search of the opponent's position at
//! [`BELIEF_DEPTH`], the whole state read, in the covering states
//! ([`heterodox_env::StateSampler::covering`]: a step's score is taken from
//! the first covering state that allows it, so a plain move scores the same
//! under every secret). `ε` keeps a secret alive when the opponent plays a
//! move the model finds poor (a weaker or a random player); `T` and `ε`
//! ([`BELIEF_TEMPERATURE_CP`], [`BELIEF_NOISE`]) were fitted on self-play
//! (docs/hidden.md).
//! The second step of a turn (the move after an announcement) is left out:
//! at this depth its score does not depend on the secret.
//!
//! Nothing here reads the true secret: the particles are the sampler's
//! states of each view, the opponent's steps are found in states built
//! from the view, and states are matched across turns by the opponent's
//! information-set key of each particle, never of the true state.
//!
//! A view with a secret where the last had none (the opponent chose it
//! since, unseen) starts the posterior uniform. When the new view does not follow from the last one by the engine's
//! step and one opponent turn (a new game, an analysis jumping around, the
//! caller playing a step the engine did not choose without saying so
//! through [`Beliefs::played`]), the posterior starts again from uniform.

use std::collections::HashMap;

use heterodox_env::rng::SplitMix64;
use heterodox_env::{Color, GameVariant, StateSampler};

/// The exact search depth that scores the opponent's first steps.
pub const BELIEF_DEPTH: u32 = 1;
/// The softmax temperature over those scores, in centipawns, and the
/// weight of a uniformly random step: fitted on self-play (`heterodox
/// beliefs`, docs/hidden.md), where 10 to 25 cp gain within 0.02 bits of
/// each other and a noise of 0.001 to 0.05 within 0.02; a noise of 1%
/// keeps a secret alive through a weaker player's blunder.
pub const BELIEF_TEMPERATURE_CP: f64 = 25.0;
pub const BELIEF_NOISE: f64 = 0.01;
/// Scores beyond this (mates) count as this many centipawns: a missed mate
/// is unlikely, not impossible.
const SCORE_CLAMP_CP: i32 = 1000;

/// How likely a player is to take each step: a softmax of the steps'
/// scores at a temperature, mixed with a uniformly random step.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct MoveModel {
    /// Centipawns: lower trusts the scores more.
    pub temperature_cp: f64,
    /// The weight of a uniformly random step, in [0, 1).
    pub noise: f64,
}

impl Default for MoveModel {
    fn default() -> MoveModel {
        MoveModel {
            temperature_cp: BELIEF_TEMPERATURE_CP,
            noise: BELIEF_NOISE,
        }
    }
}

/// A posterior over the opponent's secret, held by an engine through a
/// game ([`crate::Engine::beliefs`]).
#[derive(Clone, Debug)]
pub struct Beliefs<P: GameVariant> {
    model: MoveModel,
    observer: Option<Color>,
    /// The states consistent with the observer's view at its last turn, in
    /// the sampler's order, and their unnormalised log-weights.
    states: Vec<P>,
    log_weights: Vec<f64>,
    /// The observer's information-set key of that view.
    key: u64,
    /// The step the observer took there, once known.
    played: Option<P::Action>,
    /// Opponent turns weighed since the posterior last started uniform.
    turns: u32,
    /// Times it started again from uniform.
    resets: u32,
}

impl<P: GameVariant> Default for Beliefs<P> {
    fn default() -> Beliefs<P> {
        Beliefs {
            model: MoveModel::default(),
            observer: None,
            states: Vec::new(),
            log_weights: Vec::new(),
            key: 0,
            played: None,
            turns: 0,
            resets: 0,
        }
    }
}

/// One consistent secret's posterior probability.
#[derive(Clone, Debug, PartialEq)]
pub struct SecretBelief {
    /// The opponent's secret as text ([`heterodox_env::HiddenInformation::secret_text`]).
    pub secret: String,
    pub probability: f64,
}

/// What a posterior says, for displays ([`crate::Engine::beliefs`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BeliefReport {
    /// Whose belief it is.
    pub observer: Color,
    /// Every consistent secret, most likely first (ties in the sampler's
    /// order).
    pub secrets: Vec<SecretBelief>,
    /// The posterior's entropy in bits (`log2` of the count when uniform).
    pub entropy_bits: f64,
    /// Opponent turns weighed since the posterior last started uniform.
    pub turns: u32,
}

/// The opponent's steps between two views of the observer.
struct Transition<P: GameVariant> {
    /// The opponent's steps (none when the observer's turn goes on).
    theirs: Vec<P::Action>,
    /// Covering states of the opponent's position before its first step,
    /// built from the observer's view.
    covering: Vec<P>,
}

impl<P: GameVariant> Beliefs<P> {
    /// Beliefs under another move model than the default (fitting one).
    pub fn with_model(model: MoveModel) -> Beliefs<P> {
        Beliefs {
            model,
            ..Beliefs::default()
        }
    }

    /// Forgets the game: the next view starts from uniform.
    pub fn clear(&mut self) {
        let (model, resets) = (self.model, self.resets);
        *self = Beliefs::with_model(model);
        self.resets = resets;
    }

    /// The states of the view last weighed (the sampler's, in its order)
    /// with their probabilities.
    pub fn states(&self) -> impl Iterator<Item = (&P, f64)> {
        self.states.iter().zip(normalised(&self.log_weights))
    }

    /// Records the step the observer took at the view last weighed.
    pub fn played(&mut self, action: P::Action) {
        self.played = Some(action);
    }

    /// The posterior's probabilities, aligned with the sampler's states of
    /// `position`'s view of its player to act; `None` unless this belief
    /// is about that view.
    pub fn probabilities(&self, position: &P) -> Option<Vec<f64>> {
        let me = position.turn();
        (self.observer == Some(me) && self.key == position.information_set_key(me))
            .then(|| normalised(&self.log_weights))
    }

    /// Times the posterior started again from uniform.
    pub fn resets(&self) -> u32 {
        self.resets
    }

    /// The posterior for displays, most likely secret first.
    pub fn report(&self) -> Option<BeliefReport> {
        let observer = self.observer?;
        let probabilities = normalised(&self.log_weights);
        let mut secrets: Vec<SecretBelief> = self
            .states
            .iter()
            .zip(&probabilities)
            .map(|(state, &probability)| SecretBelief {
                secret: state.secret_text(!observer),
                probability,
            })
            .collect();
        secrets.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        let entropy_bits = -probabilities
            .iter()
            .filter(|&&p| p > 0.0)
            .map(|p| p * p.log2())
            .sum::<f64>();
        Some(BeliefReport {
            observer,
            secrets,
            entropy_bits,
            turns: self.turns,
        })
    }

    /// Weighs the opponent's steps since the last view (the view of
    /// `position`'s player to act): `score` gives every legal step of a
    /// full state with its score for the state's player to act, in
    /// centipawns (the engine's exact search).
    pub fn update(&mut self, position: &P, mut score: impl FnMut(&P) -> Vec<(P::Action, i32)>) {
        let me = position.turn();
        let key = position.information_set_key(me);
        if self.observer == Some(me) && self.key == key {
            return;
        }
        let sampler = P::sampler(&position.view(me));
        let states: Vec<P> = (0..sampler.len()).map(|i| sampler.state(i)).collect();
        // A secret chosen since (the opponent's selection, a step the
        // observer does not see): the posterior starts here. Nothing
        // hidden: nothing to weigh (and no search spent on it).
        let chosen = self.states.len() == 1 && states.len() > 1;
        let weigh = !chosen && states.len() > 1;
        let carried = match weigh.then(|| self.transition(me, key)).flatten() {
            Some(transition) => self.carry(me, &transition, &states, &mut score),
            None => None,
        };
        let log_weights = carried.unwrap_or_else(|| {
            self.resets += u32::from(self.observer.is_some() && weigh);
            self.turns = 0;
            vec![0.0; states.len()]
        });
        self.observer = Some(me);
        self.states = states;
        self.log_weights = log_weights;
        self.key = key;
        self.played = None;
    }

    /// The opponent's steps from the last view, after the observer's step,
    /// to the view keyed `key`: searched in the covering states of the
    /// opponent's position, so that an announcement only some secrets
    /// allow is found.
    fn transition(&self, me: Color, key: u64) -> Option<Transition<P>> {
        if self.observer != Some(me) {
            return None;
        }
        let played = self.played?;
        let mut after = self.states.first()?.clone();
        if !after.is_legal(&played) {
            return None;
        }
        after.play_unchecked(&played);
        if after.information_set_key(me) == key {
            // The observer's turn goes on (after its announcement).
            return Some(Transition {
                theirs: Vec::new(),
                covering: Vec::new(),
            });
        }
        if after.turn() == me {
            return None;
        }
        let sampler = P::sampler(&after.view(me));
        let covering: Vec<P> = sampler
            .covering()
            .into_iter()
            .map(|index| sampler.state(index))
            .collect();
        let mut first = Vec::new();
        let mut second = Vec::new();
        for state in &covering {
            state.legal_actions(&mut first);
            for &step in &first {
                let mut next = state.clone();
                next.play_unchecked(&step);
                if next.turn() == me {
                    if next.information_set_key(me) == key {
                        return Some(Transition {
                            theirs: vec![step],
                            covering: covering.clone(),
                        });
                    }
                    continue;
                }
                next.legal_actions(&mut second);
                for &then in &second {
                    let mut last = next.clone();
                    last.play_unchecked(&then);
                    if last.turn() == me && last.information_set_key(me) == key {
                        return Some(Transition {
                            theirs: vec![step, then],
                            covering: covering.clone(),
                        });
                    }
                }
            }
        }
        None
    }

    /// Carries the log-weights over the transition onto `states` (the new
    /// view's sampler states): each particle plays the observer's step and
    /// the opponent's, weighed by the likelihood of the opponent's first
    /// step; `None` when no particle reaches the new view.
    fn carry(
        &mut self,
        me: Color,
        transition: &Transition<P>,
        states: &[P],
        score: &mut impl FnMut(&P) -> Vec<(P::Action, i32)>,
    ) -> Option<Vec<f64>> {
        let played = self.played?;
        let scores = if transition.theirs.is_empty() {
            HashMap::new()
        } else {
            pooled_scores(&transition.covering, score)
        };
        let index: HashMap<u64, usize> = states
            .iter()
            .enumerate()
            .map(|(i, state)| (state.information_set_key(!me), i))
            .collect();
        let mut carried = vec![f64::NEG_INFINITY; states.len()];
        let mut reached = false;
        let mut steps = Vec::new();
        for (state, &log_weight) in self.states.iter().zip(&self.log_weights) {
            if log_weight == f64::NEG_INFINITY {
                continue;
            }
            if !state.is_legal(&played) {
                continue;
            }
            let mut particle = state.clone();
            particle.play_unchecked(&played);
            let mut log_weight = log_weight;
            if let Some(first) = transition.theirs.first() {
                particle.legal_actions(&mut steps);
                if !steps.contains(first) {
                    continue;
                }
                log_weight += log_likelihood(&self.model, first, &steps, &scores, scores.len());
            }
            let mut legal = true;
            for step in &transition.theirs {
                legal &= particle.is_legal(step);
                if !legal {
                    break;
                }
                particle.play_unchecked(step);
            }
            if !legal {
                continue;
            }
            if let Some(&i) = index.get(&particle.information_set_key(!me)) {
                carried[i] = log_sum(carried[i], log_weight);
                reached = true;
            }
        }
        if !reached {
            return None;
        }
        if !transition.theirs.is_empty() {
            self.turns += 1;
        }
        Some(carried)
    }
}

/// Every first step some consistent state allows the opponent, with its
/// score from the first covering state that allows it.
fn pooled_scores<P: GameVariant>(
    covering: &[P],
    score: &mut impl FnMut(&P) -> Vec<(P::Action, i32)>,
) -> HashMap<P::Action, i32> {
    let mut pooled = HashMap::new();
    for state in covering {
        for (step, value) in score(state) {
            pooled
                .entry(step)
                .or_insert(value.clamp(-SCORE_CLAMP_CP, SCORE_CLAMP_CP));
        }
    }
    pooled
}

/// `log P(step | state)` under the move model, `steps` being the first
/// steps the state allows (`step` among them) and `union` how many any
/// consistent state allows.
pub(crate) fn log_likelihood<A: Eq + std::hash::Hash>(
    model: &MoveModel,
    step: &A,
    steps: &[A],
    scores: &HashMap<A, i32>,
    union: usize,
) -> f64 {
    let value = |a: &A| f64::from(scores.get(a).copied().unwrap_or(0)) / model.temperature_cp;
    let top = steps.iter().map(value).fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = steps.iter().map(|a| (value(a) - top).exp()).sum();
    let softmax = (value(step) - top).exp() / total;
    ((1.0 - model.noise) * softmax + model.noise / union.max(1) as f64).ln()
}

fn log_sum(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    let top = a.max(b);
    top + ((a - top).exp() + (b - top).exp()).ln()
}

/// An index drawn with the given probabilities (summing to 1; the last
/// possible index takes what rounding leaves): how a searcher draws its
/// determinizations from a posterior (the engine's, and the tree
/// search's roots in heterodox-selfplay).
pub fn draw(probabilities: &[f64], rng: &mut SplitMix64) -> usize {
    let mut left = rng.next_unit();
    for (index, p) in probabilities.iter().enumerate() {
        if left < *p {
            return index;
        }
        left -= p;
    }
    probabilities
        .iter()
        .rposition(|&p| p > 0.0)
        .unwrap_or(probabilities.len() - 1)
}

/// Probabilities from unnormalised log-weights.
fn normalised(log_weights: &[f64]) -> Vec<f64> {
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    if top == f64::NEG_INFINITY {
        return vec![1.0 / log_weights.len() as f64; log_weights.len()];
    }
    let weights: Vec<f64> = log_weights.iter().map(|w| (w - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_model_is_a_softmax_with_noise() {
        // Two steps scored 0 and 100 cp at T = 100: softmax 1/(1+e) and
        // e/(1+e), each mixed with 5% of a uniform step among the 4 that
        // some state allows.
        let scores: HashMap<u8, i32> = [(0, 0), (1, 100)].into_iter().collect();
        let model = MoveModel {
            temperature_cp: 100.0,
            noise: 0.05,
        };
        let e = std::f64::consts::E;
        let low = log_likelihood(&model, &0, &[0, 1], &scores, 4).exp();
        let high = log_likelihood(&model, &1, &[0, 1], &scores, 4).exp();
        assert!((low - (0.95 / (1.0 + e) + 0.0125)).abs() < 1e-15, "{low}");
        assert!(
            (high - (0.95 * e / (1.0 + e) + 0.0125)).abs() < 1e-15,
            "{high}"
        );
        // A state that allows a third, unscored step (counted at 0 cp)
        // spreads the softmax thinner; the noise is the same.
        let three = log_likelihood(&model, &1, &[0, 1, 2], &scores, 4).exp();
        assert!((three - (0.95 * e / (2.0 + e) + 0.0125)).abs() < 1e-15);
    }

    #[test]
    fn log_weights_normalise_and_add() {
        let p = normalised(&[0.0, 2f64.ln(), f64::NEG_INFINITY]);
        assert_eq!(p.len(), 3);
        assert!((p[0] - 1.0 / 3.0).abs() < 1e-15 && (p[1] - 2.0 / 3.0).abs() < 1e-15);
        assert_eq!(p[2], 0.0);
        assert!((log_sum(2f64.ln(), 3f64.ln()) - 5f64.ln()).abs() < 1e-15);
        assert_eq!(log_sum(f64::NEG_INFINITY, 1.0), 1.0);
        assert_eq!(normalised(&[f64::NEG_INFINITY; 2]), vec![0.5, 0.5]);
    }
}
