//! The text board: rank 8 on top, files a-h below and above, every square
//! three characters wide (more when Mad Scientist tokens need it) so that a
//! Poison countdown fits on both sides of its piece: ` B ` / `4B4`.

use super::{Cell, Diagram};

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
    let width = diagram
        .cells
        .iter()
        .map(|cell| cell.token.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let files: String = ('a'..='h')
        .map(|file| {
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
    for rank in (0..8).rev() {
        let row: String = (0..8)
            .map(|file| cell_text(&diagram.cells[rank * 8 + file], width))
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
