//! Notation. The text's notation is per turn: `(T-Rh1)N:f2` is the
//! announcement of the rook that started on h1, then the knight capture on
//! f2 (captures written with `:` as in the text; `x` is read too). An
//! announcement alone is not a turn and is refused (T3). Each step also
//! has a long, UCI-style form: `T-h1`, `g8f2`, `S-c1,g2,h1`, `S-NBPPP`.
//! Standard notation for a selection is `(S-Bc1,Rh1,g2)` or `(S-NBPPP)`.

use arrayvec::ArrayVec;

use super::action::TraitorAction;
use super::rules::Commitment;
use super::selection::{start_piece, PieceId, RoleCounts, Selection};
use super::{Step, Traitor};
use crate::fide::san::{check_mark, san_matches, uci_matches, unique_match, write_san};
use crate::san::San;
use crate::{Bitboard, Game, Move, MoveError, Position, Role, Square};

/// The steps of one turn, at most an announcement and a move.
pub type TurnSteps = ArrayVec<TraitorAction, 2>;

fn syntax(text: &str, reason: &'static str) -> MoveError {
    MoveError::Syntax {
        text: text.to_owned(),
        reason,
    }
}

fn role_prefix(role: Role) -> String {
    if role == Role::Pawn {
        String::new()
    } else {
        role.upper_char().to_string()
    }
}

impl Traitor {
    fn illegal(&self, text: &str) -> MoveError {
        MoveError::Illegal {
            text: text.to_owned(),
            fen: self.fen(),
        }
    }

    /// Reads one step: a long form (`T-h1`, `S-...`, UCI) or a move in the
    /// text's notation (`N:f2`, `Nxf2`, `O-O`). A whole turn with an
    /// announcement is read by [`Traitor::parse_turn`].
    pub fn parse_step(&self, text: &str) -> Result<TraitorAction, MoveError> {
        let trimmed = text.trim();
        let action = if let Some(body) = trimmed
            .strip_prefix("(S-")
            .and_then(|b| b.strip_suffix(')'))
        {
            TraitorAction::Select(self.parse_selection(text, body)?)
        } else if let Some(body) = trimmed.strip_prefix("S-") {
            TraitorAction::Select(self.parse_selection(text, body)?)
        } else if let Some(body) = trimmed.strip_prefix("T-") {
            let id: Square = body.parse().map_err(|_| {
                syntax(
                    text,
                    "expected T- and a piece id (the square it started on), like T-h1",
                )
            })?;
            TraitorAction::Announce(id)
        } else if trimmed.starts_with("(T-") {
            return Err(match trimmed.split_once(')') {
                Some((_, "")) => syntax(text, "an announcement must be followed by a move in the same turn, like (T-Rh1)N:f2; the long form T-h1 plays the announcement step alone"),
                _ => syntax(text, "a whole turn (announcement and move): read it with parse_turn, or play its steps T-h1 then the move"),
            });
        } else {
            TraitorAction::Move(self.parse_move(text, trimmed)?)
        };
        if self.is_legal(&action) {
            Ok(action)
        } else {
            Err(self.illegal(text))
        }
    }

