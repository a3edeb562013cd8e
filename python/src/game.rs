//! The `Game` class: a game of any variant, spoken to in strings (UCI and
//! SAN moves, FEN positions).

use heterodox_env::pgn::{line_moves, GameTags, Movetext, UNKNOWN_DATE};
use heterodox_env::{AnyGame, NewGameError, RuleOptions, Variant};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::args::{int_in, rule_options, MAX_HISTORY};
use crate::errors::{value_error, IllegalMoveError, IntoPyErr, PositionError};
use crate::outcome::{parse_color, Outcome};
use crate::typed::{with_game, ActionOf, ChannelNames, IndexOf, LegalIndices, NumActions, Observe};

/// The deepest perft / divide the bindings accept. Depth 10 from the start
/// position is already beyond any practical run (Ctrl-C stops any depth);
/// the bound keeps a typo (say 100) from starting a count that never ends.
const MAX_PERFT_DEPTH: u64 = 10;

/// A game of a chess variant: the position and its repetition history.
///
/// Game(variant='chess', fen=None, **options) starts from the variant's
/// initial position, or from `fen` when one is given. Keyword options are
/// the variant's rule settings, e.g. Game('traitor', mode='defector',
/// commitment='impromptu'); values are str (int and bool are converted).
/// Moves are read in UCI ('e2e4', 'e7e8q') or SAN ('e4', 'Nf3', 'O-O');
/// positions are written in FEN. Every invalid input raises ValueError
/// with the reason, and leaves the game unchanged: PositionError for a bad
/// position string, UnknownVariantError and OptionError for a bad variant
/// name or rule option, IllegalMoveError and NotationError from play().
#[pyclass(module = "heterodox._core")]
#[derive(Clone, Debug)]
pub struct Game {
    game: AnyGame,
    /// The rule settings the game was created with, as given.
    options: RuleOptions,
    /// The position string the game was created from (`None`: the
    /// variant's start), and the game at that point: with `played` they
    /// rebuild the game (pickling) and its earlier positions (stacked
    /// observations).
    fen: Option<String>,
    start: AnyGame,
    /// Every action played, one per step, in long notation, each followed
    /// by a newline: one string, so that copying a game (a search from
    /// Python copies many) is one allocation whatever its length.
    played: String,
}

