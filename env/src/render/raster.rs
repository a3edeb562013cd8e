//! The board as an RGB frame, for videos and `render_mode="rgb_array"`:
//! a [`Diagram`] rasterised into [`RASTER_HEIGHT`] x [`RASTER_WIDTH`]
//! pixels, three bytes each (red, green, blue), row by row from the top.
//!
//! Every frame of every variant has the same size, so that a video of a
//! game (Gymnasium's `RecordVideo`) or a batch of frames never changes
//! shape, and the output is a pure function of the diagram: the same
//! position gives the same bytes on every machine (integer arithmetic
//! only, and a 5 x 8 bitmap font built into the crate, `raster/font.rs`).
//!
//! The layout, in pixels (x from the left, y from the top):
//!
//! * White background, 576 wide and 384 high (multiples of 16, which video
//!   encoders want).
//! * The board: 8 x 8 squares of [`SQUARE_PX`] = 32, White at the bottom,
//!   square a8's corner at ([`BOARD_LEFT`], [`BOARD_TOP`]) = (16, 16), so
//!   the square of file `f` and rank `r` (0-based) starts at x = 16 + 32 f,
//!   y = 16 + 32 (7 - r) ([`square_origin`]). a1 is dark ([`DARK_SQUARE`]),
//!   h1 light ([`LIGHT_SQUARE`]).
//! * In a square: the piece's letters upper case (the FIDE letter, the
//!   Poison `H`/`D`/`G`, a Mad Scientist composite's part letters without
//!   the brackets), white with a black outline for White, black with a
//!   white outline for Black: one letter 3x size (15 x 21), two 2x, more
//!   1x, centred. A poisoned piece's square is tinted purple
//!   ([`POISONED_LIGHT`], [`POISONED_DARK`]) with its countdown in red in
//!   both top corners; an announced Traitor piece has an orange ring 2 px
//!   wide inside its square's edge. Nothing drawn for a square leaves it.
//! * Coordinates: rank digits left of the board, file letters below it.
//! * The side panel, x from [`PANEL_LEFT`] = 288 to 568, in the board's
//!   rows: each reserve (Hostage prisons and airfields, Mad Scientist
//!   hands) in the row of the rank it stands beside, its name on top
//!   (`white prison`, `: empty` when it is) and below it one grey chip per
//!   kind held, 36 px apart: the man's letter (2x, in its colour) and the
//!   count. A note beside a rank with no reserve is written in its row
//!   (up to three lines); beside a reserve, it goes below the board.
//! * Below the board, from y = [`BELOW_TOP`] = 292: the diagram's lines
//!   (whose turn or the result, the variant's state: Traitor's
//!   announcements, budgets and secrets, keys to the letters), 1x, 10 px
//!   apart, wrapped at spaces to 93 characters; at most [`BELOW_LINES`] =
//!   9, the last one saying how many more there were when they do not
//!   fit.

mod canvas;
mod font;

use std::borrow::Cow;

use crate::Color;

use super::{Cell, Diagram, Reserve};
use canvas::{Canvas, Rect, Rgb};
use font::{text_width, Pen, ADVANCE, CAP_HEIGHT, GLYPH_HEIGHT};

/// The frame's size in pixels.
pub const RASTER_WIDTH: usize = 576;
pub const RASTER_HEIGHT: usize = 384;
/// The side of a square.
pub const SQUARE_PX: usize = 32;
/// The corner of square a8, the board's top left.
pub const BOARD_LEFT: usize = 16;
pub const BOARD_TOP: usize = 16;
/// Where the side panel starts.
pub const PANEL_LEFT: usize = BOARD_LEFT + 8 * SQUARE_PX + 16;
/// Where the lines below the board start, and how many fit.
pub const BELOW_TOP: usize = BOARD_TOP + 8 * SQUARE_PX + 20;
pub const BELOW_LINES: usize = 9;

