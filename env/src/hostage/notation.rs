//! Reading and writing Hostage Chess actions.
//!
//! Standard notation (H8 and the text): SAN for board moves with the
//! released piece on promotion (`e8=*Q`; `e8=Q` is read too), `*d7` for a
//! pawn drop, `N*f3` for a piece drop, `(N-B)B*f7` for an exchange (given -
//! rescued, then the drop; `(P-P)*d4` for a pawn), with `+` and `#`.
//! Long notation (the `Display` of [`HostageAction`]): UCI moves, `P@d7`,
//! `N@f3`, `N-B@f7`. Whatever is read is matched against the legal actions,
//! so a read action is legal.

use crate::fide::san::{san_matches, uci_matches, unique_match, with_check_mark, write_san};
use crate::san::San;
use crate::{Move, MoveError, Position, Role, Square};

use super::reserve::reserve_index;
use super::{Hostage, HostageAction};

impl Hostage {
    /// Reads any accepted notation; the action must be legal here.
    pub fn parse_action_text(&self, text: &str) -> Result<HostageAction, MoveError> {
        let syntax = |reason: &'static str| MoveError::Syntax {
            text: text.to_owned(),
            reason,
        };
        let body = strip_suffixes(text.trim());
        if body.is_empty() {
            return Err(syntax("empty move"));
        }
        let legal = self.legal_action_list();
        let wanted = if body.contains('@') {
            parse_long_drop(body).map_err(syntax)?
        } else if body.contains('*') && !body.contains("=*") {
            parse_standard_drop(body).map_err(syntax)?
        } else {
            return self.parse_board_move(text, body, &legal);
        };
        if legal.contains(&wanted) {
            Ok(wanted)
        } else {
            Err(MoveError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            })
        }
    }

    /// UCI (`e2e4`, `e7e8q`, `e1g1` or `e1h1`) or SAN (`Nxd5`, `e8=*Q`).
    fn parse_board_move(
        &self,
        text: &str,
        body: &str,
        legal: &[HostageAction],
    ) -> Result<HostageAction, MoveError> {
        let illegal = || MoveError::Illegal {
            text: text.to_owned(),
            fen: self.fen(),
        };
        if let Some(uci) = parse_uci(body) {
            let (from, to, promotion) = uci;
            return legal
                .iter()
                .copied()
                .find(
                    |a| matches!(a, HostageAction::Move(m) if uci_matches(m, from, to, promotion)),
                )
                .ok_or_else(illegal);
        }
        let san = San::parse(&body.replace("=*", "=")).map_err(|reason| MoveError::Syntax {
            text: text.to_owned(),
            reason,
        })?;
        unique_match(
            legal
                .iter()
                .copied()
                .filter(|a| matches!(a, HostageAction::Move(m) if san_matches(&san, m))),
            text,
            || self.fen(),
        )
    }

    /// Standard notation with the check (`+`) or mate (`#`) suffix.
    pub fn standard_notation(&self, action: &HostageAction) -> String {
        let text = self.notation_without_suffix(action);
        with_check_mark(self, action, text, Hostage::is_check)
    }

    /// Standard notation without the check suffix.
    pub fn notation_without_suffix(&self, action: &HostageAction) -> String {
        match *action {
            HostageAction::Move(m) => self.san_without_suffix(&m),
            HostageAction::Drop { role, to } => format!("{}*{to}", piece_prefix(role)),
            HostageAction::Exchange { given, rescued, to } => format!(
                "({}-{}){}*{to}",
                given.upper_char(),
                rescued.upper_char(),
                piece_prefix(rescued)
            ),
        }
    }

    /// SAN of a board move; a promotion names the released piece `=*Q`.
    fn san_without_suffix(&self, m: &Move) -> String {
        write_san(
            m,
            || {
                self.legal_action_list()
                    .into_iter()
                    .filter_map(|a| match a {
                        HostageAction::Move(o) => Some(o),
                        _ => None,
                    })
            },
            'x',
            "=*",
        )
    }
}

