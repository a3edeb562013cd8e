//! The text's notation (P13) and the long form.
//!
//! Standard notation is SAN with the Poison letters (H, D, G; promotion
//! `=G`), then the check mark, then a bracket suffix listing what the
//! action did to the poison, items in square order (a1 first), `;`
//! between them:
//!
//! * `f5,5`: the piece on f5 was poisoned by this action (counter 5);
//! * `g5,4`: the countdown of the piece on g5 went down to 4;
//! * `g5,C`: the piece on g5 was cured;
//! * `xb6`: the piece on b6 died of poison.
//!
//! A poisoning is `xH` and the Harpy's square (`xHe5#[f5,5]`); a cure is
//! `D` and the Doctor's square (`Dg6[g5,C]`). Writers always add the suffix
//! (when the action changed any poison). Readers accept an action with or
//! without it, and read a suffix as claims about the action, each of which
//! must be true, in any order: a player may list fewer items than the
//! writer (`xHb6[b5,5]` when the same action also kills a piece elsewhere)
//! or more (`Kf6[f2,5]`: any poisoned piece's counter after the action,
//! either colour's, even one the action did not change). Only a false item
//! is refused, since a suffix that is true names the action as well as the
//! writer's would (and picks among bare poisonings that are ambiguous).
//! Check marks and `!`/`?` are read and ignored, as in chess.

use std::fmt;

use crate::fide::san::{check_mark, san_matches, uci_matches, write_san};
use crate::san::{San, SanTarget};
use crate::{Move, MoveError, Position, Role, Square};

use super::action::{CURE_MARK, POISON_MARK};
use super::{PoisonAction, PoisonChess, POISON_COUNTDOWN, PROMOTIONS};

/// One item of the bracket suffix.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SuffixItem {
    /// The piece on the square is poisoned with this counter after the
    /// action (5 for a piece this action poisoned).
    Counter { square: Square, counter: u8 },
    /// The piece on the square was cured.
    Cured(Square),
    /// The piece on the square died of poison.
    Died(Square),
}

impl SuffixItem {
    /// The square the item speaks of.
    pub fn square(self) -> Square {
        match self {
            SuffixItem::Counter { square, .. }
            | SuffixItem::Cured(square)
            | SuffixItem::Died(square) => square,
        }
    }

    /// Reads `f5,5`, `g5,C` or `xb6`.
    pub fn parse(text: &str) -> Result<SuffixItem, &'static str> {
        if let Some(square) = text.strip_prefix('x') {
            return square
                .parse()
                .map(SuffixItem::Died)
                .map_err(|_| "bad square after 'x' in the suffix");
        }
        let (square, what) = text
            .split_once(',')
            .ok_or("suffix item is not <square>,<counter>, <square>,C or x<square>")?;
        let square: Square = square.parse().map_err(|_| "bad square in the suffix")?;
        match what {
            "C" => Ok(SuffixItem::Cured(square)),
            _ => match what.parse::<u8>() {
                Ok(counter) if (1..=POISON_COUNTDOWN).contains(&counter) && what.len() == 1 => {
                    Ok(SuffixItem::Counter { square, counter })
                }
                _ => Err("suffix counter is not 1 to 5 or C"),
            },
        }
    }

    /// Whether the item is true of `action`, played in `before`, with
    /// `after` the position after it: a counter is the counter of the
    /// piece on that square after the action (either colour's, changed or
    /// not); a cure is this action's cure; a death is a piece poisoned by
    /// the mover that the action's countdown removed (a poisoned piece
    /// captured by the move did not die of poison).
    fn holds(self, before: &PoisonChess, action: &PoisonAction, after: &PoisonChess) -> bool {
        match self {
            SuffixItem::Counter { square, counter } => after.counter(square) == Some(counter),
            SuffixItem::Cured(square) => {
                matches!(*action, PoisonAction::Cure { target, .. } if target == square)
            }
            SuffixItem::Died(square) => {
                before.poisoned(!before.turn()).contains(square)
                    && action.captured_square() != Some(square)
                    && after.counter(square).is_none()
            }
        }
    }
}

