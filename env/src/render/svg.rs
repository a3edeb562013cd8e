//! The SVG board: self-contained (no fonts, images or scripts fetched), so
//! Jupyter can show it inline (`Game._repr_svg_`). 64 `rect` squares of
//! class `square`, Unicode glyphs for the FIDE pieces and letters for the
//! others (Harpy `H`, Doctor `D`, Guard `G`, Mad Scientist composites by
//! their parts, sized to fit their square, and parts in hand by their
//! letter), files and ranks around the board, countdowns in the top
//! corners of poisoned squares, a ring around announced Traitor pieces, and
//! the same notes as the text board beside and below it. Reserves
//! (prisons, airfields, hands) are drawn as their men with counts.
//!
//! For pages that let a person click: each square is a group
//! `<g class="cell" data-target="e4">` around its square, markers and
//! piece, and each kind of reserve man a group `<g class="reserve-men"
//! data-target="white-prison-N">`, named as [`crate::gesture::Target::id`]
//! names them. [`SvgOptions::flipped`] draws Black at the bottom.

use std::fmt::Write;

use crate::Color;

use crate::gesture::Target;

use super::{Cell, Diagram, Reserve};

/// How to draw a board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Rank 1 on top and file h on the left: Black's side of the board.
    pub flipped: bool,
}

/// Square size and the margin that holds the coordinates, in pixels.
const SQUARE: usize = 45;
const MARGIN: usize = 20;
const BOARD: usize = 8 * SQUARE;
/// Height of a line of notes; an approximate character width for sizing
/// the note panel (the notes use a monospace font).
const LINE: usize = 18;
const CHAR_WIDTH: usize = 8;
/// The width of one kind of reserve man: its glyph and its count.
const CHIP: usize = 36;

/// Escapes text for XML content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The solid Unicode glyph of a FIDE piece letter (either case); filled
/// white or black by colour, so one glyph set serves both sides.
fn glyph(token: &str) -> Option<char> {
    let mut chars = token.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    Some(match letter {
        'K' => '\u{265A}',
        'Q' => '\u{265B}',
        'R' => '\u{265C}',
        'B' => '\u{265D}',
        'N' => '\u{265E}',
        'P' => '\u{265F}',
        _ => return None,
    })
}

/// A board square's piece.
fn piece(out: &mut String, cell: &Cell, x: usize, y: usize) {
    man(out, "piece", cell, x, y, SQUARE);
}

/// A man's glyph or letters, centred in the square of side `side` whose
/// corner is (`x`, `y`), of SVG class `class`. A token of several letters
/// (a Mad Scientist piece, `[WWFC]`) is sized to fit its square: one line
/// up to two letters, two lines beyond, each line's length fixed
/// (`textLength`) so that no font draws it wider than the square.
fn man(out: &mut String, class: &str, cell: &Cell, x: usize, y: usize, side: usize) {
    let Some(color) = cell.color else { return };
    let (fill, stroke) = match color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#000000", "#ffffff"),
    };
    let (cx, cy) = (x + side / 2, y + side / 2 + 2);
    let open = |out: &mut String, size: usize| {
        let _ = write!(
            out,
            r#"<text class="{class} {}" x="{cx}" y="{cy}" font-size="{size}" {STYLE} fill="{fill}" stroke="{stroke}">"#,
            color.name()
        );
    };
    if let Some(glyph) = glyph(&cell.token) {
        open(out, side * 4 / 5);
        out.push(glyph);
        out.push_str("</text>");
        return;
    }
    let lines = letter_lines(&cell.token);
    let size = letters_size(&lines, side);
    open(out, size);
    match lines.as_slice() {
        [line] if line.chars().count() == 1 => out.push_str(&escape(line)),
        _ => {
            let step = size * 11 / 10;
            let top = cy + step / 2 - step * lines.len() / 2;
            for (i, line) in lines.iter().enumerate() {
                let length = (em_width(line) * size as f32).round() as usize;
                let _ = write!(
                    out,
                    r#"<tspan x="{cx}" y="{}" textLength="{length}" lengthAdjust="spacingAndGlyphs">{}</tspan>"#,
                    top + i * step,
                    escape(line)
                );
            }
        }
    }
    out.push_str("</text>");
}

/// What every man's text shares.
const STYLE: &str = r#"text-anchor="middle" dominant-baseline="central" stroke-width="1" paint-order="stroke" font-family="DejaVu Sans, Arial Unicode MS, sans-serif" font-weight="bold""#;

/// A token's letters (brackets dropped) in the lines they are drawn in:
/// one line up to two letters, else two, the first the longer. Capitals
/// for both colours, which the fill tells apart as it does the glyphs', so
/// a part looks the same on the board as in a hand.
fn letter_lines(token: &str) -> Vec<String> {
    let letters: Vec<char> = token
        .trim_matches(|c| c == '[' || c == ']')
        .chars()
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let per_line = if letters.len() <= 2 {
        letters.len().max(1)
    } else {
        letters.len().div_ceil(2)
    };
    letters
        .chunks(per_line)
        .map(|line| line.iter().collect())
        .collect()
}

