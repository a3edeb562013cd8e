//! Exact pixels of the frame: sizes, colours, glyphs, the panels, and that
//! nothing drawn for a square leaves it.

use super::*;
use crate::render::ReserveMen;
use crate::{AnyGame, Variant};

/// A variant by its registered name (only the registry names variants in
/// code: env/tests/integration/layout.rs).
fn by_name(name: &str) -> Variant {
    name.parse().expect("a registered variant")
}

/// The colour of pixel (`x`, `y`) of a frame from [`rgb`].
fn pixel(frame: &[u8], x: usize, y: usize) -> [u8; 3] {
    let at = (y * RASTER_WIDTH + x) * 3;
    [frame[at], frame[at + 1], frame[at + 2]]
}

/// The pixels where two frames differ, as (x, y).
fn differences(a: &[u8], b: &[u8]) -> Vec<(usize, usize)> {
    assert_eq!(a.len(), b.len());
    (0..RASTER_HEIGHT)
        .flat_map(|y| (0..RASTER_WIDTH).map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(a, x, y) != pixel(b, x, y))
        .collect()
}

fn inside(square: usize, (x, y): (usize, usize)) -> bool {
    let (left, top) = square_origin(square);
    (left..left + SQUARE_PX).contains(&x) && (top..top + SQUARE_PX).contains(&y)
}

fn with_cell(square: usize, cell: Cell) -> Diagram {
    let mut diagram = Diagram::empty();
    diagram.cells[square] = cell;
    diagram
}

fn man(token: &str, color: Color) -> Cell {
    Cell {
        token: token.to_owned(),
        color: Some(color),
        ..Cell::default()
    }
}

#[test]
fn the_frame_is_576_by_384_on_white() {
    let frame = rgb(&Diagram::empty());
    assert_eq!((RASTER_WIDTH, RASTER_HEIGHT), (576, 384));
    assert_eq!(frame.len(), 576 * 384 * 3);
    assert_eq!(pixel(&frame, 0, 0), [255, 255, 255]);
    assert_eq!(pixel(&frame, 575, 383), [255, 255, 255]);
}

#[test]
fn squares_are_light_and_dark_as_on_a_board() {
    let frame = rgb(&Diagram::empty());
    assert_eq!(square_origin(0), (16, 240)); // a1
    assert_eq!(square_origin(63), (240, 16)); // h8
    for (square, color) in [
        (0, DARK_SQUARE),
        (7, LIGHT_SQUARE),
        (56, LIGHT_SQUARE),
        (63, DARK_SQUARE),
        (28, LIGHT_SQUARE), // e4
        (12, LIGHT_SQUARE), // e2
        (11, DARK_SQUARE),  // d2
    ] {
        let (x, y) = square_origin(square);
        for (dx, dy) in [(0, 0), (16, 16), (31, 31)] {
            assert_eq!(pixel(&frame, x + dx, y + dy), color, "square {square}");
        }
    }
    assert_eq!(LIGHT_SQUARE, [240, 217, 181]);
    assert_eq!(DARK_SQUARE, [181, 136, 99]);
}

#[test]
fn a_piece_letter_is_3x_and_outlined() {
    // e1 (dark): the K starts at (8, 5) in its square, 15 x 21 pixels.
    let frame = rgb(&with_cell(4, man("K", Color::White)));
    let (x, y) = square_origin(4);
    let (x, y) = (x + 8, y + 5);
    assert_eq!(pixel(&frame, x, y), [255, 255, 255]); // K's top-left block
    assert_eq!(pixel(&frame, x + 2, y + 2), [255, 255, 255]);
    assert_eq!(pixel(&frame, x + 3, y + 1), [0, 0, 0]); // outline right of it
    assert_eq!(pixel(&frame, x - 1, y + 1), [0, 0, 0]); // outline left of it
    assert_eq!(pixel(&frame, x + 7, y + 1), DARK_SQUARE); // the gap in "#...#"
    assert_eq!(pixel(&frame, x + 12, y), [255, 255, 255]); // top-right block
    let black = rgb(&with_cell(4, man("k", Color::Black)));
    assert_eq!(pixel(&black, x, y), [0, 0, 0]);
    assert_eq!(pixel(&black, x + 3, y + 1), [255, 255, 255]);
    assert_eq!(pixel(&black, x + 7, y + 1), DARK_SQUARE);
}

#[test]
fn poisoned_squares_are_tinted_with_countdowns_in_both_corners() {
    assert_eq!(POISONED_LIGHT, [206, 152, 175]);
    assert_eq!(POISONED_DARK, [165, 95, 117]);
    let cell = Cell {
        countdown: Some(4),
        ..man("B", Color::White)
    };
    let frame = rgb(&with_cell(0, cell));
    let (x, y) = square_origin(0);
    assert_eq!(pixel(&frame, x, y), POISONED_DARK);
    assert_eq!(pixel(&frame, x + 31, y + 31), POISONED_DARK);
    // '4' is "...#." on its top row: the 4th column, at x + 2 and x + 25.
    assert_eq!(pixel(&frame, x + 5, y + 2), COUNTDOWN);
    assert_eq!(pixel(&frame, x + 28, y + 2), COUNTDOWN);
    assert_eq!(pixel(&frame, x + 4, y + 2), POISONED_DARK);
}

