//! FEN reading and writing, in pieces that variants reuse: the board field
//! with a variant's own set of piece letters, and the five FIDE fields.
//! Variants append their own fields (poison counters, prisons, ...) after
//! these and report their errors as [`FenError::VariantField`].

use std::fmt::{self, Write as _};
use std::ops::RangeInclusive;
use std::str::Chars;

use crate::{Bitboard, Board, Color, FenError, File, Piece, Rank, Role, Setup, Square};

/// Reads the board field (`rnbqkbnr/pppppppp/8/...`), accepting only the
/// roles in `allowed`.
pub fn parse_board(field: &str, allowed: &[Role]) -> Result<Board, FenError> {
    let mut board = Board::empty();
    parse_board_with(
        field,
        |c, _, rank| {
            Piece::from_char(c)
                .filter(|p| allowed.contains(&p.role))
                .ok_or_else(|| format!("unknown piece letter '{c}' on rank {}", rank.char()))
        },
        |square, piece| board.set_piece_at(square, piece),
    )?;
    Ok(board)
}

/// Walks a board field of any variant: eight ranks separated by `/`, the
/// eighth first; a digit skips empty squares; anything else starts a piece
/// token, read by `read_piece(first char, rest of the rank, rank)` (which
/// may consume more of the rank, like Mad Scientist's `[WWC]`, and returns
/// the reason of an error), then put on its square by `place`. The
/// square counting and its errors are the same for every variant.
pub fn parse_board_with<'a, P>(
    field: &'a str,
    mut read_piece: impl FnMut(char, &mut Chars<'a>, Rank) -> Result<P, String>,
    mut place: impl FnMut(Square, P),
) -> Result<(), FenError> {
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
    for (row_index, row) in rows.into_iter().enumerate() {
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
            let piece = read_piece(c, &mut chars, rank).map_err(err)?;
            let Some(f) = File::new(file) else {
                return Err(err(format!("rank {} has more than 8 squares", rank.char())));
            };
            place(Square::from_coords(f, rank), piece);
            file += 1;
        }
        if file != 8 {
            return Err(err(format!(
                "rank {} has {file} squares, expected 8",
                rank.char()
            )));
        }
    }
    Ok(())
}

/// Writes the board field.
pub fn write_board(board: &Board) -> String {
    write_board_with(|square| board.piece_at(square).map(|piece| piece.char()))
}

