//! A claim run's settings: games, plies, seeds, search and calibration
//! sizes, bounded before anything is played.

use heterodox_models::tch::Device;
use heterodox_selfplay::{DuelPart, SearchConfig};

use super::agents::AgentChoice;
use super::catalogue::Claim;
use crate::error::TrainError;
use crate::journal::Journal;

/// Settings of a claim run.
#[derive(Clone, Debug)]
pub struct ClaimSettings {
    pub agents: AgentChoice,
    /// Games per variant or rule set.
    pub games: u32,
    /// Paired games of each agent against each calibration opponent
    /// (random, greedy, rollout@64, the other family): its strength.
    pub calibration_games: u32,
    pub concurrent: u32,
    /// A longer game is cut and scored a draw.
    pub max_plies: u32,
    /// Random plies that open each game.
    pub opening_plies: u32,
    /// The ply (steps from the start, the opening included) at which
    /// position measures are read.
    pub ply: u32,
    pub seed: u64,
    /// The searching agents' settings besides budget and root.
    pub search: SearchConfig,
    pub device: Device,
    /// Continue the interrupted run whose journal is beside the report
    /// directory (`journal`), playing only the games it lacks.
    pub resume: bool,
    /// Play only this part of every duel's games, into the journal, and
    /// write no report (a task of a run split across machines; the driver
    /// merges the parts' journals and writes the report with `resume`).
    pub part: Option<DuelPart>,
    /// Where the games of this run are written as they finish; set by
    /// [`run_claim`].
    pub(crate) journal: Option<Journal>,
    /// A `--quick` run ([`ClaimSettings::quick`]): its report says it is
    /// an example, not evidence (`verdict::QUICK_RUN`).
    pub quick: bool,
}

impl ClaimSettings {
    /// The defaults of `claim`.
    pub fn new(claim: &Claim, agents: AgentChoice) -> ClaimSettings {
        ClaimSettings {
            agents,
            games: claim.default_games,
            calibration_games: claim.default_calibration_games,
            concurrent: 32,
            max_plies: 200,
            opening_plies: 4,
            ply: 24,
            seed: 0,
            search: SearchConfig::default(),
            device: Device::Cpu,
            resume: false,
            part: None,
            journal: None,
            quick: false,
        }
    }

    /// `--quick`: the claim's `quick_games` and [`QUICK_CALIBRATION_GAMES`],
    /// for a run of about two minutes (notebooks, CI) whose figures are
    /// an example, not evidence, and whose report says so.
    pub fn quick(&mut self, claim: &Claim) {
        self.games = claim.quick_games;
        self.calibration_games = QUICK_CALIBRATION_GAMES;
        self.quick = true;
    }

    /// Bounds checked before anything is played.
    pub(crate) fn check(&self) -> Result<(), TrainError> {
        let bad = |field: &str, value: u32, range: &str| {
            Err(TrainError::Config {
                path: None,
                message: format!("{field} = {value} is out of range ({range})"),
            })
        };
        if !(2..=1_000_000).contains(&self.games) {
            return bad("games", self.games, "2 to 1000000");
        }
        if !(2..=100_000).contains(&self.calibration_games) {
            return bad("calibration games", self.calibration_games, "2 to 100000");
        }
        if !(1..=4096).contains(&self.concurrent) {
            return bad("concurrent", self.concurrent, "1 to 4096");
        }
        if !(1..=10_000).contains(&self.max_plies) {
            return bad("max plies", self.max_plies, "1 to 10000");
        }
        if self.opening_plies > 100 {
            return bad("opening plies", self.opening_plies, "0 to 100");
        }
        if self.ply == 0 || self.ply >= self.max_plies {
            return bad("ply", self.ply, "1 to max plies - 1");
        }
        Ok(())
    }
}

/// Paired games against each calibration opponent per agent with
/// `--quick`: the fewest whole pairs whose perfect score against random
/// play clears the calibration rule every claim applies
/// (`verdict::STRONG_ENOUGH`, a lower 95% Wilson bound of 60%): `n` wins
/// in `n` games have the bound `n / (n + 1.96^2)`, 0.61 for 6 games, 0.51
/// for 4. The rule stays the full runs' rule; a quick run's agents meet it
/// by winning every game against random play (one draw falls short),
/// which the default agent does.
pub const QUICK_CALIBRATION_GAMES: u32 = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::CLAIMS;

    #[test]
    fn settings_are_bounded() {
        let mut s = ClaimSettings::new(&CLAIMS[0], AgentChoice::parse(&[]).unwrap());
        assert!(s.check().is_ok());
        s.ply = s.max_plies;
        assert!(s.check().unwrap_err().to_string().contains("ply = 200"));
        s.ply = 10;
        s.games = 0;
        assert!(s.check().unwrap_err().to_string().contains("games = 0"));
    }

    #[test]
    fn quick_runs_know_they_are_quick() {
        let mut s = ClaimSettings::new(&CLAIMS[0], AgentChoice::parse(&[]).unwrap());
        assert!(!s.quick);
        s.quick(&CLAIMS[0]);
        assert!(s.quick);
        assert_eq!(
            (s.games, s.calibration_games),
            (CLAIMS[0].quick_games, QUICK_CALIBRATION_GAMES)
        );
        assert!(s.check().is_ok());
    }
}
