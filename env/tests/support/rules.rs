//! Helpers shared by the per-variant rules tests: squares by name, sorted
//! long forms of the legal actions (and of White's castlings), and the
//! outcomes tests expect.

#![allow(dead_code)] // each test file uses a subset

use heterodox_env::{Color, MoveError, Outcome, Position, Square, Termination};

pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Each of `texts` is refused by `position` as an illegal action.
pub fn assert_illegal<P: Position>(position: &P, texts: &[&str]) {
    for text in texts {
        assert!(
            matches!(position.parse_action(text), Err(MoveError::Illegal { .. })),
            "{text}"
        );
    }
}

/// Each of `texts` is refused by `position` as malformed (a syntax error).
pub fn assert_malformed<P: Position>(position: &P, texts: &[&str]) {
    for text in texts {
        assert!(
            matches!(position.parse_action(text), Err(MoveError::Syntax { .. })),
            "{text}"
        );
    }
}

/// The legal actions of `position` in long form, sorted.
pub fn legal_long<P: Position>(position: &P) -> Vec<String> {
    let mut actions = Vec::new();
    position.legal_actions(&mut actions);
    let mut texts: Vec<String> = actions.iter().map(ToString::to_string).collect();
    texts.sort();
    texts
}

/// White's castlings among the legal actions of `position`, in long form
/// (the King's step, `e1c1` and `e1g1`), sorted.
pub fn white_castlings<P: Position>(position: &P) -> Vec<String> {
    legal_long(position)
        .into_iter()
        .filter(|a| a == "e1g1" || a == "e1c1")
        .collect()
}

/// `items` as owned strings, sorted (to compare with [`legal_long`]).
pub fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

/// The outcome `winner` wins by `termination`.
pub fn win(winner: Color, termination: Termination) -> Option<Outcome> {
    Some(Outcome::Decisive {
        winner,
        termination,
    })
}

/// The outcome of a draw by `termination`.
pub fn draw(termination: Termination) -> Option<Outcome> {
    Some(Outcome::Draw { termination })
}