/// The letter written before `*`: none for a pawn (`*d7`).
fn piece_prefix(role: Role) -> String {
    if role == Role::Pawn {
        String::new()
    } else {
        role.upper_char().to_string()
    }
}

fn strip_suffixes(mut body: &str) -> &str {
    while let Some(rest) = body
        .strip_suffix('+')
        .or_else(|| body.strip_suffix('#'))
        .or_else(|| body.strip_suffix('!'))
        .or_else(|| body.strip_suffix('?'))
    {
        body = rest;
    }
    body
}

/// A role that may be dropped or exchanged (never the King).
fn reserve_role(c: char) -> Result<Role, &'static str> {
    Role::from_char(c)
        .filter(|r| reserve_index(*r).is_some())
        .ok_or("expected one of the letters P, N, B, R, Q")
}

fn parse_square(text: &str) -> Result<Square, &'static str> {
    text.parse().map_err(|_| "bad destination square")
}

/// `P@d7`, `N@f3` (drops) or `N-B@f7` (exchanges).
fn parse_long_drop(body: &str) -> Result<HostageAction, &'static str> {
    let (roles, square) = body.split_once('@').ok_or("expected '@'")?;
    let to = parse_square(square)?;
    let letters: Vec<char> = roles.chars().collect();
    match letters.as_slice() {
        [role] => Ok(HostageAction::Drop {
            role: reserve_role(*role)?,
            to,
        }),
        [given, '-', rescued] => Ok(HostageAction::Exchange {
            given: reserve_role(*given)?,
            rescued: reserve_role(*rescued)?,
            to,
        }),
        _ => Err("expected a drop 'N@f3' or an exchange 'N-B@f7'"),
    }
}

/// `*d7`, `N*f3`, `(N-B)B*f7`, `(P-P)*d4`.
fn parse_standard_drop(body: &str) -> Result<HostageAction, &'static str> {
    let (head, square) = body.split_once('*').ok_or("expected '*'")?;
    let to = parse_square(square)?;
    let (exchange, dropped) = match head.strip_prefix('(') {
        Some(rest) => {
            let (pair, dropped) = rest
                .split_once(')')
                .ok_or("expected ')' after the exchange")?;
            let letters: Vec<char> = pair.chars().collect();
            let [given, '-', rescued] = letters.as_slice() else {
                return Err("expected an exchange '(N-B)' of two piece letters");
            };
            (
                Some((reserve_role(*given)?, reserve_role(*rescued)?)),
                dropped,
            )
        }
        None => (None, head),
    };
    let dropped = match dropped.chars().collect::<Vec<char>>().as_slice() {
        [] => None,
        [c] => Some(reserve_role(*c)?),
        _ => return Err("expected one piece letter before '*'"),
    };
    match exchange {
        Some((given, rescued)) => {
            if dropped.is_some_and(|d| d != rescued) {
                return Err("the dropped piece must be the rescued one");
            }
            Ok(HostageAction::Exchange { given, rescued, to })
        }
        None => Ok(HostageAction::Drop {
            role: dropped.unwrap_or(Role::Pawn),
            to,
        }),
    }
}

/// (from, to, promotion) of a UCI move, `None` when not UCI-shaped.
fn parse_uci(body: &str) -> Option<(Square, Square, Option<Role>)> {
    if !(body.len() == 4 || body.len() == 5) || !body.is_ascii() {
        return None;
    }
    let from: Square = body[0..2].parse().ok()?;
    let to: Square = body[2..4].parse().ok()?;
    let promotion = match body.as_bytes().get(4) {
        Some(&c) => Some(
            Role::from_char(c as char)
                .filter(|r| super::PROMOTION_ROLES.contains(r) && c.is_ascii_lowercase())?,
        ),
        None => None,
    };
    Some((from, to, promotion))
}
