//! The numbers every evaluation term is written in, below the terms and
//! the piece-square tables that use them: the middlegame/endgame pair
//! ([`Taper`]) with the phase that blends it, and the shapes pieces move
//! by ([`Shape`]), which index the tables. Its own module so that fide.rs
//! and pst.rs both import it and neither imports the other back.

use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

/// A middlegame and an endgame value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Taper {
    pub mg: i32,
    pub eg: i32,
}

pub(crate) const fn s(mg: i32, eg: i32) -> Taper {
    Taper { mg, eg }
}

impl Taper {
    pub const ZERO: Taper = s(0, 0);

    pub const fn times(self, n: i32) -> Taper {
        s(self.mg * n, self.eg * n)
    }

    /// The blend for `phase` (0 = bare kings and pawns .. [`MAX_PHASE`]).
    #[inline]
    pub fn blend(self, phase: i32) -> i32 {
        let phase = phase.min(MAX_PHASE);
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for Taper {
    type Output = Taper;
    #[inline]
    fn add(self, o: Taper) -> Taper {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for Taper {
    type Output = Taper;
    #[inline]
    fn sub(self, o: Taper) -> Taper {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl Neg for Taper {
    type Output = Taper;
    #[inline]
    fn neg(self) -> Taper {
        s(-self.mg, -self.eg)
    }
}

impl AddAssign for Taper {
    #[inline]
    fn add_assign(&mut self, o: Taper) {
        *self = *self + o;
    }
}

impl SubAssign for Taper {
    #[inline]
    fn sub_assign(&mut self, o: Taper) {
        *self = *self - o;
    }
}

/// The phase of the full FIDE army (4 minors, 4 rooks at 2, 2 queens at 4).
pub(crate) const MAX_PHASE: i32 = 24;

/// How a piece moves, for its table, mobility and attacks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    /// Moves as a rook but attacks no piece but a Harpy (Poison).
    Harpy,
}
