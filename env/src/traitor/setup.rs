//! The position string: the six FIDE fields (colour by letter case) then
//! eight Traitor fields.
//!
//! ```text
//! <board> <turn> <castling> <ep> <halfmoves> <fullmoves>
//!   <ids> <announced> <budgets> <used> <secrets> <step> <last> <undo>
//! ```
//!
//! * `ids`: the identity (starting square) of each piece whose id is not
//!   its current square, `e4=e2,f3=g1`; `-` when every piece stands on the
//!   square it started on. A pawn back on its starting square after it
//!   moved (it changed colour twice) is written with a `*`, `b2=b2*`: it
//!   may not double-step (T11). Strings without the marker read as before.
//! * `announced`: squares of pieces with a status (traitors, double agents,
//!   mercenaries), `f2,h1`; always `-` in Defector mode.
//! * `budgets`: White's and Black's public budgets left, `9,4`.
//! * `used`: ids announced so far, White's `/` Black's: `h1,g2/d8`, `-/-`.
//! * `secrets`: White's `/` Black's remaining secret: ids (`c1,g2`,
//!   Standard), role letters (`NBPPP`, Simplified), `-` (none left, or
//!   Impromptu), `*` (not chosen yet), `?` (hidden: views only).
//! * `step`: `select`, `open` (start of a turn), or the id announced this
//!   turn (`h1`: the move is still to come).
//! * `last`: the last move `e2e4` (modes with the weak ko), else `-`.
//! * `undo`: the id made to defect last turn when the T5 no-undo rule is in
//!   force, else `-`.
//!
//! The mode and commitment are rule settings, not part of the string.

use super::rules::{Commitment, TraitorRules, BUDGET};
use super::selection::{PieceId, RoleCounts, Secret, Selection};
use super::{Step, Traitor, NO_ID};
use crate::fen as fide;
use crate::{Bitboard, FenError, Role, Setup, Square};

/// An unvalidated Traitor position: plain fields, as read from a string.
/// A secret of `None` is hidden (`?`), as in a player's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraitorSetup {
    pub setup: Setup,
    /// Identity per square, `NO_ID` (0xff) where empty.
    pub ids: [u8; 64],
    pub announced: Bitboard,
    pub budgets: [u8; 2],
    pub used: [Bitboard; 2],
    pub secrets: [Option<Secret>; 2],
    pub step: Step,
    pub last_move: Option<(Square, Square)>,
    pub undo_forbidden: Option<PieceId>,
    /// Pawns on their starting square that have moved (`b2=b2*`, T11).
    pub returned_pawns: Bitboard,
}

const FIELDS: &str = "14 (board, turn, castling, en passant, halfmove clock, fullmove number, ids, announced, budgets, used, secrets, step, last, undo)";

pub(super) fn bad(field: &'static str, text: &str, reason: impl Into<String>) -> FenError {
    FenError::VariantField {
        field,
        text: text.to_owned(),
        reason: reason.into(),
    }
}

fn parse_squares(field: &'static str, text: &str) -> Result<Bitboard, FenError> {
    if text == "-" {
        return Ok(Bitboard::EMPTY);
    }
    let mut set = Bitboard::EMPTY;
    for item in text.split(',') {
        let sq: Square = item
            .parse()
            .map_err(|_| bad(field, text, format!("'{item}' is not a square")))?;
        if set.contains(sq) {
            return Err(bad(field, text, format!("{sq} is listed twice")));
        }
        set.add(sq);
    }
    Ok(set)
}

pub(super) fn write_squares(set: Bitboard) -> String {
    if set.is_empty() {
        "-".to_owned()
    } else {
        set.map(|sq| sq.to_string()).collect::<Vec<_>>().join(",")
    }
}

fn split_pair<'a>(field: &'static str, text: &'a str) -> Result<(&'a str, &'a str), FenError> {
    text.split_once('/')
        .filter(|(_, b)| !b.contains('/'))
        .ok_or_else(|| bad(field, text, "expected White's part '/' Black's part"))
}

