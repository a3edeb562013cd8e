//! Search settings, read from TOML or JSON through serde; every field has
//! a default, and an unknown field is an error naming it.

use heterodox_env::GameVariant;
use serde::{Deserialize, Serialize};

/// How the root chooses what to explore, and what the training target is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RootPolicy {
    /// AlphaZero: PUCT everywhere, Dirichlet noise at the root in
    /// self-play; the target is the visit distribution.
    Puct,
    /// Gumbel AlphaZero (Danihelka et al. 2022): Gumbel-Top-k with
    /// sequential halving at the root, the completed-Q improved policy as
    /// target; sound at small simulation counts.
    Gumbel,
}

/// Settings of one search. Defaults follow AlphaZero and the Gumbel paper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SearchConfig {
    /// Simulations per move (leaf evaluations or terminal visits), at least 1.
    pub simulations: u32,
    pub root_policy: RootPolicy,
    /// PUCT exploration constant (`c` in `Q + c P sqrt(N) / (1 + n)`).
    pub c_puct: f32,
    /// First-play urgency: an unvisited child is valued at its parent's
    /// value minus this.
    pub fpu_reduction: f32,
    /// Dirichlet noise at the root (PUCT, self-play only): concentration
    /// and weight; weight 0 turns it off.
    pub dirichlet_alpha: f32,
    pub dirichlet_epsilon: f32,
    /// Gumbel: actions sampled at the root (`m`), and the `c_visit`,
    /// `c_scale` of the monotone transform `sigma(q)`.
    pub gumbel_actions: u32,
    pub gumbel_c_visit: f32,
    pub gumbel_c_scale: f32,
    /// Gumbel noise at the root (self-play); off, the root keeps the
    /// Top-k by prior (evaluation play).
    pub gumbel_noise: bool,
    /// Leaves one search contributes to a batch per gather round; virtual
    /// loss keeps them apart.
    pub leaves_per_round: u32,
    /// Hidden information: full states sampled from the searcher's view,
    /// each searched with an equal share of the simulations.
    pub determinizations: u32,
    /// Keep the chosen child's subtree for the next move (PUCT, perfect
    /// information).
    pub reuse_tree: bool,
    /// Score a position whose player can win with one action as the win
    /// it is, without asking the evaluator, and play such an action at the
    /// root. One probe of each legal action per new node buys the one-ply
    /// tactics a small network misses: a blundered Scientist, a mate in
    /// one (docs/training.md, "Wins in one"). Off by default, which keeps
    /// every earlier run reproducible; the trainer's default and
    /// configs/*.toml turn it on, and so do the network agents of the
    /// arena, claims, `play`, `serve`, UCI and XBoard (not `/nowins`).
    pub immediate_wins: bool,
    /// At the root, do not search an action after which the opponent can
    /// win with one action while some action avoids that: its prior is
    /// set to zero (PUCT) and it is considered last (Gumbel). Two plies of
    /// the rules at the root alone (each action, then each reply), which
    /// finds the one move that saves a Scientist or a King when a Gumbel
    /// root's few considered actions would all lose it
    /// (docs/training.md, "Losses in one"). Off by default, like
    /// `immediate_wins`, so that earlier runs replay.
    pub avoid_losses_in_one: bool,
    /// Quiescence at the leaves: each leaf's value is `(1 - w) v + w q`,
    /// `v` the evaluator's and `q` the engine's quiescence search of the
    /// leaf with the tuned classical evaluation (captures, poisonings,
    /// drops and part removals, and checks at its first ply:
    /// [`heterodox_engine::LeafQuiescence`]), as an expected result
    /// (`tanh(cp / 400)`, a forced mate +1 or -1). Buys the short tactics
    /// a network misses at the cost of a quiescence per leaf, which runs
    /// with the tree work (docs/training.md, "Quiescence at the leaves").
    /// 0 (the default) asks nothing of the engine, so earlier runs replay.
    /// Under hidden information the quiescence reads the leaf's sampled
    /// state, drawn from the searcher's view.
    pub quiescence_weight: f32,
    /// Hidden information: draw the roots from a posterior over the
    /// opponent's secret, updated from what the opponent does, instead of
    /// uniformly from the searcher's view: the engine's beliefs
    /// (`heterodox_engine::hidden::beliefs`, its move model scoring each
    /// step with an exact depth-1 search and the tuned classical
    /// evaluation). Costs one such search per covering state per opponent
    /// turn; the caller tells the search which step its player took
    /// ([`crate::Search::played`]). Off by default, so earlier runs
    /// replay; agents ask for it with `/beliefs`.
    pub beliefs: bool,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            simulations: 100,
            root_policy: RootPolicy::Puct,
            c_puct: 1.5,
            fpu_reduction: 0.25,
            dirichlet_alpha: 0.3,
            dirichlet_epsilon: 0.25,
            gumbel_actions: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 1.0,
            gumbel_noise: true,
            leaves_per_round: 8,
            determinizations: 4,
            reuse_tree: true,
            immediate_wins: false,
            avoid_losses_in_one: false,
            quiescence_weight: 0.0,
            beliefs: false,
        }
    }
}

