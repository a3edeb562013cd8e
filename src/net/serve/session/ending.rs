//! Endings the rules do not know: a resignation and a draw agreed.
//!
//! * **Resigning** ends the game at once, the opponent winning
//!   (termination `resignation`); it may be done while an agent thinks,
//!   whose search is then stopped.
//! * **A draw offer to an agent** is answered at once, by one rule: the
//!   agent accepts when its value of the position at its latest move in
//!   the game (the expected result for it, -1 to +1, which its reply
//!   showed) is below [`ACCEPT_BELOW`], i.e. when it expects to lose;
//!   otherwise, and when it has no value (random or greedy play, or no
//!   move made yet), it declines. The answer names no number: under hidden
//!   information the value is the agent's secret's, so the answer tells
//!   only that one bit, as any opponent's would.
//! * **A draw offer to a person** stands until that person offers a draw
//!   too (agreed) or makes a move (declined by playing on); the offerer's
//!   own moves keep it standing, as a draw offered with a move does.
//!
//! Both end the game with an `Outcome` whose termination is the env's
//! `Termination::Goal` with the name `resignation` or `agreement`: the
//! rules' outcome type names every ending (the result line under the
//! board, the PGN's `Termination`), and these are endings by the players,
//! not by a rule of any variant. A game ended so cannot be taken back.
//!
//! A child of session.rs, whose state holds the [`DrawOffer`]: the session
//! names this module and this module extends the session's type, one unit
//! whose parts live in two files (not two modules that need each other).

use heterodox_env::{Color, GameVariant, Outcome, Termination};
use serde_json::{json, Value};

use super::{Player, TypedSession};
use crate::serve::error::ApiError;
use crate::serve::seat::Seat;

/// An agent accepts a draw when its latest value is below this.
pub const ACCEPT_BELOW: f32 = -0.25;

/// The termination of a resigned game.
pub const RESIGNATION: Termination = Termination::Goal("resignation");
/// The termination of a draw agreed.
pub const AGREEMENT: Termination = Termination::Goal("agreement");

/// Where a draw offer stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Offered to a person, who has not answered.
    Pending,
    Accepted(String),
    Declined(String),
}

/// The latest draw offer, until a move makes it lapse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawOffer {
    pub by: Color,
    pub answer: Answer,
}

impl DrawOffer {
    pub fn to_json(&self) -> Value {
        let (answer, reason) = match &self.answer {
            Answer::Pending => ("pending", None),
            Answer::Accepted(reason) => ("accepted", Some(reason)),
            Answer::Declined(reason) => ("declined", Some(reason)),
        };
        json!({"by": self.by.name(), "answer": answer, "reason": reason})
    }
}

impl<P: GameVariant> TypedSession<P> {
    pub(super) fn resign_as(&mut self, seat: Seat) -> Result<(), ApiError> {
        let color = self.human_seat(seat)?;
        self.check_not_over()?;
        self.ended = Some(Outcome::Decisive {
            winner: !color,
            termination: RESIGNATION,
        });
        self.draw_offer = None;
        self.stop_search();
        self.version += 1;
        Ok(())
    }

    pub(super) fn offer_draw_as(&mut self, seat: Seat) -> Result<(), ApiError> {
        let color = self.check_human(seat)?;
        self.check_not_over()?;
        let opponent = !color;
        let answer = match &self.players[opponent.index()] {
            Player::Human => match &self.draw_offer {
                Some(offer) if offer.by == opponent && offer.answer == Answer::Pending => {
                    Answer::Accepted(format!("{} had offered a draw too", opponent.name()))
                }
                _ => Answer::Pending,
            },
            Player::Agent(spec) => self.agent_answer(opponent, &spec.to_string()),
        };
        if let Answer::Accepted(_) = answer {
            self.ended = Some(Outcome::Draw {
                termination: AGREEMENT,
            });
        }
        self.draw_offer = Some(DrawOffer { by: color, answer });
        self.version += 1;
        Ok(())
    }

    /// The agent playing `color` answers a draw offer by its latest value
    /// (module comment).
    fn agent_answer(&self, color: Color, agent: &str) -> Answer {
        let latest = self.steps.iter().rev().find(|step| step.mover == color);
        match latest.map(|step| step.value) {
            None => Answer::Declined(format!("{agent} has made no move yet to judge the game by")),
            Some(None) => Answer::Declined(format!("{agent} has no evaluation to judge a draw by")),
            Some(Some(value)) if value < ACCEPT_BELOW => Answer::Accepted(format!(
                "{agent} expects to lose (its value is below {ACCEPT_BELOW})"
            )),
            Some(Some(_)) => Answer::Declined(format!(
                "{agent} does not expect to lose (its value is {ACCEPT_BELOW} or more)"
            )),
        }
    }

    /// A step by `mover` was played: an answered offer is done with, and a
    /// pending one lapses unless the offerer moved.
    pub(super) fn lapse_draw_offer(&mut self, mover: Color) {
        let stands = self
            .draw_offer
            .as_ref()
            .is_some_and(|offer| offer.answer == Answer::Pending && offer.by == mover);
        if !stands {
            self.draw_offer = None;
        }
    }

    /// 409 for an undo that would reopen a game the players ended, or a
    /// finished game whose secrets were shown at its end (module comment of
    /// view.rs).
    pub(super) fn check_undoable(&self) -> Result<(), ApiError> {
        if let Some(outcome) = self.ended {
            return Err(ApiError::conflict(format!(
                "the game is over: {outcome}; a game resigned or agreed drawn cannot be taken back"
            )));
        }
        if !P::PERFECT_INFORMATION {
            if let Some(outcome) = self.game.outcome() {
                return Err(ApiError::conflict(format!(
                    "the game is over: {outcome}; its secrets were shown, so it cannot be taken back"
                )));
            }
        }
        Ok(())
    }
}