fn parse_secret(
    text: &str,
    part: &str,
    commitment: Commitment,
) -> Result<Option<Secret>, FenError> {
    Ok(Some(match part {
        "?" => return Ok(None),
        "*" => Secret::Unchosen,
        "-" => match commitment {
            Commitment::Standard => Secret::Remaining(Selection::Pieces(Bitboard::EMPTY)),
            Commitment::Simplified => Secret::Remaining(Selection::Types(RoleCounts::default())),
            Commitment::Impromptu => Secret::Nothing,
        },
        _ => match commitment {
            Commitment::Standard => {
                Secret::Remaining(Selection::Pieces(parse_squares("secrets", part)?))
            }
            Commitment::Simplified => Secret::Remaining(Selection::Types(
                RoleCounts::from_letters(part).ok_or_else(|| {
                    bad(
                        "secrets",
                        text,
                        format!("'{part}' is not a list of the letters Q, R, B, N, P"),
                    )
                })?,
            )),
            Commitment::Impromptu => {
                return Err(bad(
                    "secrets",
                    text,
                    "Impromptu has no secret choices: write -/-",
                ))
            }
        },
    }))
}

pub(super) fn write_secret(secret: Option<Secret>) -> String {
    match secret {
        None => "?".to_owned(),
        Some(Secret::Unchosen) => "*".to_owned(),
        Some(Secret::Nothing) => "-".to_owned(),
        Some(Secret::Remaining(Selection::Pieces(ids))) => write_squares(ids),
        Some(Secret::Remaining(Selection::Types(counts))) => {
            if counts.is_empty() {
                "-".to_owned()
            } else {
                counts.letters()
            }
        }
    }
}

impl TraitorSetup {
    /// The start position string for a commitment: a selection phase when
    /// there are secrets, else straight to play.
    pub fn start_fen(commitment: Commitment) -> String {
        let tail = if commitment.has_secrets() {
            "*/* select"
        } else {
            "-/- open"
        };
        format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - - 9,9 -/- {tail} - -")
    }

