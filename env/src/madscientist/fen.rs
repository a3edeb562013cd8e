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

use crate::fen::{parse_castling, parse_en_passant, parse_turn, write_castling};
use crate::{Color, FenError, File, Rank, Square};

use super::board::{MadBoard, MadPiece, PieceKind};
use super::parts::{Hand, Part, Parts, MAX_OF_A_TYPE};
use super::MadSetup;

impl MadSetup {
    /// Reads a position string (5 to 7 fields) without validating the
    /// position.
    pub fn from_fen(text: &str) -> Result<MadSetup, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if !(5..=7).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                found: fields.len(),
                expected: "5 to 7 (board, turn, castling, en passant, hands, halfmove clock, fullmove number)",
            });
        }
        let board = parse_board(fields[0])?;
        let turn = parse_turn(fields[1])?;
        let castling_rights = parse_castling(fields[2])?;
        let ep_square = parse_en_passant(fields[3])?;
        let hands = parse_hands(fields[4])?;
        let halfmoves = match fields.get(5) {
            Some(f) => parse_number(f, 9999).ok_or_else(|| FenError::HalfmoveClock((*f).into()))?,
            None => 0,
        };
        let fullmoves = match fields.get(6) {
            Some(f) => parse_number(f, 99999)
                .filter(|n| *n >= 1)
                .ok_or_else(|| FenError::FullmoveNumber((*f).into()))?,
            None => 1,
        };
        Ok(MadSetup {
            board,
            turn,
            castling_rights,
            ep_square,
            hands,
            halfmoves,
            fullmoves,
        })
    }

    /// Writes all seven fields.
    pub fn to_fen(&self) -> String {
        format!(
            "{} {} {} {} {} {} {}",
            write_board(&self.board),
            self.turn.char(),
            write_castling(self.castling_rights),
            self.ep_square
                .map_or_else(|| "-".to_owned(), |sq| sq.to_string()),
            write_hands(&self.hands),
            self.halfmoves,
            self.fullmoves
        )
    }
}

fn parse_number(field: &str, max: u32) -> Option<u32> {
    if field.is_empty() || field.len() > 6 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse::<u32>().ok().filter(|n| *n <= max)
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
    let err = |reason: String| FenError::Board {
        field: field.to_owned(),
        reason,
    };
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 8 {
        return Err(err(format!(
            "expected 8 ranks separated by '/', found {}",
            rows.len()
        )));
    }
    let mut board = MadBoard::empty();
    for (row_index, row) in rows.iter().enumerate() {
        let rank = Rank::new(7 - row_index as u32).expect("8 rows");
        let mut file = 0u32;
        let mut chars = row.chars();
        while let Some(c) = chars.next() {
            if let Some(skip) = c.to_digit(10) {
                if skip == 0 || skip > 8 {
                    return Err(err(format!(
                        "bad empty-square count '{c}' on rank {}",
                        rank.char()
                    )));
                }
                file += skip;
                if file > 8 {
                    return Err(err(format!("rank {} has more than 8 squares", rank.char())));
                }
                continue;
            }
            let piece = match c {
                '[' => {
                    let rest = chars.as_str();
                    let Some(end) = rest.find(']') else {
                        return Err(err(format!("unclosed '[' on rank {}", rank.char())));
                    };
                    let (color, parts) = parse_part_list(&rest[..end])
                        .map_err(|reason| err(format!("{reason} on rank {}", rank.char())))?;
                    chars = rest[end + 1..].chars();
                    MadPiece::new(color, PieceKind::Composite(parts))
                }
                _ => {
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
                                return Err(err(format!(
                                    "unknown piece letter '{c}' on rank {}",
                                    rank.char()
                                )))
                            }
                        },
                    };
                    MadPiece::new(color, kind)
                }
            };
            let Some(f) = File::new(file) else {
                return Err(err(format!("rank {} has more than 8 squares", rank.char())));
            };
            board.set(Square::from_coords(f, rank), piece);
            file += 1;
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} has {file} squares, expected 8",
                rank.char()
            )));
        }
    }
    Ok(board)
}

fn write_board(board: &MadBoard) -> String {
    let mut out = String::with_capacity(80);
    for rank in Rank::all().rev() {
        let mut empty = 0;
        for file in File::all() {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push_str(&piece.token());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank != Rank::FIRST {
            out.push('/');
        }
    }
    out
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
