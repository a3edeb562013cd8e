//! What the agent's move says of its thinking, as the person reads it
//! after the move: a tree search's value and its most visited moves, or
//! the engine's score and depth with its best lines (`--top N` asks the
//! engine for N lines, MultiPV) or, with one line, the line it expects.
//! Random play and `greedy` have no numbers and say nothing.

use heterodox_engine::Score;
use heterodox_env::{Game, GameVariant};
use heterodox_training::arena::player::AgentMove;

/// The line printed after the agent's move in `game` (the position
/// before it), `None` when the agent has no numbers. `top` caps the moves
/// listed.
pub fn describe<P: GameVariant>(
    game: &Game<P>,
    chosen: &AgentMove<P::Action>,
    top: usize,
) -> Option<String> {
    let position = game.position();
    let value = chosen.value?;
    let lines: Vec<String> = chosen
        .top
        .iter()
        .take(top)
        .map(|m| match m.score {
            Some(score) => format!("{} {}", position.notation(&m.action), human(score)),
            None => format!(
                "{} ({} visits, policy {:.2})",
                position.notation(&m.action),
                m.visits,
                m.policy
            ),
        })
        .collect();
    let tree_search = chosen.top.iter().any(|m| m.score.is_none());
    Some(match chosen.score {
        Some(score) if !tree_search => {
            let head = format!("engine: score {} at depth {}", human(score), chosen.depth);
            if lines.is_empty() {
                format!("{head}; line: {}", notation(game, &chosen.pv).join(" "))
            } else {
                format!("{head}; top moves: {}", lines.join(", "))
            }
        }
        _ if lines.is_empty() => format!("search: value {value:+.2}"),
        _ => format!("search: value {value:+.2}; top moves: {}", lines.join(", ")),
    })
}

/// A score as a person reads it, from the agent's side: pawns with a sign
/// (`+1.25`), or `mate in 3` / `mated in 2`.
fn human(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("mate in {n}"),
        Score::Mate(n) => format!("mated in {}", -n),
    }
}

/// `line` in the variant's notation, played from `game`'s position; it
/// stops at a step that is not legal there (a line the agent found in a
/// state it drew under hidden information).
fn notation<P: GameVariant>(game: &Game<P>, line: &[P::Action]) -> Vec<String> {
    let mut position = game.position().clone();
    let mut out = Vec::with_capacity(line.len());
    for action in line {
        if !position.is_legal(action) {
            break;
        }
        out.push(position.notation(action));
        position.play_unchecked(action);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_pawns_or_mates() {
        assert_eq!(human(Score::Cp(125)), "+1.25");
        assert_eq!(human(Score::Cp(-30)), "-0.30");
        assert_eq!(human(Score::Cp(0)), "+0.00");
        assert_eq!(human(Score::Mate(3)), "mate in 3");
        assert_eq!(human(Score::Mate(-2)), "mated in 2");
    }
}
