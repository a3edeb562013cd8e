//! The text board: rank 8 on top, files a-h below and above, every square
//! three characters wide (more when Mad Scientist tokens need it) so that a
//! Poison countdown fits on both sides of its piece: ` B ` / `4B4`.

use super::{Cell, Diagram};
use crate::Color;

/// The cell's characters: the token centred in `width`, with countdowns
/// (Poison) or parentheses (an announced Traitor piece) on either side.
fn cell_text(cell: &Cell, width: usize) -> String {
    let token = if cell.token.is_empty() {
        "."
    } else {
        &cell.token
    };
    let (left, right) = match (cell.countdown, cell.announced) {
        (Some(n), _) => {
            let digit = char::from_digit(u32::from(n), 10).unwrap_or('?');
            (digit, digit)
        }
        (None, true) => ('(', ')'),
        (None, false) => (' ', ' '),
    };
    let pad = width - token.chars().count();
    let before = pad / 2;
    format!(
        "{left}{}{token}{}{right}",
        " ".repeat(before),
        " ".repeat(pad - before)
    )
}

/// The diagram as text, lines ending in `\n`, no trailing spaces.
pub fn text(diagram: &Diagram) -> String {
    text_from(diagram, Color::White)
}

/// The diagram as text seen from `side`: White's (rank 8 on top, file a
/// on the left) or Black's (rank 1 on top, file h on the left). What
/// stands beside a rank (a Hostage prison, a Mad Scientist hand) stays
/// beside it, so each side's reserves are by its own home ranks; the lines
/// below the board do not move.
pub fn text_from(diagram: &Diagram, side: Color) -> String {
    let width = diagram
        .cells
        .iter()
        .map(|cell| cell.token.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let order: [usize; 8] = match side {
        Color::White => [0, 1, 2, 3, 4, 5, 6, 7],
        Color::Black => [7, 6, 5, 4, 3, 2, 1, 0],
    };
    let files: String = order
        .iter()
        .map(|&file| {
            let file = char::from(b'a' + file as u8);
            cell_text(
                &Cell {
                    token: file.to_string(),
                    ..Cell::default()
                },
                width,
            )
        })
        .collect();
    let files = format!("  {files}").trim_end().to_owned();
    let mut out = String::new();
    out.push_str(&files);
    out.push('\n');
    for rank in order.iter().rev().copied() {
        let row: String = order
            .iter()
            .map(|&file| cell_text(&diagram.cells[rank * 8 + file], width))
            .collect();
        let label = rank + 1;
        let mut line = format!("{label} {row} {label}");
        if let Some(note) = diagram.note_beside(rank) {
            line.push_str("   ");
            line.push_str(note);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&files);
    out.push('\n');
    for line in &diagram.below {
        out.push_str(line);
        out.push('\n');
    }
    out
}
