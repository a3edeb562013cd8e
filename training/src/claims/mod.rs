//! Strategy claims as measured hypotheses. Each claim in [`CLAIMS`] has an
//! operational definition, a metric, a statistical test and a refutation
//! criterion (docs/claims.md); [`run_claim`] plays its games, computes its
//! statistics and writes a report directory ([`report`]).
//!
//! - `hostage-favours-the-attacker` ([`attacker`]): Pritchard's remark,
//!   measured three ways against FIDE chess with the same agent recipe;
//! - `poison-two-harpies-draw` ([`harpies`]): Lambert's "two Harpies and a
//!   King against a lone King is pretty ridiculous";
//! - `first-move-advantage` ([`first_move`]): White's score in every
//!   variant and every Traitor mode and commitment;
//! - `piece-values` ([`piece_values`]): every kind of man's value in every
//!   variant, fitted from games, with chess as the check.
//!
//! The agents are [`AgentSpec`]s, one for every variant or one per
//! variant (`hostage=net:runs/h1/last@64`): a network belongs to one
//! variant, and a claim that compares variants wants the same recipe in
//! each. Every report also measures each agent against random play: a claim
//! judged by agents that do not clearly beat random play gets no verdict.

mod agents;
mod attacker;
mod catalogue;
mod first_move;
mod games;
mod harpies;
/// The journal of a claim run (`crate::journal`, shared with the arena).
pub use crate::journal;
mod measures;
mod piece_values;
mod report;
mod run;
mod settings;
pub mod stats;
mod summary;
mod verdict;

pub use agents::{AgentChoice, DEFAULT_AGENT};
pub use catalogue::{find, Claim, Plays, CLAIMS};
pub use report::PlotOutcome;
pub use run::{play_claim_part, run_claim, ClaimOutcome, PartOutcome};
pub use settings::{ClaimSettings, QUICK_CALIBRATION_GAMES};
pub(crate) use summary::{csv_field, p_text, percent, points};
pub(crate) use verdict::{direction, majority_verdict, Findings};
pub use verdict::{AgentStrength, Calibration, FamilyScore, Verdict, STRONG_ENOUGH};
