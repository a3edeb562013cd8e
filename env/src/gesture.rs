//! How a person makes an action by pointing: the squares and reserve men a
//! board front end (the web page of `heterodox serve`) lets them click, in
//! order, and a word for what the action does.
//!
//! Each variant says it for its own action type ([`Gestures`], next to the
//! variant), so a front end needs no variant knowledge: it lists the legal
//! actions with their gestures, narrows them as the person clicks, and
//! plays the one left (or asks, when several share the same clicks: a
//! promotion's piece, a part to take off). The targets are named as the
//! SVG board names its clickable places ([`Target::id`], `data-target` in
//! [`crate::render::svg`]), so a click maps to a target without parsing.
//!
//! ```text
//! move      e2 e4                   from, to (castling: the King's squares)
//! drop      white-airfield-N f3     a man from one's airfield, its square
//! exchange  white-prison-N black-prison-B f7
//!                                   the prisoner given, the man rescued, its square
//! poison    e5 f5                   the Harpy, its target
//! cure      g6 g5                   the Doctor, the poisoned piece (maybe its own square)
//! announce  d8                      the piece announced (one click, then confirm)
//! select    d7 e7 f7 ...            the chosen pieces, in any order (Traitor Standard)
//! animate   white-hand-C e2         a part from hand, the empty square
//! attach    white-hand-W d1         a part from hand, the piece it joins
//! remove    f1                      the piece a part leaves (which part: asked)
//! discard   white-hand-B            the part that leaves the hand
//! ```

use std::fmt;

use crate::{Color, Move, Position, Square};

/// A place a person can point at.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Square(Square),
    /// The men of one kind in a reserve off the board: `owner`'s `area`
    /// (`prison`, `airfield`, `hand`), men written `letter` (upper case:
    /// `N`, or a Mad Scientist part `W`).
    Reserve {
        owner: Color,
        area: &'static str,
        letter: char,
    },
}

impl Target {
    /// The target's name on the page and in the SVG's `data-target`:
    /// `e4`, `white-prison-N`, `black-hand-W`.
    pub fn id(&self) -> String {
        self.to_string()
    }

    /// The reserve target of `owner`'s `area` holding men written `letter`
    /// (any case).
    pub fn reserve(owner: Color, area: &'static str, letter: char) -> Target {
        Target::Reserve {
            owner,
            area,
            letter: letter.to_ascii_uppercase(),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Square(sq) => write!(f, "{sq}"),
            Target::Reserve {
                owner,
                area,
                letter,
            } => write!(f, "{}-{area}-{letter}", owner.name()),
        }
    }
}

/// What to point at to make one action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gesture {
    /// What the action does, in a word (`move`, `drop`, `exchange`,
    /// `poison`, `cure`, `announce`, `select`, `animate`, `attach`,
    /// `remove`, `discard`).
    pub kind: &'static str,
    /// The places to click.
    pub targets: Vec<Target>,
    /// Whether the clicks come in the order of `targets`; a Traitor
    /// selection is a set, clicked in any order.
    pub ordered: bool,
}

impl Gesture {
    /// Clicks in order.
    pub fn new(kind: &'static str, targets: Vec<Target>) -> Gesture {
        Gesture {
            kind,
            targets,
            ordered: true,
        }
    }

    /// A board move: the moving piece's square, then where it lands (for
    /// castling the King's destination, as UCI writes it).
    pub fn board_move(m: &Move) -> Gesture {
        Gesture::new(
            "move",
            vec![Target::Square(m.from()), Target::Square(m.to())],
        )
    }
}

/// The gesture of each of a variant's actions.
pub trait Gestures: Position {
    /// What a person points at to play `action` in this position (a legal
    /// action of it).
    fn gesture(&self, action: &Self::Action) -> Gesture;
}
