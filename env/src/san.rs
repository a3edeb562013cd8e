//! The syntax of Standard Algebraic Notation, without the rules: `Nbd7`,
//! `exd5`, `e8=Q+`, `R1a3`, `O-O-O#`. Positions match the parsed form
//! against their legal moves. Variants extend SAN with their own prefixes and
//! suffixes and reuse this parser for the move part.

use crate::{Bitboard, File, Rank, Role, Square};

/// Where a SAN move goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SanTarget {
    Square(Square),
    Castle { king_side: bool },
}

/// A parsed SAN move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct San {
    pub role: Role,
    pub from_file: Option<File>,
    pub from_rank: Option<Rank>,
    pub capture: bool,
    pub target: SanTarget,
    pub promotion: Option<Role>,
    /// `+` given; the checker is advisory for chess.
    pub check: bool,
    /// `#` given.
    pub mate: bool,
}

impl San {
    /// Parses SAN with any number of trailing `+`, `#`, `!`, `?`. Roles are
    /// the FIDE ones; variants with other pieces pass `extra_roles`.
    pub fn parse(text: &str) -> Result<San, &'static str> {
        San::parse_with_roles(text, &[])
    }

    /// As [`San::parse`], also accepting the piece letters of `extra_roles`.
    pub fn parse_with_roles(text: &str, extra_roles: &[Role]) -> Result<San, &'static str> {
        let mut body = text.trim();
        let (mut check, mut mate) = (false, false);
        while let Some(last) = body.chars().last() {
            match last {
                '+' => check = true,
                '#' => mate = true,
                '!' | '?' => {}
                _ => break,
            }
            body = &body[..body.len() - 1];
        }
        if body.is_empty() {
            return Err("empty move");
        }
        let castle = |king_side| San {
            role: Role::King,
            from_file: None,
            from_rank: None,
            capture: false,
            target: SanTarget::Castle { king_side },
            promotion: None,
            check,
            mate,
        };
        match body {
            "O-O" | "0-0" => return Ok(castle(true)),
            "O-O-O" | "0-0-0" => return Ok(castle(false)),
            _ => {}
        }
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        let role = match chars[0] {
            c if c.is_ascii_uppercase() => {
                let role = Role::from_char(c)
                    .filter(|r| {
                        (*r != Role::Pawn && Role::FIDE.contains(r)) || extra_roles.contains(r)
                    })
                    .ok_or("unknown piece letter")?;
                i += 1;
                role
            }
            _ => Role::Pawn,
        };
        // Promotion suffix: `=Q` or a bare trailing piece letter.
        let mut end = chars.len();
        let mut promotion = None;
        if end >= 2 && chars[end - 1].is_ascii_uppercase() {
            let promoted = Role::from_char(chars[end - 1]).ok_or("unknown promotion piece")?;
            promotion = Some(promoted);
            end -= 1;
            if chars[end - 1] == '=' {
                end -= 1;
            }
        }
        let core: Vec<char> = chars[i..end].to_vec();
        if core.len() < 2 {
            return Err("missing destination square");
        }
        let to_text: String = core[core.len() - 2..].iter().collect();
        let to: Square = to_text.parse().map_err(|_| "bad destination square")?;
        let mut prefix = &core[..core.len() - 2];
        let mut capture = false;
        if let Some(('x' | ':', rest)) = prefix.split_last().map(|(c, r)| (*c, r)) {
            capture = true;
            prefix = rest;
        }
        let (mut from_file, mut from_rank) = (None, None);
        for &c in prefix {
            if let (Some(file), None, None) = (File::from_char(c), from_file, from_rank) {
                from_file = Some(file);
            } else if let (Some(rank), None) = (Rank::from_char(c), from_rank) {
                from_rank = Some(rank);
            } else if c.is_ascii_digit() {
                // `e9e4`: a square off the board, not a SAN ambiguity.
                return Err("square off the board (ranks run 1 to 8)");
            } else {
                return Err("bad disambiguation");
            }
        }
        if role == Role::Pawn && from_rank.is_some() {
            return Err("bad pawn move");
        }
        if promotion.is_some() && role != Role::Pawn {
            return Err("only pawns promote");
        }
        Ok(San {
            role,
            from_file,
            from_rank,
            capture,
            target: SanTarget::Square(to),
            promotion,
            check,
            mate,
        })
    }
}

/// Appends the SAN disambiguation of a piece on `from` among `rivals`, the
/// other pieces of the same kind that could go to the same square: nothing
/// when there are none, else the file if it is unique, else the rank if it
/// is unique, else both. Shared by every variant's SAN-style writer.
pub fn push_disambiguation(out: &mut String, from: Square, rivals: Bitboard) {
    let rivals = rivals.without(from);
    if rivals.is_empty() {
        return;
    }
    if !rivals.intersects(Bitboard::from_file(from.file())) {
        out.push(from.file().char());
    } else if !rivals.intersects(Bitboard::from_rank(from.rank())) {
        out.push(from.rank().char());
    } else {
        out.push_str(&from.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disambiguation_prefers_file_then_rank_then_square() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let write = |from: &str, rivals: &[&str]| {
            let mut out = String::new();
            push_disambiguation(&mut out, sq(from), rivals.iter().map(|r| sq(r)).collect());
            out
        };
        assert_eq!(write("b1", &[]), "");
        assert_eq!(write("b1", &["f3"]), "b");
        assert_eq!(write("a1", &["a5"]), "1");
        assert_eq!(write("h4", &["e4", "h1"]), "h4");
    }
}
