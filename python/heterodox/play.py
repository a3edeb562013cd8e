"""Games into a table: ``heterodox.play`` plays many games between agents
in Rust, on every core with the GIL released, and returns them as
``Games``, one row per game (``Games.to_pandas()``), with per-ply
measures (``Games.measure(name)``), PGN and replays.

>>> import heterodox
>>> games = heterodox.play("hostage", ["ab@2", "greedy"], 4, seed=1, progress=False)
>>> games.to_pandas()[["white", "black", "result"]].shape
(4, 3)

The games are the arena's: the same players, openings and seeds, so
``play(v, [a, b], n, seed=s)`` plays the games of ``heterodox arena
--variant v --agents a,b --games n --seed s`` (docs/python.md, "Games
into a table"). One agent string plays itself, every game from its own
opening; two play pairs (one opening, both colours).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from heterodox._core import Game, PlayedGames, check_measures, parse_agent, play_games

if TYPE_CHECKING:
    import pandas

#: A ``progress`` callable: called with (games done, games in all).
Progress = Callable[[int, int], None]


class Games:
    """The games of one ``heterodox.play`` call, in the order of their
    numbers. ``len(games)`` is how many were played (fewer than asked when
    Ctrl-C stopped the call: ``interrupted``)."""

    def __init__(self, played: PlayedGames, condition: str, seed: int):
        self._played = played
        self.condition = condition
        self.seed = seed
        self._measures: dict[str, np.ndarray] = {}

    @property
    def variant(self) -> str:
        """The variant's name."""
        return self._played.variant

    @property
    def options(self) -> str:
        """The rule options the games were played under, written out."""
        return self._played.options

    @property
    def agents(self) -> tuple[str, str]:
        """The two agent strings (an agent against itself: the same twice)."""
        return self._played.agents

    @property
    def interrupted(self) -> bool:
        """Whether Ctrl-C stopped the call before every game was played."""
        return self._played.interrupted

    def __len__(self) -> int:
        return len(self._played)

    def columns(self) -> dict[str, list]:
        """The table as a dict of columns (what ``to_pandas`` holds)."""
        columns = self._played.columns()
        n = len(self)
        return {
            "condition": [self.condition] * n,
            "variant": [self.variant] * n,
            "rules": [self.options] * n,
            **columns,
        }

    def to_pandas(self) -> "pandas.DataFrame":
        """One row per game: condition, variant, rules, game, pair, white,
        black, result ('1-0', '0-1', '1/2-1/2', '*' for a game cut at the
        ply cap), white_score (1, 0.5, 0; a cut game 0.5), termination,
        plies, start (the position before the first ply), moves (the
        variant's notation, space-separated), then one column per measure
        asked of ``play`` (its value at the game's last ply)."""
        import pandas

        frame = pandas.DataFrame(self.columns())
        for name, values in self._measures.items():
            frame[name] = [_last(row) for row in values]
        return frame

    def measure(self, name: str) -> np.ndarray:
        """Measure ``name`` (docs/python.md lists them: ``men:white``,
        ``men:black:Q``, ``reserve:white:prison``, ``poisoned:black``,
        ``announced:white``, ``monsters:white``, ``king_zone:black``,
        ``checks``, ``captures``): a float64 array with a row per game and
        a column per ply, column ``k`` the position after ``k`` plies (a
        move measure: the ``k``-th ply; column 0 NaN), NaN after a game's
        end. Computed in Rust, once. ``ValueError`` for an unknown name."""
        if name not in self._measures:
            self._measures[name] = self._played.measure(name)
        return self._measures[name]

    def replay(self, index: int) -> Game:
        """Game ``index`` as a ``heterodox.Game`` at its end, every ply
        played (``undo`` walks back; ``moves`` lists them), for any
        measure the list lacks."""
        start, actions = self._played.replay_steps(index)
        game = Game(self.variant, fen=start, **_options(self.options))
        for action in actions:
            game.play_index(action)
        return game

    def pgn(self) -> str:
        """Every game as PGN (Variant, FEN and the agents' names as White
        and Black), separated by blank lines."""
        return self._played.pgn()

    def __repr__(self) -> str:
        stopped = ", interrupted" if self.interrupted else ""
        return f"Games({len(self)} games of {self.variant}: {self.agents[0]} vs {self.agents[1]}{stopped})"


