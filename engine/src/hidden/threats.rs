//! The threat guard: a hidden-information search averages over a few
//! states drawn from its view, and a threat that only some of the hidden
//! secrets make (Traitor: announcing one of the searcher's men that can
//! then mate) is missed in every sample that lacks it. Before choosing,
//! every root action is therefore checked against the opponent's next turn
//! in states that between them allow every such turn
//! ([`heterodox_env::StateSampler::covering`]): an action after which some
//! consistent state lets the opponent win at once is set aside when
//! another action leaves no such win.
//!
//! Only the turns that begin with a step after which the same side acts
//! again (Traitor's announcement, the one kind of step that depends on the
//! secret) are played out: a plain move is the same in every state, and
//! the determinized searches see it. An action that is itself such a step
//! (the searcher's own announcement) is not judged: its turn's move is
//! checked when it is chosen.

use heterodox_env::{Outcome, Position};

/// What the guard did over an engine's searches ([`crate::Engine::threat_counts`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreatCounts {
    /// Searches whose root actions were checked.
    pub checks: u64,
    /// Searches in which some root actions were set aside.
    pub fired: u64,
    /// Root actions set aside, over all searches.
    pub set_aside: u64,
    /// Searches in which every root action was exposed (nothing to set
    /// aside: the threat cannot be avoided).
    pub unavoidable: u64,
    /// Positions the checks played: their cost, counted apart from the
    /// search's nodes so that a node budget buys the same search.
    pub positions: u64,
}

/// For each of `actions` (the searcher's root actions, legal alike in every
/// one of `states`), whether in some state the opponent's next turn can
/// win at once through a turn of several steps. Adds the positions played
/// to `positions`.
pub(crate) fn exposed<P: Position>(
    states: &[P],
    actions: &[P::Action],
    positions: &mut u64,
) -> Vec<bool> {
    let mut first = Vec::new();
    let mut second = Vec::new();
    actions
        .iter()
        .map(|action| {
            states.iter().any(|state| {
                let mover = state.turn();
                let mut child = state.clone();
                child.play_unchecked(action);
                *positions += 1;
                if child.turn() == mover || child.outcome().is_some() {
                    return false;
                }
                wins_in_one_turn(&child, &mut first, &mut second, positions)
            })
        })
        .collect()
}

/// Whether the player to act in `pos` has a turn of several steps that
/// wins at once.
fn wins_in_one_turn<P: Position>(
    pos: &P,
    first: &mut Vec<P::Action>,
    second: &mut Vec<P::Action>,
    positions: &mut u64,
) -> bool {
    let side = pos.turn();
    pos.legal_actions(first);
    first.iter().any(|step| {
        let mut after = pos.clone();
        after.play_unchecked(step);
        *positions += 1;
        if after.turn() != side {
            return false;
        }
        after.legal_actions(second);
        second.iter().any(|next| {
            let mut end = after.clone();
            end.play_unchecked(next);
            *positions += 1;
            matches!(end.outcome(), Some(Outcome::Decisive { winner, .. }) if winner == side)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use heterodox_env::traitor::{Commitment, Mode, Traitor, TraitorRules};
    use heterodox_env::{Color, HiddenInformation, StateSampler};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - -";

    /// White to make the first move, each side's secret as given.
    fn after_selections(white: &str, black: &str) -> Traitor {
        let fen = format!("{START} 9,9 -/- {white}/{black} open - -");
        Traitor::from_fen(&fen, TraitorRules::new(Mode::Traitor, Commitment::Standard)).unwrap()
    }

    /// The root actions `exposed` does not flag.
    fn safe(pos: &Traitor, states: &[Traitor]) -> Vec<String> {
        let mut actions = Vec::new();
        pos.legal_actions(&mut actions);
        let mut positions = 0;
        let flags = exposed(states, &actions, &mut positions);
        assert!(positions > actions.len() as u64);
        actions
            .iter()
            .zip(&flags)
            .filter(|(_, &e)| !e)
            .map(|(a, _)| pos.notation(a))
            .collect()
    }

    #[test]
    fn the_moves_that_leave_a_traitor_knight_mate_are_exposed() {
        // Black holds White's g1 knight: (T-Ng1) then Nf3 or Ne2 mates
        // unless White's first move gave the King e2 or f2, or moved the
        // knight away (its own announcement is not judged).
        let pos = after_selections("a7", "g1");
        assert_eq!(
            safe(&pos, std::slice::from_ref(&pos)),
            ["(T-a7)", "Nh3", "e3", "e4", "f3", "f4"]
        );
        // A traitor queen on d1 mates after any first move: nothing to set
        // aside. A traitor pawn threatens nothing.
        let queen = after_selections("a7", "d1");
        assert_eq!(safe(&queen, std::slice::from_ref(&queen)), ["(T-a7)"]);
        let pawn = after_selections("a7", "a2");
        assert_eq!(safe(&pawn, std::slice::from_ref(&pawn)).len(), 21);
    }

    #[test]
    fn the_covering_states_find_every_threat_of_every_consistent_secret() {
        // White's view of Black's secret after 1.e4 e5: the covering
        // states expose exactly what the 2204 consistent states expose,
        // one by one.
        let mut pos = after_selections("g8", "a2");
        for step in ["e2e4", "e7e5"] {
            let action = pos.parse_step(step).unwrap();
            pos.play(&action).unwrap();
        }
        let view = pos.view(Color::White);
        let sampler = Traitor::sampler(&view);
        let covering: Vec<Traitor> = sampler
            .covering()
            .into_iter()
            .map(|k| sampler.state(k))
            .collect();
        let every: Vec<Traitor> = (0..sampler.len()).map(|k| sampler.state(k)).collect();
        assert_eq!((covering.len(), every.len()), (15, 2204));
        let guarded = safe(&pos, &covering);
        assert_eq!(guarded, safe(&pos, &every));
        // Black may hold the queen (all 9 points): (T-Qd1) and a move
        // mate unless the King steps out first. White's own announcement
        // is not judged.
        assert_eq!(pos.count_legal_actions(), 30);
        assert_eq!(guarded, ["(T-Ng8)", "Ke2"]);
    }
}
