//! The unvalidated setup of a Hostage position, its FEN dialect, and its
//! validation.
//!
//! FIDE FEN with the men off the board in brackets right after the board
//! field, crazyhouse-style, as four `/`-separated lists:
//!
//! ```text
//! <board>[<White's prison>/<Black's prison>/<White's airfield>/<Black's airfield>] <turn> <castling> <ep> <halfmoves> <fullmoves>
//! r1bqk2r/pppp1ppp/2n5/4p3/2B5/8/PPPP1PPP/R1BQK2R[np/P/-/-] w KQkq - 0 6
//! ```
//!
//! A list is `-` when empty, otherwise one letter per man, most valuable
//! first. Letters carry colours as in the board field: White's prison holds
//! Black men (lowercase), Black's prison White men (uppercase); each
//! airfield holds its owner's men. The brackets may be left out when all
//! four lists are empty (so a plain FEN reads: the start position, or a
//! composed position with fewer men).
//!
//! The castling field is `KQkq` as usual (the rook's corner), plus `E` or
//! `e` for a king that has never moved while its side has no castling
//! right: a rook later dropped on its corner may castle with it (H5). A
//! `K`, `Q`, `k` or `q` implies the unmoved king.
//!
//! [`Hostage::from_setup`] validates a [`HostageSetup`] into a position.

use crate::fen::{parse_board, parse_fields_around_with, write_board};
use crate::fide::{
    validate_back_ranks, validate_castling_rights, validate_ep_square, validate_fullmoves,
    validate_roles, FideState,
};
use crate::{Bitboard, Color, FenError, Piece, PositionError, Rank, Role, Setup, Square};

use super::reserve::{reserve_index, Reserve, FULL_SET, RESERVE_ROLES};
use super::Hostage;

/// The name error messages give the bracketed field.
const RESERVES_FIELD: &str = "prisons and airfields";
const CASTLING_FIELD: &str = "castling";

/// An unvalidated Hostage position: the FIDE fields plus prisons,
/// airfields and unmoved kings. [`super::Hostage::from_setup`] validates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HostageSetup {
    pub setup: Setup,
    /// `prisons[c]`: enemy men captured by `c`.
    pub prisons: [Reserve; 2],
    /// `airfields[c]`: men of colour `c` ready for `c` to drop.
    pub airfields: [Reserve; 2],
    /// Home squares (e1, e8) of kings that have never moved; implied for a
    /// side that holds a castling right.
    pub unmoved_kings: Bitboard,
}

impl HostageSetup {
    /// The start position.
    pub fn standard() -> HostageSetup {
        HostageSetup {
            setup: Setup::standard(),
            prisons: [Reserve::EMPTY; 2],
            airfields: [Reserve::EMPTY; 2],
            unmoved_kings: Bitboard::from_square(Square::E1).with(Square::E8),
        }
    }

    /// Reads the dialect; only the syntax and the per-role maxima of each
    /// list are checked here, the totals and the rest by
    /// `Hostage::from_setup`.
    pub fn from_fen(text: &str) -> Result<HostageSetup, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        crate::fen::check_field_count(
            &fields,
            4..=6,
            "4 to 6 (board[prisons and airfields], turn, castling, en passant, halfmove clock, fullmove number)",
        )?;
        let first = fields[0];
        let (board_field, reserves) = match first.find('[') {
            Some(open) => {
                let inner = first[open + 1..]
                    .strip_suffix(']')
                    .ok_or_else(|| reserves_error(first, "expected ']' at the end of the field"))?;
                (&first[..open], parse_reserves(inner)?)
            }
            None => (first, ([Reserve::EMPTY; 2], [Reserve::EMPTY; 2])),
        };
        let board = parse_board(board_field, &Role::FIDE)?;
        let (setup, unmoved_kings) = parse_fields_around_with(
            board,
            [fields[1], fields[2], fields[3]],
            &fields[4..],
            parse_castling,
        )?;
        Ok(HostageSetup {
            setup,
            prisons: reserves.0,
            airfields: reserves.1,
            unmoved_kings,
        })
    }

    /// Writes the dialect (always with the brackets and both counters).
    pub fn to_fen(&self) -> String {
        let s = &self.setup;
        format!(
            "{}[{}/{}/{}/{}] {} {} {} {} {}",
            write_board(&s.board),
            write_reserve(&self.prisons[0], Color::Black),
            write_reserve(&self.prisons[1], Color::White),
            write_reserve(&self.airfields[0], Color::White),
            write_reserve(&self.airfields[1], Color::Black),
            s.turn.char(),
            write_castling(s.castling_rights, self.unmoved_kings),
            crate::fen::write_en_passant(s.ep_square),
            s.halfmoves,
            s.fullmoves
        )
    }
}

