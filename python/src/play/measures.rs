//! Per-ply measures of played games, read from the replayed positions'
//! diagrams (`heterodox_env::render::Diagram`: each square's man, its
//! colour, a Poison countdown, a Traitor announcement, and the reserves:
//! Hostage prisons and airfields, Mad Scientist hands), so that one
//! definition serves every variant.
//!
//! A measure is a row per game, a column per ply: column `k` is the
//! position after `k` plies (0: the start) for a position measure, and the
//! `k`-th ply itself for a move measure (`checks`, `captures`; column 0 is
//! NaN). Columns after a game's end are NaN.

use heterodox_env::render::Diagram;
use heterodox_env::{Color, GameVariant};

/// A measure, read from its name.
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// `men:SIDE`: the side's men on the board; `men:SIDE:KIND` those of
    /// one kind (the upper-case token: `Q`, `[WWC]`).
    Men(Color, Option<String>),
    /// `reserve:SIDE:AREA`: men in the side's prison, airfield or hand.
    Reserve(Color, String),
    /// `poisoned:SIDE`: the side's men with a Poison countdown.
    Poisoned(Color),
    /// `announced:SIDE`: the side's Traitor men announced.
    Announced(Color),
    /// `monsters:SIDE`: the side's built Mad Scientist monsters (men
    /// written in brackets).
    Monsters(Color),
    /// `king_zone:SIDE`: the opponent's men within two squares of the
    /// side's King (its zone's pressure).
    KingZone(Color),
    /// `checks`: 1 where the ply gives check (the variant's notation marks
    /// it `+` or `#`).
    Checks,
    /// `captures`: 1 where the ply takes men of the opponent off the board.
    Captures,
}

/// The measures' names, for error messages and the docs.
pub const MEASURE_NAMES: &str = "men:SIDE, men:SIDE:KIND, reserve:SIDE:prison|airfield|hand, \
     poisoned:SIDE, announced:SIDE, monsters:SIDE, king_zone:SIDE, checks, captures \
     (SIDE: white or black)";

impl std::str::FromStr for Measure {
    type Err = String;

    fn from_str(name: &str) -> Result<Measure, String> {
        let parts: Vec<&str> = name.split(':').collect();
        let side = |text: &str| match text {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            _ => Err(format!(
                "measure '{name}': side '{text}' is not white or black"
            )),
        };
        let measure = match parts.as_slice() {
            ["checks"] => Measure::Checks,
            ["captures"] => Measure::Captures,
            ["men", s] => Measure::Men(side(s)?, None),
            ["men", s, kind] if !kind.is_empty() => {
                Measure::Men(side(s)?, Some(kind.to_ascii_uppercase()))
            }
            ["reserve", s, area @ ("prison" | "airfield" | "hand")] => {
                Measure::Reserve(side(s)?, (*area).to_owned())
            }
            ["poisoned", s] => Measure::Poisoned(side(s)?),
            ["announced", s] => Measure::Announced(side(s)?),
            ["monsters", s] => Measure::Monsters(side(s)?),
            ["king_zone", s] => Measure::KingZone(side(s)?),
            _ => {
                return Err(format!(
                    "unknown measure '{name}' (measures: {MEASURE_NAMES})"
                ))
            }
        };
        Ok(measure)
    }
}

/// What a game's replay gives the measures: each position's diagram and
/// side to move, and each ply's notation.
pub struct Replayed {
    pub diagrams: Vec<Diagram>,
    pub turns: Vec<Color>,
    pub notation: Vec<String>,
}

impl Replayed {
    /// Nothing yet: a replay adds each position in turn ([`Replayed::position`]).
    pub fn new() -> Replayed {
        Replayed {
            diagrams: Vec::new(),
            turns: Vec::new(),
            notation: Vec::new(),
        }
    }

    /// Adds the next position of the game.
    pub fn position<P: GameVariant>(&mut self, position: &P) {
        self.diagrams.push(position.diagram());
        self.turns.push(position.turn());
    }
}

impl Default for Replayed {
    fn default() -> Self {
        Replayed::new()
    }
}

fn men(diagram: &Diagram, color: Color, kind: Option<&str>) -> usize {
    diagram
        .cells
        .iter()
        .filter(|cell| cell.color == Some(color))
        .filter(|cell| kind.is_none_or(|kind| cell.token.to_ascii_uppercase() == kind))
        .count()
}

fn king_zone(diagram: &Diagram, color: Color) -> usize {
    let Some(king) = diagram
        .cells
        .iter()
        .position(|cell| cell.color == Some(color) && cell.token.eq_ignore_ascii_case("k"))
    else {
        return 0;
    };
    let (file, rank) = ((king % 8) as i32, (king / 8) as i32);
    diagram
        .cells
        .iter()
        .enumerate()
        .filter(|(square, cell)| {
            let (f, r) = ((square % 8) as i32, (square / 8) as i32);
            cell.color == Some(!color) && (f - file).abs() <= 2 && (r - rank).abs() <= 2
        })
        .count()
}

impl Measure {
    /// The measure's row for one game (`plies + 1` values).
    pub fn row(&self, game: &Replayed) -> Vec<f64> {
        let diagrams = &game.diagrams;
        let per_position = |f: &dyn Fn(&Diagram) -> usize| -> Vec<f64> {
            diagrams.iter().map(|d| f(d) as f64).collect()
        };
        match self {
            Measure::Men(color, kind) => per_position(&|d| men(d, *color, kind.as_deref())),
            Measure::Reserve(color, area) => per_position(&|d| {
                d.reserves
                    .iter()
                    .filter(|r| r.owner == *color && r.area == area)
                    .flat_map(|r| r.men.iter())
                    .map(|m| usize::from(m.count))
                    .sum()
            }),
            Measure::Poisoned(color) => per_position(&|d| {
                d.cells
                    .iter()
                    .filter(|c| c.color == Some(*color) && c.countdown.is_some())
                    .count()
            }),
            Measure::Announced(color) => per_position(&|d| {
                d.cells
                    .iter()
                    .filter(|c| c.color == Some(*color) && c.announced)
                    .count()
            }),
            Measure::Monsters(color) => per_position(&|d| {
                d.cells
                    .iter()
                    .filter(|c| c.color == Some(*color) && c.token.starts_with('['))
                    .count()
            }),
            Measure::KingZone(color) => per_position(&|d| king_zone(d, *color)),
            Measure::Checks => {
                std::iter::once(f64::NAN)
                    .chain(game.notation.iter().map(|text| {
                        f64::from(u8::from(text.ends_with('+') || text.ends_with('#')))
                    }))
                    .collect()
            }
            Measure::Captures => std::iter::once(f64::NAN)
                .chain((1..diagrams.len()).map(|k| {
                    let opponent = !game.turns[k - 1];
                    let before = men(&diagrams[k - 1], opponent, None);
                    let after = men(&diagrams[k], opponent, None);
                    f64::from(u8::from(after < before))
                }))
                .collect(),
        }
    }
}
