//! The text and SVG boards of `heterodox_env::render`: exact diagrams for
//! the extras each variant shows (countdowns, reserves, hands, announced
//! pieces) and the structure of the SVG.

use heterodox_env::{AnyGame, Variant};

fn game(variant: Variant, fen: Option<&str>) -> AnyGame {
    AnyGame::new(variant, fen).expect("valid position")
}

#[test]
fn chess_start_position_as_text() {
    assert_eq!(
        game(Variant::Chess, None).render_text(),
        "   a  b  c  d  e  f  g  h\n\
         8  r  n  b  q  k  b  n  r  8\n\
         7  p  p  p  p  p  p  p  p  7\n\
         6  .  .  .  .  .  .  .  .  6\n\
         5  .  .  .  .  .  .  .  .  5\n\
         4  .  .  .  .  .  .  .  .  4\n\
         3  .  .  .  .  .  .  .  .  3\n\
         2  P  P  P  P  P  P  P  P  2\n\
         1  R  N  B  Q  K  B  N  R  1\n   \
         a  b  c  d  e  f  g  h\n\
         white to move\n"
    );
}

/// The rule text's `4B4`: the countdown on both sides of a poisoned piece.
#[test]
fn poisoned_pieces_carry_their_countdowns() {
    let text = game(
        Variant::Poison,
        Some("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2"),
    )
    .render_text();
    assert_eq!(
        text,
        "   a  b  c  d  e  f  g  h\n\
         8  h  .  .  .  .  .  k  .  8\n\
         7  .  .  .  .  .  p  p  p  7\n\
         6  .  .  n 2d2 .  .  .  .  6\n\
         5  .  .  .  .  .  .  .  .  5\n\
         4  .  .  .  .  .  .  .  .  4\n\
         3  .  .  .  .  .  .  .  .  3\n\
         2  .  B  .  .  h  P  P  P  2\n\
         1  .  .  H  .  .  D 4K4 .  1\n   \
         a  b  c  d  e  f  g  h\n\
         white to move\n\
         H harpy, D doctor, G guard (white upper case, black lower case)\n\
         4B4: a poisoned piece; the digits count the opposing moves before it dies\n"
    );
}

#[test]
fn hostage_prisons_and_airfields_stand_beside_their_owners_ranks() {
    let text = game(
        Variant::Hostage,
        Some("r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"),
    )
    .render_text();
    assert_eq!(
        text,
        "   a  b  c  d  e  f  g  h\n\
         8  r  .  b  q  .  b  .  r  8   black airfield: empty\n\
         7  p  p  p  .  .  .  p  p  7   black prison: 1 white knight, 1 white pawn\n\
         6  .  .  n  .  k  .  .  .  6\n\
         5  .  .  .  n  p  .  .  .  5\n\
         4  .  .  B  .  .  .  .  .  4\n\
         3  .  .  .  .  .  Q  .  .  3\n\
         2  P  P  P  P  .  P  P  P  2   white prison: 2 black pawns\n\
         1  R  N  B  .  K  .  .  R  1   white airfield: empty\n   \
         a  b  c  d  e  f  g  h\n\
         white to move\n"
    );
}

/// Composite pieces by their part letters (FIDE letters for the four
/// start sets), the columns widened to the longest token, hands beside.
#[test]
fn mad_scientist_composites_and_hands() {
    let text = game(
        Variant::MadScientist,
        Some("k[cbww]6/8/8/8/8/8/8/K[FWFW][BC]5 b - - FCwb 12 30"),
    )
    .render_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 12);
    assert_eq!(
        lines[1],
        "8    k     [wwcb]    .       .       .       .       .       .     8   black hand: wb"
    );
    assert_eq!(
        lines[8],
        "1    K       Q       N       .       .       .       .       .     1   white hand: FC"
    );
    assert_eq!(lines[10], "black to move");
    assert_eq!(
        lines[11],
        "parts: W wazir, F ferz, C crab, B barc; [WWC] is one piece of those parts, \
         two of a part ride"
    );
}