/// Reads a perft depth: an int from 0 to [`MAX_PERFT_DEPTH`].
fn perft_depth(depth: &Bound<'_, PyAny>) -> PyResult<u32> {
    Ok(int_in(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32)
}

/// Reads a history length (stacked positions): None is 1.
fn read_history(history: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match history {
        Some(history) => Ok(int_in(history, "history", 1, MAX_HISTORY)? as usize),
        None => Ok(1),
    }
}

/// Work done with the GIL released runs on a copy of the game, taken under
/// a short borrow, so that other Python threads may go on using (and
/// playing moves in) the game meanwhile.
fn snapshot(game: &Bound<'_, Game>) -> PyResult<AnyGame> {
    Ok(game.try_borrow()?.game.clone())
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (variant = "chess", fen = None, **options))]
    fn new(
        variant: &str,
        fen: Option<&str>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Game> {
        let variant: Variant = variant.parse().map_err(IntoPyErr::into_py_err)?;
        let options = rule_options(options)?;
        let game =
            AnyGame::with_options(variant, fen, &options).map_err(|error| match (error, fen) {
                (NewGameError::Fen(error), Some(fen)) => {
                    PositionError::new_err(format!("invalid FEN '{fen}': {error}"))
                }
                (error, _) => error.into_py_err(),
            })?;
        Ok(Game {
            start: game.clone(),
            game,
            options,
            fen: fen.map(str::to_owned),
            played: String::new(),
        })
    }

    /// The variant's name, e.g. 'chess'.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().name()
    }

    /// The side to move: 'white' or 'black'.
    #[getter]
    fn turn(&self) -> &'static str {
        self.game.turn().name()
    }

    /// The number of moves (plies) played since the game was created.
    #[getter]
    fn plies(&self) -> u32 {
        self.game.plies()
    }

    /// The rule options the game was created with, as {key: value} strings
    /// (empty for the variant's defaults).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (key, value) in self.options.iter() {
            dict.set_item(key, value)?;
        }
        Ok(dict)
    }

    /// The current position in FEN.
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// Traitor Chess: what `player` ('white' or 'black') may know, as a view
    /// string: the position string with '?' for the opponent's secret.
    /// ValueError for a bad player name or a variant with no hidden
    /// information.
    fn view(&self, player: &str) -> PyResult<String> {
        let player = parse_color(player)?;
        self.game.view(player).map_err(value_error)
    }

    /// The legal moves in UCI notation ('e2e4', 'e1g1', 'e7e8q'), in move
    /// generator order; empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// The legal moves in SAN ('e4', 'O-O', 'e8=Q+'), in the same order as
    /// legal_moves().
    fn legal_moves_san(&self) -> Vec<String> {
        self.game.legal_moves_notation()
    }

    /// Plays a move given in UCI ('e2e4') or SAN ('e4') and returns it in
    /// UCI, or a line of moves as in PGN ('1.e4 e5 2.Nf3', '1. e4', '1...e5':
    /// move numbers, never checked, and a last result are skipped), all or
    /// none, returning the moves' UCI joined by spaces. Raises
    /// IllegalMoveError when a move is illegal or the game is over,
    /// NotationError when a move cannot be read or fits several legal moves
    /// (both ValueError, naming the move), leaving the game unchanged.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &str) -> PyResult<String> {
        // A text read as one turn plays as it always has (a Traitor turn may
        // hold a space: '(T-Rh1) N:f2'); else it is read as a line of moves
        // (the shared reader of lines: numbers skipped), played on a copy.
        let uci = match self.game.play(r#move) {
            Ok((uci, _san)) => uci,
            Err(error) => {
                let moves = line_moves(r#move);
                if moves.is_empty() || moves == [r#move.trim()] {
                    return Err(error.into_py_err());
                }
                let mut after = self.game.clone();
                let mut played = Vec::with_capacity(moves.len());
                for text in moves {
                    let (uci, _san) = after.play(text).map_err(IntoPyErr::into_py_err)?;
                    played.push(uci);
                }
                self.game = after;
                played.join(" ")
            }
        };
        // A Traitor turn is written as its steps joined by spaces.
        for step in uci.split(' ') {
            self.played.push_str(step);
            self.played.push('\n');
        }
        Ok(uci)
    }

    /// Plays the legal action with action index `index` (one step, as an
    /// env's step(index)) and returns it in long notation.
    /// IllegalMoveError when no legal action has that index (or the game is
    /// over); ValueError for an index outside 0..num_actions.
    fn play_index(&mut self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        let index = self.read_index(index)?;
        let text = self.action_of(index)?;
        self.play(&text)
    }

    /// The size of the variant's fixed action space (the same for every
    /// position of a game under its rule settings).
    #[getter]
    fn num_actions(&self) -> usize {
        with_game(&self.game, NumActions)
    }

    /// The names of the planes of observation(history=history), in order
    /// (history None: 1).
    #[pyo3(signature = (history = None))]
    fn channel_names(&self, history: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<String>> {
        let history = read_history(history)?;
        Ok(with_game(&self.game, ChannelNames(history)))
    }

    /// The observation of the current position as a VecEnv would give it
    /// for this game: float32 of shape (len(channel_names(history)), 8, 8),
    /// `history` (None: 1; at most 256) stacked positions of this game
    /// (the current one first, zeros before its start) and the repetition
    /// planes, from the point of view of `observer` ('white' or 'black';
    /// None: the player to act). Traitor: only what `observer` may know.
    #[pyo3(signature = (observer = None, history = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        observer: Option<&str>,
        history: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let history = read_history(history)?;
        let observer = match observer {
            Some(name) => parse_color(name)?,
            None => self.game.turn(),
        };
        let data = with_game(
            &self.game,
            Observe {
                observer,
                history,
                start: &self.start,
                played: self.played.lines().collect(),
            },
        );
        let planes = data.len() / 64;
        Ok(PyArray1::from_vec(py, data)
            .reshape([planes, 8, 8])?
            .into_any())
    }

    /// The action index of a legal move given as text (UCI, SAN or the
    /// variant's notation; one step), from the player to act's point of
    /// view: the index a VecEnv's mask marks for it. IllegalMoveError or
    /// NotationError as play() raises them.
    #[pyo3(signature = (r#move))]
    fn action_index(&self, r#move: &str) -> PyResult<usize> {
        with_game(&self.game, IndexOf(r#move)).map_err(IntoPyErr::into_py_err)
    }

    /// The legal action with action index `index`, in long notation
    /// (the inverse of action_index). IllegalMoveError when no legal action
    /// has that index; ValueError for an index outside 0..num_actions.
    fn action_from_index(&self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        let index = self.read_index(index)?;
        self.action_of(index)
    }

    /// The action indices of the legal moves, in the order of
    /// legal_moves(); empty once the game is over.
    fn legal_action_indices(&self) -> Vec<u32> {
        with_game(&self.game, LegalIndices)
    }

    /// Hostage Chess: the men each side holds captive, as
    /// {'white': {'P': 0, 'N': 1, 'B': 0, 'R': 0, 'Q': 0}, 'black': {...}}
    /// (White's prison holds black men). ValueError for other variants.
    fn prisons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.hostage_reserves(py, heterodox_env::Hostage::prison)
    }

    /// Hostage Chess: the men each side may drop, as
    /// {'white': {'P': 0, ...}, 'black': {...}} (White's airfield holds
    /// white men). ValueError for other variants.
    fn airfields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.hostage_reserves(py, heterodox_env::Hostage::airfield)
    }

    /// The men on the board as {square: {'kind': 'Q', 'color': 'white',
    /// 'countdown': None, 'announced': False}}: the kind is the man's
    /// upper-case token in position strings ('N', a Mad Scientist monster
    /// '[WWC]'), 'countdown' a Poison man's turns left to live (else None),
    /// 'announced' whether a Traitor man has been announced. Squares
    /// without a man are left out.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let diagram = self.game.diagram();
        let out = PyDict::new(py);
        for (index, cell) in diagram.cells.iter().enumerate() {
            let Some(color) = cell.color else { continue };
            let man = PyDict::new(py);
            man.set_item("kind", cell.token.to_ascii_uppercase())?;
            man.set_item("color", color.name())?;
            man.set_item("countdown", cell.countdown)?;
            man.set_item("announced", cell.announced)?;
            let square = format!("{}{}", (b'a' + (index % 8) as u8) as char, index / 8 + 1);
            out.set_item(square, man)?;
        }
        Ok(out)
    }

    /// The men held off the board, as a list of {'owner': 'white', 'area':
    /// 'prison' | 'airfield' | 'hand', 'men': {'N': 1, ...}} (a Hostage
    /// prison holds the opponent's men; a Mad Scientist hand holds parts).
    /// Empty for the variants without reserves.
    fn reserves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let diagram = self.game.diagram();
        diagram
            .reserves
            .iter()
            .map(|reserve| {
                let out = PyDict::new(py);
                out.set_item("owner", reserve.owner.name())?;
                out.set_item("area", reserve.area)?;
                let men = PyDict::new(py);
                for held in &reserve.men {
                    men.set_item(held.letter.to_string(), held.count)?;
                }
                out.set_item("men", men)?;
                Ok(out)
            })
            .collect()
    }

    /// How the game ended, or None while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(Outcome::from)
    }

    /// True once the game has ended (outcome() is not None).
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep
    /// (perft), from the current position. depth is 0 to 10; the count runs
    /// in parallel with the GIL released, and Ctrl-C stops it
    /// (KeyboardInterrupt).
    fn perft(slf: &Bound<'_, Self>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = perft_depth(depth)?;
        let game = snapshot(slf)?;
        if depth <= 1 {
            return Ok(game.perft(depth));
        }
        let counts = crate::perft::divide(slf.py(), game, depth)?;
        Ok(counts.iter().map(|(_, nodes)| nodes).sum())
    }

    /// Perft per legal move: {uci: leaf nodes below it at `depth`}, in move
    /// generator order; the values sum to perft(depth). Empty for depth 0.
    fn divide<'py>(
        slf: &Bound<'py, Self>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = perft_depth(depth)?;
        let game = snapshot(slf)?;
        let py = slf.py();
        let counts = if depth <= 1 {
            game.divide(depth)
        } else {
            crate::perft::divide(py, game, depth)?
        };
        let dict = PyDict::new(py);
        for (uci, nodes) in counts {
            dict.set_item(uci, nodes)?;
        }
        Ok(dict)
    }

    /// The actions played since the game was created, in long notation,
    /// one per step (a Traitor turn of several steps is several entries):
    /// what undo() takes back one at a time, and what pickling replays.
    #[getter]
    fn moves(&self) -> Vec<&str> {
        self.played.lines().collect()
    }

    /// Takes back the last action played (one step, as play_index plays
    /// it) and returns it in long notation; the position, the repetition
    /// history and the outcome are as before it was played. IndexError
    /// when nothing has been played (as python-chess's Board.pop()); the
    /// game is unchanged then.
    fn undo(&mut self) -> PyResult<String> {
        let mut steps: Vec<&str> = self.played.lines().collect();
        let last = steps
            .pop()
            .ok_or_else(|| PyIndexError::new_err("undo: no move has been played"))?
            .to_owned();
        let mut game = self.start.clone();
        for step in &steps {
            game.play(step).map_err(IntoPyErr::into_py_err)?;
        }
        let kept = self.played.len() - last.len() - 1;
        self.played.truncate(kept);
        self.game = game;
        Ok(last)
    }

    /// The game in PGN export form, in the variant's own notation: the
    /// seven-tag roster ('?' where unknown; Result '*' while the game goes
    /// on), Variant, VariantOptions (the rule options given), SetUp and FEN
    /// (the start position, always), Termination once the game is over.
    /// The same writer as the command line and the game records.
    fn pgn(&self) -> PyResult<String> {
        let mut game = self.start.clone();
        let mut movetext = Movetext::new();
        for step in self.played.lines() {
            let player = game.turn();
            let (_, notation) = game.play(step).map_err(IntoPyErr::into_py_err)?;
            movetext.push(player, &notation);
        }
        let outcome = self.game.outcome();
        let options = self.options.to_string();
        let fen = self.start.fen();
        let tags = GameTags {
            event: "?",
            date: UNKNOWN_DATE,
            round: "?",
            white: "?",
            black: "?",
            result: outcome.map_or("*", |o| o.result()),
            variant: self.game.variant().name(),
            options: &options,
            fen: &fen,
            termination: outcome.map(|o| o.termination().name()),
        };
        Ok(tags.game(movetext.as_str()))
    }

    /// An independent copy of the game, history included.
    fn copy(&self) -> Game {
        self.clone()
    }

    fn __copy__(&self) -> Game {
        self.clone()
    }

    fn __deepcopy__(&self, memo: &Bound<'_, PyAny>) -> Game {
        let _ = memo; // nothing inside a Game refers to Python objects
        self.clone()
    }

    /// Pickle support: Game(variant, fen, **options) ...
    fn __getnewargs_ex__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyTuple>, Bound<'py, PyDict>)> {
        let args = (self.game.variant().name(), self.fen.clone()).into_pyobject(py)?;
        Ok((args, self.options(py)?))
    }

    /// ... then the actions played, replayed by __setstate__.
    fn __getstate__(&self) -> Vec<&str> {
        self.played.lines().collect()
    }

    fn __setstate__(&mut self, played: Vec<String>) -> PyResult<()> {
        let mut game = self.start.clone();
        let mut record = String::new();
        for text in &played {
            let (long, _) = game.play(text).map_err(IntoPyErr::into_py_err)?;
            for step in long.split(' ') {
                record.push_str(step);
                record.push('\n');
            }
        }
        self.game = game;
        self.played = record;
        Ok(())
    }

    fn __repr__(&self) -> String {
        let options: String = self
            .options
            .iter()
            .map(|(key, value)| format!(", {key}='{value}'"))
            .collect();
        format!(
            "Game(variant='{}', fen='{}'{options})",
            self.game.variant().name(),
            self.game.fen()
        )
    }

    /// The board as labelled text, rank 8 on top, FEN letters, with the
    /// variant's extras: Poison countdowns around poisoned pieces ('4B4'),
    /// Hostage prisons and airfields beside the board, Mad Scientist hands
    /// (composite pieces by their part letters, '[WWC]'), Traitor announced
    /// pieces in parentheses with their controllers, budgets and secrets.
    /// Traitor shows the full state (both secrets): a referee's diagram.
    fn render(&self) -> String {
        self.game.render_text()
    }

    /// The board as a self-contained SVG document, with the same extras as
    /// render(); Jupyter shows a Game as this picture.
    fn _repr_svg_(&self) -> String {
        self.game.render_svg()
    }

    /// The board as an RGB frame, with the same extras as render(): a
    /// uint8 numpy array of shape (384, 576, 3), the same size for every
    /// variant and position (a video's frames), the same bytes for the
    /// same position. Layout: docs/python.md, "Rendering".
    fn render_rgb<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::vecenv::rgb_frame(py, &self.game)
    }

    /// The board as render() draws it: print(game) shows one board.
    fn __str__(&self) -> String {
        self.game.render_text()
    }
}