/// A line's width in em, bold capitals, rounded up (W and M the widest).
fn em_width(line: &str) -> f32 {
    line.chars()
        .map(|c| match c {
            'W' | 'M' => 1.0,
            _ => 0.8,
        })
        .sum()
}

/// The font size at which `lines` fit a square of side `side`: at most
/// three fifths of it, the widest line within all but a tenth of it, the
/// lines' height within all but a tenth.
fn letters_size(lines: &[String], side: usize) -> usize {
    let room = (side - side / 10) as f32;
    let widest = lines.iter().map(|l| em_width(l)).fold(0.0, f32::max);
    let by_width = room / widest.max(1.0);
    let by_height = room / (1.1 * lines.len() as f32);
    (by_width.min(by_height) as usize).clamp(1, side * 3 / 5)
}

/// The diagram as an SVG document, White at the bottom.
pub fn svg(diagram: &Diagram) -> String {
    svg_with(diagram, SvgOptions::default())
}

/// The width a reserve takes beside the board: its label or its men.
fn reserve_width(reserve: &Reserve) -> usize {
    (reserve.label.chars().count() * CHAR_WIDTH).max(reserve.men.len() * CHIP) + MARGIN
}

/// A reserve in the row of rank index `rank`'s row top `y`: its name (and
/// `empty`), then each kind of man with its count, clickable.
fn reserve(out: &mut String, reserve: &Reserve, y: usize) {
    let x = 2 * MARGIN + BOARD;
    let name = format!("{} {}", reserve.owner.name(), reserve.area);
    let title = if reserve.men.is_empty() {
        format!("{name}: empty")
    } else {
        name
    };
    let _ = write!(
        out,
        r#"<text class="note" x="{x}" y="{}" font-size="11" font-family="monospace">{}</text>"#,
        y + 10,
        escape(&title)
    );
    for (i, men) in reserve.men.iter().enumerate() {
        let target = Target::reserve(reserve.owner, reserve.area, men.letter);
        let cx = x + i * CHIP;
        // A hand holds Mad Scientist parts, written in brackets as parts
        // are on the board, so they are drawn by letter: a Barc `B` is no
        // Bishop, and gets no Bishop's glyph.
        let token = if reserve.area == "hand" {
            format!("[{}]", men.letter)
        } else {
            men.letter.to_string()
        };
        let cell = Cell {
            token,
            color: Some(men.color),
            ..Cell::default()
        };
        let _ = write!(
            out,
            r##"<g class="reserve-men" data-target="{target}"><rect class="chip" x="{cx}" y="{}" width="{}" height="{}" rx="4" fill="#f4f4f4" stroke="#c8c8c8"/>"##,
            y + 13,
            CHIP - 4,
            SQUARE - 15
        );
        man(out, "reserve-man", &cell, cx, y + 13, SQUARE - 15);
        let _ = write!(
            out,
            r##"<text class="count" x="{}" y="{}" font-size="10" text-anchor="end" fill="#303030" font-family="sans-serif">{}</text></g>"##,
            cx + CHIP - 5,
            y + SQUARE - 3,
            men.count
        );
    }
}

