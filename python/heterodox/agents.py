"""Agents in one line: ``heterodox.agent(spec)`` makes any player the
command line names (docs/cli.md, "Agents"), and ``.move(game)`` asks it
for a move.

>>> import heterodox
>>> game = heterodox.Game("hostage")
>>> heterodox.agent("ab@3").move(game)
'g1f3'

Every agent string works: ``random``, ``greedy``, the alpha-beta engine
``ab@DEPTH`` / ``ab@MSms`` / ``ab@NODESn``, the searches ``uniform@SIMS``
and ``rollout@SIMS``, a shipped network ``zoo:NAME@SIMS`` and a checkpoint
``net:DIR@SIMS``. The string is read by the same Rust grammar as the
command line's (``heterodox._core.parse_agent``); a bad one raises
``heterodox.AgentError`` saying why.

The agents without a network are ``heterodox.Agent`` (Rust, the GIL
released while they think). A network agent is a ``NetworkAgent``: its
network is loaded with PyTorch (``heterodox.torch``, the optional extra)
and searched with ``heterodox.Search`` as the command line searches it
(Gumbel root, the rules probes), so ``moves(games)`` evaluates the leaves
of every game in one batch a round. Both give a move in long notation
(``Game.play`` reads it) without playing it, and the same seed gives the
same moves (time budgets aside).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol

from heterodox._core import Agent, AgentError, Game, Search, encoding_spec, parse_agent


class Player(Protocol):
    """What every agent offers."""

    @property
    def spec(self) -> str: ...

    def move(self, game: Game) -> str: ...

    def moves(self, games: Sequence[Game]) -> list[str]: ...


def agent(spec: str, *, seed: int = 0, device: str = "cpu") -> Player:
    """The agent ``spec`` names (any agent string of the command line),
    seeded by ``seed``; a network agent's network runs on ``device``.
    ``AgentError`` for a string that does not parse, or a network that
    cannot be loaded."""
    info = parse_agent(spec)
    if info["kind"] in ("zoo", "net"):
        return NetworkAgent(info, seed=seed, device=device)
    return Agent(spec, seed=seed)


class NetworkAgent:
    """A network agent (``zoo:NAME@SIMS``, ``net:DIR@SIMS``): the network,
    loaded once with PyTorch, guides ``heterodox.Search`` with the agent
    string's settings. Plays games of the variant, rules and history the
    network was made for; ``AgentError`` for any other game. Made by
    ``heterodox.agent``."""

    def __init__(self, info: dict, *, seed: int = 0, device: str = "cpu"):
        try:
            import heterodox.torch as hxtorch
        except ImportError as error:  # the optional extra
            raise AgentError(
                f"agent '{info['spec']}' searches with a network, which needs PyTorch "
                f"(pip install 'heterodox[torch]'): {error}"
            ) from error
        self._info = info
        self.seed = seed
        try:
            if info["kind"] == "zoo":
                model, _ = hxtorch.zoo(info["network"], device)
            else:
                model = hxtorch.load(info["network"], device=device)
        except (OSError, ValueError) as error:
            raise AgentError(f"agent '{info['spec']}': {error}") from error
        if model.spec is None:
            raise AgentError(f"agent '{info['spec']}': its checkpoint has no spec.json, so no game can be checked against it")
        self._model = model
        self._evaluate = hxtorch.evaluator(model, device)

    @property
    def spec(self) -> str:
        """The agent string, in its canonical form."""
        return self._info["spec"]

    @property
    def variant(self) -> str:
        """The variant the network plays."""
        return self._model.spec["variant"]

    def move(self, game: Game) -> str:
        """The agent's move in ``game``, in long notation, without playing
        it. ``AgentError`` when the game is over or not one the network
        plays."""
        return self.moves([game])[0]

    def moves(self, games: Sequence[Game]) -> list[str]:
        """The agent's move in each of ``games``, in order: one search over
        them all, its leaves evaluated in one batch a round."""
        games = list(games)
        if not games:
            return []
        if self.spec.endswith("/beliefs"):
            # Beliefs follow a game move by move; this search starts from
            # each position alone (heterodox.play and the arena keep them).
            raise AgentError(f"agent '{self.spec}': /beliefs needs the game's history, which heterodox.play, "
                             "the arena and the command line's players keep; this search starts from each position alone")
        for k, game in enumerate(games):
            if not isinstance(game, Game):
                raise TypeError(f"games[{k}] must be a heterodox.Game, not {type(game).__name__}")
            if game.is_over():
                raise AgentError(f"game {k} is over: there is no move to choose")
            self._check(game, k)
        info, spec = self._info, self._model.spec
        search = Search(
            spec["variant"],
            num_games=len(games),
            simulations=info["simulations"],
            root_policy=info["root_policy"],
            seed=self.seed,
            history=spec["history"],
            immediate_wins=info["immediate_wins"],
            avoid_losses_in_one=info["avoid_losses_in_one"],
            quiescence_weight=info["quiescence_weight"],
            fens=games,
            rules=dict(spec["options"]),
        )
        search.run(self._evaluate)
        best = search.result()["best"]
        return [game.action_from_index(int(action)) for game, action in zip(games, best)]

    def _check(self, game: Game, k: int) -> None:
        """AgentError unless the network reads game ``k``'s tensors."""
        spec = self._model.spec
        today = json.loads(encoding_spec(game.variant, spec["history"], rules=game.options))
        for key in ("variant", "options", "version", "channel_names", "num_actions"):
            if today.get(key) != spec.get(key):
                raise AgentError(
                    f"agent '{self.spec}' plays {spec['variant']} games{' under ' + str(spec['options']) if spec['options'] else ''}; "
                    f"game {k} differs in its {key}: {today.get(key)!r}, the network's {spec.get(key)!r}"
                )

    def __repr__(self) -> str:
        return f"NetworkAgent('{self.spec}', seed={self.seed})"