fn reserves_error(text: &str, reason: impl Into<String>) -> FenError {
    FenError::VariantField {
        field: RESERVES_FIELD,
        text: text.to_owned(),
        reason: reason.into(),
    }
}

/// Reads `<W prison>/<B prison>/<W airfield>/<B airfield>` into
/// (prisons, airfields).
#[allow(clippy::type_complexity)]
fn parse_reserves(inner: &str) -> Result<([Reserve; 2], [Reserve; 2]), FenError> {
    let lists: Vec<&str> = inner.split('/').collect();
    if lists.len() != 4 {
        return Err(reserves_error(
            inner,
            format!(
                "expected 4 lists separated by '/' (White's prison, Black's prison, White's airfield, Black's airfield), found {}",
                lists.len()
            ),
        ));
    }
    // (name, colour of the men it holds)
    let slots = [
        ("White's prison", Color::Black),
        ("Black's prison", Color::White),
        ("White's airfield", Color::White),
        ("Black's airfield", Color::Black),
    ];
    let mut reserves = [Reserve::EMPTY; 4];
    for (i, (list, (name, color))) in lists.iter().zip(slots).enumerate() {
        reserves[i] = parse_reserve(list, name, color)?;
    }
    Ok(([reserves[0], reserves[1]], [reserves[2], reserves[3]]))
}

fn parse_reserve(list: &str, name: &str, color: Color) -> Result<Reserve, FenError> {
    if list == "-" {
        return Ok(Reserve::EMPTY);
    }
    if list.is_empty() {
        return Err(reserves_error(list, format!("{name} is empty: write '-'")));
    }
    let mut counts = [0u8; 5];
    for c in list.chars() {
        let Some(role) = Role::from_char(c).filter(|r| Role::FIDE.contains(r)) else {
            return Err(reserves_error(
                list,
                format!("unknown piece letter '{c}' in {name}"),
            ));
        };
        let Some(i) = reserve_index(role) else {
            return Err(reserves_error(
                list,
                format!("a king never leaves the board, but {name} holds one"),
            ));
        };
        let is_white = c.is_ascii_uppercase();
        if is_white != (color == Color::White) {
            return Err(reserves_error(
                list,
                format!(
                    "{name} holds only {color} men ({} letters), found '{c}'",
                    if color == Color::White {
                        "uppercase"
                    } else {
                        "lowercase"
                    }
                ),
            ));
        }
        counts[i] += 1;
        if counts[i] > FULL_SET[i] {
            return Err(reserves_error(
                list,
                format!(
                    "{name} holds {} {color} {}s, but a side has only {}",
                    counts[i],
                    role.name(),
                    FULL_SET[i]
                ),
            ));
        }
    }
    Ok(Reserve::from_counts(counts))
}

/// Letters of a reserve in the colour of its men, most valuable first.
fn write_reserve(reserve: &Reserve, color: Color) -> String {
    if reserve.is_empty() {
        return "-".to_owned();
    }
    let mut out = String::with_capacity(16);
    for role in RESERVE_ROLES.into_iter().rev() {
        for _ in 0..reserve.count(role) {
            out.push(match color {
                Color::White => role.upper_char(),
                Color::Black => role.char(),
            });
        }
    }
    out
}

/// The castling letters in written order, with what each stands for:
/// a rook's corner (a right) or an unmoved king without rights.
const CASTLING_LETTERS: [(char, Square, bool); 6] = [
    ('K', Square::H1, true),
    ('Q', Square::A1, true),
    ('E', Square::E1, false),
    ('k', Square::H8, true),
    ('q', Square::A8, true),
    ('e', Square::E8, false),
];

/// Reads the castling field into (rook squares with rights, unmoved kings).
fn parse_castling(field: &str) -> Result<(Bitboard, Bitboard), FenError> {
    let err = |reason: &str| FenError::VariantField {
        field: CASTLING_FIELD,
        text: field.to_owned(),
        reason: reason.to_owned(),
    };
    if field == "-" {
        return Ok((Bitboard::EMPTY, Bitboard::EMPTY));
    }
    let (mut rights, mut unmoved) = (Bitboard::EMPTY, Bitboard::EMPTY);
    let mut next = 0;
    for c in field.chars() {
        let Some(offset) = CASTLING_LETTERS[next..]
            .iter()
            .position(|(l, _, _)| *l == c)
        else {
            return Err(err(
                "expected '-' or letters from K, Q, E, k, q, e, each at most once, in that order",
            ));
        };
        let (_, square, is_rook) = CASTLING_LETTERS[next + offset];
        if is_rook {
            rights.add(square);
            unmoved.add(Square::E1.relative_to(color_of_rank(square)));
        } else {
            if unmoved.contains(square) {
                return Err(err(
                    "'E'/'e' marks an unmoved king without castling rights; it is implied by K or Q",
                ));
            }
            unmoved.add(square);
        }
        next += offset + 1;
    }
    if field.is_empty() {
        return Err(err("empty castling field: write '-'"));
    }
    Ok((rights, unmoved))
}