#[test]
fn an_announced_piece_has_a_ring_inside_its_square() {
    let cell = Cell {
        announced: true,
        ..man("N", Color::Black)
    };
    let frame = rgb(&with_cell(63, cell));
    let (x, y) = square_origin(63);
    assert_eq!(pixel(&frame, x, y), DARK_SQUARE);
    assert_eq!(pixel(&frame, x + 1, y + 1), ANNOUNCED);
    assert_eq!(pixel(&frame, x + 2, y + 16), ANNOUNCED);
    assert_eq!(pixel(&frame, x + 30, y + 30), ANNOUNCED);
    assert_eq!(pixel(&frame, x + 3, y + 3), DARK_SQUARE);
    assert_eq!(pixel(&frame, x + 31, y + 31), DARK_SQUARE);
}

#[test]
fn nothing_drawn_for_a_square_leaves_it() {
    let empty = rgb(&Diagram::empty());
    for token in ["[WWFFCCBB]", "[WWC]", "Q", "\u{e9}\u{e9}", ""] {
        for square in [0, 27, 63] {
            let cell = Cell {
                countdown: Some(5),
                announced: true,
                ..man(token, Color::White)
            };
            let frame = rgb(&with_cell(square, cell));
            let changed = differences(&empty, &frame);
            assert!(!changed.is_empty(), "{token}");
            assert!(changed.iter().all(|&p| inside(square, p)), "{token}");
        }
    }
}

#[test]
fn a_move_changes_its_squares_and_the_lines_below_only() {
    let mut game = AnyGame::new(by_name("chess"), None).unwrap();
    let before = rgb(&game.diagram());
    game.play("e2e4").unwrap();
    let after = rgb(&game.diagram());
    let changed = differences(&before, &after);
    let (board, below): (Vec<_>, Vec<_>) = changed.iter().partition(|&&(_, y)| y < BELOW_TOP);
    assert!(board.iter().any(|&p| inside(12, p)));
    assert!(board.iter().any(|&p| inside(28, p)));
    assert!(board.iter().all(|&p| inside(12, p) || inside(28, p)));
    // "white to move" -> "black to move": the first word of the first line.
    assert!(!below.is_empty());
    assert!(below
        .iter()
        .all(|&(x, y)| y < BELOW_TOP + LINE_PX && x < EDGE + 5 * ADVANCE));
}

#[test]
fn every_variant_draws_the_same_bytes_twice() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant, None).unwrap();
        let frame = rgb(&game.diagram());
        assert_eq!(frame.len(), RASTER_WIDTH * RASTER_HEIGHT * 3);
        assert_eq!(frame, rgb(&game.diagram()), "{variant:?}");
    }
}

#[test]
fn a_reserve_is_its_name_and_a_chip_per_kind() {
    let mut diagram = Diagram::empty();
    diagram.reserves.push(Reserve {
        owner: Color::White,
        area: "prison",
        rank: 1,
        label: "white prison: 2 black queens".to_owned(),
        men: vec![ReserveMen {
            letter: 'Q',
            color: Color::Black,
            count: 2,
        }],
    });
    let frame = rgb(&diagram);
    let top = BOARD_TOP + 6 * SQUARE_PX; // rank 2's row
    let chip_top = top + 12;
    assert_eq!(pixel(&frame, PANEL_LEFT, chip_top), CHIP_EDGE);
    assert_eq!(pixel(&frame, PANEL_LEFT + 31, chip_top + 18), CHIP_EDGE);
    assert_eq!(pixel(&frame, PANEL_LEFT + 18, chip_top + 2), CHIP);
    // Q (2x, black) starts at (3, 2) in the chip: ".###." on its top row.
    assert_eq!(pixel(&frame, PANEL_LEFT + 5, chip_top + 2), [0, 0, 0]);
    assert_eq!(pixel(&frame, PANEL_LEFT + 4, chip_top + 2), [255, 255, 255]);
    // The count 2 ends 3 pixels before the chip's right edge: ".###.".
    assert_eq!(pixel(&frame, PANEL_LEFT + 25, chip_top + 9), INK);
    assert_eq!(pixel(&frame, PANEL_LEFT + 24, chip_top + 9), CHIP);
    // The name: 'w' is "....." on its top row, "#...#" on the third.
    assert_eq!(pixel(&frame, PANEL_LEFT, top + 2), BACKGROUND);
    assert_eq!(pixel(&frame, PANEL_LEFT, top + 4), INK);
    // An empty reserve says so and has no chip.
    diagram.reserves[0].men.clear();
    let empty = rgb(&diagram);
    assert_eq!(pixel(&empty, PANEL_LEFT, chip_top), BACKGROUND);
    let mut named = Diagram::empty();
    named.beside[1] = Some("white prison: empty".to_owned());
    assert_eq!(empty, rgb(&named));
}

