//! PGN export of game records, in each variant's own notation.
//!
//! A record is replayed ([`crate::replay`], so a corrupted one is an error,
//! not wrong text) and written with the shared movetext writer
//! ([`heterodox_env::pgn`]), the one the command line uses. Tags, in order:
//! the seven-tag roster (`Event` = the caller's, e.g. the shard's producer;
//! `Round` = the game's number from 1; unknown `Site`, `Date`, `White`,
//! `Black` as `?`), then `Variant`, `VariantOptions` (the rule settings as
//! `key=value,...`; omitted when the variant has none), `SetUp "1"` and
//! `FEN` with the start position, and `Termination` (the record's reason:
//! `checkmate`, `threefold repetition`, `ply cap`, ...).
//!
//! The FEN tag is always written, for chess too: variants' start positions
//! are not chess's, Traitor's may be drawn from a seed, and a game read back
//! should not depend on knowing those conventions.

use heterodox_env::pgn::{GameTags, Movetext, UNKNOWN_DATE};
use heterodox_env::{GameVariant, VariantVisitor};

use crate::record::GameRecord;
use crate::replay::{replay, ReplayError};
use crate::shard::{HeaderError, Shard};

/// Why a shard could not be exported.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PgnError {
    #[error(transparent)]
    Header(#[from] HeaderError),
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// The PGN of `record` (game number `game` from 0, for `Round` and error
/// messages), a game of `P` under `rules`. See the module docs for the tags.
pub fn record_to_pgn<P: GameVariant>(
    record: &GameRecord,
    rules: &P::Rules,
    event: &str,
    game: usize,
) -> Result<String, ReplayError> {
    let mut movetext = Movetext::new();
    let mut fen = None;
    let end = replay::<P>(record, rules, game, |step| {
        let position = step.game.position();
        if step.step == 0 {
            fen = Some(position.fen());
        }
        movetext.push(position.turn(), &position.notation(&step.action));
    })?;
    let fen = fen.unwrap_or_else(|| end.position().fen());
    let options = P::rule_options(rules).to_string();
    let round = (game + 1).to_string();
    let tags = GameTags {
        event,
        date: UNKNOWN_DATE,
        round: &round,
        white: "?",
        black: "?",
        result: record.result.pgn(),
        variant: P::VARIANT.name(),
        options: &options,
        fen: &fen,
        termination: Some(&record.termination),
    };
    Ok(tags.game(movetext.as_str()))
}

struct ShardPgn<'a>(&'a Shard);

impl VariantVisitor for ShardPgn<'_> {
    type Output = Result<String, PgnError>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        let shard = self.0;
        let rules = shard.header.rules::<P>()?;
        let mut games = Vec::with_capacity(shard.games.len());
        for (g, record) in shard.games.iter().enumerate() {
            games.push(record_to_pgn::<P>(
                record,
                &rules,
                &shard.header.producer,
                g,
            )?);
        }
        Ok(games.join("\n"))
    }
}

/// Every game of `shard` as PGN, separated by blank lines; `Event` is the
/// shard's producer.
pub fn shard_to_pgn(shard: &Shard) -> Result<String, PgnError> {
    shard.header.variant()?.visit(ShardPgn(shard))
}

/// `pgn` (one game) with its `White` and `Black` tags naming the players
/// (duels and the arena name the agents; self-play leaves `?`).
pub fn with_players(pgn: &str, white: &str, black: &str) -> String {
    let mut out = String::with_capacity(pgn.len() + white.len() + black.len());
    for line in pgn.lines() {
        if line.starts_with("[White ") {
            out.push_str(&format!("[White \"{white}\"]"));
        } else if line.starts_with("[Black ") {
            out.push_str(&format!("[Black \"{black}\"]"));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !pgn.ends_with('\n') {
        out.pop();
    }
    out
}
