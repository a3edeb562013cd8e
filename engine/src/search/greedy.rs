//! The greedy player: the one-ply material baseline. It plays the action
//! after which its material, by the evaluation's values, leads the
//! opponent's by the most (a win first, a loss last, a draw as equal
//! material), choosing at random among equals with its own seeded
//! generator.
//!
//! Under hidden information it judges a state drawn from its own view,
//! never the true state.

use heterodox_env::rng::SplitMix64;
use heterodox_env::{Game, GameVariant, StateSampler};

use crate::eval;

/// Scores of an action that ends the game.
const WIN: i32 = i32::MAX / 2;
const LOSS: i32 = -WIN;

/// A seeded greedy player.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: SplitMix64,
}

impl Greedy {
    pub fn new(seed: u64) -> Greedy {
        Greedy {
            rng: SplitMix64::new(seed),
        }
    }

    /// The action to play, `None` when the game is over.
    pub fn choose<P: GameVariant>(&mut self, game: &Game<P>) -> Option<P::Action> {
        if game.outcome().is_some() {
            return None;
        }
        let position = game.position();
        let state = if P::PERFECT_INFORMATION {
            position.clone()
        } else {
            P::sampler(&position.view(position.turn())).sample(&mut self.rng)
        };
        let mover = state.turn();
        let mut actions = Vec::new();
        state.legal_actions(&mut actions);
        let mut best = Vec::new();
        let mut best_score = i32::MIN;
        for action in actions {
            let mut child = state.clone();
            child.play_unchecked(&action);
            let score = match child.outcome() {
                Some(outcome) => match outcome.winner() {
                    Some(winner) if winner == mover => WIN,
                    Some(_) => LOSS,
                    None => 0,
                },
                None => eval::material(&child, mover),
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(action);
            }
        }
        (!best.is_empty()).then(|| best[self.rng.below(best.len())])
    }
}
