"""Heterodox: rules of chess variants for reinforcement-learning self-play."""

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, Literal, final

import numpy as np
import numpy.typing as npt

__version__: str

def variants() -> list[str]:
    """The names of the variants, as accepted by Game(variant=...)."""

class IllegalMoveError(ValueError):
    """A move or action that the rules do not allow here: an illegal move, an
    action index that is not legal in its env, or any move once the game is
    over. The game is unchanged."""

class PositionError(ValueError):
    """A position string (FEN, or a variant's dialect of it) that cannot be
    read, or that reads but is not a legal position of the variant. The
    message names the field at fault."""

class NetworkError(ValueError):
    """A learned evaluation's net file that cannot be read (missing, not a
    heterodox-nnue safetensors file, a weight beyond the quantized range), or
    that was made for another variant, rule set or feature set; the message
    names the file and the field."""

class NotationError(ValueError):
    """Move text that does not name exactly one legal move: it cannot be read,
    it fits several legal moves (ambiguous SAN), or it states something
    false about the move (a Poison Chess suffix item)."""

class UnknownVariantError(ValueError):
    """A variant name that is not registered; the message lists the valid
    ones (heterodox.variants())."""

class OptionError(ValueError):
    """A rule option that the variant does not have, or a value it does not
    accept; the message lists the valid ones."""

