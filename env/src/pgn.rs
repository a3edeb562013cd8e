//! PGN text for games of every variant: the movetext of a game whose turns
//! may span several steps, and the tag section around it.
//!
//! Written once here so that the command line (`heterodox play`) and the
//! game-record export (`heterodox_data::pgn`) number and group turns
//! the same way. Moves are written in each variant's own notation
//! ([`crate::Position::notation`]); a `[Variant "..."]` tag says which.
//!
//! Turn numbering: a number before each White turn, and before the first
//! turn when Black starts (`1... e5`). A turn of several steps by the same
//! player stays together: Traitor's announcement runs into its move as the
//! rules text writes it (`(T-e7)g4`), Mad Scientist's discards follow the
//! move after a space (`hxg4 -W -W`).
//!
//! Reading: [`line_moves`] takes a line of moves apart into its moves, for
//! every reader of such lines (opening books, Python's `Game.play`).

use std::fmt::Write;

use crate::Color;

/// Export lines of movetext are at most this long (PGN export format), unless
/// a single token is longer.
pub const LINE_WIDTH: usize = 80;

/// The movetext of one game, built step by step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movetext {
    text: String,
    /// The turn number last written.
    number: u32,
    /// Who took the previous step (`None` before the first).
    previous: Option<Color>,
}

impl Movetext {
    pub fn new() -> Movetext {
        Movetext::default()
    }

    /// Appends one step taken by `player`, written `notation` in the
    /// variant's notation. `player` is the side to act before the step
    /// (`Position::turn`), which is how a step is known to continue the
    /// turn before it.
    pub fn push(&mut self, player: Color, notation: &str) {
        if self.previous == Some(player) {
            // Same turn: an announcement `(T-e7)` runs into its move.
            if !self.text.ends_with(')') {
                self.text.push(' ');
            }
        } else {
            if !self.text.is_empty() {
                self.text.push(' ');
            }
            if player == Color::White || self.previous.is_none() {
                self.number += 1;
                let dots = if player == Color::White { "." } else { "..." };
                let _ = write!(self.text, "{}{dots} ", self.number);
            }
        }
        self.text.push_str(notation);
        self.previous = Some(player);
    }

    /// The movetext so far, on one line, without a result.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

/// A tag value with `\` and `"` escaped, as PGN requires.
pub fn escape_tag_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// One game in PGN export form: a `[Name "value"]` line per tag (in the
/// order given; values escaped), a blank line, the movetext followed by the
/// result token wrapped at [`LINE_WIDTH`] columns, and a final newline.
/// Games of a file are separated by one blank line (the caller's join).
pub fn pgn_game(tags: &[(&str, &str)], movetext: &str, result: &str) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        out.push_str(&escape_tag_value(value));
        out.push_str("\"]\n");
    }
    out.push('\n');
    let mut column = 0;
    for token in movetext.split_whitespace().chain([result]) {
        if column > 0 && column + 1 + token.len() > LINE_WIDTH {
            out.push('\n');
            column = 0;
        } else if column > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(token);
        column += token.len();
    }
    out.push('\n');
    out
}

/// The results that may end a line of moves.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The moves of a line of movetext in any variant's notation, in order,
/// each for the variant's reader of one turn
/// ([`crate::GameVariant::play_text`]): the whitespace-separated tokens
/// without move numbers, and without a result (`1-0`, `0-1`, `1/2-1/2`,
/// `*`) as the last token. Shared by every reader of such lines, so
/// that `1. e4 e5 2. Nf3`, `1.e4 e5 2.Nf3`, `1... e5` and `1...e5` read
/// alike everywhere.
///
/// A move number is digits then one or more dots: a token that is only that
/// (`1.`, `12.`, `1...`) is skipped, and one that runs into its move
/// (`1.e4`, `12.Nf3`, `1...e5`) gives the move after the dots. Numbers are
/// not checked against the position, as python-chess and other PGN readers
/// do not check them: `3.e4` as a game's first move reads as `e4`. Nothing
/// else is changed, so a bad move comes back as written after its number
/// (`1.e9` gives `e9`) for the variant's reader to refuse by name. There are
/// no comments, NAGs or variations here (Traitor's `(T-e7)g4` is one move).
pub fn line_moves(line: &str) -> Vec<&str> {
    let mut moves: Vec<&str> = line
        .split_whitespace()
        .filter_map(without_move_number)
        .collect();
    if moves.last().is_some_and(|last| RESULTS.contains(last)) {
        moves.pop();
    }
    moves
}