/// A setting out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("setting {field} = {value} is out of range ({expected})")]
    OutOfRange {
        field: &'static str,
        value: String,
        expected: &'static str,
    },
}

/// The ply cap a game's `max_plies` setting means: 0 takes the variant's
/// `DEFAULT_MAX_PLIES`.
pub fn ply_cap<P: GameVariant>(max_plies: u32) -> u32 {
    if max_plies == 0 {
        P::DEFAULT_MAX_PLIES
    } else {
        max_plies
    }
}

/// Simulations are bounded so that a typo cannot ask for a tree larger
/// than memory (each simulation adds at most one node per legal action).
pub const MAX_SIMULATIONS: u32 = 1 << 20;

impl SearchConfig {
    /// The fewest simulations a search of a variant can run: one per
    /// sampled state under hidden information, else 1.
    pub fn least_simulations(&self, perfect_information: bool) -> u32 {
        if perfect_information {
            1
        } else {
            self.determinizations
        }
    }

    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |field, value: String, expected| ConfigError::OutOfRange {
            field,
            value,
            expected,
        };
        if self.simulations == 0 || self.simulations > MAX_SIMULATIONS {
            return Err(bad(
                "simulations",
                self.simulations.to_string(),
                "1 to 1048576",
            ));
        }
        for (field, value) in [
            ("c_puct", self.c_puct),
            ("fpu_reduction", self.fpu_reduction),
            ("dirichlet_alpha", self.dirichlet_alpha),
            ("gumbel_c_visit", self.gumbel_c_visit),
            ("gumbel_c_scale", self.gumbel_c_scale),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return Err(bad(field, value.to_string(), "a finite number >= 0"));
            }
        }
        if !(0.0..=1.0).contains(&self.quiescence_weight) {
            return Err(bad(
                "quiescence_weight",
                self.quiescence_weight.to_string(),
                "0 to 1",
            ));
        }
        if !(0.0..=1.0).contains(&self.dirichlet_epsilon) {
            return Err(bad(
                "dirichlet_epsilon",
                self.dirichlet_epsilon.to_string(),
                "0 to 1",
            ));
        }
        if self.gumbel_actions == 0 {
            return Err(bad("gumbel_actions", "0".into(), "at least 1"));
        }
        if self.leaves_per_round == 0 || self.leaves_per_round > 4096 {
            return Err(bad(
                "leaves_per_round",
                self.leaves_per_round.to_string(),
                "1 to 4096",
            ));
        }
        if self.determinizations == 0 || self.determinizations > self.simulations {
            return Err(bad(
                "determinizations",
                self.determinizations.to_string(),
                "1 to simulations",
            ));
        }
        Ok(())
    }
}
