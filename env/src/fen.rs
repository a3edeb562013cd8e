//! FEN reading and writing, in pieces that variants reuse: the board field
//! with a variant's own set of piece letters, and the five FIDE fields.
//! Variants append their own fields (poison counters, prisons, ...) after
//! these and report their errors as [`FenError::VariantField`].

use crate::{Bitboard, Board, Color, FenError, File, Piece, Rank, Role, Setup, Square};

/// Reads the board field (`rnbqkbnr/pppppppp/8/...`), accepting only the
/// roles in `allowed`.
pub fn parse_board(field: &str, allowed: &[Role]) -> Result<Board, FenError> {
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
    let mut board = Board::empty();
    for (row_index, row) in rows.iter().enumerate() {
        let rank = Rank::new(7 - row_index as u32).expect("8 rows");
        let mut file = 0u32;
        for c in row.chars() {
            if let Some(skip) = c.to_digit(10) {
                if skip == 0 || skip > 8 {
                    return Err(err(format!(
                        "bad empty-square count '{c}' on rank {}",
                        rank.char()
                    )));
                }
                file += skip;
            } else {
                let piece = Piece::from_char(c)
                    .filter(|p| allowed.contains(&p.role))
                    .ok_or_else(|| {
                        err(format!(
                            "unknown piece letter '{c}' on rank {}",
                            rank.char()
                        ))
                    })?;
                let Some(f) = File::new(file) else {
                    return Err(err(format!("rank {} has more than 8 squares", rank.char())));
                };
                board.set_piece_at(Square::from_coords(f, rank), piece);
                file += 1;
            }
            if file > 8 {
                return Err(err(format!("rank {} has more than 8 squares", rank.char())));
            }
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

/// Writes the board field.
pub fn write_board(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in Rank::all().rev() {
        let mut empty = 0;
        for file in File::all() {
            match board.piece_at(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(piece.char());
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

fn parse_number(field: &str, max: u32) -> Option<u32> {
    if field.is_empty() || field.len() > 6 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse::<u32>().ok().filter(|n| *n <= max)
}

/// Reads the FIDE fields: board, turn, castling, en passant and optionally
/// the two counters.
pub fn parse_fide_fields(fields: &[&str], allowed: &[Role]) -> Result<Setup, FenError> {
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount {
            found: fields.len(),
            expected: "4 to 6 (board, turn, castling, en passant, halfmove clock, fullmove number)",
        });
    }
    let board = parse_board(fields[0], allowed)?;
    let turn = parse_turn(fields[1])?;
    let castling_rights = parse_castling(fields[2])?;
    let ep_square = parse_en_passant(fields[3])?;
    let halfmoves = match fields.get(4) {
        Some(f) => parse_number(f, 9999).ok_or_else(|| FenError::HalfmoveClock((*f).to_owned()))?,
        None => 0,
    };
    let fullmoves = match fields.get(5) {
        Some(f) => parse_number(f, 99999)
            .filter(|n| *n >= 1)
            .ok_or_else(|| FenError::FullmoveNumber((*f).to_owned()))?,
        None => 1,
    };
    Ok(Setup {
        board,
        turn,
        castling_rights,
        ep_square,
        halfmoves,
        fullmoves,
    })
}

/// Writes the six FIDE fields.
pub fn write_fide_fields(setup: &Setup) -> String {
    format!(
        "{} {} {} {} {} {}",
        write_board(&setup.board),
        setup.turn.char(),
        write_castling(setup.castling_rights),
        setup
            .ep_square
            .map_or_else(|| "-".to_owned(), |sq| sq.to_string()),
        setup.halfmoves,
        setup.fullmoves
    )
}
