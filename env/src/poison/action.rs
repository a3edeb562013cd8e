//! The actions of Poison Chess and their long (UCI-style) form.
//!
//! ```text
//! Move(e2e4)                    e2e4     a board move, UCI as in chess
//! Move(e7e8 promoting to Guard) e7e8g    promotion letters g, r, b, n
//! Move(castle)                  e1g1     the king's two-square step
//! Poison { harpy e5, target f5 } e5*f5   '*' is the Harpy's sting
//! Cure { doctor g6, target g5 }  g6~g5   '~' is the Doctor's remedy
//! ```
//!
//! Poisonings and cures do not move a piece, so they get their own marks
//! instead of overloading a UCI move (a cure `g6g5` would read as a Doctor
//! move to g5).

use std::fmt;

use crate::{Move, Role, Square};

/// Mark between the two squares of a poisoning in the long form.
pub const POISON_MARK: char = '*';
/// Mark between the two squares of a cure in the long form.
pub const CURE_MARK: char = '~';

/// One step of Poison Chess: a board move, or one of the two actions that
/// take a turn without moving (P2, P5).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PoisonAction {
    /// An ordinary move (a Harpy's move captures only Harpies, P1).
    Move(Move),
    /// The Harpy on `harpy` poisons the enemy piece on the neighbouring
    /// square `target` and leaves the board (P2).
    Poison { harpy: Square, target: Square },
    /// The Doctor on `doctor` cures the friendly poisoned piece on
    /// `target`, a neighbouring square or its own (P4, P5).
    Cure { doctor: Square, target: Square },
}

impl PoisonAction {
    /// Captures, pawn moves, poisonings and cures reset the 50-move counter
    /// (P12; deaths by poison also do, but they depend on the position).
    pub const fn is_zeroing(&self) -> bool {
        match self {
            PoisonAction::Move(m) => m.is_zeroing(),
            PoisonAction::Poison { .. } | PoisonAction::Cure { .. } => true,
        }
    }

    /// The square a captured piece is taken from (en passant: the pawn's).
    pub fn captured_square(&self) -> Option<Square> {
        match *self {
            PoisonAction::Move(Move::Normal {
                capture: Some(_),
                to,
                ..
            }) => Some(to),
            PoisonAction::Move(Move::EnPassant { from, to }) => {
                Some(Square::from_coords(to.file(), from.rank()))
            }
            _ => None,
        }
    }

    /// The board move, if this action is one.
    pub const fn as_move(&self) -> Option<&Move> {
        match self {
            PoisonAction::Move(m) => Some(m),
            _ => None,
        }
    }

    /// The role of the piece that acts.
    pub const fn role(&self) -> Role {
        match self {
            PoisonAction::Move(m) => m.role(),
            PoisonAction::Poison { .. } => Role::Harpy,
            PoisonAction::Cure { .. } => Role::Doctor,
        }
    }
}

impl From<Move> for PoisonAction {
    fn from(m: Move) -> PoisonAction {
        PoisonAction::Move(m)
    }
}

impl fmt::Display for PoisonAction {
    /// The long form: UCI for moves, `e5*f5` for a poisoning, `g6~g5` for a
    /// cure.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoisonAction::Move(m) => write!(f, "{m}"),
            PoisonAction::Poison { harpy, target } => write!(f, "{harpy}{POISON_MARK}{target}"),
            PoisonAction::Cure { doctor, target } => write!(f, "{doctor}{CURE_MARK}{target}"),
        }
    }
}
