//! The Mad Scientist board: who stands where, and what each piece is made
//! of. Not the shared `Board`: a piece here is any multiset of parts, not
//! one of a few roles (docs/architecture.md).

use std::fmt;

use crate::{Bitboard, Color, File, Rank, Square};

use super::parts::Parts;

/// What stands on a square, colour aside.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// The royal piece: moves as a king, carries no parts (M1, M5).
    Scientist,
    /// A FIDE pawn: carries no parts (M3, M5).
    Pawn,
    /// A piece built from parts (never empty).
    Composite(Parts),
}

/// A piece with its owner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MadPiece {
    pub color: Color,
    pub kind: PieceKind,
}

impl MadPiece {
    pub const fn new(color: Color, kind: PieceKind) -> MadPiece {
        MadPiece { color, kind }
    }

    /// The piece's token in position strings: `K`/`k`, `P`/`p`, a FIDE
    /// letter for the four start pieces, otherwise bracketed part letters
    /// (`[WWC]` White, `[wwc]` Black).
    pub fn token(self) -> String {
        let token = match self.kind {
            PieceKind::Scientist => "K".to_owned(),
            PieceKind::Pawn => "P".to_owned(),
            PieceKind::Composite(parts) => parts.designator(),
        };
        match self.color {
            Color::White => token,
            Color::Black => token.to_ascii_lowercase(),
        }
    }
}

/// Per-colour occupancy, pawn and Scientist sets, and the parts of every
/// square (zero where there is no composite piece). 96 bytes, `Copy`-cheap
/// to clone for search.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MadBoard {
    by_color: [Bitboard; 2],
    pawns: Bitboard,
    scientists: Bitboard,
    parts: [Parts; 64],
}

impl MadBoard {
    pub fn empty() -> MadBoard {
        MadBoard {
            by_color: [Bitboard::EMPTY; 2],
            pawns: Bitboard::EMPTY,
            scientists: Bitboard::EMPTY,
            parts: [Parts::EMPTY; 64],
        }
    }

    /// The start position: FIDE's array with the Kings as Scientists and the
    /// pieces as their parts (M2).
    pub fn standard() -> MadBoard {
        let mut board = MadBoard::empty();
        let back = [
            Parts::ROOK,
            Parts::KNIGHT,
            Parts::BISHOP,
            Parts::QUEEN,
            Parts::EMPTY,
            Parts::BISHOP,
            Parts::KNIGHT,
            Parts::ROOK,
        ];
        for color in Color::ALL {
            for file in File::all() {
                let home = Square::from_coords(file, Rank::FIRST).relative_to(color);
                let kind = match back[file.index()] {
                    Parts::EMPTY => PieceKind::Scientist,
                    parts => PieceKind::Composite(parts),
                };
                board.set(home, MadPiece::new(color, kind));
                let pawn = Square::from_coords(file, Rank::SECOND).relative_to(color);
                board.set(pawn, MadPiece::new(color, PieceKind::Pawn));
            }
        }
        board
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn pawns(&self) -> Bitboard {
        self.pawns
    }

    #[inline]
    pub fn scientists(&self) -> Bitboard {
        self.scientists
    }

    /// Squares of pieces built from parts (both colours).
    #[inline]
    pub fn composites(&self) -> Bitboard {
        self.occupied() - self.pawns - self.scientists
    }

    /// The parts on `sq` (empty unless a composite piece stands there).
    #[inline]
    pub fn parts_at(&self, sq: Square) -> Parts {
        self.parts[sq.index()]
    }

    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<MadPiece> {
        let color = self.color_at(sq)?;
        let kind = if self.pawns.contains(sq) {
            PieceKind::Pawn
        } else if self.scientists.contains(sq) {
            PieceKind::Scientist
        } else {
            PieceKind::Composite(self.parts[sq.index()])
        };
        Some(MadPiece::new(color, kind))
    }

    /// The Scientist of `color`, if it is still on the board.
    #[inline]
    pub fn scientist_of(&self, color: Color) -> Option<Square> {
        (self.scientists & self.by_color(color)).first()
    }

    /// Puts a piece on a square, replacing whatever stood there.
    pub fn set(&mut self, sq: Square, piece: MadPiece) {
        self.clear(sq);
        self.by_color[piece.color.index()].add(sq);
        match piece.kind {
            PieceKind::Scientist => self.scientists.add(sq),
            PieceKind::Pawn => self.pawns.add(sq),
            PieceKind::Composite(parts) => self.parts[sq.index()] = parts,
        }
    }

    /// Empties a square; returns what stood there.
    pub fn clear(&mut self, sq: Square) -> Option<MadPiece> {
        let piece = self.piece_at(sq)?;
        let keep = !Bitboard::from_square(sq);
        self.by_color[0] &= keep;
        self.by_color[1] &= keep;
        self.pawns &= keep;
        self.scientists &= keep;
        self.parts[sq.index()] = Parts::EMPTY;
        Some(piece)
    }

    /// Moves whatever stands on `from` to the empty square `to`.
    #[inline]
    pub fn relocate(&mut self, from: Square, to: Square) {
        let both = Bitboard::from_square(from) | to;
        let [white, black] = &mut self.by_color;
        for set in [white, black, &mut self.pawns, &mut self.scientists] {
            if set.contains(from) {
                *set ^= both;
            }
        }
        self.parts[to.index()] = self.parts[from.index()];
        self.parts[from.index()] = Parts::EMPTY;
    }

    /// Replaces the parts of the composite piece on `sq`; an empty set
    /// removes the piece (a one-part piece taken apart, M5).
    pub fn set_parts(&mut self, sq: Square, parts: Parts) {
        if parts.is_empty() {
            self.clear(sq);
        } else {
            self.parts[sq.index()] = parts;
        }
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, MadPiece)> + '_ {
        self.occupied()
            .map(move |sq| (sq, self.piece_at(sq).expect("occupied")))
    }
}

impl fmt::Debug for MadBoard {
    /// A diagram, rank 8 on top: each square's position-string token (`.`
    /// when empty), columns as wide as the widest token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tokens: Vec<String> = Square::all()
            .map(|sq| {
                self.piece_at(sq)
                    .map_or_else(|| ".".to_owned(), MadPiece::token)
            })
            .collect();
        let width = tokens.iter().map(String::len).max().unwrap_or(1);
        for rank in Rank::all().rev() {
            write!(f, "{} |", rank.char())?;
            for file in File::all() {
                let token = &tokens[Square::from_coords(file, rank).index()];
                write!(f, " {token:>width$}")?;
            }
            writeln!(f)?;
        }
        write!(f, "  +")?;
        writeln!(f, "{}", "-".repeat(8 * (width + 1)))?;
        write!(f, "   ")?;
        for file in File::all() {
            write!(f, " {:>width$}", file.char())?;
        }
        writeln!(f)
    }
}