    /// Reads a whole turn: `(T-Rh1)N:f2`, `(T-Q)B:f6+`, `T-h1 g8f2`, or a
    /// move alone. The steps are checked in order on a copy; nothing is
    /// played. An announcement without a move is an error (T3).
    pub fn parse_turn(&self, text: &str) -> Result<TurnSteps, MoveError> {
        let trimmed = text.trim();
        let mut steps = TurnSteps::new();
        let (announcement, rest) = if let Some(body) = trimmed.strip_prefix("(T-") {
            let (inner, rest) = body
                .split_once(')')
                .ok_or_else(|| syntax(text, "unclosed announcement '(T-'"))?;
            (Some(self.resolve_announcement(text, inner)?), rest.trim())
        } else if let Some(body) = trimmed.strip_prefix("T-") {
            let (id, rest) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
            let id: Square = id
                .parse()
                .map_err(|_| syntax(text, "expected T- and a piece id, like T-h1"))?;
            (Some(id), rest.trim())
        } else {
            (None, trimmed)
        };
        let mut position = self.clone();
        if let Some(id) = announcement {
            let action = TraitorAction::Announce(id);
            if !position.is_legal(&action) {
                return Err(self.illegal(text));
            }
            position.play_unchecked(&action);
            steps.push(action);
            if rest.is_empty() {
                return Err(syntax(
                    text,
                    "an announcement must be followed by a move in the same turn (T3)",
                ));
            }
        }
        let action = position.parse_step(rest).map_err(|e| match e {
            MoveError::Illegal { .. } => self.illegal(text),
            other => other,
        })?;
        if !matches!(action, TraitorAction::Move(_)) {
            return Err(syntax(
                text,
                "a turn is an optional announcement then one move",
            ));
        }
        steps.push(action);
        Ok(steps)
    }

    /// `(T-Rh1)`, `(T-g2)`, or the text's shorthand `(T-Q)` when exactly one
    /// legal announcement fits.
    fn resolve_announcement(&self, text: &str, inner: &str) -> Result<PieceId, MoveError> {
        let (role, square) = match inner.chars().next() {
            Some(c) if c.is_ascii_uppercase() => {
                let role =
                    Role::from_char(c).ok_or_else(|| syntax(text, "unknown piece letter"))?;
                (Some(role), &inner[1..])
            }
            _ => (None, inner),
        };
        let id = if square.is_empty() {
            None
        } else {
            Some(
                square
                    .parse::<Square>()
                    .map_err(|_| syntax(text, "bad piece id in the announcement"))?,
            )
        };
        if role.is_none() && id.is_none() {
            return Err(syntax(text, "empty announcement"));
        }
        let mut found: ArrayVec<PieceId, 32> = ArrayVec::new();
        self.visit_announcements(&mut |candidate| {
            let sq = self.square_of(candidate);
            let current = sq.and_then(|sq| self.fide.board.role_at(sq));
            let start = start_piece(candidate).map(|(_, r)| r);
            let role_fits =
                role.is_none_or(|r| current == Some(r) || (id.is_some() && start == Some(r)));
            if role_fits && id.is_none_or(|id| id == candidate) {
                found.push(candidate);
            }
        });
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(self.illegal(text)),
            many => Err(MoveError::Ambiguous {
                text: text.to_owned(),
                fen: self.fen(),
                count: many.len(),
            }),
        }
    }

    fn parse_selection(&self, text: &str, body: &str) -> Result<Selection, MoveError> {
        match self.rules.commitment {
            Commitment::Standard => {
                let mut ids = Bitboard::EMPTY;
                for item in body.split(',') {
                    // Accept `Rh1` as well as `h1`.
                    let square = item.trim_start_matches(|c: char| c.is_ascii_uppercase());
                    let id: Square = square
                        .parse()
                        .map_err(|_| syntax(text, "expected piece ids like c1,g2,h1"))?;
                    ids.add(id);
                }
                Ok(Selection::Pieces(ids))
            }
            Commitment::Simplified => RoleCounts::from_letters(body)
                .map(Selection::Types)
                .ok_or_else(|| syntax(text, "expected role letters like NBPPP")),
            Commitment::Impromptu => Err(syntax(text, "Impromptu has no selection")),
        }
    }

    fn parse_move(&self, text: &str, trimmed: &str) -> Result<Move, MoveError> {
        let moves = self.legal_moves();
        if let Some(found) = parse_uci(trimmed, &moves) {
            return found.ok_or_else(|| self.illegal(text));
        }
        let san = San::parse(trimmed).map_err(|reason| syntax(text, reason))?;
        unique_match(
            moves.iter().copied().filter(|m| san_matches(&san, m)),
            text,
            || self.fen(),
        )
    }

    /// The standard notation of one step; for an announcement, the prefix
    /// `(T-Rh1)` that [`Traitor::turn_notation`] joins to its move.
    pub fn step_notation(&self, action: &TraitorAction) -> String {
        match *action {
            TraitorAction::Select(Selection::Pieces(ids)) => {
                let names: Vec<String> = ids
                    .map(|id| {
                        let role = start_piece(id).map_or(Role::Pawn, |(_, r)| r);
                        format!("{}{id}", role_prefix(role))
                    })
                    .collect();
                format!("(S-{})", names.join(","))
            }
            TraitorAction::Select(Selection::Types(counts)) => format!("(S-{})", counts.letters()),
            TraitorAction::Announce(id) => {
                let role = self
                    .square_of(id)
                    .and_then(|sq| self.fide.board.role_at(sq))
                    .unwrap_or(Role::Pawn);
                format!("(T-{}{id})", role_prefix(role))
            }
            TraitorAction::Move(m) => self.move_notation(&m),
        }
    }

    /// A whole turn: `(T-Rh1)N:f2` or just the move, from the position at
    /// the start of the turn. `None` when the steps are not legal in order.
    pub fn turn_notation(&self, steps: &[TraitorAction]) -> Option<String> {
        let mut position = self.clone();
        let mut out = String::new();
        for step in steps {
            if !position.is_legal(step) {
                return None;
            }
            out.push_str(&position.step_notation(step));
            position.play_unchecked(step);
        }
        Some(out)
    }

    /// SAN with `:` for captures, and `+` / `#` after the move.
    fn move_notation(&self, m: &Move) -> String {
        let mut out = write_san(m, || self.legal_moves(), ':', "=");
        if self.step != Step::Select {
            let mut after = self.clone();
            after.play_move(m);
            out.extend(check_mark(&after, after.is_check()));
        }
        out
    }
}

