//! `poison-two-harpies-draw`: Lambert's remark that "having a couple of
//! Harpies and a King versus a lone King is pretty ridiculous" (Poison
//! Chess): the ending is a draw. A Harpy never gives check (P6), and
//! poisoning the lone King freezes it, which with no other man is a draw
//! (P10), so the rules leave the Harpies no way to win; the claim measures
//! what the agents' play makes of it.
//!
//! Games start from seeded random legal positions (White: King and two
//! Harpies, Black: King; White to move; not already over). The control
//! plays the same way from King and Doctor (a queen's move) against a lone
//! King, a won ending: agents that cannot win it are too weak for their
//! draws with the Harpies to mean anything.
//!
//! An agent that fails the calibration rule every claim applies (its
//! score against random play, `verdict::STRONG_ENOUGH`) gets no verdict.
//! Otherwise, supported: the Harpy side's win rate has an upper 95% bound
//! below 10% and the agents win the control with a lower bound of at least
//! 50%. Refuted: the Harpy side's win rate has a lower bound of 10% or
//! more.

use std::fmt::Write as _;

use heterodox_data::GameResult;
use heterodox_env::rng::{derive_seed, SplitMix64};
use heterodox_env::{Game, GameVariant, PoisonChess, Position, Variant};
use heterodox_selfplay::DuelGame;
use serde_json::json;

use super::games::{append_games_pgn, self_play, strength, GameSet};
use super::stats::Mean;
use super::verdict::{noted, weak_agents};
use super::{csv_field, percent, AgentStrength, Claim, ClaimSettings, Findings, Plays, Verdict};
use crate::error::TrainError;

pub(crate) const CLAIM: Claim = Claim {
    name: "poison-two-harpies-draw",
    title: "King and two Harpies against a lone King is a draw (Poison Chess)",
    hypothesis: "In Poison Chess, King and two Harpies cannot beat a lone King (Lambert: \"having \
                 a couple of Harpies and a King versus a lone King is pretty ridiculous\"), \
                 while King and Doctor can.",
    default_games: 100,
    quick_games: 20,
    default_calibration_games: 100,
    plays: Plays::DefaultRules(&[Variant::Poison]),
};

/// The upper bound of the Harpy side's win rate below which the ending
/// plays as a draw, and the lower bound at or above which it does not.
const DRAWN_BELOW: f64 = 0.10;
/// The control's win rate lower bound the agents must reach.
const CONTROL_WON_AT: f64 = 0.5;

/// `count` seeded random legal positions, White to move, of White's King
/// and `white` men against Black's lone King, none of them already over.
pub(crate) fn random_endings(white: &[char], count: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut board = [None; 64];
        let mut place = |piece: char, board: &mut [Option<char>; 64]| loop {
            let square = rng.below(64);
            if board[square].is_none() {
                board[square] = Some(piece);
                return square;
            }
        };
        let white_king = place('K', &mut board);
        let black_king = place('k', &mut board);
        let (wf, wr) = (white_king % 8, white_king / 8);
        let (bf, br) = (black_king % 8, black_king / 8);
        if wf.abs_diff(bf) <= 1 && wr.abs_diff(br) <= 1 {
            continue;
        }
        for &piece in white {
            place(piece, &mut board);
        }
        let fen = format!("{} w - - 0 1", board_fen(&board));
        let Ok(position) = PoisonChess::from_position_string(&fen, &()) else {
            continue;
        };
        if Game::new(position.clone()).outcome().is_none() {
            positions.push(position.fen());
        }
    }
    positions
}

/// The board field of a FEN from squares a1 = 0 ... h8 = 63.
fn board_fen(board: &[Option<char>; 64]) -> String {
    let mut text = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        if rank > 0 {
            text.push('/');
        }
    }
    text
}

/// White's (the stronger side's) results: wins, draws by termination,
/// losses.
struct Tally {
    wins: Vec<f64>,
    terminations: Vec<(String, usize)>,
    losses: usize,
}