impl fmt::Display for SuffixItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuffixItem::Counter { square, counter } => write!(f, "{square},{counter}"),
            SuffixItem::Cured(square) => write!(f, "{square},C"),
            SuffixItem::Died(square) => write!(f, "x{square}"),
        }
    }
}

/// Writes items as `[a;b;...]`, nothing when there are none.
fn write_suffix(items: &[SuffixItem]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let inner: Vec<String> = items.iter().map(ToString::to_string).collect();
    format!("[{}]", inner.join(";"))
}

impl PoisonChess {
    /// What `action` does to the poison (the bracket suffix), in square
    /// order; `after` is the position after it.
    pub fn suffix_items(&self, action: &PoisonAction, after: &PoisonChess) -> Vec<SuffixItem> {
        let them = !self.fide.turn;
        let captured = action.captured_square();
        let mut squares = self.poisoned(them);
        match *action {
            PoisonAction::Poison { target, .. } | PoisonAction::Cure { target, .. } => {
                squares.add(target)
            }
            PoisonAction::Move(_) => {}
        }
        let mut items = Vec::new();
        for square in squares {
            let item = match *action {
                PoisonAction::Cure { target, .. } if target == square => SuffixItem::Cured(square),
                _ if Some(square) == captured => continue,
                _ => match after.counter(square) {
                    Some(counter) => SuffixItem::Counter { square, counter },
                    None => SuffixItem::Died(square),
                },
            };
            items.push(item);
        }
        items
    }

    /// The standard notation of a legal action, suffix included.
    pub fn write_notation(&self, action: &PoisonAction) -> String {
        let mut out = match action {
            PoisonAction::Move(m) => self.san_without_suffix(m),
            PoisonAction::Poison { harpy, .. } => format!("xH{harpy}"),
            PoisonAction::Cure { doctor, .. } => format!("D{doctor}"),
        };
        let mut after = self.clone();
        after.play_action_unchecked(action);
        out.extend(check_mark(&after, after.is_check()));
        out.push_str(&write_suffix(&self.suffix_items(action, &after)));
        out
    }

    /// SAN of a board move without check mark or suffix; disambiguated by
    /// file, then rank, then both, among legal moves of the same role to the
    /// same square.
    fn san_without_suffix(&self, m: &Move) -> String {
        write_san(
            m,
            || {
                let mut legal = Vec::new();
                self.legal_actions(&mut legal);
                legal.into_iter().filter_map(|a| a.as_move().copied())
            },
            'x',
            "=",
        )
    }