/// UCI: `from to [promotion]`; castling as the King's destination or as
/// King takes rook. `None` when the text is not UCI-shaped.
fn parse_uci(text: &str, moves: &[Move]) -> Option<Option<Move>> {
    if !(text.len() == 4 || text.len() == 5) {
        return None;
    }
    let from: Square = text.get(0..2)?.parse().ok()?;
    let to: Square = text.get(2..4)?.parse().ok()?;
    let promotion = match text.as_bytes().get(4) {
        Some(&c) => Some(Role::from_char(c as char).filter(|r| Role::FIDE_PROMOTIONS.contains(r))?),
        None => None,
    };
    Some(
        moves
            .iter()
            .copied()
            .find(|m| uci_matches(m, from, to, promotion)),
    )
}

/// Reads and plays a whole turn on a game (both steps, or none on error);
/// returns it in (long, standard) notation: (`T-h1 g8f2`, `(T-Rh1)N:f2`).
pub fn play_turn(game: &mut Game<Traitor>, text: &str) -> Result<(String, String), MoveError> {
    if let Some(outcome) = game.outcome() {
        return Err(MoveError::GameOver(outcome.to_string()));
    }
    let position = game.position();
    // A single step in its long form (`T-d8`, `e2e4`), as `legal_moves()`
    // lists them, is always accepted: environments step one action at a
    // time, and `turn()` stays with the announcer until the move.
    let mut legal = Vec::new();
    position.legal_actions(&mut legal);
    let single = legal.iter().find(|a| a.to_string() == text.trim()).copied();
    let steps = if let Some(action) = single {
        let mut one = TurnSteps::new();
        one.push(action);
        one
    } else if position.step() == Step::Open {
        position.parse_turn(text)?
    } else {
        let mut one = TurnSteps::new();
        one.push(position.parse_step(text)?);
        one
    };
    let standard = position
        .turn_notation(&steps)
        .ok_or_else(|| position.illegal(text))?;
    let long: Vec<String> = steps.iter().map(ToString::to_string).collect();
    for step in &steps {
        game.play_unchecked(step);
    }
    Ok((long.join(" "), standard))
}
