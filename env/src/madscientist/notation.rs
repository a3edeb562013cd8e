//! Reading and writing actions.
//!
//! Standard notation (written by [`MadScientist::standard_notation`]):
//! board moves in SAN with the piece named by its part set: `K` for the
//! Scientist, `Q R B N` for the FIDE part sets, otherwise bracketed part
//! letters (`[WC]e4`, `[FFCC]xd5`), pawns by square (`e4`, `exd5`, `e8=Q`),
//! castling `O-O` / `O-O-O`, disambiguation by file, then rank, then both.
//! There is no check, so no `+`/`#` suffix. Scientist powers and discards:
//! `C@e2` animate, `W+d1` attach, `F-f1` remove, `-B` discard (the same as
//! the long form). The reader takes the long form (`e2e4`, `e7e8q`) or the
//! standard one and matches it against the legal actions, so whatever it
//! returns is legal.

use crate::{MoveError, Square};

use super::action::{MadAction, MoveKind, PieceMove, Promotion};
use super::board::PieceKind;
use super::parts::{Part, Parts};
use super::MadScientist;

/// What a SAN-like move names as the moving piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Designator {
    Scientist,
    Pawn,
    Composite(Parts),
}

impl MadScientist {
    fn designator_at(&self, sq: Square) -> Option<Designator> {
        Some(match self.fide.board.piece_at(sq)?.kind {
            PieceKind::Scientist => Designator::Scientist,
            PieceKind::Pawn => Designator::Pawn,
            PieceKind::Composite(parts) => Designator::Composite(parts),
        })
    }

    fn is_capture(&self, m: &PieceMove) -> bool {
        m.kind == MoveKind::EnPassant
            || (m.kind != MoveKind::Castle
                && self.fide.board.by_color(!self.fide.turn).contains(m.to))
    }

    /// Writes the standard notation of a legal action.
    pub fn standard_notation(&self, action: &MadAction) -> String {
        let MadAction::Move(m) = action else {
            return action.to_string();
        };
        if m.kind == MoveKind::Castle {
            return if m.to.file() > m.from.file() {
                "O-O".to_owned()
            } else {
                "O-O-O".to_owned()
            };
        }
        let capture = self.is_capture(m);
        let mut out = String::with_capacity(12);
        match self.designator_at(m.from) {
            Some(Designator::Pawn) | None => {
                if capture {
                    out.push(m.from.file().char());
                }
            }
            Some(Designator::Scientist) => out.push('K'),
            Some(Designator::Composite(parts)) => {
                out.push_str(&parts.designator());
                let rivals: crate::Bitboard = self
                    .legal_actions_vec()
                    .into_iter()
                    .filter_map(|a| match a {
                        MadAction::Move(o)
                            if o.to == m.to
                                && o.from != m.from
                                && self.designator_at(o.from)
                                    == Some(Designator::Composite(parts)) =>
                        {
                            Some(o.from)
                        }
                        _ => None,
                    })
                    .collect();
                crate::san::push_disambiguation(&mut out, m.from, rivals);
            }
        }
        if capture {
            out.push('x');
        }
        out.push_str(&m.to.to_string());
        if let MoveKind::Promotion(promotion) = m.kind {
            out.push('=');
            out.push(promotion.char());
        }
        out
    }

    /// Reads an action in long or standard notation; it must be legal here.
    pub fn parse_action_text(&self, text: &str) -> Result<MadAction, MoveError> {
        let trimmed = text.trim();
        let syntax = |reason: &'static str| MoveError::Syntax {
            text: text.to_owned(),
            reason,
        };
        let illegal = || MoveError::Illegal {
            text: text.to_owned(),
            fen: crate::Position::fen(self),
        };
        if trimmed.is_empty() {
            return Err(syntax("empty action"));
        }
        if let Some(power) = parse_power(trimmed) {
            let action = power.map_err(syntax)?;
            return if self.legal_actions_vec().contains(&action) {
                Ok(action)
            } else {
                Err(illegal())
            };
        }
        let legal = self.legal_actions_vec();
        let moves = legal.iter().filter_map(|a| match a {
            MadAction::Move(m) => Some(*m),
            _ => None,
        });
        if let Some(king_side) = match trimmed {
            "O-O" | "0-0" => Some(true),
            "O-O-O" | "0-0-0" => Some(false),
            _ => None,
        } {
            return moves
                .filter(|m| m.kind == MoveKind::Castle)
                .find(|m| (m.to.file() > m.from.file()) == king_side)
                .map(MadAction::Move)
                .ok_or_else(illegal);
        }
        if let Some(uci) = parse_uci(trimmed) {
            let (from, to, promotion) = uci;
            return moves
                .clone()
                .find(|m| {
                    m.from == from
                        && m.to == to
                        && match m.kind {
                            MoveKind::Promotion(p) => promotion == Some(p),
                            _ => promotion.is_none(),
                        }
                })
                .map(MadAction::Move)
                .ok_or_else(illegal);
        }
        let san = parse_san(trimmed).map_err(syntax)?;
        let mut matching = moves.filter(|m| {
            m.kind != MoveKind::Castle
                && m.to == san.to
                && self.designator_at(m.from) == Some(san.designator)
                && san.from_file.is_none_or(|f| m.from.file().index() == f)
                && san.from_rank.is_none_or(|r| m.from.rank().index() == r)
                && (!san.capture || self.is_capture(m))
                && match m.kind {
                    MoveKind::Promotion(p) => san.promotion == Some(p),
                    _ => san.promotion.is_none(),
                }
        });
        let first = matching.next();
        let others = matching.count();
        match (first, others) {
            (Some(m), 0) => Ok(MadAction::Move(m)),
            (None, _) => Err(illegal()),
            (Some(_), n) => Err(MoveError::Ambiguous {
                text: text.to_owned(),
                fen: crate::Position::fen(self),
                count: n + 1,
            }),
        }
    }
}

