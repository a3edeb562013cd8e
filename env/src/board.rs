//! Piece placement: one bitboard per role and per colour.
//!
//! The board knows where pieces stand and nothing of the rules; positions of
//! every variant keep one and add their own state beside it (see
//! docs/architecture.md).

use std::fmt;

use crate::attacks;
use crate::{Bitboard, Color, File, Piece, Rank, Role, Square};

/// Where the pieces stand. Invariant: the role boards are disjoint, the
/// colour boards are disjoint, and both unions equal `occupied`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; Role::COUNT],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; Role::COUNT],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// The FIDE starting placement.
    pub fn standard() -> Board {
        let mut board = Board::empty();
        for (file, role) in File::all().zip(Role::FIDE_BACK_RANK) {
            board.set_piece_at(
                Square::from_coords(file, Rank::FIRST),
                Piece::new(Color::White, role),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::SECOND),
                Piece::new(Color::White, Role::Pawn),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::SEVENTH),
                Piece::new(Color::Black, Role::Pawn),
            );
            board.set_piece_at(
                Square::from_coords(file, Rank::EIGHTH),
                Piece::new(Color::Black, role),
            );
        }
        board
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens: the pieces that slide orthogonally in FIDE chess.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens: the pieces that slide diagonally in FIDE chess.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The king of `color`, if there is exactly one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).single_square()
    }

    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color(Color::White).contains(sq) {
            Some(Color::White)
        } else if self.by_color(Color::Black).contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|role| self.by_role(*role).contains(sq))
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece::new(self.color_at(sq)?, self.role_at(sq)?))
    }

    /// Puts a piece on a square, replacing whatever stood there.
    #[inline]
    pub fn set_piece_at(&mut self, sq: Square, piece: Piece) {
        self.discard_piece_at(sq);
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
        self.occupied.add(sq);
    }

    /// Takes the piece off a square and returns it.
    #[inline]
    pub fn remove_piece_at(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.by_role[piece.role.index()].remove(sq);
        self.by_color[piece.color.index()].remove(sq);
        self.occupied.remove(sq);
        Some(piece)
    }

    /// Empties a square (cheaper than [`Board::remove_piece_at`] when the
    /// piece is not needed).
    #[inline]
    pub fn discard_piece_at(&mut self, sq: Square) {
        if self.occupied.contains(sq) {
            let mask = !Bitboard::from_square(sq);
            for bb in &mut self.by_role {
                *bb &= mask;
            }
            self.by_color[0] &= mask;
            self.by_color[1] &= mask;
            self.occupied &= mask;
        }
    }

    /// Moves a piece known to be on `from` of the given kind to the empty
    /// square `to`. The fast path of move execution.
    #[inline]
    pub fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let delta = Bitboard::from_square(from) | to;
        self.by_role[piece.role.index()] ^= delta;
        self.by_color[piece.color.index()] ^= delta;
        self.occupied ^= delta;
    }

    /// The pieces of `attacker` that attack `sq` by FIDE movement, with
    /// `occupied` as the blockers. Non-FIDE roles are ignored; variants with
    /// other pieces or attack rules compute their own.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        self.by_color(attacker)
            & ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
                | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
                | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
                | (attacks::king_attacks(sq) & self.by_role(Role::King))
                | (attacks::pawn_attacks(!attacker, sq) & self.by_role(Role::Pawn)))
    }

    /// Iterates the pieces as (square, piece), a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied.map(move |sq| {
            (
                sq,
                self.piece_at(sq).expect("occupied square holds a piece"),
            )
        })
    }

    /// Number of pieces of a kind.
    pub fn count(&self, piece: Piece) -> usize {
        self.by_piece(piece).count()
    }
}

impl fmt::Debug for Board {
    /// A diagram, rank 8 on top, FEN letters and `.` for empty squares.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::all().rev() {
            for file in File::all() {
                let sq = Square::from_coords(file, rank);
                let c = self.piece_at(sq).map_or('.', Piece::char);
                write!(f, "{c}{}", if file == File::H { '\n' } else { ' ' })?;
            }
        }
        Ok(())
    }
}

impl Board {
    /// Adds or removes a piece known to be (or not to be) on `sq` by
    /// toggling its bits: the fast path for captures whose role is known.
    #[inline]
    pub fn toggle_piece(&mut self, piece: Piece, sq: Square) {
        self.by_role[piece.role.index()].toggle(sq);
        self.by_color[piece.color.index()].toggle(sq);
        self.occupied.toggle(sq);
    }
}