impl Game {
    /// The game inside, for the other classes of the bindings (the
    /// engine searches it).
    pub(crate) fn any(&self) -> &AnyGame {
        &self.game
    }

    /// The position the game was created from (its history starts there).
    pub(crate) fn start(&self) -> &AnyGame {
        &self.start
    }

    /// The steps played since the start, in long notation, in order.
    pub(crate) fn steps(&self) -> impl Iterator<Item = &str> {
        self.played.lines()
    }

    /// Reads an action index: an int in 0..num_actions.
    fn read_index(&self, index: &Bound<'_, PyAny>) -> PyResult<usize> {
        let last = self.num_actions() as u64 - 1;
        Ok(int_in(index, "index", 0, last)? as usize)
    }

    /// The legal action with `index` in long notation, or IllegalMoveError.
    fn action_of(&self, index: usize) -> PyResult<String> {
        if let Some(outcome) = self.game.outcome() {
            return Err(IllegalMoveError::new_err(format!(
                "the game is over ({outcome}): no action is legal"
            )));
        }
        with_game(&self.game, ActionOf(index)).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "no legal action has index {index} in position {}",
                self.game.fen()
            ))
        })
    }

    /// Both sides' prisons or airfields of a Hostage game as nested dicts.
    fn hostage_reserves<'py>(
        &self,
        py: Python<'py>,
        reserve: fn(
            &heterodox_env::Hostage,
            heterodox_env::Color,
        ) -> &heterodox_env::hostage::Reserve,
    ) -> PyResult<Bound<'py, PyDict>> {
        let Some(game) = self.game.downcast_ref::<heterodox_env::Hostage>() else {
            return Err(value_error(format!(
                "{} has no prisons or airfields (only hostage has)",
                self.game.variant().name()
            )));
        };
        let out = PyDict::new(py);
        for color in heterodox_env::Color::ALL {
            let counts = PyDict::new(py);
            let held = reserve(game.position(), color);
            for role in heterodox_env::hostage::RESERVE_ROLES {
                counts.set_item(role.upper_char().to_string(), held.count(role))?;
            }
            out.set_item(color.name(), counts)?;
        }
        Ok(out)
    }
}