/// A finished game shows its result where the turn was, and Poison's
/// legend names its letters and countdowns.
#[test]
fn finished_games_show_the_result_and_poison_its_legend() {
    let mut mated = game(Variant::Chess, None);
    for text in ["f3", "e5", "g4", "Qh4#"] {
        mated.play(text).unwrap();
    }
    let text = mated.render_text();
    assert_eq!(
        text.lines().last(),
        Some("result 0-1: black wins by checkmate")
    );
    let poison = game(Variant::Poison, None).render_text();
    assert_eq!(
        poison.lines().rev().take(2).collect::<Vec<_>>(),
        [
            "H harpy, D doctor, G guard (white upper case, black lower case)",
            "white to move"
        ]
    );
}

/// Traitor: the announced rook in parentheses, its controller, budgets and
/// both secrets (the full state).
#[test]
fn traitor_marks_announced_pieces_and_lists_the_state() {
    let text = game(
        Variant::Traitor,
        Some(
            "rnbqk2r/pppp1ppp/8/2b1p3/2B1P3/2N2N2/PPPP1nPP/R1BQ1RK1 w kq - 0 6 \
             f1=h1,g1=e1,f2=g8,c3=b1,f3=g1,c4=f1,e4=e2,c5=f8,e5=e7 f1 9,4 -/h1 d8/c1,g2 open - -",
        ),
    )
    .render_text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[8], "1  R  .  B  Q  . (R) K  .  1");
    assert_eq!(
        lines[10..],
        [
            "mode traitor, commitment standard",
            // The traitor rook on f1 and the knight on f2 have mated White.
            "result 0-1: black wins by checkmate",
            "announced f1 (from h1): moved by black",
            "budgets: white 9, black 4",
            "secrets: white d8, black c1,g2",
        ]
    );
}

#[test]
fn svg_has_sixty_four_squares_and_the_countdowns() {
    for variant in Variant::ALL {
        let svg = game(variant, None).render_svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("class=\"square ").count(), 64, "{variant}");
        assert_eq!(svg.matches("class=\"piece ").count(), 32, "{variant}");
    }
    let svg = game(
        Variant::Poison,
        Some("h5k1/5ppp/2nd4/8/8/8/1B2hPPP/2H2DK1 w - - 0 1 g1:4,d6:2"),
    )
    .render_svg();
    assert_eq!(svg.matches("class=\"poisoned\"").count(), 2);
    assert_eq!(svg.matches("class=\"countdown\"").count(), 4);
    assert_eq!(svg.matches(">4</text>").count(), 2 + 1); // two countdowns and rank 4
}

/// Every square and every kind of reserve man is a clickable group named
/// like a gesture's target; the flipped board has a1 top right.
#[test]
fn svg_names_squares_and_reserve_men_and_turns_over() {
    use heterodox_env::render::{svg_with, SvgOptions};
    let hostage = game(
        Variant::Hostage,
        Some("r1bq1b1r/ppp3pp/2n1k3/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R[pp/NP/-/-] w KQ - 2 8"),
    );
    let svg = hostage.render_svg();
    assert_eq!(svg.matches("<g class=\"cell\" data-target=\"").count(), 64);
    assert!(svg.contains(
        r#"<g class="cell" data-target="a1"><rect class="square dark" id="a1" x="20" y="335""#
    ));
    let reserve_men: Vec<&str> = svg
        .split("<g class=\"reserve-men\" data-target=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    assert_eq!(
        reserve_men,
        ["white-prison-P", "black-prison-N", "black-prison-P"]
    );
    assert!(svg.contains(">2</text></g>"), "the two pawns' count");
    assert!(svg.contains(">white airfield: empty</text>"));
    let flipped = svg_with(&hostage.diagram(), SvgOptions { flipped: true });
    assert!(flipped.contains(r#"<rect class="square dark" id="a1" x="335" y="20""#));
    assert!(flipped.contains(r#"<rect class="square dark" id="h8" x="20" y="335""#));
}
