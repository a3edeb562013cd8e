//! Opening books: the start positions of a duel's pairs, from a text file.
//!
//! One opening per line, in either form:
//!
//! ```text
//! # comments and blank lines are skipped
//! rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
//! 1. e4 e5 2. Nf3 Nc6
//! 1.d4 d5 2.c4 *
//! ```
//!
//! A line that reads as a position string (the variant's FEN dialect) is
//! one; otherwise it is a line of turns from the variant's start position in
//! its notation, read by [`line_moves`] (move numbers, `1. e4` or `1.e4`,
//! and a trailing result are ignored), and the opening is the position it
//! reaches. Each opening becomes a position string for
//! [`crate::DuelConfig::starts`].
//!
//! Without a book, duels and self-play open their games with uniformly
//! random plies ([`random_opening`]), so that two deterministic players do
//! not play one game over and over.

use heterodox_env::pgn::line_moves;
use heterodox_env::rng::{mix64, SplitMix64};
use heterodox_env::{Game, GameVariant};

/// Tries at a random opening that does not end the game before
/// [`random_opening`] gives up and opens with no ply.
const OPENING_TRIES: usize = 16;

/// The random stream of the opening of the game seeded `seed`: one
/// derivation for duels and self-play, apart from the games' search seeds.
pub fn opening_rng(seed: u64) -> SplitMix64 {
    SplitMix64::new(mix64(seed ^ 0x0be1_1a5e))
}

/// `plies` uniformly random actions from `start`, drawn from `rng`. A line
/// that ends the game is redrawn (from the same stream, at most
/// [`OPENING_TRIES`] times), so that every opening leaves a game to play;
/// when every try ends the game the opening is empty.
pub fn random_opening<P: GameVariant>(
    start: &P,
    plies: u32,
    rng: &mut SplitMix64,
) -> Vec<P::Action> {
    let mut line = Vec::with_capacity(plies as usize);
    let mut actions = Vec::new();
    for _ in 0..OPENING_TRIES {
        let mut game = Game::new(start.clone());
        line.clear();
        for _ in 0..plies {
            game.legal_actions(&mut actions);
            if actions.is_empty() || game.outcome().is_some() {
                break;
            }
            let action = actions[rng.below(actions.len())];
            line.push(action);
            game.play_unchecked(&action);
        }
        if game.outcome().is_none() {
            return line;
        }
    }
    Vec::new()
}

/// The most openings a book may hold: a bound before anything is read
/// into memory per line.
pub const MAX_OPENINGS: usize = 1 << 20;

/// Why a book does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("opening book line {line}: '{text}' is neither a position nor a line of moves from the start ({reason})")]
    Line {
        line: usize,
        text: String,
        reason: String,
    },
    #[error("opening book line {line}: the moves '{text}' end the game")]
    GameOver { line: usize, text: String },
    #[error("the opening book holds no opening")]
    Empty,
    #[error("the opening book holds more than {MAX_OPENINGS} openings")]
    TooMany,
}

/// Reads a book's text under `rules` into position strings.
pub fn parse_openings<P: GameVariant>(
    text: &str,
    rules: &P::Rules,
) -> Result<Vec<String>, OpeningError> {
    let mut openings = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if openings.len() == MAX_OPENINGS {
            return Err(OpeningError::TooMany);
        }
        openings.push(opening::<P>(line, rules, k + 1)?);
    }
    if openings.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(openings)
}

/// One line: a position string, or turns from the start.
fn opening<P: GameVariant>(
    line: &str,
    rules: &P::Rules,
    number: usize,
) -> Result<String, OpeningError> {
    let as_position = match P::from_position_string(line, rules) {
        Ok(position) => return Ok(position.fen()),
        Err(e) => e.to_string(),
    };
    let bad = |reason: String| OpeningError::Line {
        line: number,
        text: line.to_owned(),
        reason,
    };
    let start = P::start(rules, 0).map_err(|e| bad(e.to_string()))?;
    let mut game = Game::new(start);
    let turns = line_moves(line);
    if turns.is_empty() {
        return Err(bad(as_position));
    }
    for turn in turns {
        P::play_text(&mut game, turn).map_err(|e| {
            bad(format!(
                "as a position: {as_position}; as moves: '{turn}': {e}"
            ))
        })?;
    }
    if game.outcome().is_some() {
        return Err(OpeningError::GameOver {
            line: number,
            text: line.to_owned(),
        });
    }
    Ok(game.position().fen())
}

#[cfg(test)]
mod tests {
    use heterodox_env::Chess;

    use super::*;

    #[test]
    fn positions_and_move_lines_read() {
        let book = "# two openings\n\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n\
                    1. e4 e5 2. Nf3 *\n\
                    1.e4 e5 2.Nf3\n\
                    1.e4 1...e5 2.Nf3 1-0\n";
        let openings = parse_openings::<Chess>(book, &()).unwrap();
        let after_nf3 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
        assert_eq!(
            openings,
            [
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                after_nf3,
                after_nf3,
                after_nf3,
            ]
        );
    }

    #[test]
    fn bad_books_are_typed_errors_naming_the_line() {
        let e = parse_openings::<Chess>("e4 e5\n1. e4 e5 2. Qxf7\n", &()).unwrap_err();
        match e {
            OpeningError::Line { line, text, reason } => {
                assert_eq!((line, text.as_str()), (2, "1. e4 e5 2. Qxf7"));
                assert!(reason.contains("as moves: 'Qxf7'"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        // A bad move run into its number is named without the number.
        match parse_openings::<Chess>("1.e4 e5 2.Nf3\n1.e9\n", &()).unwrap_err() {
            OpeningError::Line { line, text, reason } => {
                assert_eq!((line, text.as_str()), (2, "1.e9"));
                assert!(
                    reason.ends_with(
                        "; as moves: 'e9': cannot read move 'e9': bad destination square"
                    ),
                    "{reason}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            parse_openings::<Chess>("# nothing\n", &()).unwrap_err(),
            OpeningError::Empty
        );
        assert_eq!(
            parse_openings::<Chess>("f3 e5 g4 Qh4\n", &()).unwrap_err(),
            OpeningError::GameOver {
                line: 1,
                text: "f3 e5 g4 Qh4".to_owned()
            }
        );
    }
}
