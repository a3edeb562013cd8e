//! Board moves: what a piece does when it moves on the board.
//!
//! Every variant's action type wraps [`Move`] for its ordinary moves and adds
//! its own actions beside it (drops, poisonings, announcements, ...), see
//! docs/architecture.md.

use std::fmt;

use crate::{Color, File, Rank, Role, Square};

/// A move on the board. Small and `Copy` (6 bytes) so move lists stay
/// cache-friendly.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A piece moves (and perhaps captures, and perhaps promotes).
    Normal {
        role: Role,
        from: Square,
        capture: Option<Role>,
        to: Square,
        promotion: Option<Role>,
    },
    /// A pawn captures en passant; `to` is the square it lands on.
    EnPassant { from: Square, to: Square },
    /// Castling, stored as the squares of the king and of the rook it
    /// castles with (the form that also covers a rook dropped on its corner).
    Castle { king: Square, rook: Square },
}

/// The side of a castling move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastlingSide {
    KingSide,
    QueenSide,
}

impl CastlingSide {
    /// Where the king lands for `color`: the g-file (king side) or the
    /// c-file (queen side) of its first rank.
    #[inline]
    pub const fn king_to(self, color: Color) -> Square {
        self.first_rank_square(color, File::G, File::C)
    }

    /// Where the rook lands for `color`: the f-file (king side) or the
    /// d-file (queen side) of its first rank, beside the king.
    #[inline]
    pub const fn rook_to(self, color: Color) -> Square {
        self.first_rank_square(color, File::F, File::D)
    }

    /// The square of `color`'s first rank on `king_side`'s file or
    /// `queen_side`'s, by this side.
    #[inline]
    const fn first_rank_square(self, color: Color, king_side: File, queen_side: File) -> Square {
        let file = match self {
            CastlingSide::KingSide => king_side,
            CastlingSide::QueenSide => queen_side,
        };
        Square::from_coords(file, Rank::FIRST).relative_to(color)
    }

    /// The side a rook on `rook` castles on, seen from the king on `king`.
    pub fn from_squares(king: Square, rook: Square) -> CastlingSide {
        if rook.file() > king.file() {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

impl Move {
    /// The square the moving piece leaves (the king's, for castling).
    #[inline]
    pub const fn from(&self) -> Square {
        match *self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The square the moving piece lands on (the king's, for castling).
    #[inline]
    pub fn to(&self) -> Square {
        match *self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { king, rook } => {
                let color = if king.rank() == Rank::FIRST {
                    Color::White
                } else {
                    Color::Black
                };
                CastlingSide::from_squares(king, rook).king_to(color)
            }
        }
    }

    /// The role of the moving piece.
    #[inline]
    pub const fn role(&self) -> Role {
        match *self {
            Move::Normal { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The role of the captured piece, if any.
    #[inline]
    pub const fn capture(&self) -> Option<Role> {
        match *self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => None,
        }
    }

    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.capture().is_some()
    }

    #[inline]
    pub const fn promotion(&self) -> Option<Role> {
        match *self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    #[inline]
    pub const fn is_castle(&self) -> bool {
        matches!(self, Move::Castle { .. })
    }

    /// Captures and pawn moves reset the 50-move counter and make earlier
    /// positions unrepeatable.
    #[inline]
    pub const fn is_zeroing(&self) -> bool {
        self.is_capture() || matches!(self.role(), Role::Pawn)
    }
}

impl fmt::Display for Move {
    /// UCI long algebraic notation: `e2e4`, `e7e8q`, castling as the king's
    /// two-square move `e1g1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(promotion) = self.promotion() {
            write!(f, "{}", promotion.char())?;
        }
        Ok(())
    }
}