/// The colours: the board's as the SVG board has them.
pub const BACKGROUND: [u8; 3] = [255, 255, 255];
pub const LIGHT_SQUARE: [u8; 3] = [240, 217, 181];
pub const DARK_SQUARE: [u8; 3] = [181, 136, 99];
/// A poisoned piece's square: its colour with 30% of purple
/// (`#8000a0`), as the SVG board's overlay, computed once here.
pub const POISONED_LIGHT: [u8; 3] = tint(LIGHT_SQUARE);
pub const POISONED_DARK: [u8; 3] = tint(DARK_SQUARE);
pub const COUNTDOWN: [u8; 3] = [200, 0, 0];
pub const ANNOUNCED: [u8; 3] = [224, 112, 0];
/// Coordinates, notes and counts.
pub const INK: [u8; 3] = [40, 40, 40];
const WHITE_MAN: Rgb = [255, 255, 255];
const BLACK_MAN: Rgb = [0, 0, 0];
const CHIP: Rgb = [244, 244, 244];
const CHIP_EDGE: Rgb = [200, 200, 200];

/// Lines are this far apart, and text stays this far from the frame's
/// right edge.
const LINE_PX: usize = 10;
const EDGE: usize = 8;
/// A reserve's chips: their pitch and size.
const CHIP_PITCH: usize = 36;
const CHIP_WIDTH: usize = 32;
const CHIP_HEIGHT: usize = 19;

/// 70% of `square` and 30% of purple, rounded.
const fn tint(square: Rgb) -> Rgb {
    const PURPLE: Rgb = [128, 0, 160];
    let mut out = [0; 3];
    let mut i = 0;
    while i < 3 {
        out[i] = ((square[i] as u32 * 7 + PURPLE[i] as u32 * 3 + 5) / 10) as u8;
        i += 1;
    }
    out
}

/// The top-left corner of a square (a1 = 0 .. h8 = 63) in the frame.
pub const fn square_origin(square: usize) -> (usize, usize) {
    let (file, rank) = (square % 8, square / 8);
    (
        BOARD_LEFT + file * SQUARE_PX,
        BOARD_TOP + (7 - rank) * SQUARE_PX,
    )
}

/// The top of the board row that rank index `rank` (0 = rank 1) is drawn in.
const fn row_top(rank: usize) -> usize {
    BOARD_TOP + (7 - rank) * SQUARE_PX
}

/// The diagram as an RGB frame: `RASTER_HEIGHT * RASTER_WIDTH * 3` bytes,
/// row-major (numpy's `(H, W, 3)` uint8 layout). One allocation, the
/// frame itself, plus a few for the text of the panels.
pub fn rgb(diagram: &Diagram) -> Vec<u8> {
    let mut canvas = Canvas::new(RASTER_WIDTH, RASTER_HEIGHT, BACKGROUND);
    for (square, cell) in diagram.cells.iter().enumerate().take(64) {
        draw_square(&mut canvas, square, cell);
    }
    draw_coordinates(&mut canvas);
    let mut displaced = Vec::new();
    for (rank, note) in diagram.beside.iter().enumerate() {
        let Some(note) = note else { continue };
        if diagram.reserves.iter().any(|reserve| reserve.rank == rank) {
            displaced.push(Cow::Owned(format!("rank {}: {note}", rank + 1)));
        } else {
            draw_note(&mut canvas, rank, note);
        }
    }
    for reserve in &diagram.reserves {
        draw_reserve(&mut canvas, reserve);
    }
    let lines = diagram
        .below
        .iter()
        .map(|line| Cow::Borrowed(line.as_str()))
        .chain(displaced);
    draw_below(&mut canvas, lines);
    canvas.into_pixels()
}