/// `token` without a leading move number (digits and dots), `None` when
/// nothing is left.
fn without_move_number(token: &str) -> Option<&str> {
    let after_digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let after_dots = after_digits.trim_start_matches('.');
    let numbered = after_digits.len() < token.len() && after_dots.len() < after_digits.len();
    match (numbered, after_dots) {
        (false, _) => Some(token),
        (true, "") => None,
        (true, rest) => Some(rest),
    }
}

/// The `Date` of a game whose day is not recorded.
pub const UNKNOWN_DATE: &str = "????.??.??";

/// The tag section every PGN the project writes shares, in this order:
/// the seven-tag roster (`Event`, `Site` `?`, `Date`, `Round`, `White`,
/// `Black`, `Result`), `Variant`, `VariantOptions` (the
/// rule settings as `key=value,...`; omitted when empty), `SetUp "1"` and
/// `FEN` (always: a variant's start is not chess's, and a game read back
/// should not depend on knowing that), and `Termination` when known.
/// One writer for the command line, the web server, the game records and
/// Python, so that a game reads back the same wherever it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTags<'a> {
    pub event: &'a str,
    /// `YYYY.MM.DD`, or [`UNKNOWN_DATE`].
    pub date: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game that goes on.
    pub result: &'a str,
    /// The variant's registered name.
    pub variant: &'a str,
    /// The rule settings, `key=value,...` (empty: the variant's defaults).
    pub options: &'a str,
    /// The start position.
    pub fen: &'a str,
    pub termination: Option<&'a str>,
}

