//! The unvalidated setup of a Mad Scientist position ([`MadSetup`]), its
//! position string, and its validation into a [`MadScientist`].
//!
//! The position string is FEN with part-pieces and a hands field:
//!
//! `board turn castling en-passant hands halfmove fullmove`, e.g. the start:
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - 0 1`.
//!
//! Board tokens: `K`/`k` Scientist, `P`/`p` pawn, `Q R B N` (either case)
//! for the part sets of the FIDE pieces (2W2F, 2W, 2F, CB), and any part set
//! as bracketed part letters, upper case for White, lower case for Black:
//! `[WWC]`, `[ccbb]` (letters in any order; written W, F, C, B). Hands: `-`
//! or part letters, White's upper case, Black's lower case (`WFFcb`). The
//! two counters may be left out (0 and 1).

use std::str::Chars;

use crate::fen::{
    check_field_count, parse_board_with, parse_fields_around, parse_move_counters,
    write_board_with, write_state_fields,
};
use crate::fide::{
    castling, en_passant, validate_back_ranks, validate_fullmoves, validate_pawn_count,
};
use crate::{Bitboard, Color, FenError, PositionError, Rank, Setup};

use super::board::{MadBoard, MadPiece, PieceKind};
use super::parts::{Hand, Part, Parts, HAND_LIMIT, HAND_MAX_DURING_TURN, MAX_OF_A_TYPE};
use super::MadScientist;

/// The plain fields of a position, not yet checked. [`MadScientist::from_setup`]
/// validates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MadSetup {
    /// The board of part-pieces and the FIDE fields: castling rights are
    /// corner squares of rooks that may still castle; the half-move clock
    /// counts turns since the last capture, pawn move or Scientist power
    /// (M6).
    pub setup: Setup<MadBoard>,
    /// Hands, indexed by colour.
    pub hands: [Hand; 2],
}

impl MadSetup {
    /// The start position.
    pub fn standard() -> MadSetup {
        MadSetup {
            setup: Setup {
                castling_rights: Bitboard::CORNERS,
                ..Setup::with_board(MadBoard::standard())
            },
            hands: [Hand::EMPTY; 2],
        }
    }

    /// Reads a position string (5 to 7 fields) without validating the
    /// position.
    pub fn from_fen(text: &str) -> Result<MadSetup, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        check_field_count(
            &fields,
            5..=7,
            "5 to 7 (board, turn, castling, en passant, hands, halfmove clock, fullmove number)",
        )?;
        let board = parse_board(fields[0])?;
        // Fields in order: the hands stand between en passant and the
        // counters.
        let mut setup = parse_fields_around(board, [fields[1], fields[2], fields[3]], &[])?;
        let hands = parse_hands(fields[4])?;
        (setup.halfmoves, setup.fullmoves) =
            parse_move_counters(fields.get(5).copied(), fields.get(6).copied())?;
        Ok(MadSetup { setup, hands })
    }

    /// Writes all seven fields.
    pub fn to_fen(&self) -> String {
        let setup = &self.setup;
        format!(
            "{} {} {} {} {}",
            write_board_with(|square| setup.board.piece_at(square).map(|piece| piece.token())),
            write_state_fields(setup),
            write_hands(&self.hands),
            setup.halfmoves,
            setup.fullmoves
        )
    }
}

/// Reads a bracketed part list (the text between `[` and `]`).
fn parse_part_list(letters: &str) -> Result<(Color, Parts), String> {
    if letters.is_empty() {
        return Err("empty part list '[]': a piece has at least one part".to_owned());
    }
    let color = if letters.chars().all(|c| c.is_ascii_uppercase()) {
        Color::White
    } else if letters.chars().all(|c| c.is_ascii_lowercase()) {
        Color::Black
    } else {
        return Err(format!(
            "mixed case in '[{letters}]': all upper case (White) or all lower case (Black)"
        ));
    };
    let mut counts = [0u8; 4];
    for c in letters.chars() {
        match c.to_ascii_uppercase() {
            'P' => return Err(format!("'[{letters}]': a pawn carries no parts")),
            'K' => return Err(format!("'[{letters}]': a Scientist carries no parts")),
            upper => {
                let part = Part::from_char(upper).ok_or_else(|| {
                    format!("unknown part letter '{c}' in '[{letters}]' (expected W, F, C, B)")
                })?;
                counts[part.index()] += 1;
                if counts[part.index()] > MAX_OF_A_TYPE {
                    return Err(format!(
                        "'[{letters}]' has three or more {} parts (at most two of a type)",
                        part.name()
                    ));
                }
            }
        }
    }
    let parts = Parts::from_counts(counts).expect("counts checked");
    Ok((color, parts))
}

fn parse_board(field: &str) -> Result<MadBoard, FenError> {
    let mut board = MadBoard::empty();
    parse_board_with(field, read_piece, |square, piece| board.set(square, piece))?;
    Ok(board)
}

/// One piece token: a bracketed part list, or a letter.
fn read_piece(c: char, rest: &mut Chars, rank: Rank) -> Result<MadPiece, String> {
    if c == '[' {
        let text = rest.as_str();
        let Some(end) = text.find(']') else {
            return Err(format!("unclosed '[' on rank {}", rank.char()));
        };
        let (color, parts) = parse_part_list(&text[..end])
            .map_err(|reason| format!("{reason} on rank {}", rank.char()))?;
        *rest = text[end + 1..].chars();
        return Ok(MadPiece::new(color, PieceKind::Composite(parts)));
    }
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let kind = match c.to_ascii_uppercase() {
        'K' => PieceKind::Scientist,
        'P' => PieceKind::Pawn,
        upper => match Parts::from_fide_letter(upper) {
            Some(parts) if c.is_ascii_alphabetic() => PieceKind::Composite(parts),
            _ => {
                return Err(format!(
                    "unknown piece letter '{c}' on rank {}",
                    rank.char()
                ))
            }
        },
    };
    Ok(MadPiece::new(color, kind))
}

fn parse_hands(field: &str) -> Result<[Hand; 2], FenError> {
    let mut counts = [[0u8; 4]; 2];
    if field != "-" {
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let part = Part::from_char(c.to_ascii_uppercase())
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or_else(|| FenError::VariantField {
                    field: "hands",
                    text: field.to_owned(),
                    reason: format!(
                        "unknown part letter '{c}' (W, F, C, B for White; w, f, c, b for Black; '-' when both are empty)"
                    ),
                })?;
            let count = &mut counts[color.index()][part.index()];
            if *count >= 16 {
                return Err(FenError::VariantField {
                    field: "hands",
                    text: field.to_owned(),
                    reason: "more than 16 parts of one type".to_owned(),
                });
            }
            *count += 1;
        }
    }
    Ok(counts.map(Hand::from_counts))
}

fn write_hands(hands: &[Hand; 2]) -> String {
    let white = hands[0].to_string();
    let black = hands[1].to_string().to_ascii_lowercase();
    if white.is_empty() && black.is_empty() {
        "-".to_owned()
    } else {
        white + &black
    }
}

impl MadScientist {
    /// Validates a setup: at most one Scientist a side, and the side not to
    /// move still has one (the side to move may have lost it: the game is
    /// then over); at most eight pawns a side, none on a back rank; castling
    /// rights backed by a Scientist on e1/e8 and a two-Wazir piece on the
    /// corner; a possible en passant square; the hand of the side not to
    /// move at most eight parts (its turn is complete), that of the side to
    /// move at most sixteen (it may be discarding).
    pub fn from_setup(setup: MadSetup) -> Result<MadScientist, PositionError> {
        let MadSetup { setup, hands } = setup;
        let Setup {
            ref board,
            turn,
            castling_rights,
            ep_square,
            fullmoves,
            ..
        } = setup;
        validate_fullmoves(fullmoves)?;
        for color in Color::ALL {
            let scientists = (board.scientists() & board.by_color(color)).count();
            if scientists > 1 {
                return Err(PositionError::TooManyKings(color));
            }
            validate_pawn_count(color, board.pawns() & board.by_color(color))?;
        }
        if board.scientist_of(!turn).is_none() {
            return Err(PositionError::MissingKing(!turn));
        }
        validate_back_ranks(board.pawns())?;
        castling::validate_rights_by(castling_rights, |color, home, rook| {
            board.scientist_of(color) == Some(home)
                && board.piece_at(rook)
                    == Some(MadPiece::new(color, PieceKind::Composite(Parts::ROOK)))
                && Bitboard::CORNERS.contains(rook)
        })?;
        if let Some(ep) = ep_square {
            let their_pawns = board.pawns() & board.by_color(!turn);
            en_passant::validate_ep_square_by(turn, ep, board.occupied(), their_pawns)?;
        }
        for color in Color::ALL {
            let limit = if color == turn {
                HAND_MAX_DURING_TURN
            } else {
                HAND_LIMIT
            };
            let count = hands[color.index()].total();
            if count > limit {
                return Err(PositionError::HandTooLarge {
                    color,
                    count: count as usize,
                    limit: limit as usize,
                });
            }
        }
        Ok(MadScientist { fide: setup, hands })
    }

    /// Reads a position string (see docs/rules/madscientist.md) and
    /// validates it.
    pub fn from_fen(text: &str) -> Result<MadScientist, FenError> {
        Ok(MadScientist::from_setup(MadSetup::from_fen(text)?)?)
    }

    pub fn to_setup(&self) -> MadSetup {
        MadSetup {
            setup: self.fide.clone(),
            hands: self.hands,
        }
    }
}