/// One square: its colour (tinted when poisoned), the announced ring, the
/// countdowns and the piece, each clipped to the square.
fn draw_square(canvas: &mut Canvas, square: usize, cell: &Cell) {
    let (x, y) = square_origin(square);
    let area = Rect::new(x, y, SQUARE_PX, SQUARE_PX);
    let light = (square % 8 + square / 8) % 2 == 1;
    let color = match (light, cell.countdown.is_some()) {
        (true, false) => LIGHT_SQUARE,
        (false, false) => DARK_SQUARE,
        (true, true) => POISONED_LIGHT,
        (false, true) => POISONED_DARK,
    };
    canvas.fill(area, color);
    if cell.announced {
        canvas.border(area.inset(1), 2, ANNOUNCED);
    }
    if let Some(count) = cell.countdown {
        let digit = char::from_digit(u32::from(count), 10).unwrap_or('?');
        let mut buffer = [0; 4];
        let digit = digit.encode_utf8(&mut buffer);
        let pen = Pen {
            scale: 1,
            color: COUNTDOWN,
            clip: area,
        };
        pen.text(canvas, x + 2, y + 2, digit);
        pen.text(canvas, x + SQUARE_PX - 2 - font::GLYPH_WIDTH, y + 2, digit);
    }
    if let Some(man) = cell.color {
        draw_man(canvas, area, &cell.token, man, 3);
    }
}

/// A man's letters (brackets dropped, upper case) centred in `area`, in
/// its colour over an outline of the other, at most `max_scale` times the
/// font's size and as large as fits, clipped to `area`.
fn draw_man(canvas: &mut Canvas, area: Rect, token: &str, man: Color, max_scale: usize) {
    let mut letters = [0u8; 16];
    let mut count = 0;
    for c in token.chars().filter(|c| !matches!(c, '[' | ']')) {
        if count == letters.len() {
            break;
        }
        // Non-ASCII letters are drawn as `?` by the font.
        letters[count] = if c.is_ascii() {
            c.to_ascii_uppercase() as u8
        } else {
            b'?'
        };
        count += 1;
    }
    let Ok(letters) = std::str::from_utf8(&letters[..count]) else {
        return;
    };
    let fits = |scale: usize| text_width(count, scale) + 2 <= area.w;
    let scale = (1..=max_scale).rev().find(|&s| fits(s)).unwrap_or(1);
    let width = text_width(count, scale);
    let x = area.x + area.w.saturating_sub(width) / 2;
    let y = area.y + area.h.saturating_sub(CAP_HEIGHT * scale) / 2;
    let (fill, outline) = match man {
        Color::White => (WHITE_MAN, BLACK_MAN),
        Color::Black => (BLACK_MAN, WHITE_MAN),
    };
    let pen = Pen {
        scale,
        color: fill,
        clip: area,
    };
    pen.outlined(canvas, x, y, letters, outline);
}

/// Rank digits left of the board and file letters below it.
fn draw_coordinates(canvas: &mut Canvas) {
    let pen = Pen {
        scale: 1,
        color: INK,
        clip: canvas.bounds(),
    };
    let board = 8 * SQUARE_PX;
    for i in 0..8 {
        let mut buffer = [0; 4];
        let rank = char::from(b'1' + i as u8).encode_utf8(&mut buffer);
        let y = row_top(i) + (SQUARE_PX - CAP_HEIGHT) / 2;
        pen.text(canvas, BOARD_LEFT - 11, y, rank);
        let file = char::from(b'a' + i as u8).encode_utf8(&mut buffer);
        let x = BOARD_LEFT + i * SQUARE_PX + (SQUARE_PX - font::GLYPH_WIDTH) / 2;
        pen.text(canvas, x, BOARD_TOP + board + 4, file);
    }
}

/// The side panel's area in the row of rank index `rank`.
fn panel_row(rank: usize) -> Rect {
    Rect::new(
        PANEL_LEFT,
        row_top(rank),
        RASTER_WIDTH - EDGE - PANEL_LEFT,
        SQUARE_PX,
    )
}

/// The characters of one line of text in `width` pixels at 1x.
const fn chars_in(width: usize) -> usize {
    (width + 1) / ADVANCE
}

