//! Board diagrams for people: a text board (rank 8 on top, FEN letters) and
//! a self-contained SVG board, for every variant.
//!
//! Each variant turns its state into one [`Diagram`] (its `diagram.rs`,
//! reached through `GameVariant::diagram`); this module holds only the
//! diagram type and the writers ([`text`], [`svg`], [`raster`]), which know
//! nothing about variants, so the text and the picture always show the same
//! things. What the variants put in it:
//!
//! * Poison Chess: a poisoned piece has its countdown on both sides,
//!   `4B4`, as the rule text draws it ("4B4 is a Bishop with four opposing
//!   moves before death").
//! * Hostage Chess: each side's prison and airfield beside its home ranks
//!   (Black's by ranks 8 and 7, White's by ranks 2 and 1).
//! * Mad Scientist Chess: composite pieces by their part letters (`[WWC]`),
//!   hands beside the home ranks.
//! * Traitor Chess: announced pieces in parentheses, `(n)`, with who
//!   controls them, the budgets, the step, and both players' secrets below
//!   the board. This is the **full state** (a referee's diagram): a player's
//!   view, without the opponent's secret, is `AnyGame::view`.
//!
//! Each square and each kind of reserve man in the SVG carries a
//! `data-target` naming it as [`crate::gesture::Target::id`] does, so a
//! page can make them clickable; [`SvgOptions`] turns the board.
//!
//! [`raster`] draws the same diagram as an RGB frame of a fixed size (a
//! built-in bitmap font, no dependency), for videos and Gymnasium's
//! `rgb_array` render mode.
//!
//! Rendering allocates freely: it is for people, never on a hot path.

pub mod raster;
mod svg;
mod text;

use crate::{Board, Color};

pub use raster::rgb;
pub use svg::{svg, svg_with, SvgOptions};
pub use text::{text, text_from};

/// What one square shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// The piece's letters, upper case for White (`N`, `h`, `[WWC]`);
    /// empty for an empty square.
    pub token: String,
    /// The piece's colour, `None` for an empty square.
    pub color: Option<Color>,
    /// Poison Chess: the poisoned piece's countdown (1..=5).
    pub countdown: Option<u8>,
    /// Traitor Chess: the piece has been announced (it has a status).
    pub announced: bool,
}

/// Men (or parts) held off the board: a Hostage prison or airfield, a Mad
/// Scientist hand. The text board writes its label; the SVG board draws
/// each kind held as a piece to click
/// ([`crate::gesture::Target::Reserve`] names it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reserve {
    pub owner: Color,
    /// `prison`, `airfield` or `hand`.
    pub area: &'static str,
    /// The rank index it stands beside (0 = rank 1).
    pub rank: usize,
    /// The reserve as a line of text (`white prison: 2 black pawns`).
    pub label: String,
    /// Each kind held, in the order shown.
    pub men: Vec<ReserveMen>,
}

/// The men of one kind in a reserve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReserveMen {
    /// Upper case (`N`, a part `W`): the target's letter.
    pub letter: char,
    /// The men's colour (a prison holds the opponent's).
    pub color: Color,
    pub count: u8,
}

/// A board and what goes with it, ready to be written as text or SVG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Square a1 = 0 .. h8 = 63.
    pub cells: Vec<Cell>,
    /// Lines written beside the board, by rank index (0 = rank 1).
    pub beside: [Option<String>; 8],
    /// Reserves and hands, each beside its owner's home ranks.
    pub reserves: Vec<Reserve>,
    /// Lines written below the board (side to move, variant state).
    pub below: Vec<String>,
}

impl Diagram {
    /// An empty board with nothing beside or below it.
    pub fn empty() -> Diagram {
        Diagram {
            cells: vec![Cell::default(); 64],
            beside: Default::default(),
            reserves: Vec::new(),
            below: Vec::new(),
        }
    }

    /// The pieces of a shared [`Board`] as cells (FEN letters), with
    /// nothing beside or below the board yet.
    pub fn of_board(board: &Board) -> Diagram {
        let mut diagram = Diagram::empty();
        for (sq, piece) in board.pieces() {
            diagram.cells[sq.index()] = Cell {
                token: piece.char().to_string(),
                color: Some(piece.color),
                ..Cell::default()
            };
        }
        diagram
    }

    /// The note beside rank index `rank`: its line, or the label of the
    /// reserve that stands there.
    pub fn note_beside(&self, rank: usize) -> Option<&str> {
        self.beside[rank].as_deref().or_else(|| {
            self.reserves
                .iter()
                .find(|reserve| reserve.rank == rank)
                .map(|reserve| reserve.label.as_str())
        })
    }

    /// Shows a finished game's result (`result 0-1: black wins by
    /// checkmate`) in place of the line that says whose turn it is.
    pub fn set_result(&mut self, outcome: crate::Outcome) {
        let how = outcome.termination().name();
        let line = match outcome.winner() {
            Some(winner) => format!(
                "result {}: {} wins by {how}",
                outcome.result(),
                winner.name()
            ),
            None => format!("result {}: draw by {how}", outcome.result()),
        };
        let turn = self
            .below
            .iter()
            .position(|text| text.starts_with("white to ") || text.starts_with("black to "));
        match turn {
            Some(index) => self.below[index] = line,
            None => self.below.push(line),
        }
    }

    /// Only the board, rank 8 on top: each square's token (`.` when
    /// empty) separated by spaces, one line per rank.
    pub fn board_text(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let token = &self.cells[rank * 8 + file].token;
                out.push_str(if token.is_empty() { "." } else { token });
                out.push(if file == 7 { '\n' } else { ' ' });
            }
        }
        out
    }
}

/// The line below the board that says whose turn it is (`white to move`):
/// the line [`Diagram::set_result`] replaces once the game is over.
pub fn to_move(turn: Color) -> String {
    format!("{} to move", turn.name())
}