/// Reads a Scientist power or discard (`C@e2`, `W+d1`, `F-f1`, `-B`).
/// `None` when the text has none of these shapes.
fn parse_power(text: &str) -> Option<Result<MadAction, &'static str>> {
    let chars: Vec<char> = text.chars().collect();
    let part_of = |c: char| Part::from_char(c.to_ascii_uppercase());
    if chars.len() == 2 && chars[0] == '-' {
        return Some(
            part_of(chars[1])
                .map(|part| MadAction::Discard { part })
                .ok_or("a discard is '-' and a part letter (W, F, C, B)"),
        );
    }
    if chars.len() != 4 || !matches!(chars[1], '@' | '+' | '-') {
        return None;
    }
    let Some(part) = part_of(chars[0]) else {
        return Some(Err(
            "a Scientist power starts with a part letter (W, F, C, B)",
        ));
    };
    let Ok(square) = text[2..].parse::<Square>() else {
        return Some(Err("a Scientist power ends with a square (a1 to h8)"));
    };
    Some(Ok(match chars[1] {
        '@' => MadAction::Animate { part, to: square },
        '+' => MadAction::Attach {
            part,
            target: square,
        },
        _ => MadAction::Remove { part, from: square },
    }))
}

/// Reads `e2e4` / `e7e8q`; `None` when the text is not of that shape.
fn parse_uci(text: &str) -> Option<(Square, Square, Option<Promotion>)> {
    if !(text.len() == 4 || text.len() == 5) || !text.is_ascii() {
        return None;
    }
    let from = text[0..2].parse().ok()?;
    let to = text[2..4].parse().ok()?;
    let promotion = match text.chars().nth(4) {
        Some(c) if c.is_ascii_lowercase() => Some(Promotion::from_char(c)?),
        Some(_) => return None,
        None => None,
    };
    Some((from, to, promotion))
}

struct SanMove {
    designator: Designator,
    from_file: Option<usize>,
    from_rank: Option<usize>,
    capture: bool,
    to: Square,
    promotion: Option<Promotion>,
}

fn parse_san(text: &str) -> Result<SanMove, &'static str> {
    if !text.is_ascii() {
        return Err("not ASCII");
    }
    let (designator, mut rest) = match text.as_bytes()[0] {
        b'K' => (Designator::Scientist, &text[1..]),
        b'Q' | b'R' | b'B' | b'N' => (
            Designator::Composite(
                Parts::from_fide_letter(text.as_bytes()[0] as char).expect("FIDE letter"),
            ),
            &text[1..],
        ),
        b'[' => {
            let end = text.find(']').ok_or("unclosed '[' in a piece designator")?;
            let mut counts = [0u8; 4];
            for c in text[1..end].chars() {
                let part = Part::from_char(c.to_ascii_uppercase())
                    .ok_or("a piece designator holds part letters W, F, C, B")?;
                counts[part.index()] += 1;
            }
            let parts = Parts::from_counts(counts)
                .filter(|p| !p.is_empty())
                .ok_or("a piece has one to two parts of each type")?;
            (Designator::Composite(parts), &text[end + 1..])
        }
        _ => (Designator::Pawn, text),
    };
    let mut promotion = None;
    if let Some((before, after)) = rest.split_once('=') {
        let mut letters = after.chars();
        promotion = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => Promotion::from_char(c),
            _ => None,
        };
        if promotion.is_none() {
            return Err("a promotion is '=' and one of Q, R, B, N");
        }
        rest = before;
    }
    if rest.len() < 2 {
        return Err("expected a destination square");
    }
    let to: Square = rest[rest.len() - 2..]
        .parse()
        .map_err(|_| "expected a destination square")?;
    let mut prefix = &rest[..rest.len() - 2];
    let capture = prefix.ends_with('x');
    if capture {
        prefix = &prefix[..prefix.len() - 1];
    }
    let (mut from_file, mut from_rank) = (None, None);
    for c in prefix.chars() {
        match c {
            'a'..='h' if from_file.is_none() && from_rank.is_none() => {
                from_file = Some(c as usize - 'a' as usize);
            }
            '1'..='8' if from_rank.is_none() => from_rank = Some(c as usize - '1' as usize),
            _ => return Err("unexpected characters before the destination square"),
        }
    }
    if designator == Designator::Pawn && (from_rank.is_some() || (capture && from_file.is_none())) {
        return Err("a pawn capture names the pawn's file only (exd5)");
    }
    Ok(SanMove {
        designator,
        from_file,
        from_rank,
        capture,
        to,
        promotion,
    })
}
