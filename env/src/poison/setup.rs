//! The unvalidated setup of a Poison position, its validation, and the FEN
//! dialect.
//!
//! Poison FEN is FIDE FEN with the Poison letters (H Harpy, D Doctor,
//! G Guard; no Q) and a seventh field listing the poisoned pieces with
//! their counters, in square order (a1 first), `-` when none:
//!
//! ```text
//! 2d1k3/p2p1p1N/hp4pp/b3H3/2P4B/P3D2P/1P3PP1/6K1 b - - 0 1 f5:5,e3:2
//! ```
//!
//! (`f5:5` = the piece on f5 is poisoned, 5 moves of its enemy to go.) The
//! poisoned piece's colour is the colour of the piece on the square. A FEN
//! of 4 to 6 fields reads as a position without poison.

use crate::fen;
use crate::fide::{validate_fide_setup, SetupRules};
use crate::{
    Bitboard, Board, Color, FenError, File, Piece, PositionError, Rank, Role, Setup, Square,
};

use super::{PoisonChess, POISON_COUNTDOWN, ROLES};

/// The name of the seventh FEN field in errors.
const POISON_FIELD: &str = "poison";

/// Plain fields of a Poison position; [`PoisonChess::from_setup`] checks
/// them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PoisonSetup {
    /// Board, turn, castling rights (squares of unmoved Harpies), en
    /// passant square and the two counters.
    pub base: Setup,
    /// The countdown of the poisoned piece on each square; 0 = not poisoned.
    pub counters: [u8; 64],
}

impl PoisonSetup {
    /// The text's starting position.
    pub fn standard() -> PoisonSetup {
        let mut board = Board::empty();
        let back = [
            Role::Harpy,
            Role::Knight,
            Role::Bishop,
            Role::Doctor,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Harpy,
        ];
        for (file, role) in File::all().zip(back) {
            for (color, back_rank, pawn_rank) in [
                (Color::White, Rank::FIRST, Rank::SECOND),
                (Color::Black, Rank::EIGHTH, Rank::SEVENTH),
            ] {
                board.set_piece_at(
                    Square::from_coords(file, back_rank),
                    Piece::new(color, role),
                );
                board.set_piece_at(
                    Square::from_coords(file, pawn_rank),
                    Piece::new(color, Role::Pawn),
                );
            }
        }
        PoisonSetup {
            base: Setup {
                board,
                castling_rights: Bitboard::CORNERS,
                ..Setup::empty()
            },
            counters: [0; 64],
        }
    }

    /// Reads the Poison FEN dialect (syntax and the poison field's squares
    /// and counters; the rest of legality is [`PoisonChess::from_setup`]'s).
    pub fn from_fen(text: &str) -> Result<PoisonSetup, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let (fide, poison) = match fields.len() {
            7 => (&fields[..6], Some(fields[6])),
            _ => (&fields[..], None),
        };
        let base = fen::parse_fide_fields(fide, &ROLES).map_err(|e| match e {
            FenError::FieldCount { found, .. } => FenError::FieldCount {
                found,
                expected: "4 to 7 (board, turn, castling, en passant, halfmove clock, fullmove number, poison)",
            },
            other => other,
        })?;
        let counters = match poison {
            Some(field) => parse_poison_field(field, &base.board)?,
            None => [0; 64],
        };
        Ok(PoisonSetup { base, counters })
    }

    /// Writes all seven fields.
    pub fn to_fen(&self) -> String {
        format!(
            "{} {}",
            fen::write_fide_fields(&self.base),
            write_poison_field(&self.counters)
        )
    }
}

/// Reads `-` or `sq:n,sq:n,...` (n in 1..=5, a piece on every square).
fn parse_poison_field(field: &str, board: &Board) -> Result<[u8; 64], FenError> {
    let err = |reason: String| FenError::VariantField {
        field: POISON_FIELD,
        text: field.to_owned(),
        reason,
    };
    let mut counters = [0u8; 64];
    if field == "-" {
        return Ok(counters);
    }
    for item in field.split(',') {
        let Some((square_text, counter_text)) = item.split_once(':') else {
            return Err(err(format!(
                "item '{item}' is not <square>:<counter> (e.g. f5:5)"
            )));
        };
        let square: Square = square_text
            .parse()
            .map_err(|_| err(format!("'{square_text}' is not a square")))?;
        let counter = match counter_text.parse::<u8>() {
            Ok(n) if (1..=POISON_COUNTDOWN).contains(&n) && counter_text.len() == 1 => n,
            _ => {
                return Err(err(format!(
                    "counter '{counter_text}' on {square} is out of range 1 to {POISON_COUNTDOWN}"
                )))
            }
        };
        if !board.occupied().contains(square) {
            return Err(err(format!("poison on the empty square {square}")));
        }
        if counters[square.index()] != 0 {
            return Err(err(format!("{square} is listed twice")));
        }
        counters[square.index()] = counter;
    }
    Ok(counters)
}

fn write_poison_field(counters: &[u8; 64]) -> String {
    let items: Vec<String> = Square::all()
        .filter(|sq| counters[sq.index()] != 0)
        .map(|sq| format!("{sq}:{}", counters[sq.index()]))
        .collect();
    if items.is_empty() {
        "-".to_owned()
    } else {
        items.join(",")
    }
}

/// What a Poison setup may hold: castling rights are Harpies' (P11).
const SETUP_RULES: SetupRules = SetupRules {
    variant: "poison",
    roles: &ROLES,
    castling_partner: Role::Harpy,
    partner_on_corners: true,
};

impl PoisonChess {
    /// Validates a setup: the FIDE material limits with the Poison roles
    /// only, castling rights backed by the King on e1/e8 and a Harpy on the
    /// corner, a possible en passant square, counters 1 to 5 on occupied
    /// squares only, both Kings on the board, and the side not to move not
    /// in check under the P6 attack rules.
    pub fn from_setup(setup: PoisonSetup) -> Result<PoisonChess, PositionError> {
        let PoisonSetup { base, counters } = setup;
        validate_fide_setup(&base, &SETUP_RULES)?;
        let (board, turn) = (&base.board, base.turn);
        let mut poisoned = [Bitboard::EMPTY; 2];
        for square in Square::all() {
            let counter = counters[square.index()];
            if counter == 0 {
                continue;
            }
            match board.color_at(square) {
                Some(color) if counter <= POISON_COUNTDOWN => poisoned[color.index()].add(square),
                _ => return Err(PositionError::BadPoison { square, counter }),
            }
        }
        let position = PoisonChess {
            fide: base,
            poisoned,
            counters,
        };
        if position.king_attacked(!turn) {
            return Err(PositionError::OppositeCheck(!turn));
        }
        Ok(position)
    }

    /// Reads and validates a position in the Poison FEN dialect (see
    /// [`PoisonSetup::from_fen`]).
    pub fn from_fen(text: &str) -> Result<PoisonChess, FenError> {
        Ok(PoisonChess::from_setup(PoisonSetup::from_fen(text)?)?)
    }

    /// The plain fields of this position.
    pub fn to_setup(&self) -> PoisonSetup {
        PoisonSetup {
            base: self.fide.clone(),
            counters: self.counters,
        }
    }
}
