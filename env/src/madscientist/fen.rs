//! The position string: FEN with part-pieces and a hands field.
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
use crate::{Color, FenError, Rank};

use super::board::{MadBoard, MadPiece, PieceKind};
use super::parts::{Hand, Part, Parts, MAX_OF_A_TYPE};
use super::MadSetup;

impl MadSetup {
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
