//! Squares, files and ranks.
//!
//! Squares are numbered little-endian rank-file: a1 = 0, b1 = 1, ..., h1 = 7,
//! a2 = 8, ..., h8 = 63, so that `square = 8 * rank + file` and a shift by 8
//! moves one rank up.

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// One of the 64 squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const B1: Square = Square(1);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const B8: Square = Square(57);
    pub const C8: Square = Square(58);
    pub const D8: Square = Square(59);
    pub const E8: Square = Square(60);
    pub const F8: Square = Square(61);
    pub const G8: Square = Square(62);
    pub const H8: Square = Square(63);

    /// Builds a square from its index; `None` unless `index < 64`.
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Builds a square from an index known to be below 64.
    ///
    /// # Safety-free contract
    /// The index is masked to 6 bits, so an out-of-range value wraps rather
    /// than producing an invalid square.
    #[inline]
    pub const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Builds a square from signed file and rank numbers (0-based), `None`
    /// when they fall off the board. Used by leapers and riders on arbitrary
    /// vectors.
    #[inline]
    pub const fn try_from_coords(file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            Some(Square((rank * 8 + file) as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from the other side (a1 <-> a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The rank as seen by `color`: rank 1 for White is rank 8 for Black.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> Rank {
        match color {
            Color::White => self.rank(),
            Color::Black => Rank(7 - self.rank().0),
        }
    }

    /// The square seen from `color`'s side of the board.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// Moves by a (file, rank) offset; `None` when that leaves the board.
    #[inline]
    pub const fn offset(self, dfile: i32, drank: i32) -> Option<Square> {
        Square::try_from_coords(self.file().0 as i32 + dfile, self.rank().0 as i32 + drank)
    }

    /// Chebyshev (king-move) distance.
    pub fn distance(self, other: Square) -> u32 {
        let df = (self.file().0 as i32 - other.file().0 as i32).unsigned_abs();
        let dr = (self.rank().0 as i32 - other.rank().0 as i32).unsigned_abs();
        df.max(dr)
    }

    /// True for the dark squares (a1 is dark).
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file().0 + self.rank().0) % 2 == 0
    }

    /// All 64 squares in index order.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0u8..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for a string that is not a square name such as `e4`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square name '{0}' (expected a file a-h and a rank 1-8, e.g. e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bytes = s.as_bytes();
        if bytes.len() == 2 {
            if let (Some(file), Some(rank)) = (
                File::from_char(bytes[0] as char),
                Rank::from_char(bytes[1] as char),
            ) {
                return Ok(Square::from_coords(file, rank));
            }
        }
        Err(ParseSquareError(s.to_owned()))
    }
}

/// Declares a board coordinate, a file or a rank: a `u8` index 0..8 with
/// its named values, written as one character counted from the byte
/// `$first` (`a`..`h`, `1`..`8`).
macro_rules! coordinate {
    ($(#[$doc:meta])* $name:ident, $first:literal, [$($value:ident = $index:literal),*]) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u8);

        impl $name {
            $(pub const $value: $name = $name($index);)*

            #[inline]
            pub const fn new(index: u32) -> Option<$name> {
                if index < 8 {
                    Some($name(index as u8))
                } else {
                    None
                }
            }

            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            pub const fn char(self) -> char {
                ($first + self.0) as char
            }

            pub const fn from_char(c: char) -> Option<$name> {
                let first = $first as u32;
                let code = c as u32;
                if code >= first && code < first + 8 {
                    Some($name((code - first) as u8))
                } else {
                    None
                }
            }

            pub fn all() -> impl DoubleEndedIterator<Item = $name> {
                (0u8..8).map($name)
            }
        }
    };
}

coordinate! {
    /// A file, a (0) to h (7).
    File, b'a', [A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6, H = 7]
}

coordinate! {
    /// A rank, 1 (0) to 8 (7).
    Rank, b'1', [
        FIRST = 0, SECOND = 1, THIRD = 2, FOURTH = 3, FIFTH = 4, SIXTH = 5, SEVENTH = 6, EIGHTH = 7
    ]
}