@final
class Outcome:
    """How a finished game ended: the winner ('white', 'black', or None for a
    draw), the termination ('checkmate', 'stalemate', 'insufficient material',
    'fifty-move rule', 'threefold repetition', ...) and the PGN result.

    Immutable and hashable; two outcomes are equal when their winner and
    termination are, so a game's outcome compares directly with one built by
    hand: `game.outcome() == Outcome("black", "checkmate")`.
    """

    def __new__(cls, winner: str | None, termination: str) -> Outcome: ...
    @property
    def winner(self) -> str | None:
        """The winning side, 'white' or 'black'; None for a draw."""
    @property
    def termination(self) -> str:
        """Why the game ended, e.g. 'checkmate' or 'stalemate'."""
    @property
    def result(self) -> str:
        """The PGN result: '1-0', '0-1' or '1/2-1/2'."""
    @property
    def is_draw(self) -> bool:
        """True when the game was drawn (there is no winner)."""
    def reward(self, color: str) -> float:
        """The score from `color`'s point of view ('white' or 'black'): 1.0 for
        a win, 0.0 for a draw, -1.0 for a loss.
        """
    def __reduce__(self) -> tuple[type[Outcome], tuple[str | None, str]]:
        """Pickle support: rebuilt from (winner, termination)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...

@final
class Game:
    """A game of a chess variant: the position and its repetition history.

    Game(variant='chess', fen=None, **options) starts from the variant's
    initial position, or from `fen` when one is given. Keyword options are
    the variant's rule settings, e.g. Game('traitor', mode='defector',
    commitment='impromptu'); values are str (int and bool are converted).
    Moves are read in UCI ('e2e4', 'e7e8q') or SAN ('e4', 'Nf3', 'O-O');
    positions are written in FEN. Every invalid input raises ValueError
    with the reason, and leaves the game unchanged: PositionError for a bad
    position string, UnknownVariantError and OptionError for a bad variant
    name or rule option, IllegalMoveError and NotationError from play().
    """

    def __new__(
        cls, variant: str = "chess", fen: str | None = None, **options: str | int | bool
    ) -> Game: ...
    @property
    def variant(self) -> str:
        """The variant's name, e.g. 'chess'."""
    @property
    def turn(self) -> str:
        """The side to move: 'white' or 'black'."""
    @property
    def plies(self) -> int:
        """The number of moves (plies) played since the game was created."""
    @property
    def options(self) -> dict[str, str]:
        """The rule options the game was created with, as {key: value} strings
        (empty for the variant's defaults).
        """
    def fen(self) -> str:
        """The current position in FEN."""
    def view(self, player: str) -> str:
        """Traitor Chess: what `player` ('white' or 'black') may know, as a view
        string: the position string with '?' for the opponent's secret.
        ValueError for a bad player name or a variant with no hidden
        information.
        """
    def legal_moves(self) -> list[str]:
        """The legal moves in UCI notation ('e2e4', 'e1g1', 'e7e8q'), in move
        generator order; empty once the game is over.
        """
    def legal_moves_san(self) -> list[str]:
        """The legal moves in SAN ('e4', 'O-O', 'e8=Q+'), in the same order as
        legal_moves().
        """
    def play(self, move: str) -> str:
        """Plays a move given in UCI ('e2e4') or SAN ('e4') and returns it in
        UCI, or a line of moves as in PGN ('1.e4 e5 2.Nf3', '1. e4', '1...e5':
        move numbers, never checked, and a last result are skipped), all or
        none, returning the moves' UCI joined by spaces. Raises
        IllegalMoveError when a move is illegal or the game is over,
        NotationError when a move cannot be read or fits several legal moves
        (both ValueError, naming the move), leaving the game unchanged.
        """
    def play_index(self, index: int) -> str:
        """Plays the legal action with action index `index` (one step, as an
        env's step(index)) and returns it in long notation.
        IllegalMoveError when no legal action has that index (or the game is
        over); ValueError for an index outside 0..num_actions.
        """
    @property
    def num_actions(self) -> int:
        """The size of the variant's fixed action space (the same for every
        position of a game under its rule settings).
        """
    def channel_names(self, history: int | None = None) -> list[str]:
        """The names of the planes of observation(history=history), in order
        (history None: 1).
        """
    def observation(
        self, observer: str | None = None, history: int | None = None
    ) -> npt.NDArray[np.float32]:
        """The observation of the current position as a VecEnv would give it
        for this game: float32 of shape (len(channel_names(history)), 8, 8),
        `history` (None: 1; at most 256) stacked positions of this game
        (the current one first, zeros before its start) and the repetition
        planes, from the point of view of `observer` ('white' or 'black';
        None: the player to act). Traitor: only what `observer` may know.
        """
    def action_index(self, move: str) -> int:
        """The action index of a legal move given as text (UCI, SAN or the
        variant's notation; one step), from the player to act's point of
        view: the index a VecEnv's mask marks for it. IllegalMoveError or
        NotationError as play() raises them.
        """
    def action_from_index(self, index: int) -> str:
        """The legal action with action index `index`, in long notation
        (the inverse of action_index). IllegalMoveError when no legal action
        has that index; ValueError for an index outside 0..num_actions.
        """
    def legal_action_indices(self) -> list[int]:
        """The action indices of the legal moves, in the order of
        legal_moves(); empty once the game is over.
        """
    def prisons(self) -> dict[str, dict[str, int]]:
        """Hostage Chess: the men each side holds captive, as
        {'white': {'P': 0, 'N': 1, 'B': 0, 'R': 0, 'Q': 0}, 'black': {...}}
        (White's prison holds black men). ValueError for other variants.
        """
    def airfields(self) -> dict[str, dict[str, int]]:
        """Hostage Chess: the men each side may drop, as
        {'white': {'P': 0, ...}, 'black': {...}} (White's airfield holds
        white men). ValueError for other variants.
        """
    def board(self) -> dict[str, dict[str, str | int | bool | None]]:
        """The men on the board as {square: {'kind': 'Q', 'color': 'white',
        'countdown': None, 'announced': False}}: the kind is the man's
        upper-case token in position strings ('N', a Mad Scientist monster
        '[WWC]'), 'countdown' a Poison man's turns left to live (else None),
        'announced' whether a Traitor man has been announced. Squares
        without a man are left out.
        """
    def reserves(self) -> list[dict[str, Any]]:
        """The men held off the board, as a list of {'owner': 'white', 'area':
        'prison' | 'airfield' | 'hand', 'men': {'N': 1, ...}} (a Hostage
        prison holds the opponent's men; a Mad Scientist hand holds parts).
        Empty for the variants without reserves.
        """
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
    def is_over(self) -> bool:
        """True once the game has ended (outcome() is not None)."""
    def perft(self, depth: int) -> int:
        """The number of leaf nodes of the legal move tree `depth` plies deep
        (perft), from the current position. depth is 0 to 10; the count runs
        in parallel with the GIL released, and Ctrl-C stops it
        (KeyboardInterrupt).
        """
    def divide(self, depth: int) -> dict[str, int]:
        """Perft per legal move: {uci: leaf nodes below it at `depth`}, in move
        generator order; the values sum to perft(depth). Empty for depth 0.
        """
    def render(self) -> str:
        """The board as labelled text, rank 8 on top, FEN letters, with the
        variant's extras: Poison countdowns around poisoned pieces ('4B4'),
        Hostage prisons and airfields beside the board, Mad Scientist hands
        (composite pieces by their part letters, '[WWC]'), Traitor announced
        pieces in parentheses with their controllers, budgets and secrets.
        Traitor shows the full state (both secrets): a referee's diagram.
        """
    def _repr_svg_(self) -> str:
        """The board as a self-contained SVG document, with the same extras as
        render(); Jupyter shows a Game as this picture.
        """
    def render_rgb(self) -> npt.NDArray[np.uint8]:
        """The board as an RGB frame, with the same extras as render(): a
        uint8 numpy array of shape (384, 576, 3), the same size for every
        variant and position (a video's frames), the same bytes for the
        same position. Layout: docs/python.md, "Rendering".
        """
    @property
    def moves(self) -> list[str]:
        """The actions played since the game was created, in long notation,
        one per step (a Traitor turn of several steps is several entries):
        what undo() takes back one at a time, and what pickling replays.
        """
    def undo(self) -> str:
        """Takes back the last action played (one step, as play_index plays
        it) and returns it in long notation; the position, the repetition
        history and the outcome are as before it was played. IndexError
        when nothing has been played (as python-chess's Board.pop()); the
        game is unchanged then.
        """
    def pgn(self) -> str:
        """The game in PGN export form, in the variant's own notation: the
        seven-tag roster ('?' where unknown; Result '*' while the game goes
        on), Variant, VariantOptions (the rule options given), SetUp and FEN
        (the start position, always), Termination once the game is over.
        The same writer as the command line and the game records.
        """
    def copy(self) -> Game:
        """An independent copy of the game, history included."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __getnewargs_ex__(self) -> tuple[tuple[str, str | None], dict[str, str]]:
        """Pickle support: Game(variant, fen, **options) ..."""
    def __getstate__(self) -> list[str]:
        """... then the actions played, replayed by __setstate__."""
    def __setstate__(self, played: list[str]) -> None: ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...

@final
class VecEnv:
    """N games of one variant stepped together in Rust, in parallel: the
    native batch under heterodox.VecEnv (a gymnasium.vector.VectorEnv).

    VecEnv(variant, num_envs, seed=None, history=None, max_plies=None,
    auto_reset=True, copy=True, fens=None, rules=None, **rules). seed is
    the env's (None: 0), history the stacked positions (None: 1; at most
    256), num_envs at most 1048576, and the buffers at most 8 GiB: larger
    sizes, negative or huge numbers are a ValueError naming the argument,
    raised before anything is allocated. Rule options come as keywords or,
    for one named like an argument (Traitor's seed), in rules; a rule
    seed fixes the set-up of every game (as Game(variant, seed=...)).
    fens: one position string per env (or one for all) where every game
    starts. Observations are float32 of shape
    (num_envs, C, 8, 8), each from the point of view of the player to act
    in that env (channel_names names the C planes; `history` stacks the
    last T positions). Actions are flat indices into a fixed action space
    of num_actions, one per env in any integer array, list or tuple;
    info['action_mask'] (int8 0 / 1, (num_envs, num_actions), as
    Gymnasium's masked sampling wants) marks the legal ones and
    info['current_player'] (uint8, 0 = white,
    1 = black) says who acts. Rewards (float32) are +1 / -1 / 0 for the
    player who acted on the step that ended a game. With auto_reset a
    finished game restarts in the same step: that step's reward and flags
    are the finished game's, its observation and mask the new game's.
    Stepping releases the GIL. Every call returns fresh arrays; with
    copy=False, read-only views of the env's own buffers instead (no copy;
    overwritten by the next reset or step, as Gymnasium's copy=False).
    """

    def __new__(
        cls,
        variant: str,
        num_envs: int,
        seed: int | None = None,
        history: int | None = None,
        max_plies: int | None = None,
        auto_reset: bool = True,
        copy: bool = True,
        fens: list[str] | None = None,
        rules: dict[str, str | int | bool] | None = None,
        **options: str | int | bool,
    ) -> VecEnv: ...
    @property
    def variant(self) -> str:
        """The variant's name, e.g. 'chess'."""
    @property
    def num_envs(self) -> int:
        """The number of games stepped together."""
    @property
    def num_actions(self) -> int:
        """The size of the fixed action space (the width of the masks)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one env's observation: (C, 8, 8)."""
    @property
    def channel_names(self) -> list[str]:
        """One name per observation plane, in order."""
    @property
    def max_plies(self) -> int:
        """The ply cap in force: a game this many steps long is truncated."""
    @property
    def auto_reset(self) -> bool:
        """Whether a finished game restarts in the step that ends it."""
    @property
    def copy(self) -> bool:
        """True: every call returns fresh arrays. False: read-only views of
        the env's own buffers, overwritten by the next reset or step.
        """
    def reset(
        self,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[Any]]]:
        """Starts a new game in every env and returns (observations, info).
        With a seed (an int, or a list of one int per env, None entries
        allowed), the games are those of a new VecEnv with that seed (a
        list is mixed into one); without, the first reset after
        construction starts the games of the constructor's seed, and each
        later one the next games of each env's seed sequence.
        options={'fens': [...]} makes every later game of env i start from
        fens[i] (one string for all envs, or one per env; None: the
        variant's starts again); options={'reset_mask': mask} (bool, one
        per env) starts the next game of the chosen envs only, the others
        untouched (Gymnasium's reset mask).
        """
    def step(
        self,
        actions: npt.NDArray[np.integer[Any]] | list[int] | tuple[int, ...],
        restart: npt.NDArray[np.bool_] | None = None,
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[Any]],
    ]:
        """Plays one action per env: `actions` holds num_envs flat action
        indices, as a numpy array of any integer dtype (int8 .. int64,
        uint8 .. uint64) of shape (num_envs,), or a list or tuple of ints.
        Returns (observations, rewards, terminated, truncated, info).
        TypeError for anything else (a float or bool array, a list holding a
        float), ValueError for another shape or length, IllegalMoveError (a
        ValueError) for an illegal action (naming the env, the action and
        the position); nothing changes on error. `restart` (bool, (num_envs,)): envs that start
        their next game in this step instead of playing (their actions are
        ignored; reward 0, flags false): Gymnasium's next-step auto-reset,
        for envs whose game ended in the step before (auto_reset=False).
        """
    def random_actions(self, seed: int) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per env (int64, (num_envs,)),
        drawn in Rust from the envs' own lists of legal actions, with no
        scan of the masks: the random player of a vectorised loop at the
        speed of step(). The same seed in the same positions gives the same
        actions; -1 for an env whose game is over (auto_reset=False).
        """
    def legal_moves(self, env: int) -> list[str]:
        """The legal moves of env `env` in long notation ('e2e4'), in the
        same order as legal_actions(env).
        """
    def legal_actions(self, env: int) -> list[int]:
        """The action indices of env `env`'s legal moves (where its mask is
        true), in the same order as legal_moves(env).
        """
    def fen(self, env: int) -> str:
        """The position of env `env` as a position string (FEN)."""
    def plies(self, env: int) -> int:
        """Steps played in env `env`'s running game."""
    def render(self, env: int = 0) -> str:
        """Env `env`'s board as text, as Game.render() draws it."""
    def render_svg(self, env: int = 0) -> str:
        """Env `env`'s board as an SVG document, as Game._repr_svg_() draws it."""
    def render_rgb(self, env: int = 0) -> npt.NDArray[np.uint8]:
        """Env `env`'s board as an RGB frame, as Game.render_rgb() draws it:
        uint8 of shape (384, 576, 3).
        """
    def final_observation(self, env: int) -> npt.NDArray[np.float32] | None:
        """The observation of the game that env `env`'s last step ended, when
        auto-reset replaced it in that step (Gymnasium's final observation,
        shape observation_shape); None otherwise.
        """
    def last_outcome(self, env: int) -> Outcome | None:
        """How env `env`'s most recent game ended (since the last reset): its
        Outcome when the rules ended it, None while none has ended or when
        it was truncated at the ply cap.
        """
    def last_fen(self, env: int) -> str | None:
        """The final position of env `env`'s most recent finished game (FEN),
        or None while none has finished since the last reset.
        """
    def __getnewargs_ex__(self) -> tuple[tuple[str, int], dict[str, Any]]:
        """Pickle support: the constructor's arguments ..."""
    def __getstate__(self) -> tuple[bool, list[str], list[tuple[str, int, list[int]]]]:
        """... then the start positions and each env's running game: its
        start, which game of its seed sequence it is, and the action
        indices played (replayed by __setstate__).
        """
    def __setstate__(
        self, state: tuple[bool, list[str], list[tuple[str, int, list[int]]]]
    ) -> None: ...
    def __len__(self) -> int: ...
    def __repr__(self) -> str: ...