    /// Reads the 14 fields (syntax only; [`Traitor::from_setup`] checks the rules).
    pub fn parse(text: &str, commitment: Commitment) -> Result<TraitorSetup, FenError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        fide::check_field_count(&fields, 14..=14, FIELDS)?;
        let setup = fide::parse_fide_fields(&fields[..6], &Role::FIDE)?;
        let mut ids = [NO_ID; 64];
        for sq in setup.board.occupied() {
            ids[sq.index()] = sq.index() as u8;
        }
        let mut returned_pawns = Bitboard::EMPTY;
        if fields[6] != "-" {
            for item in fields[6].split(',') {
                let (entry, moved) = match item.strip_suffix('*') {
                    Some(entry) => (entry, true),
                    None => (item, false),
                };
                let parsed = entry.split_once('=').and_then(|(at, id)| {
                    Some((at.parse::<Square>().ok()?, id.parse::<Square>().ok()?))
                });
                let Some((at, id)) = parsed else {
                    return Err(bad(
                        "ids",
                        fields[6],
                        format!("'{item}' is not square=id (e4=e2, or b2=b2* for a pawn back on its starting square)"),
                    ));
                };
                if !setup.board.occupied().contains(at) {
                    return Err(bad("ids", fields[6], format!("{at} is empty")));
                }
                if moved {
                    if setup.board.role_at(at) != Some(Role::Pawn) {
                        return Err(bad(
                            "ids",
                            fields[6],
                            format!("'{item}': only a pawn is marked as moved (*)"),
                        ));
                    }
                    if at == id {
                        returned_pawns.add(at);
                    }
                }
                ids[at.index()] = id.index() as u8;
            }
        }
        let announced = parse_squares("announced", fields[7])?;
        let budgets = {
            let err = || {
                bad(
                    "budgets",
                    fields[8],
                    "expected two whole numbers from 0 to 9, White's first: 9,9",
                )
            };
            let (w, b) = fields[8].split_once(',').ok_or_else(err)?;
            let parse = |t: &str| {
                t.parse::<u8>()
                    .ok()
                    .filter(|n| *n <= BUDGET && t.len() == 1)
            };
            [parse(w).ok_or_else(err)?, parse(b).ok_or_else(err)?]
        };
        let (used_w, used_b) = split_pair("used", fields[9])?;
        let used = [
            parse_squares("used", used_w)?,
            parse_squares("used", used_b)?,
        ];
        let (secret_w, secret_b) = split_pair("secrets", fields[10])?;
        let secrets = [
            parse_secret(fields[10], secret_w, commitment)?,
            parse_secret(fields[10], secret_b, commitment)?,
        ];
        let step = match fields[11] {
            "select" => Step::Select,
            "open" => Step::Open,
            other => Step::Announced(other.parse().map_err(|_| {
                bad(
                    "step",
                    other,
                    "expected 'select', 'open' or the id announced this turn",
                )
            })?),
        };
        let last_move =
            match fields[12] {
                "-" => None,
                text => {
                    let parsed = (text.len() == 4)
                        .then(|| Some((text.get(..2)?.parse().ok()?, text.get(2..)?.parse().ok()?)))
                        .flatten();
                    Some(parsed.ok_or_else(|| {
                        bad("last", text, "expected '-' or a move from-to like e2e4")
                    })?)
                }
            };
        let undo_forbidden = match fields[13] {
            "-" => None,
            text => Some(
                text.parse()
                    .map_err(|_| bad("undo", text, "expected '-' or a piece id (a square)"))?,
            ),
        };
        Ok(TraitorSetup {
            setup,
            ids,
            announced,
            budgets,
            used,
            secrets,
            step,
            last_move,
            undo_forbidden,
            returned_pawns,
        })
    }

    pub fn to_fen(&self) -> String {
        let mut moved: Vec<String> = Vec::new();
        for sq in self.setup.board.occupied() {
            let id = self.ids[sq.index()];
            if id != sq.index() as u8 {
                if let Some(id) = Square::new(u32::from(id)) {
                    moved.push(format!("{sq}={id}"));
                }
            } else if self.returned_pawns.contains(sq) {
                moved.push(format!("{sq}={sq}*"));
            }
        }
        let ids = if moved.is_empty() {
            "-".to_owned()
        } else {
            moved.join(",")
        };
        let step = match self.step {
            Step::Select => "select".to_owned(),
            Step::Open => "open".to_owned(),
            Step::Announced(id) => id.to_string(),
        };
        format!(
            "{} {ids} {} {},{} {}/{} {}/{} {step} {} {}",
            fide::write_fide_fields(&self.setup),
            write_squares(self.announced),
            self.budgets[0],
            self.budgets[1],
            write_squares(self.used[0]),
            write_squares(self.used[1]),
            write_secret(self.secrets[0]),
            write_secret(self.secrets[1]),
            self.last_move
                .map_or_else(|| "-".to_owned(), |(from, to)| format!("{from}{to}")),
            self.undo_forbidden
                .map_or_else(|| "-".to_owned(), |id| id.to_string()),
        )
    }
}

impl Traitor {
    /// Reads and validates a full-state position string under `rules`.
    pub fn from_fen(text: &str, rules: TraitorRules) -> Result<Traitor, FenError> {
        Traitor::from_setup(TraitorSetup::parse(text, rules.commitment)?, rules)
    }

    pub fn to_setup(&self) -> TraitorSetup {
        TraitorSetup {
            setup: self.fide.clone(),
            ids: self.ids,
            announced: self.announced,
            budgets: self.budgets,
            used: self.used,
            secrets: [Some(self.secrets[0]), Some(self.secrets[1])],
            step: self.step,
            last_move: self.last_move,
            undo_forbidden: self.undo_forbidden,
            returned_pawns: self.returned_pawns,
        }
    }
}