impl GameTags<'_> {
    /// The game in PGN export form ([`pgn_game`]) with these tags.
    pub fn game(&self, movetext: &str) -> String {
        let mut tags = vec![
            ("Event", self.event),
            ("Site", "?"),
            ("Date", self.date),
            ("Round", self.round),
            ("White", self.white),
            ("Black", self.black),
            ("Result", self.result),
            ("Variant", self.variant),
        ];
        if !self.options.is_empty() {
            tags.push(("VariantOptions", self.options));
        }
        tags.extend([("SetUp", "1"), ("FEN", self.fen)]);
        if let Some(termination) = self.termination {
            tags.push(("Termination", termination));
        }
        pgn_game(&tags, movetext, self.result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    /// The movetext of `steps`, each pushed by its player in order.
    fn movetext(steps: &[(Color, &str)]) -> Movetext {
        let mut text = Movetext::new();
        for &(player, step) in steps {
            text.push(player, step);
        }
        text
    }

    #[test]
    fn numbers_white_turns_and_a_black_start() {
        let text = movetext(&[(White, "e4"), (Black, "e5"), (White, "Nf3")]);
        assert_eq!(text.as_str(), "1. e4 e5 2. Nf3");
        let text = movetext(&[(Black, "e5"), (White, "Nf3")]);
        assert_eq!(text.as_str(), "1... e5 2. Nf3");
    }

    #[test]
    fn multi_step_turns_stay_together() {
        let text = movetext(&[
            (White, "(S-d7,e7)"),
            (Black, "(S-Nb1)"),
            (White, "(T-e7)"),
            (White, "g4"),
            (Black, "hxg4"),
            (Black, "-W"),
            (Black, "-W"),
        ]);
        assert_eq!(text.as_str(), "1. (S-d7,e7) (S-Nb1) 2. (T-e7)g4 hxg4 -W -W");
    }

    #[test]
    fn tags_are_escaped_and_movetext_wrapped() {
        let round = [
            (White, "Nf3"),
            (Black, "Nf6"),
            (White, "Ng1"),
            (Black, "Ng8"),
        ];
        let text = movetext(&round.repeat(12));
        let pgn = pgn_game(&[("Event", "a \"b\" \\ c")], text.as_str(), "1/2-1/2");
        let lines: Vec<&str> = pgn.lines().collect();
        assert_eq!(lines[0], r#"[Event "a \"b\" \\ c"]"#);
        assert_eq!(lines[1], "");
        assert!(lines[2..].iter().all(|l| l.len() <= LINE_WIDTH), "{pgn}");
        assert_eq!(
            lines[2],
            "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8."
        );
        assert!(pgn.ends_with(" 1/2-1/2\n"), "{pgn}");
        assert_eq!(lines[2..].join(" "), format!("{} 1/2-1/2", text.as_str()));
        assert_eq!(pgn_game(&[], "", "*"), "\n*\n");
    }

    #[test]
    fn game_tags_in_the_shared_order() {
        let tags = GameTags {
            event: "play",
            date: UNKNOWN_DATE,
            round: "1",
            white: "you",
            black: "ab@3",
            result: "*",
            variant: "traitor",
            options: "mode=defector",
            fen: "8/8/8/8/8/8/8/8 w - - 0 1",
            termination: None,
        };
        assert_eq!(
            tags.game("1. e4"),
            "[Event \"play\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n\
             [White \"you\"]\n[Black \"ab@3\"]\n[Result \"*\"]\n[Variant \"traitor\"]\n\
             [VariantOptions \"mode=defector\"]\n[SetUp \"1\"]\n\
             [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n"
        );
        let ended = GameTags {
            options: "",
            result: "1-0",
            termination: Some("checkmate"),
            ..tags
        };
        let text = ended.game("1. e4");
        assert!(!text.contains("VariantOptions"), "{text}");
        assert!(
            text.ends_with("[Termination \"checkmate\"]\n\n1. e4 1-0\n"),
            "{text}"
        );
    }

    #[test]
    fn line_moves_skip_move_numbers_in_every_form() {
        let chess = ["e4", "e5", "Nf3", "Nc6", "Bc4"];
        for line in [
            "1. e4 e5 2. Nf3 Nc6 3. Bc4",
            "1.e4 e5 2.Nf3 Nc6 3.Bc4",
            "1.e4 1...e5 2.Nf3 2... Nc6 3.Bc4 *",
            "  1. e4\te5\n2.Nf3 Nc6 3. Bc4 1-0 ",
            "e4 e5 Nf3 Nc6 Bc4 1/2-1/2",
            // Numbers are not checked against the moves they stand before.
            "3.e4 e5 7.Nf3 Nc6 12.Bc4 0-1",
        ] {
            assert_eq!(line_moves(line), chess, "{line}");
        }
        assert_eq!(line_moves("1... e5 2. Nf3"), ["e5", "Nf3"]);
        assert_eq!(line_moves("1...e5 2.Nf3"), ["e5", "Nf3"]);
        assert_eq!(line_moves("12.Nf3"), ["Nf3"]);
        assert_eq!(line_moves("1. 2... *"), Vec::<&str>::new());
        assert_eq!(line_moves(""), Vec::<&str>::new());
    }

    #[test]
    fn line_moves_leave_bad_moves_and_other_notations_as_written() {
        // The move after a number comes back as written, to be refused by name.
        assert_eq!(line_moves("1.e9"), ["e9"]);
        assert_eq!(line_moves("1.e4 e5 2.Qxf9"), ["e4", "e5", "Qxf9"]);
        // A bare number, or a result before the end, is no move number.
        assert_eq!(line_moves("1 e4"), ["1", "e4"]);
        assert_eq!(line_moves("e4 1-0 e5"), ["e4", "1-0", "e5"]);
        // Castling with zeros is a move, not a number.
        assert_eq!(line_moves("1.0-0 0-0-0"), ["0-0", "0-0-0"]);
        // The variants' notations (every one starts with no digit).
        assert_eq!(
            line_moves("1. (S-d7,e7) (S-Nb1) 2.(T-e7)g4 hxg4 -W -W 3.[WC]e4 C@e2 W+d1"),
            [
                "(S-d7,e7)",
                "(S-Nb1)",
                "(T-e7)g4",
                "hxg4",
                "-W",
                "-W",
                "[WC]e4",
                "C@e2",
                "W+d1"
            ]
        );
        assert_eq!(
            line_moves("1.xHe5#[f5,5] 1...Dg6[g5,C] 2.*d7 (N-B)B*f7 *"),
            ["xHe5#[f5,5]", "Dg6[g5,C]", "*d7", "(N-B)B*f7"]
        );
    }
}