fn tally(games: &[DuelGame]) -> Tally {
    let mut terminations: Vec<(String, usize)> = Vec::new();
    let mut wins = Vec::with_capacity(games.len());
    let mut losses = 0;
    for game in games {
        let result = game.record.result;
        wins.push(f64::from(u8::from(result == GameResult::WhiteWins)));
        losses += usize::from(result == GameResult::BlackWins);
        let key = format!("{} ({})", result.pgn(), game.record.termination);
        match terminations.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => terminations.push((key, 1)),
        }
    }
    terminations.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Tally {
        wins,
        terminations,
        losses,
    }
}

pub(crate) fn run(
    settings: &ClaimSettings,
    progress: &mut dyn FnMut(&str),
) -> Result<Findings, TrainError> {
    // Poison Chess has no rule settings.
    let rules = ();
    let agent = settings
        .agents
        .for_rules(Variant::Poison, &PoisonChess::rule_options(&rules))
        .clone();
    let mut done = 0;
    let calibration = strength::<PoisonChess>(&rules, &agent, settings, 1, &mut |opponent| {
        done += 1;
        progress(&format!(
            "poison: {agent} against {opponent}, calibration game {done}"
        ));
    })?;
    let strengths = vec![AgentStrength::new("poison", "default", &agent, calibration)];
    let mut csv = "ending,game,start,plies,result,termination\n".to_owned();
    let mut pgn = String::new();
    let mut play =
        |name: &str, white: &[char], stream: usize| -> Result<Vec<DuelGame>, TrainError> {
            let starts = random_endings(
                white,
                settings.games as usize,
                derive_seed(settings.seed, stream, 5),
            );
            let mut done = 0;
            let games = self_play::<PoisonChess>(
                &rules,
                &agent,
                settings,
                GameSet {
                    games: settings.games,
                    starts,
                    opening_plies: 0,
                    stream,
                },
                &mut || {
                    done += 1;
                    progress(&format!("{name}: game {done} of {}", settings.games));
                },
            )?;
            for game in &games {
                let _ = writeln!(
                    csv,
                    "{name},{},{},{},{},{}",
                    game.index + 1,
                    csv_field(game.record.start.as_deref().unwrap_or("")),
                    game.record.steps.len(),
                    game.record.result.pgn(),
                    csv_field(&game.record.termination)
                );
            }
            append_games_pgn::<PoisonChess>(
                &mut pgn,
                &rules,
                &games,
                &agent.to_string(),
                &format!("heterodox claim poison-two-harpies-draw: {name}"),
            )?;
            Ok(games)
        };
    let harpies = tally(&play("KHH-K", &['H', 'H'], 2)?);
    let control = tally(&play("KD-K", &['D'], 3)?);
    let harpy_wins = Mean::of(&harpies.wins, true);
    let control_wins = Mean::of(&control.wins, true);

    let mut body = String::new();
    let table = |t: &Tally| {
        t.terminations
            .iter()
            .map(|(k, n)| format!("| {k} | {n} |"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let _ = writeln!(
        body,
        "{} seeded random legal positions of each ending, White (the stronger side) to \
         move, played out by the agent against itself.\n\n\
         ### King and two Harpies against King\n\n\
         White's win rate: {} (n = {}); Black won {}.\n\n\
         | result (termination) | games |\n| --- | --- |\n{}\n\n\
         ### Control: King and Doctor against King\n\n\
         White's win rate: {} (n = {}).\n\n\
         | result (termination) | games |\n| --- | --- |\n{}\n",
        settings.games,
        percent(&harpy_wins),
        harpy_wins.n,
        harpies.losses,
        table(&harpies),
        percent(&control_wins),
        control_wins.n,
        table(&control)
    );
    let weak = weak_agents(&strengths);
    let (verdict, conclusion) = if !weak.is_empty() {
        (
            Verdict::AgentsTooWeak,
            format!(
                "The agent does not clearly beat random play ({}), so its endings say little \
                 about them; for the record, the Harpy side won {} and the King and Doctor \
                 side {}.",
                weak.join("; "),
                percent(&harpy_wins),
                percent(&control_wins)
            ),
        )
    } else if harpy_wins.low >= DRAWN_BELOW {
        (
            Verdict::Refuted,
            format!(
                "The Harpy side won {} of its games: the ending does not play as a draw.",
                percent(&harpy_wins)
            ),
        )
    } else if control_wins.low < CONTROL_WON_AT {
        (
            Verdict::AgentsTooWeak,
            format!(
                "The agents won only {} of the King and Doctor endings, a won ending, so their \
                 draws with the Harpies (White won {}) say nothing about the ending.",
                percent(&control_wins),
                percent(&harpy_wins)
            ),
        )
    } else if harpy_wins.high < DRAWN_BELOW {
        (
            Verdict::Supported,
            format!(
                "The Harpy side won {} of its games while the same agents won {} of the King \
                 and Doctor endings: two Harpies do not win.",
                percent(&harpy_wins),
                percent(&control_wins)
            ),
        )
    } else {
        (
            Verdict::Inconclusive,
            format!(
                "The Harpy side won {}: too few games to bound its win rate below {:.0}%.",
                percent(&harpy_wins),
                100.0 * DRAWN_BELOW
            ),
        )
    };
    let bars = |t: &Tally| {
        json!({
            "categories": t.terminations.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
            "y": t.terminations.iter().map(|(_, n)| *n).collect::<Vec<_>>(),
        })
    };
    let plots = json!([
        {
            "file": "results.png",
            "title": "White's win rate from random endings (95% CI)",
            "xlabel": "",
            "ylabel": "White's win rate",
            "categories": ["K+2 Harpies vs K", "K+Doctor vs K (control)"],
            "series": [{"label": agent.to_string(),
                        "y": [harpy_wins.mean, control_wins.mean],
                        "low": [harpy_wins.low, control_wins.low],
                        "high": [harpy_wins.high, control_wins.high]}],
        },
        {
            "file": "terminations.png",
            "title": "How the King and two Harpies games ended",
            "xlabel": "",
            "ylabel": "games",
            "categories": bars(&harpies)["categories"],
            "series": [{"label": "K+2 Harpies vs K", "y": bars(&harpies)["y"]}],
        },
    ]);
    let results = json!({
        "harpies": {"white_win_rate": harpy_wins, "terminations": harpies.terminations, "black_wins": harpies.losses},
        "control": {"white_win_rate": control_wins, "terminations": control.terminations, "black_wins": control.losses},
    });
    Ok(Findings {
        verdict,
        conclusion: noted(settings.quick, conclusion),
        body,
        strengths,
        games: harpy_wins.n + control_wins.n,
        results,
        plots,
        csv,
        pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_endings_are_legal_seeded_and_as_asked() {
        let positions = random_endings(&['H', 'H'], 20, 7);
        assert_eq!(positions, random_endings(&['H', 'H'], 20, 7));
        assert_ne!(positions, random_endings(&['H', 'H'], 20, 8));
        for fen in &positions {
            let board = fen.split(' ').next().unwrap();
            let count = |c: char| board.chars().filter(|&x| x == c).count();
            assert_eq!((count('K'), count('k'), count('H')), (1, 1, 2), "{fen}");
            assert_eq!(board.chars().filter(char::is_ascii_alphabetic).count(), 4);
            assert!(fen.contains(" w "), "{fen}");
            let position = PoisonChess::from_position_string(fen, &()).unwrap();
            assert!(Game::new(position).outcome().is_none());
        }
    }

    #[test]
    fn boards_write_as_fen() {
        let mut board = [None; 64];
        board[4] = Some('K');
        board[60] = Some('k');
        board[0] = Some('H');
        assert_eq!(board_fen(&board), "4k3/8/8/8/8/8/8/H3K3");
    }
}
