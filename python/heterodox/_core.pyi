"""Heterodox: rules of chess variants for reinforcement-learning self-play."""

from typing import Any, final

__version__: str

def variants() -> list[str]:
    """The names of the variants, as accepted by Game(variant=...)."""

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
    with the reason, and leaves the game unchanged.
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
        UCI. Raises ValueError, leaving the game unchanged, when the move
        cannot be read, is illegal or ambiguous, or the game is over.
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
    def copy(self) -> Game:
        """An independent copy of the game, history included."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __repr__(self) -> str: ...
    def __str__(self) -> str: ...