/// Writes a board field of any variant from the token of the piece on each
/// square (`None` for an empty one), runs of empty squares as digits.
pub fn write_board_with<T: fmt::Display>(token_at: impl Fn(Square) -> Option<T>) -> String {
    let mut out = String::with_capacity(80);
    for rank in Rank::all().rev() {
        let mut empty = 0;
        for file in File::all() {
            match token_at(Square::from_coords(file, rank)) {
                Some(token) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    write!(out, "{token}").expect("writing to a String");
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

pub fn parse_turn(field: &str) -> Result<Color, FenError> {
    match field {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(FenError::Turn(field.to_owned())),
    }
}

/// Reads `KQkq`-style castling rights into the set of the rooks' squares.
pub fn parse_castling(field: &str) -> Result<Bitboard, FenError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let order = [
        ('K', Square::H1),
        ('Q', Square::A1),
        ('k', Square::H8),
        ('q', Square::A8),
    ];
    let mut rights = Bitboard::EMPTY;
    let mut next = 0;
    for c in field.chars() {
        let position = order[next..].iter().position(|(letter, _)| *letter == c);
        let Some(offset) = position else {
            return Err(FenError::Castling(field.to_owned()));
        };
        rights.add(order[next + offset].1);
        next += offset + 1;
    }
    if rights.is_empty() {
        return Err(FenError::Castling(field.to_owned()));
    }
    Ok(rights)
}

pub fn write_castling(rights: Bitboard) -> String {
    let order = [
        ('K', Square::H1),
        ('Q', Square::A1),
        ('k', Square::H8),
        ('q', Square::A8),
    ];
    let out: String = order
        .iter()
        .filter(|(_, sq)| rights.contains(*sq))
        .map(|(c, _)| *c)
        .collect();
    if out.is_empty() {
        "-".to_owned()
    } else {
        out
    }
}

pub fn parse_en_passant(field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    match field.parse::<Square>() {
        Ok(sq) if sq.rank() == Rank::THIRD || sq.rank() == Rank::SIXTH => Ok(Some(sq)),
        _ => Err(FenError::EnPassant(field.to_owned())),
    }
}

/// The en passant field: the square, or `-`.
pub fn write_en_passant(ep_square: Option<Square>) -> String {
    ep_square.map_or_else(|| "-".to_owned(), |square| square.to_string())
}

fn parse_number(field: &str, max: u32) -> Option<u32> {
    if field.is_empty() || field.len() > 6 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse::<u32>().ok().filter(|n| *n <= max)
}

/// Reads the two counters that end a FEN, each optional: the half-move
/// clock (default 0) and the full-move number (default 1, never 0).
pub fn parse_move_counters(
    halfmove: Option<&str>,
    fullmove: Option<&str>,
) -> Result<(u32, u32), FenError> {
    let halfmoves = match halfmove {
        Some(f) => parse_number(f, 9999).ok_or_else(|| FenError::HalfmoveClock(f.to_owned()))?,
        None => 0,
    };
    let fullmoves = match fullmove {
        Some(f) => parse_number(f, 99999)
            .filter(|n| *n >= 1)
            .ok_or_else(|| FenError::FullmoveNumber(f.to_owned()))?,
        None => 1,
    };
    Ok((halfmoves, fullmoves))
}

/// A position string has some fields and `counts` of them: `Empty` for
/// none, `FieldCount` (with `expected`, the list of fields) otherwise.
pub fn check_field_count(
    fields: &[&str],
    counts: RangeInclusive<usize>,
    expected: &'static str,
) -> Result<(), FenError> {
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if !counts.contains(&fields.len()) {
        return Err(FenError::FieldCount {
            found: fields.len(),
            expected,
        });
    }
    Ok(())
}

/// Reads the FIDE fields: board, turn, castling, en passant and optionally
/// the two counters.
pub fn parse_fide_fields(fields: &[&str], allowed: &[Role]) -> Result<Setup, FenError> {
    check_field_count(
        fields,
        4..=6,
        "4 to 6 (board, turn, castling, en passant, halfmove clock, fullmove number)",
    )?;
    let board = parse_board(fields[0], allowed)?;
    parse_fields_around(board, [fields[1], fields[2], fields[3]], &fields[4..])
}

/// The setup of an already read `board` (of any kind) from the three FIDE
/// fields after it (turn, castling, en passant) and the `counters` fields
/// (none, the half-move clock, or both counters).
pub fn parse_fields_around<B>(
    board: B,
    fields: [&str; 3],
    counters: &[&str],
) -> Result<Setup<B>, FenError> {
    let (setup, ()) = parse_fields_around_with(board, fields, counters, |castling| {
        Ok((parse_castling(castling)?, ()))
    })?;
    Ok(setup)
}

/// As [`parse_fields_around`], for a dialect whose castling field says more
/// than the rooks' squares (Hostage's unmoved kings): `read_castling` reads
/// it into the rights and that extra. The fields are read in order, so the
/// first bad field is the one reported.
pub fn parse_fields_around_with<B, Extra>(
    board: B,
    [turn, castling, en_passant]: [&str; 3],
    counters: &[&str],
    read_castling: impl FnOnce(&str) -> Result<(Bitboard, Extra), FenError>,
) -> Result<(Setup<B>, Extra), FenError> {
    let turn = parse_turn(turn)?;
    let (castling_rights, extra) = read_castling(castling)?;
    let ep_square = parse_en_passant(en_passant)?;
    let (halfmoves, fullmoves) =
        parse_move_counters(counters.first().copied(), counters.get(1).copied())?;
    let setup = Setup {
        board,
        turn,
        castling_rights,
        ep_square,
        halfmoves,
        fullmoves,
    };
    Ok((setup, extra))
}

/// Writes the six FIDE fields.
pub fn write_fide_fields(setup: &Setup) -> String {
    format!(
        "{} {} {} {}",
        write_board(&setup.board),
        write_state_fields(setup),
        setup.halfmoves,
        setup.fullmoves
    )
}

/// Writes the three FIDE fields after the board: turn, castling rights, en
/// passant square.
pub fn write_state_fields<B>(setup: &Setup<B>) -> String {
    format!(
        "{} {} {}",
        setup.turn.char(),
        write_castling(setup.castling_rights),
        write_en_passant(setup.ep_square)
    )
}