class EvaluationError(ValueError):
    """Priors or values handed back to a search that do not fit the leaves it
    asked about: not a float32 numpy array, a wrong shape, a NaN or infinity,
    a negative prior or a value outside [-1, 1]. The search is unchanged.
    """

def nnue_data(dir: str | os.PathLike[str], max_positions: int | None = None) -> dict[str, Any]:
    """Reads every labelled position of a teacher directory, with the GIL
    released. Returns a dict: `features` (uint16) and `offsets` (uint64,
    length 2n + 1: position i's side-to-act features are
    `features[offsets[2i]:offsets[2i+1]]`, its opponent's
    `features[offsets[2i+1]:offsets[2i+2]]`), `values` (float32, the
    engine's tanh(cp / 400) for the side to act), `results` (float32, the
    game's result for the side to act: 1, 0, -1), `games` (uint32, the game
    of each position), `classical` (float32, the tuned classical
    evaluation in centipawns for the side to act: the base of a net with
    `base = classical`), and `variant`, `rules`, `feature_set`,
    `feature_version`, `inputs`, `encoding_version` (the metadata a net
    file for this data must carry) and `skipped` (labelled positions left
    out: in check, or whose move played is noisy). A directory that
    cannot be read raises NetworkError naming the file.
    """

def nnue_features(game: Game) -> tuple[list[int], list[int]]:
    """The active features of `game`'s position as the engine's net reads
    them: (the side to act's, the opponent's), each a sorted list of
    indices below the variant's feature set's `inputs` (under hidden
    information, what the side to act may know). A variant without a
    feature set raises ValueError.
    """

