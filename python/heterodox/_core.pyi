"""Heterodox: rules of chess variants for reinforcement-learning self-play."""

from typing import Any, final

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
        UCI. Raises IllegalMoveError when the move is illegal or the game is
        over, NotationError when the text cannot be read or fits several legal
        moves (both ValueError), leaving the game unchanged.
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
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
    def is_over(self) -> bool:
        """True once the game has ended (outcome() is not None)."""
    def perft(self, depth: int) -> int:
        """The number of leaf nodes of the legal move tree `depth` plies deep
        (perft), from the current position. depth is 0 to 10; the count runs
        in parallel with the GIL released.
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
    def copy(self) -> Game:
        """An independent copy of the game, history included."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...

@final
class VecEnv:
    """N games of one variant stepped together in Rust, in parallel, in the
    shape of Gymnasium's vector API.

    VecEnv(variant, num_envs, seed=0, history=1, max_plies=None,
    auto_reset=True, copy=True, **rules). Observations are float32 of shape
    (num_envs, C, 8, 8), each from the point of view of the player to act
    in that env (channel_names names the C planes; `history` stacks the
    last T positions). Actions are flat indices into a fixed action space
    of num_actions; info['action_mask'] (bool, (num_envs, num_actions))
    marks the legal ones and info['current_player'] (uint8, 0 = white,
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
        seed: int = 0,
        history: int = 1,
        max_plies: int | None = None,
        auto_reset: bool = True,
        copy: bool = True,
        **rules: str | int | bool,
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
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[Any]]]:
        """Starts a new game in every env and returns (observations, info).
        With a seed, the games are those of a new VecEnv with that seed;
        without, each env starts the next game of its seed sequence.
        """
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[Any]],
    ]:
        """Plays one action per env: `actions` is an int64 numpy array of shape
        (num_envs,) holding flat action indices. Returns (observations,
        rewards, terminated, truncated, info). TypeError for another dtype,
        ValueError for another shape, IllegalMoveError (a ValueError) for an
        illegal action (naming the env, the action and the position); nothing
        changes on error.
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
    def __len__(self) -> int: ...
    def __repr__(self) -> str: ...
