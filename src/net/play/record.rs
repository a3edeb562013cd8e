//! The game of `heterodox play` as it was played, step by step: what
//! `undo` takes back and what the PGN file holds.
//!
//! Every step is kept with the player who took it and its notation, so a
//! turn of several steps (a Traitor announcement and its move, Mad
//! Scientist's discards) is taken back whole and written as one turn by the
//! shared movetext writer ([`heterodox_env::pgn`]), like every PGN the
//! project writes. The PGN is the person's record: under hidden
//! information the agent's steps they could not tell apart (a Traitor
//! secret selection) are written `(secret)`, as the browser game writes
//! them, and the start position is their view of it.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use heterodox_env::pgn::{GameTags, Movetext};
use heterodox_env::{Color, Game, GameVariant, MoveError};
use heterodox_training::arena::player::is_secret_step;

/// How a step the person may not see is written (the browser game's
/// word for it).
pub const SECRET_STEP: &str = "(secret)";

struct Step<A> {
    player: Color,
    action: A,
    /// The step as the person reads it: its notation, or [`SECRET_STEP`].
    shown: String,
}

/// How the game ended, for the PGN's result and `Termination`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The rules ended it (the game's own outcome).
    Rules,
    /// The person resigned: the agent wins.
    Resigned,
    /// Stopped unfinished: `quit`, the end of input or the ply cap.
    Stopped(&'static str),
}

/// A game of the person (`human`) against an agent, from its start.
pub struct Record<P: GameVariant> {
    start: P,
    game: Game<P>,
    steps: Vec<Step<P::Action>>,
    human: Color,
}

impl<P: GameVariant> Record<P> {
    pub fn new(start: P, human: Color) -> Record<P> {
        Record {
            game: Game::new(start.clone()),
            start,
            steps: Vec::new(),
            human,
        }
    }

    pub fn game(&self) -> &Game<P> {
        &self.game
    }

    /// The last step as the person may read it.
    pub fn last_shown(&self) -> Option<&str> {
        self.steps.last().map(|step| step.shown.as_str())
    }

    /// Plays the agent's `action` (legal: it was chosen in this game).
    pub fn play_agent(&mut self, action: P::Action) -> Result<(), MoveError> {
        let player = self.game.position().turn();
        let shown = if is_secret_step(&self.game, &action, self.human) {
            SECRET_STEP.to_owned()
        } else {
            self.game.position().notation(&action)
        };
        self.game.play(&action)?;
        self.steps.push(Step {
            player,
            action,
            shown,
        });
        Ok(())
    }

    /// Plays the person's turn typed as `text` in the variant's notation
    /// (one step, or a Traitor announcement and its move together); what
    /// was played, in standard notation. On error nothing changes.
    pub fn play_human(&mut self, text: &str) -> Result<String, MoveError> {
        let mut after = self.game.clone();
        let (long, standard) = P::play_text(&mut after, text)?;
        // The steps played, one long token each, read back on the way.
        let mut replay = self.game.clone();
        let mut steps = Vec::new();
        for token in long.split_whitespace() {
            let player = replay.position().turn();
            let action = replay.position().parse_action(token)?;
            let shown = replay.position().notation(&action);
            replay.play(&action)?;
            steps.push(Step {
                player,
                action,
                shown,
            });
        }
        self.game = after;
        self.steps.extend(steps);
        Ok(standard)
    }

    /// Takes back the agent's steps since the person's last turn and that
    /// turn (or the person's unfinished turn), so that the person is to
    /// act again: what was taken back, in the order it was played, or
    /// `None`, nothing changed, when the person has no step to take back.
    pub fn undo(&mut self) -> Option<Vec<String>> {
        let mut keep = self.steps.len();
        while keep > 0 && self.steps[keep - 1].player != self.human {
            keep -= 1;
        }
        if keep == 0 {
            return None;
        }
        while keep > 0 && self.steps[keep - 1].player == self.human {
            keep -= 1;
        }
        let taken = self.steps.split_off(keep);
        let mut game = Game::new(self.start.clone());
        for step in &self.steps {
            game.play_unchecked(&step.action);
        }
        self.game = game;
        Some(taken.into_iter().map(|step| step.shown).collect())
    }

