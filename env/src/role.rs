//! Piece types and pieces.
//!
//! `Role` lists every fixed piece type any variant of Heterodox puts in a
//! bitboard [`Board`](crate::Board): the six FIDE types plus Poison Chess's
//! Harpy, Doctor and Guard. Which roles a variant allows is the variant's
//! business (its FEN reader rejects the others). Mad Scientist pieces are
//! built from parts and live in that variant's own board, not here.

use std::fmt;

use crate::Color;

/// A piece type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    /// Poison Chess: moves as a rook, captures only Harpies, poisons.
    Harpy = 6,
    /// Poison Chess: moves as a queen, cures.
    Doctor = 7,
    /// Poison Chess: a promoted queen-mover.
    Guard = 8,
}

impl Role {
    /// Number of roles: the length of per-role tables.
    pub const COUNT: usize = 9;
    pub const ALL: [Role; Role::COUNT] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Harpy,
        Role::Doctor,
        Role::Guard,
    ];
    /// The six FIDE roles: the first six of [`Role::ALL`].
    pub const FIDE: [Role; 6] = match Role::ALL.first_chunk() {
        Some(fide) => *fide,
        None => unreachable!(),
    };
    /// The FIDE back rank, files a to h.
    pub const FIDE_BACK_RANK: [Role; 8] = [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ];
    /// The roles a FIDE pawn may promote to, in the order move lists use.
    pub const FIDE_PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lowercase letter, as used in FEN for Black and in UCI promotions.
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
            Role::Harpy => 'h',
            Role::Doctor => 'd',
            Role::Guard => 'g',
        }
    }

    /// Uppercase letter, as used in SAN.
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads a letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_lowercase() {
            'p' => Role::Pawn,
            'n' => Role::Knight,
            'b' => Role::Bishop,
            'r' => Role::Rook,
            'q' => Role::Queen,
            'k' => Role::King,
            'h' => Role::Harpy,
            'd' => Role::Doctor,
            'g' => Role::Guard,
            _ => return None,
        })
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Harpy => "harpy",
            Role::Doctor => "doctor",
            Role::Guard => "guard",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a role of a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: uppercase for White.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}