def encoding_spec(
    variant: str,
    history: int | None = None,
    rules: dict[str, str | int | bool] | None = None,
    **options: str | int | bool,
) -> str:
    """The encoding spec of a variant under its rules and history, as the JSON
    of a checkpoint's spec.json (variant, options, version, history,
    channel_names, num_actions, board_action_planes).
    """

def read_shard(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Reads a shard file (.hdxshard), checking it as the Rust trainer does
    (magic, version, length, checksum, every count). Returns a dict: the
    header ('variant', 'options', 'encoding_version', 'producer',
    'crate_version') and 'games', one dict per game ('seed', 'start' (a
    position string or None), 'result' (PGN token), 'termination',
    'actions', 'root_values', 'policies' (per step a list of (action,
    probability) pairs), 'surprises' (per step the search target's
    divergence from the network's prior, nats; 0 where not searched or
    not known)).
    """

def zoo_agents() -> list[dict[str, Any]]:
    """The shipped agents, in the catalogue's order: one dict each with
    'name', 'variant', 'rules' (key=value joined by ',', '' for the default
    rules), 'card', 'network' (its checkpoint directory in the catalogue,
    or None) and 'nnue' (its engine net's file, or None), paths as the
    catalogue names them (under agents/). AgentError when $HETERODOX_ZOO
    names a directory without a readable catalogue.
    """

def zoo_file(file: str) -> bytes:
    """The bytes of a file the catalogue lists ('hostage/README.md',
    'hostage/model.safetensors'), checked against its checksum. AgentError
    for a file it does not list, or one that differs from its checksum.
    """

def zoo_network_dir(name: str) -> Path:
    """A directory holding the AlphaZero checkpoint of the shipped agent
    `name` (config.json, model.safetensors, spec.json): a $HETERODOX_ZOO
    catalogue's own, else the built-in files written once to a cache
    directory ($XDG_CACHE_HOME/heterodox/zoo/). AgentError
    for a name the catalogue does not list (the message names the
    catalogue) or an agent without a network.
    """

class PlayedGames:
    """Games played by `heterodox.play`: one row per game, in the order of
    their numbers.
    """

    def __len__(self) -> int: ...
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def options(self) -> str:
        """The rule options the games were played under, written out."""
    @property
    def agents(self) -> tuple[str, str]:
        """The two agent strings (one agent against itself: the same twice)."""
    @property
    def total(self) -> int:
        """Games the call was to play; fewer are here when it was stopped."""
    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the call before every game was played."""
    def columns(self) -> dict[str, list[int] | list[str] | list[float]]:
        """The table's columns, each a list with one value per game: game,
        pair, white, black, result, white_score, termination, plies, start,
        moves.
        """
    def replay_steps(self, index: int) -> tuple[str, list[int]]:
        """Game `index`'s start position string and action indices, to replay
        it (`Game(variant, fen=start, **options)`, then `play_index`).
        """
    def pgn(self) -> str:
        """Every game as PGN (with the variant's tags and the agents' names),
        separated by blank lines.
        """
    def measure(self, name: str) -> np.ndarray:
        """Measure `name` for every game: a float64 array with a row per game
        and a column per ply (NaN after a game's end); see
        `heterodox.play`'s docs for the names. ValueError for an unknown
        name.
        """
    def __repr__(self) -> str: ...

def play_games(
    variant: str,
    agents: list[str],
    games: int,
    *,
    rules: dict[str, str | int | bool] | None = None,
    starts: list[str] | None = None,
    opening_plies: int = 4,
    max_plies: int = 0,
    seed: int | None = None,
    concurrent: int = 32,
    evaluators: list[Callable[[dict[str, np.ndarray]], tuple[np.ndarray, np.ndarray]] | None] | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    command: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    part: tuple[int, int] | None = None,
) -> PlayedGames:
    """Plays `games` games of `agents` (one agent string: against itself,
    every game its own opening; two: paired colours, one opening per pair)
    and returns them as a `PlayedGames` table. See `heterodox.play`.
    """

def check_measures(names: list[str]) -> None:
    """Checks measure names before any game is played: ValueError naming
    an unknown one.
    """

def self_play(
    variant: str,
    path: str | os.PathLike[str] | None = None,
    evaluator: Callable[[dict[str, np.ndarray]], tuple[np.ndarray, np.ndarray]] | None = None,
    games: int | None = None,
    concurrent: int | None = None,
    simulations: int | None = None,
    root_policy: str = "puct",
    seed: int | None = None,
    history: int | None = None,
    max_plies: int | None = None,
    temperature_plies: int | None = None,
    opening_plies: int | None = None,
    noise: bool = True,
    leaves_per_round: int | None = None,
    determinizations: int | None = None,
    gumbel_actions: int | None = None,
    c_puct: float | None = None,
    immediate_wins: bool = False,
    avoid_losses_in_one: bool = False,
    quiescence_weight: float = 0.0,
    full_search_share: float = 1.0,
    cheap_simulations: int | None = None,
    producer: str | None = None,
    rules: dict[str, str | int | bool] | None = None,
    **options: str | int | bool,
) -> dict[str, int | float]:
    """Plays games of the network against itself with the Rust self-play
    workers and writes them as a shard.

    self_play(variant, path=None, evaluator=None, games=64, concurrent=None,
    simulations=100, root_policy='puct', seed=0, history=1, max_plies=None,
    temperature_plies=30, opening_plies=0, noise=True,
    leaves_per_round=None, determinizations=None, gumbel_actions=None,
    c_puct=None, immediate_wins=False, avoid_losses_in_one=False,
    quiescence_weight=0.0, full_search_share=1.0, cheap_simulations=None,
    producer=None, rules=None, **rules).
    full_search_share: the share of moves searched with `simulations` and
    recorded as training positions (playout cap randomization, 0 to 1);
    the others are searched with cheap_simulations (None: a quarter of
    simulations), without PUCT root noise, and recorded without a policy.
    opening_plies: each game opens with 0 to this many uniformly random plies, recorded without
    a policy (not training positions; 0 to 1000). evaluator(requests) -> (priors, values) gets
    every game's leaves of a round as one dict (the keys of
    Search.gather() but 'game') and answers as Search.apply() takes them;
    None is the Rust uniform evaluator. path (ending in .hdxshard) receives
    the games, in the order of their seeds, atomically. Returns the run's
    totals (games, positions, simulations: those run, evaluations: the
    leaves sent to the evaluator, white_wins, black_wins, draws, truncated,
    seconds). An exception in the evaluator, or an answer that
    does not fit (EvaluationError), stops Python from being called again
    and is raised when the run returns; no shard is written then.
    """

@final
class EngineResult:
    """What one search found, from the side to act's point of view."""

    @property
    def move(self) -> str:
        """The move to play, in long (UCI-style) notation, as Game.play reads it."""
    @property
    def notation(self) -> str:
        """The same move in the variant's standard notation."""
    @property
    def action(self) -> int:
        """The move's action index (Game.action_index)."""
    @property
    def score_cp(self) -> int | None:
        """Centipawns, None when a mate was found."""
    @property
    def mate(self) -> int | None:
        """Moves to mate (negative: the side to act is mated), else None."""
    @property
    def value(self) -> float:
        """The score as an expected result in [-1, 1]."""
    @property
    def pv(self) -> list[str]:
        """The principal variation in long notation, the move first."""
    @property
    def nodes(self) -> int:
        """Nodes searched."""
    @property
    def depth(self) -> int:
        """The last completed iteration."""
    @property
    def seldepth(self) -> int:
        """The deepest step any line reached (extensions and quiescence)."""
    @property
    def seconds(self) -> float:
        """Seconds the search took."""
    def __repr__(self) -> str: ...

@final
class Engine:
    """The alpha-beta engine of one variant (docs/engine.md).

    Engine(variant, hash_mib=16, threads=1, determinizations=4, seed=0,
    weights="tuned", evaluation="learned") allocates its transposition table
    once. evaluation="learned" evaluates with the shipped net of each game's
    rule set where one exists (agents/*/nnue.safetensors) and the tuned
    classical evaluation elsewhere; "classical" always with the tuned
    classical one (what every result before the nets played), "hand" with
    the classical numbers set by hand before tuning (as weights="hand");
    a path to a net file (*.safetensors, heterodox nnue train's or one saved
    by PyTorch) with that net, refused with NetworkError for other rules.
    evaluate(game) is the static evaluation of the game's position in
    centipawns for the side to act. search(game, depth=None,
    movetime_ms=None, nodes=None) searches the game's position for the
    player to act within the limits given (at least one; depth 1 to 64,
    movetime_ms and nodes at least 1) with the GIL released, and returns an
    EngineResult. A depth or node limit on one thread gives the same result
    every time. Under hidden information (Traitor) the engine reads only the
    view of the player to act. Bad arguments, a game of another variant and
    a finished game raise ValueError naming the problem.
    """

    def __new__(
        cls,
        variant: str,
        hash_mib: int | None = None,
        threads: int | None = None,
        determinizations: int | None = None,
        seed: int | None = None,
        weights: Literal["tuned", "hand"] = "tuned",
        evaluation: str | None = None,
    ) -> Engine: ...
    @property
    def variant(self) -> str:
        """The variant this engine plays."""
    def evaluate(self, game: Game) -> int:
        """The static evaluation of `game`'s position in centipawns for the
        side to act (no search), with the engine's evaluation.
        """
    @property
    def network(self) -> Path | None:
        """The net file the last search or evaluation played with, None for
        the classical evaluation: a file's path, or for a shipped net its
        place in the catalogue, agents/NAME/nnue.safetensors (built into the
        module, so it plays without a checkout).
        """
    def search(
        self,
        game: Game,
        depth: int | None = None,
        movetime_ms: int | None = None,
        nodes: int | None = None,
    ) -> EngineResult:
        """Searches `game`'s position for the player to act."""
    def new_game(self) -> None:
        """Forgets the transposition table, killers and history: the next
        search behaves as a fresh engine's.
        """
    def beliefs(self) -> list[tuple[str, float]] | None:
        """Under hidden information, the engine's posterior over the
        opponent's secret at its last search: every consistent secret with
        its probability, most likely first. It weighs the opponent's steps
        between this engine's searches of one game (its own choices
        played); None with perfect information and before any search.
        """
    def __repr__(self) -> str: ...

class AgentError(ValueError):
    """An agent string that does not parse (the message says why and lists the
    kinds of agents), an agent that cannot play the game asked (a network of
    another variant), or a move asked of a game that is over."""

def parse_agent(spec: str) -> dict[str, Any]:
    """What an agent string names, as a dict, for Python to build the agents
    this module does not play (networks): 'spec' (the string written back
    in its canonical form), 'kind' ('random', 'greedy', 'engine',
    'uniform', 'rollout', 'net' or 'zoo'), 'network' (the checkpoint
    directory of 'net', the shipped name of 'zoo', else None), and for the
    searching kinds the Search keywords that play it: 'simulations',
    'root_policy' ('gumbel' or 'puct'), 'immediate_wins',
    'avoid_losses_in_one', 'quiescence_weight'. AgentError for a string
    that does not parse.
    """

@final
class Agent:
    """An agent that plays without a network, named as the command line names
    it: Agent(spec, seed=0), e.g. Agent('ab@100ms'), Agent('greedy'),
    Agent('rollout@64'). heterodox.agent(spec) is the usual way to make
    one (it also makes network agents, 'zoo:hostage@64').

    move(game) returns the agent's move in long notation (Game.play reads
    it) without playing it; moves(games) does so for many games, in
    parallel, and plays exactly the move move() plays on each. Every move
    is thought afresh: it depends on the game (its position, history and
    ply) and the seed alone, never on the moves asked before it, of this
    game or another (an engine searches each move from an empty table), so
    the same seed gives the same moves in any order and batching, except
    under a time budget ('ab@100ms'). Under hidden information (Traitor)
    the searches read only what the player to act may know. The searches
    run with the GIL released.
    """

    def __new__(cls, spec: str, seed: int | None = None) -> Agent: ...
    @property
    def spec(self) -> str:
        """The agent string, in its canonical form ('ab@8', 'uniform@64')."""
    @property
    def seed(self) -> int:
        """The seed of the agent's choices."""
    def move(self, game: Game) -> str:
        """The agent's move in `game`, in long notation, without playing it.
        AgentError when the game is over.
        """
    def moves(self, games: list[Game]) -> list[str]:
        """The agent's move in each of `games` (a list of Game), in order,
        the games searched in parallel: exactly the move move() gives for
        each game (each is thought afresh, whatever the batch holds or
        was asked before). At most 4096 games; AgentError naming the first
        game that is over.
        """
    def new_game(self) -> None:
        """Frees the agent's players (their engines' tables). Kept for the
        code that called it between games: every move is thought afresh
        already, so the moves after it are the same as without it.
        """
    def __repr__(self) -> str: ...

@final
class Search:
    """The Rust MCTS over num_games games, driven from Python.

    Search(variant, num_games=1, simulations=100, root_policy='puct',
    seed=0, history=1, max_plies=None, noise=False, leaves_per_round=None,
    determinizations=None, gumbel_actions=None, c_puct=None,
    reuse_tree=True, immediate_wins=False, avoid_losses_in_one=False,
    quiescence_weight=0.0, fens=None, rules=None, **rules).
    quiescence_weight: each leaf's value is (1 - w) times the evaluator's
    plus w times the engine's quiescence search of the leaf (captures,
    poisonings, drops, part removals; 0 to 1, else ValueError).
    immediate_wins: a position whose player can win with one action is
    scored that win without asking the evaluator, and a root with such
    an action plays it (its policy all on it). avoid_losses_in_one: at the
    root, an action after which the opponent can win with one action gets
    no prior (PUCT) or is considered last (Gumbel) while another avoids
    that. Each round,
    gather() returns the leaves every unfinished search wants evaluated
    (a dict of numpy arrays: observations (L, C, 8, 8) float32, mask
    (L, A) bool, legal / leaf (K,) int64, offsets (L + 1,) int64, game
    (L,) int64) and apply(priors, values) takes float32 priors ((L, A) or
    (K,)) and values ((L,), in [-1, 1] for the player to act) back; a bad
    array is an EvaluationError. A round in which every simulation ends in
    a finished game gathers no leaves (L = 0): it has finished the search,
    and done is True. When done, policy() and result() give
    the search's targets and step() plays. Traitor is searched over
    determinizations sampled from the searcher's view. Game k starts as
    the Rust self-play workers' game k of the same seed; the tree work
    runs in parallel with the GIL released. fens holds one start per game
    (or one for all): a position string, or a Game, whose earlier
    positions and repetition history then count in the search.
    """

    def __new__(
        cls,
        variant: str,
        num_games: int | None = None,
        simulations: int | None = None,
        root_policy: str = "puct",
        seed: int | None = None,
        history: int | None = None,
        max_plies: int | None = None,
        noise: bool = False,
        leaves_per_round: int | None = None,
        determinizations: int | None = None,
        gumbel_actions: int | None = None,
        c_puct: float | None = None,
        reuse_tree: bool = True,
        immediate_wins: bool = False,
        avoid_losses_in_one: bool = False,
        quiescence_weight: float = 0.0,
        fens: list[str | Game] | None = None,
        rules: dict[str, str | int | bool] | None = None,
        **options: str | int | bool,
    ) -> Search: ...
    @property
    def variant(self) -> str:
        """The variant's registered name."""
    @property
    def num_games(self) -> int:
        """The number of games searched together."""
    @property
    def num_actions(self) -> int:
        """The size of the action space (A)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, (C, 8, 8)."""
    @property
    def done(self) -> bool:
        """True when every unfinished game's search has run all its simulations
        (policy(), result() and step() may be called).
        """
    def gather(self) -> dict[str, np.ndarray]:
        """The leaves to evaluate next, from every unfinished search (see the
        class docs). No leaves (L = 0) only when the search is done: the
        round may have finished it, every simulation of it ending in a
        finished game. Call apply() before the next gather() (for the
        empty round, with empty arrays, or not at all).
        """
    def apply(self, priors: np.ndarray, values: np.ndarray) -> None:
        """Backs up the evaluations of the last gather(): priors float32
        (L, A) or (K,), values float32 (L,) or (L, 1); for an empty round,
        arrays of no leaves. EvaluationError if they do not fit; the
        search is then unchanged.
        """
    def run(
        self,
        evaluator: Callable[[dict[str, np.ndarray]], tuple[np.ndarray, np.ndarray]] | None = None,
    ) -> None:
        """Runs every search to its end: evaluator(requests) -> (priors,
        values) is called once per round with gather()'s dict, never with
        an empty one; None runs the Rust uniform evaluator (uniform
        priors, value 0) without leaving Rust.
        """
    def policy(self) -> np.ndarray:
        """The search's training target per game, float32 (num_games, A): the
        visit distribution (PUCT) or the completed-Q improved policy
        (Gumbel), averaged over determinizations; zero rows for games that
        are over.
        """
    def result(self) -> dict[str, np.ndarray]:
        """Everything the finished searches say, as numpy arrays: 'policy'
        (num_games, A) float32, 'visits' (num_games, A) int64, 'value'
        (num_games,) float32 (the root value for the player to move),
        'best' (num_games,) int64 (the action a deterministic player takes;
        -1 for games that are over).
        """
    def step(self, actions: np.ndarray | None = None) -> np.ndarray:
        """Plays one action in every game that is not over: actions[k] (an
        action index; int64 array of num_games entries, negative for the
        search's choice) or, without actions, the search's choice (most
        visits for PUCT, the sequential-halving winner for Gumbel); then
        starts the next searches. Returns which games are over (bool array).
        IllegalMoveError for an action that is not legal; nothing moves then.
        """
    def over(self) -> np.ndarray:
        """Which games are over (finished or cut at max_plies), bool (num_games,)."""
    def results(self) -> list[str | None]:
        """Each game's result as a PGN token ('1-0', '0-1', '1/2-1/2', '*'
        for a game cut at max_plies), None while it runs.
        """
    def plies(self) -> list[int]:
        """Plies played in each game."""
    def simulations(self) -> list[int]:
        """Simulations run by each game's current search so far: leaves
        evaluated and descents that ended in a finished game (the
        simulations setting once done; 0 for games that are over).
        """
    def fen(self, game: int) -> str:
        """The position string of game `game` (the full state: under hidden
        information it shows both players' secrets).
        """
    def __repr__(self) -> str: ...

@final
class Loader:
    """Training batches sampled from self-play shards (the Rust loader).

    Loader(paths, history=1, z_weight=1.0, seed=0, surprise_weight=0.0).
    paths: a shard file, a directory of shards, or a list of either; every
    shard must hold the same variant under the same rules. Each game is
    replayed once on loading (a corrupted or mismatched record is a
    ValueError naming the game and step). sample(batch_size) draws positions
    (seeded) uniformly, or with surprise_weight w > 0 in proportion to
    (1 - w) + w s / mean(s) over the positions with a recorded surprise
    s > 0 (the others weigh 1); batch(positions) takes the given ones; both
    return 'observations' float32 (B, C, 8, 8), 'masks' bool (B, A),
    'policies' float32 (B, A), 'values' float32 (B,) (z_weight * result +
    (1 - z_weight) * root value, for the player to act), and the auxiliary
    targets 'moves_left' float32 (B,) (steps left in the record / 100) and
    'material' float32 (B,) (tanh of the player's material lead at the
    record's end by the engine's values / 1000 cp), with the GIL released
    while Rust works.
    """

    def __new__(
        cls,
        paths: str | os.PathLike[str] | list[str | os.PathLike[str]],
        history: int | None = None,
        z_weight: float = 1.0,
        seed: int | None = None,
        surprise_weight: float = 0.0,
    ) -> Loader: ...
    @property
    def variant(self) -> str:
        """The variant's registered name."""
    @property
    def num_games(self) -> int:
        """The games loaded."""
    @property
    def num_positions(self) -> int:
        """The training positions (steps with a search policy)."""
    @property
    def num_actions(self) -> int:
        """The size of the action space (A)."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of one observation, (C, 8, 8)."""
    @property
    def spec_summary(self) -> str:
        """The encoding's one-line summary (variant, rules, version, history,
        shapes), as the Rust trainer prints it.
        """
    def sample(self, batch_size: int) -> dict[str, np.ndarray]:
        """batch_size positions drawn uniformly from all training positions
        (the loader's seeded generator moves on).
        """
    def batch(self, positions: np.ndarray) -> dict[str, np.ndarray]:
        """The rows of the given training positions (int64 indices from 0 to
        num_positions - 1), in order: for epochs over the data.
        """
    def __len__(self) -> int: ...
    def __repr__(self) -> str: ...

# heterodox.stats (python/heterodox/stats.py wraps these in named results).

def stats_normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z (relative error about 1e-13)."""

def stats_normal_sf(x: float) -> float:
    """P(Z > x) for a standard normal Z, accurate far in the tail."""

def stats_normal_quantile(p: float) -> float:
    """The standard normal quantile of p (Wichura's AS 241): -inf at 0, +inf
    at 1. ValueError outside [0, 1].
    """

def stats_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df degrees of freedom (df > 0, real)."""

def stats_t_quantile(p: float, df: float) -> float:
    """The quantile of p for Student's t with df degrees of freedom: -inf at
    0, +inf at 1. ValueError for p outside [0, 1] or df <= 0.
    """

def stats_wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """Wilson's score interval of successes (fractional allowed: a draw is
    half) out of n trials: (estimate, low, high).
    """

def stats_mean(
    values: Sequence[float] | np.ndarray,
    proportion: bool = False,
) -> tuple[int, float, float, float, float]:
    """The claims' mean of values with its standard error and 95% interval
    (Wilson's when proportion is true, else normal): (n, mean, std_error,
    low, high).
    """

def stats_welch_z(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
) -> tuple[float, float, float, float, float]:
    """The claims' Welch z test of mean(a) - mean(b) (normal reference, 95%
    normal interval): (difference, low, high, z, pvalue).
    """

def stats_welch(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
) -> tuple[float, float, float, float, float, float, float]:
    """Welch's t-test of mean(a) - mean(b): (difference, std_error,
    statistic, df, pvalue, low, high), the interval at confidence.
    """

def stats_elo(score: float) -> float:
    """The Elo difference of a mean score in [0, 1]: +inf at 1, -inf at 0."""

def stats_score_of_elo(elo: float) -> float:
    """The expected score of a player elo stronger (logistic)."""

def stats_pentanomial(counts: Sequence[int]) -> tuple[int, float, float, float, float, float]:
    """Pentanomial statistics of pair counts [0-2, 1/2-3/2, 1-1, 3/2-1/2,
    2-0]: (pairs, score, variance, elo, elo_low, elo_high), the variance
    that of the per-pair mean score, the Elo interval 95% (infinite bounds
    as inf).
    """

def stats_pair_counts(totals: Sequence[float] | np.ndarray) -> list[int]:
    """The pentanomial counts of pair totals (each 0, 0.5, 1, 1.5 or 2)."""

def stats_sprt(
    counts: Sequence[int],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> tuple[float, float, float, Literal["H0", "H1", "continue"]]:
    """The GSPRT of elo0 against elo1 on pair counts: (llr, lower, upper,
    decision), decision 'H1', 'H0' or 'continue' (always 'continue' under
    10 pairs).
    """

def stats_logistic(
    x: Sequence[Sequence[float]] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    ridge: float = 0.0,
) -> list[tuple[float, float, float, float, float, float]]:
    """Quasi-binomial logistic regression of y in [0, 1] on the rows of x
    (predictors only: the intercept is added as the first coefficient),
    with HC0 sandwich standard errors and a ridge penalty on all but the
    intercept: one (estimate, std_error, low, high, z, pvalue) per
    coefficient.
    """

def stats_bootstrap_mean(
    values: Sequence[float] | np.ndarray,
    resamples: int = 10000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float, float, float, int]:
    """Seeded percentile bootstrap of the mean of values: (estimate, low,
    high, std_error, resamples). The same seed gives the same numbers.
    """

def stats_bootstrap_difference(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    resamples: int = 10000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float, float, float, int]:
    """Seeded percentile bootstrap of mean(a) - mean(b), each sample
    resampled on its own: (estimate, low, high, std_error, resamples).
    """

def stats_power_of_score(score: float, games: float, alpha: float = 0.05) -> float:
    """Power of the two-sided level-alpha test of score = 1/2 over games
    games when the true score is score (arcsine scale).
    """

def stats_games_for_score(score: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Games for which the two-sided level-alpha test of score = 1/2 has the
    given power when the true score is score.
    """

def stats_power_of_difference(p1: float, p2: float, games: float, alpha: float = 0.05) -> float:
    """Power of the two-sided level-alpha test of p1 = p2 with games games on
    each side (arcsine scale).
    """

def stats_games_for_difference(
    p1: float,
    p2: float,
    alpha: float = 0.05,
    power: float = 0.8,
) -> float:
    """Games on each side for which the two-sided level-alpha test of p1 = p2
    has the given power.
    """

def stats_games_for_half_width(
    half_width: float,
    sd: float = 0.5,
    confidence: float = 0.95,
) -> float:
    """Games for which a normal interval of a mean at confidence has the given
    half-width, one game's standard deviation being sd (1/2 bounds a
    score's).
    """