/// The diagram as an SVG document, turned as `options` say.
pub fn svg_with(diagram: &Diagram, options: SvgOptions) -> String {
    let beside_width = diagram
        .beside
        .iter()
        .flatten()
        .map(|note| note.chars().count() * CHAR_WIDTH + MARGIN)
        .chain(diagram.reserves.iter().map(reserve_width))
        .max()
        .unwrap_or(0);
    let below_width = diagram
        .below
        .iter()
        .map(|line| line.chars().count() * CHAR_WIDTH + MARGIN)
        .max()
        .unwrap_or(0);
    let width = (2 * MARGIN + BOARD + beside_width).max(below_width + MARGIN);
    let height = 2 * MARGIN + BOARD + LINE * diagram.below.len() + 4;
    // Where a rank's row and a file's column are drawn.
    let row = |rank: usize| if options.flipped { rank } else { 7 - rank };
    let column = |file: usize| if options.flipped { 7 - file } else { file };
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">"#
    );
    let _ = write!(
        out,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    for rank in 0..8 {
        for file in 0..8 {
            let cell = &diagram.cells[rank * 8 + file];
            let x = MARGIN + column(file) * SQUARE;
            let y = MARGIN + row(rank) * SQUARE;
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let (class, fill) = if (rank + file) % 2 == 0 {
                ("dark", "#b58863")
            } else {
                ("light", "#f0d9b5")
            };
            let _ = write!(
                out,
                r#"<g class="cell" data-target="{name}"><rect class="square {class}" id="{name}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
            );
            if cell.announced {
                let _ = write!(
                    out,
                    r##"<rect class="announced" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#e07000" stroke-width="3"/>"##,
                    x + 2,
                    y + 2,
                    SQUARE - 4,
                    SQUARE - 4
                );
            }
            if let Some(count) = cell.countdown {
                let _ = write!(
                    out,
                    r##"<rect class="poisoned" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#8000a0" fill-opacity="0.3"/>"##
                );
                for (anchor, cx) in [("start", x + 3), ("end", x + SQUARE - 3)] {
                    let _ = write!(
                        out,
                        r##"<text class="countdown" x="{cx}" y="{}" font-size="11" text-anchor="{anchor}" fill="#c00000" font-family="sans-serif" font-weight="bold">{count}</text>"##,
                        y + 11
                    );
                }
            }
            piece(&mut out, cell, x, y);
            out.push_str("</g>");
        }
    }
    for i in 0..8 {
        let file = (b'a' + i as u8) as char;
        let x = MARGIN + column(i) * SQUARE + SQUARE / 2;
        let rank = i + 1;
        let y = MARGIN + row(i) * SQUARE + SQUARE / 2 + 4;
        let _ = write!(
            out,
            r#"<text class="coordinate" x="{x}" y="{}" font-size="12" text-anchor="middle" font-family="sans-serif">{file}</text><text class="coordinate" x="{}" y="{y}" font-size="12" text-anchor="middle" font-family="sans-serif">{rank}</text>"#,
            MARGIN + BOARD + 14,
            MARGIN / 2
        );
    }
    for (rank, note) in diagram.beside.iter().enumerate() {
        if let Some(note) = note {
            let _ = write!(
                out,
                r#"<text class="note" x="{}" y="{}" font-size="13" font-family="monospace">{}</text>"#,
                2 * MARGIN + BOARD,
                MARGIN + row(rank) * SQUARE + SQUARE / 2 + 4,
                escape(note)
            );
        }
    }
    for held in &diagram.reserves {
        reserve(&mut out, held, MARGIN + row(held.rank) * SQUARE);
    }
    for (i, line) in diagram.below.iter().enumerate() {
        let _ = write!(
            out,
            r#"<text class="note" x="{MARGIN}" y="{}" font-size="13" font-family="monospace">{}</text>"#,
            2 * MARGIN + BOARD + LINE * i + 8,
            escape(line)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::ReserveMen;

    fn drawn(token: &str) -> String {
        let cell = Cell {
            token: token.to_owned(),
            color: Some(Color::White),
            ..Cell::default()
        };
        let mut out = String::new();
        man(&mut out, "piece", &cell, 0, 0, SQUARE);
        out
    }

    #[test]
    fn a_part_in_hand_is_drawn_by_its_letter_and_a_prisoner_by_its_glyph() {
        let mut diagram = Diagram::empty();
        for area in ["hand", "prison"] {
            diagram.reserves.push(Reserve {
                owner: Color::White,
                area,
                rank: 0,
                label: String::new(),
                men: vec![ReserveMen {
                    letter: 'B',
                    color: Color::White,
                    count: 1,
                }],
            });
        }
        let svg = svg(&diagram);
        let hand = &svg[svg.find(r#"data-target="white-hand-B""#).unwrap()..];
        let prison = &svg[svg.find(r#"data-target="white-prison-B""#).unwrap()..];
        assert!(
            hand[..hand.find("</g>").unwrap()].contains(">B</text>"),
            "{hand}"
        );
        assert!(prison[..prison.find("</g>").unwrap()].contains(">\u{265D}</text>"));
    }

    #[test]
    fn composite_pieces_fit_their_square() {
        assert!(
            drawn("B").contains(r#"font-size="36""#),
            "a glyph: four fifths"
        );
        let part = drawn("[b]");
        assert!(
            part.contains(r#"font-size="27""#) && part.ends_with(">B</text>"),
            "{part}"
        );
        for (token, lines, size) in [
            ("[WC]", vec!["WC"], 22),
            ("[WWF]", vec!["WW", "F"], 18),
            ("[WWFFC]", vec!["WWF", "FC"], 14),
            ("[WWFF]", vec!["WW", "FF"], 18),
            ("[WWFFCCBB]", vec!["WWFF", "CCBB"], 11),
        ] {
            let out = drawn(token);
            assert!(
                out.contains(&format!(r#"font-size="{size}""#)),
                "{token}: {out}"
            );
            let shown: Vec<&str> = out
                .split("lengthAdjust=\"spacingAndGlyphs\">")
                .skip(1)
                .map(|rest| &rest[..rest.find('<').unwrap()])
                .collect();
            assert_eq!(shown, lines, "{token}");
            for length in out.split("textLength=\"").skip(1) {
                let length: usize = length[..length.find('"').unwrap()].parse().unwrap();
                assert!(length <= SQUARE - SQUARE / 10, "{token}: {length}");
            }
            assert!(lines.len() * size * 11 / 10 <= SQUARE, "{token}: too tall");
        }
    }
}