    /// The game as PGN: the tags of the project's other PGN writers
    /// (docs/cli.md), the person as `human`, the agent by its name.
    pub fn pgn(&self, agent: &str, options: &str, ending: Ending, date: &str) -> String {
        let (result, termination) = match (ending, self.game.outcome()) {
            (Ending::Rules, Some(outcome)) => {
                (outcome.result(), outcome.termination().name().to_owned())
            }
            (Ending::Resigned, _) => (
                match self.human {
                    Color::White => "0-1",
                    Color::Black => "1-0",
                },
                "resignation".to_owned(),
            ),
            (Ending::Stopped(why), _) => ("*", why.to_owned()),
            (Ending::Rules, None) => ("*", "abandoned".to_owned()),
        };
        let (white, black) = match self.human {
            Color::White => ("human", agent),
            Color::Black => (agent, "human"),
        };
        let fen = P::view_string(&self.start.view(self.human));
        let mut movetext = Movetext::new();
        for step in &self.steps {
            movetext.push(step.player, &step.shown);
        }
        GameTags {
            event: "heterodox play",
            date,
            round: "-",
            white,
            black,
            result,
            variant: P::VARIANT.name(),
            options,
            fen: &fen,
            termination: Some(&termination),
        }
        .game(movetext.as_str())
    }
}

/// Today's date (UTC) for the PGN's `Date` tag, `YYYY.MM.DD`, and the
/// time for a default file name, `YYYYMMDD-HHMMSS`.
pub fn now() -> (String, String) {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_from_days((seconds / 86_400) as i64);
    let time = seconds % 86_400;
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
            time / 3600,
            time / 60 % 60,
            time % 60
        ),
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), so a date needs no dependency.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Where the PGN goes: `--pgn FILE`, or `play-VARIANT-YYYYMMDD-HHMMSS.pgn`
/// in the current directory. Its directory must exist, checked before the
/// game starts rather than after it.
pub fn pgn_path(given: Option<&Path>, variant: &str, stamp: &str) -> Result<PathBuf, String> {
    let path = given.map_or_else(
        || PathBuf::from(format!("play-{variant}-{stamp}.pgn")),
        Path::to_path_buf,
    );
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "cannot write the game to {}: {} is not a directory",
            path.display(),
            dir.display()
        ));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use heterodox_env::{Chess, Position};

    use super::*;

    #[test]
    fn dates_are_the_civil_calendar_s() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_786), (2026, 11, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn undo_takes_back_the_person_s_turn_and_the_reply() {
        let mut record = Record::new(Chess::new(), Color::White);
        assert_eq!(record.undo(), None);
        record.play_human("e4").unwrap();
        let reply = record.game().position().parse_action("e7e5").unwrap();
        record.play_agent(reply).unwrap();
        record.play_human("Nf3").unwrap();
        assert_eq!(record.undo(), Some(vec!["Nf3".to_owned()]));
        assert_eq!(record.undo(), Some(vec!["e4".to_owned(), "e5".to_owned()]));
        assert_eq!(record.game().position().fen(), Chess::new().fen());
        assert_eq!(record.undo(), None);

        // The agent's first move as White is not the person's to take back.
        let mut record = Record::new(Chess::new(), Color::Black);
        let first = record.game().position().parse_action("d2d4").unwrap();
        record.play_agent(first).unwrap();
        assert_eq!(record.undo(), None);
        assert_eq!(record.game().plies(), 1);
    }

    #[test]
    fn the_pgn_has_the_project_s_tags() {
        let mut record = Record::new(Chess::new(), Color::Black);
        let first = record.game().position().parse_action("e2e4").unwrap();
        record.play_agent(first).unwrap();
        record.play_human("c5").unwrap();
        assert_eq!(
            record.pgn("ab@2", "", Ending::Stopped("abandoned"), "2026.11.29"),
            "[Event \"heterodox play\"]\n[Site \"?\"]\n[Date \"2026.11.29\"]\n\
             [Round \"-\"]\n[White \"ab@2\"]\n[Black \"human\"]\n[Result \"*\"]\n\
             [Variant \"chess\"]\n[SetUp \"1\"]\n\
             [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\
             [Termination \"abandoned\"]\n\n1. e4 c5 *\n"
        );
        assert!(record
            .pgn("ab@2", "", Ending::Resigned, "?")
            .contains("[Result \"1-0\"]\n"));
    }
}
