//! [`PlayedGames`]: the games of one `play_games` call, as columns (one
//! row per game), PGN, per-ply measures and replays. The records are kept
//! as played (`DuelGame`), so every view is read from them in Rust.

use std::path::Path;

use heterodox_data::atomic::write_file;
use heterodox_data::pgn;
use heterodox_data::record::GameResult;
use heterodox_data::replay::replay;
use heterodox_env::{Color, GameVariant, RuleOptions, Variant, VariantVisitor};
use heterodox_selfplay::DuelGame;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::measures::{Measure, Replayed};
use crate::errors::{value_error, IntoPyErr};

/// The most values one measure array holds (2 GiB of float64).
const MAX_MEASURE_CELLS: usize = 1 << 28;

/// One played game, read once from its record.
struct Row {
    game: DuelGame,
    /// The position string the game started from (before its opening).
    start: String,
    /// Each ply in the variant's notation (PGN's movetext).
    moves: Vec<String>,
    /// Each ply's action index (`Game.play_index`).
    actions: Vec<u32>,
}

/// Games played by `heterodox.play`: one row per game, in the order of
/// their numbers.
#[pyclass(module = "heterodox._core", frozen)]
pub struct PlayedGames {
    variant: Variant,
    options: RuleOptions,
    /// The agents' strings: the first is "A" (White in even games of a
    /// pair).
    agents: [String; 2],
    rows: Vec<Row>,
    total: u32,
    interrupted: bool,
}

impl PlayedGames {
    pub fn new<P: GameVariant>(
        rules: &P::Rules,
        agents: [String; 2],
        games: Vec<DuelGame>,
        total: u32,
        interrupted: bool,
    ) -> PyResult<PlayedGames> {
        let rows = games
            .into_iter()
            .map(|game| {
                let mut start = None;
                let mut moves = Vec::with_capacity(game.record.steps.len());
                let end = replay::<P>(&game.record, rules, game.index as usize, |step| {
                    let position = step.game.position();
                    if step.step == 0 {
                        start = Some(position.fen());
                    }
                    moves.push(position.notation(&step.action));
                })
                .map_err(value_error)?;
                let actions = game.record.steps.iter().map(|s| s.action).collect();
                Ok(Row {
                    start: start.unwrap_or_else(|| end.position().fen()),
                    moves,
                    actions,
                    game,
                })
            })
            .collect::<PyResult<Vec<Row>>>()?;
        Ok(PlayedGames {
            variant: P::VARIANT,
            options: P::rule_options(rules),
            agents,
            rows,
            total,
            interrupted,
        })
    }

    fn names(&self, row: &Row) -> (&str, &str) {
        let (a, b) = (self.agents[0].as_str(), self.agents[1].as_str());
        if row.game.a_white {
            (a, b)
        } else {
            (b, a)
        }
    }

    fn pgn_text<P: GameVariant>(&self, rules: &P::Rules) -> PyResult<String> {
        let mut text = String::new();
        for row in &self.rows {
            let one = pgn::record_to_pgn::<P>(
                &row.game.record,
                rules,
                "heterodox play",
                row.game.index as usize,
            )
            .map_err(value_error)?;
            let (white, black) = self.names(row);
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&pgn::with_players(&one, white, black));
        }
        Ok(text)
    }

    /// Writes `out/games.pgn` and `out/games.csv` (atomically).
    pub fn write<P: GameVariant>(&self, rules: &P::Rules, out: &Path) -> PyResult<()> {
        std::fs::create_dir_all(out)
            .map_err(|e| PyOSError::new_err(format!("cannot create {}: {e}", out.display())))?;
        let io = |e: heterodox_data::atomic::AtomicError| PyOSError::new_err(e.to_string());
        write_file(
            &out.join("games.pgn"),
            self.pgn_text::<P>(rules)?.as_bytes(),
        )
        .map_err(io)?;
        write_file(&out.join("games.csv"), self.csv().as_bytes()).map_err(io)
    }

    fn csv(&self) -> String {
        let mut text =
            String::from("game,white,black,result,white_score,termination,plies,start,moves\n");
        for row in &self.rows {
            let (white, black) = self.names(row);
            let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
            text.push_str(&format!(
                "{},{},{},{},{},{},{},{},{}\n",
                row.game.index,
                quote(white),
                quote(black),
                row.game.record.result.pgn(),
                white_score(row.game.record.result),
                quote(&row.game.record.termination),
                row.moves.len(),
                quote(&row.start),
                quote(&row.moves.join(" ")),
            ));
        }
        text
    }
}

/// White's score: 1, 1/2 (a draw or a game cut at the ply cap) or 0.
fn white_score(result: GameResult) -> f64 {
    match result {
        GameResult::Truncated => 0.5,
        result => (f64::from(result.value_for(Color::White)) + 1.0) / 2.0,
    }
}

struct Typed<'a, F> {
    games: &'a PlayedGames,
    f: F,
}

/// An operation that needs the games' typed rules.
trait WithRules {
    type Value;
    fn run<P: GameVariant>(self, games: &PlayedGames, rules: &P::Rules) -> PyResult<Self::Value>;
}

impl<F: WithRules> VariantVisitor for Typed<'_, F> {
    type Output = PyResult<F::Value>;

    fn visit<P: GameVariant>(self) -> Self::Output {
        match P::parse_rules(&self.games.options) {
            Ok(rules) => self.f.run::<P>(self.games, &rules),
            Err(e) => Err(e.into_py_err()),
        }
    }
}