    /// Reads the long form or the standard notation; the action must be
    /// legal here, and every item of a bracket suffix, when given, must be
    /// true of it ([`SuffixItem::holds`]); the items may be fewer or more
    /// than the writer's.
    pub fn parse_notation(&self, text: &str) -> Result<PoisonAction, MoveError> {
        let trimmed = text.trim();
        if let Some(found) = self.parse_long(trimmed) {
            return found;
        }
        let syntax = |reason| MoveError::Syntax {
            text: text.to_owned(),
            reason,
        };
        let (body, suffix) = match trimmed.strip_suffix(']') {
            Some(open) => {
                let (body, inner) = open.rsplit_once('[').ok_or(syntax("']' without '['"))?;
                let items = inner
                    .split(';')
                    .map(SuffixItem::parse)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(syntax)?;
                (body, Some(items))
            }
            None => (trimmed, None),
        };
        let core = body.trim_end_matches(['+', '#', '!', '?']);
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        let mut candidates: Vec<PoisonAction> = if let Some(square) = core.strip_prefix("xH") {
            let harpy: Square = square
                .parse()
                .map_err(|_| syntax("a poisoning is xH and the Harpy's square"))?;
            legal
                .into_iter()
                .filter(|a| matches!(a, PoisonAction::Poison { harpy: h, .. } if *h == harpy))
                .collect()
        } else {
            let san = San::parse_with_roles(core, &[Role::Harpy, Role::Doctor, Role::Guard])
                .map_err(syntax)?;
            legal
                .into_iter()
                .filter(|a| match a {
                    PoisonAction::Move(m) => san_matches(&san, m),
                    // `Dg6` also names the cure by the Doctor on g6.
                    PoisonAction::Cure { doctor, .. } => {
                        san.role == Role::Doctor
                            && san.target == SanTarget::Square(*doctor)
                            && !san.capture
                            && san.from_file.is_none()
                            && san.from_rank.is_none()
                    }
                    PoisonAction::Poison { .. } => false,
                })
                .collect()
        };
        if candidates.is_empty() {
            return Err(MoveError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            });
        }
        if let Some(items) = suffix {
            let false_item = |action: &PoisonAction| {
                let mut after = self.clone();
                after.play_action_unchecked(action);
                items
                    .iter()
                    .copied()
                    .find(|item| !item.holds(self, action, &after))
            };
            let mut fitting = Vec::new();
            let mut first_refused = None;
            for action in &candidates {
                match false_item(action) {
                    None => fitting.push(*action),
                    Some(item) => {
                        first_refused.get_or_insert((*action, item));
                    }
                }
            }
            if let (true, Some((action, item))) = (fitting.is_empty(), first_refused) {
                let mut after = self.clone();
                after.play_action_unchecked(&action);
                let expected = write_suffix(&self.suffix_items(&action, &after));
                return Err(MoveError::SuffixMismatch {
                    text: text.to_owned(),
                    item: item.to_string(),
                    expected: if expected.is_empty() {
                        "no suffix".to_owned()
                    } else {
                        expected
                    },
                });
            }
            candidates = fitting;
        }
        match candidates.as_slice() {
            [action] => Ok(*action),
            _ => Err(MoveError::Ambiguous {
                text: text.to_owned(),
                fen: self.fen(),
                count: candidates.len(),
            }),
        }
    }

    /// Reads the long form: UCI for moves (`e2e4`, `e7e8g`, castling as
    /// `e1g1` or `e1h1`), `e5*f5` for a poisoning, `g6~g5` for a cure.
    /// `None` when the text does not have that shape.
    fn parse_long(&self, text: &str) -> Option<Result<PoisonAction, MoveError>> {
        let chars: Vec<char> = text.chars().collect();
        let illegal = || MoveError::Illegal {
            text: text.to_owned(),
            fen: self.fen(),
        };
        let square = |range: std::ops::Range<usize>| -> Option<Square> {
            chars.get(range)?.iter().collect::<String>().parse().ok()
        };
        let mut legal = Vec::new();
        if chars.len() == 5 && (chars[2] == POISON_MARK || chars[2] == CURE_MARK) {
            let (a, b) = (square(0..2)?, square(3..5)?);
            let action = if chars[2] == POISON_MARK {
                PoisonAction::Poison {
                    harpy: a,
                    target: b,
                }
            } else {
                PoisonAction::Cure {
                    doctor: a,
                    target: b,
                }
            };
            return Some(if self.is_legal(&action) {
                Ok(action)
            } else {
                Err(illegal())
            });
        }
        if !(chars.len() == 4 || chars.len() == 5) {
            return None;
        }
        let (from, to) = (square(0..2)?, square(2..4)?);
        let promotion = match chars.get(4) {
            Some(&c) => Some(Role::from_char(c).filter(|r| PROMOTIONS.contains(r))?),
            None => None,
        };
        self.legal_actions(&mut legal);
        let found = legal
            .into_iter()
            .find(|a| matches!(a, PoisonAction::Move(m) if uci_matches(m, from, to, promotion)));
        Some(found.ok_or_else(illegal))
    }
}