#[test]
fn panels_never_spill_out_of_their_rows() {
    let empty = rgb(&Diagram::empty());
    let row = |rank: usize| {
        let top = BOARD_TOP + (7 - rank) * SQUARE_PX;
        move |&(x, y): &(usize, usize)| x >= PANEL_LEFT && (top..top + SQUARE_PX).contains(&y)
    };
    // A long note: three lines in its row, the rest cut.
    let mut noted = Diagram::empty();
    noted.beside[3] = Some("word ".repeat(60));
    let changed = differences(&empty, &rgb(&noted));
    assert!(!changed.is_empty() && changed.iter().all(row(3)));
    assert!(changed
        .iter()
        .any(|&(_, y)| y >= BOARD_TOP + 4 * SQUARE_PX + 22));
    // Twenty kinds of men: the chips that fit, nothing past the panel.
    let mut crowded = Diagram::empty();
    crowded.reserves.push(Reserve {
        owner: Color::White,
        area: "hand",
        rank: 0,
        label: String::new(),
        men: (0..20)
            .map(|i| ReserveMen {
                letter: char::from(b'A' + i),
                color: Color::Black,
                count: 200,
            })
            .collect(),
    });
    let changed = differences(&empty, &rgb(&crowded));
    assert!(changed.iter().all(row(0)));
    assert!(changed.iter().all(|&(x, _)| x < RASTER_WIDTH - EDGE));
    // A reserve said to stand beside a rank the board lacks is drawn by
    // rank 8's row, never a panic.
    crowded.reserves[0].rank = 12;
    let changed = differences(&empty, &rgb(&crowded));
    assert!(changed.iter().all(row(7)));
}

#[test]
fn a_note_beside_a_reserve_goes_below_the_board() {
    let reserve = Reserve {
        owner: Color::Black,
        area: "hand",
        rank: 7,
        label: String::new(),
        men: Vec::new(),
    };
    let mut both = Diagram::empty();
    both.reserves.push(reserve.clone());
    both.beside[7] = Some("a note".to_owned());
    both.below.push("white to move".to_owned());
    let mut moved = Diagram::empty();
    moved.reserves.push(reserve);
    moved.below.push("white to move".to_owned());
    moved.below.push("rank 8: a note".to_owned());
    assert_eq!(rgb(&both), rgb(&moved));
}

#[test]
fn lines_that_do_not_fit_below_are_counted() {
    let mut long = Diagram::empty();
    long.below = (0..20).map(|i| format!("line {i}")).collect();
    let mut cut = Diagram::empty();
    cut.below = (0..8).map(|i| format!("line {i}")).collect();
    cut.below.push("... 12 more lines".to_owned());
    assert_eq!(rgb(&long), rgb(&cut));
    // The ninth line is drawn, 80 pixels below the first.
    let first = rgb(&cut);
    assert!((EDGE..EDGE + 100).any(|x| pixel(&first, x, BELOW_TOP + 80 + 3) == INK));
}

#[test]
fn lines_wrap_at_spaces() {
    assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
    assert_eq!(wrap("aa bb cc", 2), ["aa", "bb", "cc"]);
    assert_eq!(wrap("abcdefgh", 3), ["abc", "def", "gh"]);
    assert_eq!(wrap("", 5), [""]);
    assert_eq!(wrap("a  b ", 9), ["a  b"]);
    assert_eq!(
        wrap("\u{e9}\u{e9}\u{e9} \u{e9}", 3),
        ["\u{e9}\u{e9}\u{e9}", "\u{e9}"]
    );
    assert_eq!(chars_in(RASTER_WIDTH - 2 * EDGE), 93);
    // Mad Scientist's key (93 characters) is one line.
    let game = AnyGame::new(by_name("madscientist"), None).unwrap();
    let key = &game.diagram().below[1];
    assert_eq!(key.chars().count(), 93);
    assert_eq!(wrap(key, 93).len(), 1);
}

#[test]
fn the_font_covers_printable_ascii() {
    assert_eq!(
        font::glyph('A'),
        &[0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001, 0]
    );
    assert_eq!(font::glyph('\u{e9}'), font::glyph('?'));
    assert_eq!(font::glyph('\n'), font::glyph('?'));
    for c in ' '..='~' {
        assert!(font::glyph(c).iter().all(|row| row >> 5 == 0), "{c:?}");
        assert_eq!(
            font::glyph(c).iter().any(|&row| row != 0),
            c != ' ',
            "{c:?}"
        );
    }
    assert_eq!(font::text_width(3, 2), 34);
    assert_eq!(font::text_width(0, 2), 0);
}
