//! The action type: one step of a Mad Scientist turn.
//!
//! A turn is one [`MadAction::Move`] or Scientist power, followed by
//! [`MadAction::Discard`] steps by the same player while the hand holds
//! more than eight parts (M4). `Display` writes the long form:
//!
//! | action | long form | meaning |
//! | --- | --- | --- |
//! | move | `e2e4`, `b1c3`, `e5d6` | from, to (UCI) |
//! | promotion | `e7e8q` | `q`, `r`, `b`, `n` |
//! | castling | `e1g1`, `e1c1` | the Scientist's from and to |
//! | animate | `C@e2` | a Crab from hand becomes a piece on e2 |
//! | attach | `W+d1` | a Wazir from hand joins the piece on d1 |
//! | remove | `F-f1` | a Ferz leaves the piece on f1 for the hand |
//! | discard | `-B` | a Barc leaves the hand for good |
//!
//! The standard notation (see notation.rs) shares the last four forms.

use std::fmt;

use crate::Square;

use super::parts::{Part, Parts};

/// What a pawn may promote to (M3): the FIDE pieces, as parts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Promotion {
    Queen,
    Rook,
    Bishop,
    Knight,
}

impl Promotion {
    /// In the order the generator lists them.
    pub const ALL: [Promotion; 4] = [
        Promotion::Queen,
        Promotion::Rook,
        Promotion::Bishop,
        Promotion::Knight,
    ];

    pub const fn parts(self) -> Parts {
        match self {
            Promotion::Queen => Parts::QUEEN,
            Promotion::Rook => Parts::ROOK,
            Promotion::Bishop => Parts::BISHOP,
            Promotion::Knight => Parts::KNIGHT,
        }
    }

    /// Upper-case letter, as in SAN (`=Q`).
    pub const fn char(self) -> char {
        match self {
            Promotion::Queen => 'Q',
            Promotion::Rook => 'R',
            Promotion::Bishop => 'B',
            Promotion::Knight => 'N',
        }
    }

    /// Reads `Q`, `R`, `B`, `N` in either case.
    pub const fn from_char(c: char) -> Option<Promotion> {
        match c.to_ascii_uppercase() {
            'Q' => Some(Promotion::Queen),
            'R' => Some(Promotion::Rook),
            'B' => Some(Promotion::Bishop),
            'N' => Some(Promotion::Knight),
            _ => None,
        }
    }
}

/// What kind of board move: the board decides captures, so they are not
/// stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any piece's move or capture (pawn pushes included).
    Normal,
    /// A pawn taking en passant; the captured pawn becomes a Ferz (M3).
    EnPassant,
    /// The Scientist castles; `to` is its destination (g- or c-file).
    Castle,
    /// A pawn reaching the last rank, with or without a capture.
    Promotion(Promotion),
}

/// A move of a piece on the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceMove {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
}

impl PieceMove {
    pub const fn normal(from: Square, to: Square) -> PieceMove {
        PieceMove {
            from,
            to,
            kind: MoveKind::Normal,
        }
    }
}

impl fmt::Display for PieceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let MoveKind::Promotion(promotion) = self.kind {
            write!(f, "{}", promotion.char().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

/// One step of play (docs/architecture.md, "What an action is").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MadAction {
    /// A piece moves on the board.
    Move(PieceMove),
    /// The Scientist animates a part from hand as a one-part piece on an
    /// empty adjacent square (M5).
    Animate { part: Part, to: Square },
    /// The Scientist attaches a part from hand to an adjacent composite
    /// piece of either colour (M5).
    Attach { part: Part, target: Square },
    /// The Scientist takes one part off an adjacent composite piece of
    /// either colour into hand (M5).
    Remove { part: Part, from: Square },
    /// A part leaves an over-full hand (M4).
    Discard { part: Part },
}

impl fmt::Display for MadAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MadAction::Move(m) => write!(f, "{m}"),
            MadAction::Animate { part, to } => write!(f, "{part}@{to}"),
            MadAction::Attach { part, target } => write!(f, "{part}+{target}"),
            MadAction::Remove { part, from } => write!(f, "{part}-{from}"),
            MadAction::Discard { part } => write!(f, "-{part}"),
        }
    }
}