def play(
    variant: str,
    agents: str | Sequence[str],
    games: int,
    *,
    rules: dict[str, Any] | None = None,
    start: str | Sequence[str] | None = None,
    opening_plies: int = 4,
    max_plies: int = 0,
    seed: int = 0,
    measures: Sequence[str] = (),
    progress: bool | Progress = True,
    out: str | os.PathLike | None = None,
    resume: bool = False,
    condition: str | None = None,
    concurrent: int = 32,
    device: str = "cpu",
    part: tuple[int, int] | None = None,
) -> Games:
    """Plays ``games`` games of ``variant`` between ``agents`` (one agent
    string: against itself, each game its own opening; two: paired
    colours, the first agent White in even games) and returns them.

    ``rules``: rule options (``{"mode": "fog"}``). ``start``: a position
    string (FEN) or a line of moves (``1.e4 e5 2.Nf3``), or a list of them
    the pairs take in turn, before the ``opening_plies`` random plies.
    ``max_plies``: a longer game is cut and scored a draw (0: the
    variant's cap). ``seed``: the same seed, the same games.
    ``measures``: measure names computed now (and checked before the
    first game). ``progress``: a line on stderr (True), nothing (False) or
    a callable ``(done, total)``. ``out``: a directory that receives
    games.pgn and games.csv; the games are journaled beside it
    (``OUT.journal``) as they finish, so ``resume=True`` plays only those
    a stopped call lacks (the journal is ``heterodox arena --out OUT``'s).
    ``condition``: a label for the table's ``condition`` column (default:
    the variant and its rules). Network agents (``zoo:``, ``net:``) are
    searched with their network in PyTorch (``heterodox.torch``) on
    ``device``. Ctrl-C returns the games finished so far. ``part=(k, n)``
    plays only the pairs (unpaired: the games) whose number is ``k`` modulo
    ``n``, each game as in the whole run, and keeps the journal beside
    ``out`` for the whole run to resume from: ``heterodox.ray.play`` splits
    a call so across a cluster.

    Raises ``AgentError`` for an agent that does not parse or cannot play
    these rules, ``ValueError`` for a bad size, start or measure, before
    any game is played.
    """
    names = [agents] if isinstance(agents, str) else list(agents)
    if resume and out is None:
        raise ValueError("resume=True continues the journal beside out=DIR: give out")
    if len(names) not in (1, 2):
        raise ValueError(f"agents: one agent string (self-play) or two (paired colours), got {len(names)}")
    starts = [start] if isinstance(start, str) else list(start or [])
    measures = list(measures)
    check_measures(measures)
    for name, value in (("games", games), ("opening_plies", opening_plies), ("max_plies", max_plies),
                        ("seed", seed), ("concurrent", concurrent)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative int, not {value!r}")
    evaluators = [_network_evaluator(spec, variant, rules or {}, device) for spec in names]
    if len(names) == 1:
        evaluators = [evaluators[0], evaluators[0]]
    report = _progress_line() if progress is True else (progress or None)
    played = play_games(
        variant,
        names,
        games,
        rules=rules,
        starts=starts,
        opening_plies=opening_plies,
        max_plies=max_plies,
        seed=seed,
        concurrent=concurrent,
        evaluators=evaluators,
        out=None if out is None else os.fspath(out),
        resume=resume,
        command=" ".join(sys.argv) or "heterodox.play",
        progress=report,
        part=part,
    )
    if progress is True:
        print(file=sys.stderr)
    label = condition or (f"{played.variant} ({played.options})" if played.options else played.variant)
    result = Games(played, label, seed)
    for name in measures:
        result.measure(name)
    return result


def _network_evaluator(spec: str, variant: str, rules: dict, device: str) -> Callable | None:
    """The evaluator of a network agent (None for the others), checked
    against the games' variant and rules before any game."""
    info = parse_agent(spec)
    if info["kind"] not in ("zoo", "net"):
        return None
    from heterodox.agents import NetworkAgent

    agent = NetworkAgent(info, device=device)
    probe = Game(variant, **{key: value for key, value in rules.items()})
    agent._check(probe, 0)
    return agent._evaluate


def _progress_line() -> Progress:
    """Writes ``heterodox.play: DONE/TOTAL games`` over itself on stderr
    (a terminal and a notebook both redraw a carriage return)."""

    def report(done: int, total: int) -> None:
        print(f"\rheterodox.play: {done}/{total} games", end="", file=sys.stderr, flush=True)

    return report


def _options(text: str) -> dict[str, str]:
    """Rule options written out (``mode=fog,commitment=x``) as keywords."""
    if not text:
        return {}
    return dict(item.split("=", 1) for item in text.split(","))


def _last(row: np.ndarray) -> float:
    """A measure's value at the game's last ply (its last non-NaN)."""
    values = row[~np.isnan(row)]
    return float(values[-1]) if len(values) else float("nan")