struct Pgn;

impl WithRules for Pgn {
    type Value = String;
    fn run<P: GameVariant>(self, games: &PlayedGames, rules: &P::Rules) -> PyResult<String> {
        games.pgn_text::<P>(rules)
    }
}

struct Rows(Measure);

impl WithRules for Rows {
    type Value = Vec<Vec<f64>>;
    fn run<P: GameVariant>(self, games: &PlayedGames, rules: &P::Rules) -> PyResult<Self::Value> {
        games
            .rows
            .iter()
            .map(|row| {
                let mut replayed = Replayed::new();
                let end = replay::<P>(&row.game.record, rules, row.game.index as usize, |step| {
                    replayed.position(step.game.position());
                })
                .map_err(value_error)?;
                replayed.position(end.position());
                replayed.notation = row.moves.clone();
                Ok(self.0.row(&replayed))
            })
            .collect()
    }
}

#[pymethods]
impl PlayedGames {
    fn __len__(&self) -> usize {
        self.rows.len()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.name()
    }

    /// The rule options the games were played under, written out.
    #[getter]
    fn options(&self) -> String {
        self.options.to_string()
    }

    /// The two agent strings (one agent against itself: the same twice).
    #[getter]
    fn agents(&self) -> (String, String) {
        (self.agents[0].clone(), self.agents[1].clone())
    }

    /// Games the call was to play; fewer are here when it was stopped.
    #[getter]
    fn total(&self) -> u32 {
        self.total
    }

    /// Whether Ctrl-C stopped the call before every game was played.
    #[getter]
    fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The table's columns, each a list with one value per game: game,
    /// pair, white, black, result, white_score, termination, plies, start,
    /// moves.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let rows = &self.rows;
        let paired = self.agents[0] != self.agents[1];
        dict.set_item(
            "game",
            rows.iter().map(|r| r.game.index).collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "pair",
            rows.iter()
                .map(|r| {
                    if paired {
                        r.game.index / 2
                    } else {
                        r.game.index
                    }
                })
                .collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "white",
            rows.iter().map(|r| self.names(r).0).collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "black",
            rows.iter().map(|r| self.names(r).1).collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "result",
            rows.iter()
                .map(|r| r.game.record.result.pgn())
                .collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "white_score",
            rows.iter()
                .map(|r| white_score(r.game.record.result))
                .collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "termination",
            rows.iter()
                .map(|r| r.game.record.termination.as_str())
                .collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "plies",
            rows.iter().map(|r| r.moves.len()).collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "start",
            rows.iter().map(|r| r.start.as_str()).collect::<Vec<_>>(),
        )?;
        dict.set_item(
            "moves",
            rows.iter().map(|r| r.moves.join(" ")).collect::<Vec<_>>(),
        )?;
        Ok(dict)
    }

    /// Game `index`'s start position string and action indices, to replay
    /// it (`Game(variant, fen=start, **options)`, then `play_index`).
    fn replay_steps(&self, index: i64) -> PyResult<(String, Vec<u32>)> {
        let row = usize::try_from(index)
            .ok()
            .and_then(|i| self.rows.get(i))
            .ok_or_else(|| {
                PyIndexError::new_err(format!("game {index} of {} games", self.rows.len()))
            })?;
        Ok((row.start.clone(), row.actions.clone()))
    }

    /// Every game as PGN (with the variant's tags and the agents' names),
    /// separated by blank lines.
    fn pgn(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            self.variant.visit(Typed {
                games: self,
                f: Pgn,
            })
        })
    }

    /// Measure `name` for every game: a float64 array with a row per game
    /// and a column per ply (NaN after a game's end); see
    /// `heterodox.play`'s docs for the names. ValueError for an unknown
    /// name.
    fn measure<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        let measure: Measure = name.parse().map_err(value_error)?;
        let longest = self.rows.iter().map(|r| r.moves.len()).max().unwrap_or(0);
        if self.rows.len().saturating_mul(longest + 1) > MAX_MEASURE_CELLS {
            return Err(value_error(format!(
                "measure '{name}': {} games of up to {longest} plies exceed {MAX_MEASURE_CELLS} \
                 values; play fewer games a call",
                self.rows.len()
            )));
        }
        let rows = py.detach(|| {
            self.variant.visit(Typed {
                games: self,
                f: Rows(measure),
            })
        })?;
        let width = rows.iter().map(Vec::len).max().unwrap_or(1);
        let mut flat = vec![f64::NAN; rows.len() * width];
        for (k, row) in rows.iter().enumerate() {
            flat[k * width..k * width + row.len()].copy_from_slice(row);
        }
        let array = PyArray1::from_vec(py, flat).reshape([rows.len(), width])?;
        Ok(array.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "PlayedGames({} games of {}{}, {} vs {})",
            self.rows.len(),
            self.variant.name(),
            if self.options.is_empty() {
                String::new()
            } else {
                format!(" ({})", self.options)
            },
            self.agents[0],
            self.agents[1]
        )
    }
}

/// Checks measure names before any game is played: ValueError naming
/// an unknown one.
#[pyfunction]
pub fn check_measures(names: Vec<String>) -> PyResult<()> {
    for name in &names {
        name.parse::<Measure>().map_err(value_error)?;
    }
    Ok(())
}