/// A note beside a rank: in its row, up to three lines.
fn draw_note(canvas: &mut Canvas, rank: usize, note: &str) {
    let area = panel_row(rank);
    let pen = Pen {
        scale: 1,
        color: INK,
        clip: area,
    };
    for (i, line) in wrap(note, chars_in(area.w)).into_iter().enumerate() {
        pen.text(canvas, area.x, area.y + 2 + i * LINE_PX, line);
    }
}

/// A reserve: its name, then a chip per kind of man with its count.
fn draw_reserve(canvas: &mut Canvas, reserve: &Reserve) {
    let area = panel_row(reserve.rank.min(7));
    let pen = Pen {
        scale: 1,
        color: INK,
        clip: area,
    };
    let empty = if reserve.men.is_empty() {
        ": empty"
    } else {
        ""
    };
    let title = format!("{} {}{empty}", reserve.owner.name(), reserve.area);
    pen.text(canvas, area.x, area.y + 2, &title);
    for (i, men) in reserve.men.iter().enumerate() {
        let chip = Rect::new(
            area.x + i * CHIP_PITCH,
            area.y + area.h - CHIP_HEIGHT - 1,
            CHIP_WIDTH,
            CHIP_HEIGHT,
        )
        .intersect(area);
        canvas.fill(chip, CHIP);
        canvas.border(chip, 1, CHIP_EDGE);
        let mut buffer = [0; 4];
        let letter = men.letter.encode_utf8(&mut buffer);
        let face = Rect::new(chip.x + 2, chip.y + 2, 12, chip.h.saturating_sub(4));
        draw_man(canvas, face.intersect(chip), letter, men.color, 2);
        let count = men.count.to_string();
        let width = text_width(count.len(), 1);
        let count_pen = Pen { clip: chip, ..pen };
        let x = (chip.right() - 3).saturating_sub(width);
        count_pen.text(canvas, x, chip.bottom() - 3 - CAP_HEIGHT, &count);
    }
}

/// The lines below the board, wrapped, at most [`BELOW_LINES`] of them.
fn draw_below<'a>(canvas: &mut Canvas, lines: impl Iterator<Item = Cow<'a, str>>) {
    let area = Rect::new(
        EDGE,
        BELOW_TOP,
        RASTER_WIDTH - 2 * EDGE,
        RASTER_HEIGHT - BELOW_TOP,
    );
    let lines: Vec<Cow<'a, str>> = lines.collect();
    let width = chars_in(area.w);
    let more;
    let mut pieces: Vec<&str> = lines.iter().flat_map(|line| wrap(line, width)).collect();
    if pieces.len() > BELOW_LINES {
        more = format!("... {} more lines", pieces.len() - (BELOW_LINES - 1));
        pieces.truncate(BELOW_LINES - 1);
        pieces.push(&more);
    }
    let pen = Pen {
        scale: 1,
        color: INK,
        clip: area,
    };
    for (i, piece) in pieces.iter().enumerate() {
        pen.text(canvas, area.x, area.y + i * LINE_PX, piece);
    }
}

// The last line below the board, descenders included, is inside the frame.
const _: () = assert!(BELOW_TOP + (BELOW_LINES - 1) * LINE_PX + GLYPH_HEIGHT <= RASTER_HEIGHT);

/// `line` in pieces of at most `width` characters, broken at spaces where
/// it can be (a word longer than a line is cut); an empty line is one
/// empty piece, so that it still takes its place.
fn wrap(line: &str, width: usize) -> Vec<&str> {
    let width = width.max(1);
    let mut pieces = Vec::new();
    let mut rest = line.trim_end();
    while rest.chars().count() > width {
        let limit = rest
            .char_indices()
            .nth(width)
            .map_or(rest.len(), |(at, _)| at);
        let cut = if rest[limit..].starts_with(' ') {
            limit
        } else {
            match rest[..limit].rfind(' ') {
                Some(space) if space > 0 => space,
                _ => limit,
            }
        };
        pieces.push(rest[..cut].trim_end());
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() || pieces.is_empty() {
        pieces.push(rest);
    }
    pieces
}

#[cfg(test)]
mod tests;