fn color_of_rank(square: Square) -> Color {
    if square.rank() == crate::Rank::FIRST {
        Color::White
    } else {
        Color::Black
    }
}

fn write_castling(rights: Bitboard, unmoved: Bitboard) -> String {
    let out: String = CASTLING_LETTERS
        .iter()
        .filter(|(_, square, is_rook)| {
            if *is_rook {
                rights.contains(*square)
            } else {
                let color = color_of_rank(*square);
                unmoved.contains(*square)
                    && (rights & Bitboard::relative_rank(color, crate::Rank::FIRST)).is_empty()
            }
        })
        .map(|(c, _, _)| *c)
        .collect();
    if out.is_empty() {
        "-".to_owned()
    } else {
        out
    }
}

impl Hostage {
    /// Validates a setup: the FIDE checks (one king a side, no pawn on a
    /// back rank, castling rights backed by an unmoved king and rook, a
    /// possible en passant square, the side not to move not in check), and
    /// material: no side has more men of a role across board, prisons and
    /// airfields than a full set (8 P, 2 N, 2 B, 2 R, 1 Q), since no action
    /// creates a man. Fewer is fine: a composed position (a study, a puzzle,
    /// a curriculum start) keeps whatever it starts with, as every action
    /// conserves the count of each role and colour.
    pub fn from_setup(setup: HostageSetup) -> Result<Hostage, PositionError> {
        let HostageSetup {
            setup,
            prisons,
            airfields,
            unmoved_kings,
        } = setup;
        validate_fullmoves(setup.fullmoves)?;
        let board = setup.board;
        validate_roles(&board, &Role::FIDE, "hostage")?;
        for color in Color::ALL {
            let kings = board.count(Piece::new(color, Role::King));
            if kings == 0 {
                return Err(PositionError::MissingKing(color));
            }
            if kings > 1 {
                return Err(PositionError::TooManyKings(color));
            }
            for (i, role) in RESERVE_ROLES.into_iter().enumerate() {
                let found = board.count(Piece::new(color, role))
                    + usize::from(prisons[(!color).index()].count(role))
                    + usize::from(airfields[color.index()].count(role));
                let limit = usize::from(FULL_SET[i]);
                if found > limit {
                    return Err(PositionError::TooManyMen {
                        color,
                        role,
                        found,
                        limit,
                    });
                }
            }
        }
        validate_back_ranks(board.by_role(Role::Pawn))?;
        validate_castling_rights(&board, setup.castling_rights)?;
        let mut unmoved = unmoved_kings;
        for color in Color::ALL {
            let home = Square::E1.relative_to(color);
            if (setup.castling_rights & Bitboard::relative_rank(color, Rank::FIRST)).any() {
                unmoved.add(home);
            }
            let marked = unmoved & Bitboard::relative_rank(color, Rank::FIRST);
            if marked.any()
                && (marked != Bitboard::from_square(home)
                    || board.piece_at(home) != Some(Piece::new(color, Role::King)))
            {
                return Err(PositionError::UnmovedKingNotHome(color));
            }
        }
        if let Some(ep) = setup.ep_square {
            validate_ep_square(&board, setup.turn, ep)?;
        }
        let position = Hostage {
            fide: FideState { board, ..setup },
            prisons,
            airfields,
            unmoved_kings: unmoved,
        };
        let them = !position.fide.turn;
        let their_king = position.fide.board.king_of(them).expect("validated");
        if position
            .attackers_to(
                their_king,
                position.fide.turn,
                position.fide.board.occupied(),
            )
            .any()
        {
            return Err(PositionError::OppositeCheck(them));
        }
        if position.checkers().count() > 2 {
            return Err(PositionError::TooManyCheckers(position.fide.turn));
        }
        Ok(position)
    }

    /// Reads a position in the Hostage FEN dialect (see [`HostageSetup`]).
    pub fn from_fen(text: &str) -> Result<Hostage, FenError> {
        Ok(Hostage::from_setup(HostageSetup::from_fen(text)?)?)
    }

    /// The plain fields of this position.
    pub fn to_setup(&self) -> HostageSetup {
        HostageSetup {
            setup: self.fide.clone(),
            prisons: self.prisons,
            airfields: self.airfields,
            unmoved_kings: self.unmoved_kings,
        }
    }
}
