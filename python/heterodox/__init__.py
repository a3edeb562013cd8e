"""Heterodox: rules of chess variants for reinforcement-learning self-play.

>>> import heterodox
>>> game = heterodox.Game("chess")
>>> game.play("e4")
'e2e4'
>>> game.turn
'black'

``Game`` and ``Outcome`` come from the native module :mod:`heterodox._core`
(written in Rust; its type stub ``_core.pyi`` documents them); ``make`` (one
game as a ``gymnasium.Env``) is in :mod:`heterodox.env`, ``VecEnv`` (N games
stepped together in Rust, a ``gymnasium.vector.VectorEnv``) in
:mod:`heterodox.vector`, and the PettingZoo AEC env in
:mod:`heterodox.pettingzoo` (optional extra ``heterodox[pettingzoo]``).
Importing the package registers one Gymnasium id per variant,
``heterodox/<variant>-v0``: ``gymnasium.make("heterodox/hostage-v0")``.

For trainers in Python (docs/python.md): ``Search`` runs the Rust MCTS
over many games with the caller's network as evaluator (numpy arrays in
and out), ``self_play`` runs the Rust self-play workers with a Python
evaluator and writes the trainer's shards, ``Loader`` samples training
batches from shards (``heterodox.data.ShardDataset`` for PyTorch), and
``heterodox.torch`` is the Rust trainer's network in PyTorch, on the same
checkpoint files.

``play(variant, agents, games)`` plays games between agents in Rust on
every core and returns them as a table (``Games.to_pandas()``, per-ply
measures, PGN); ``heterodox.stats`` holds the statistics the claims use
(Wilson intervals, pentanomial Elo, Welch, the logistic regression, the
bootstrap, power, SPRT); ``Claim`` states a strategy claim as a value and
``Claim.run`` returns its ``Verdict`` (docs/analysis.md).

``agent(spec)`` makes any player the command line names, as the command
line names it (``agent("zoo:hostage@64").move(game)``; docs/python.md).

``Engine`` is the alpha-beta engine of a variant (docs/engine.md):
``Engine("hostage").search(game, depth=6)`` returns an ``EngineResult``
(move, score, principal variation, nodes, depth), the search running with
the GIL released; it evaluates with the rule set's shipped net
(``evaluation="classical"`` for the hand-written evaluation, or the path of
a net file). ``nnue_data`` reads teacher data for the nets, which
:mod:`heterodox.nnue` trains in PyTorch.

Bad input raises a subclass of ``ValueError`` naming its kind:
``IllegalMoveError``, ``NotationError``, ``PositionError``,
``UnknownVariantError``, ``OptionError``, ``EvaluationError``,
``AgentError`` and ``NetworkError``.
"""

from heterodox._core import (
    Agent,
    AgentError,
    Engine,
    EngineResult,
    EvaluationError,
    Game,
    IllegalMoveError,
    Loader,
    NetworkError,
    NotationError,
    OptionError,
    Outcome,
    PositionError,
    Search,
    UnknownVariantError,
    __version__,
    encoding_spec,
    nnue_data,
    nnue_features,
    parse_agent,
    read_shard,
    self_play,
    variants,
    zoo_agents,
    zoo_file,
    zoo_network_dir,
)
from heterodox import stats
from heterodox.agents import NetworkAgent, agent
from heterodox.claims import Claim, Condition, Verdict
from heterodox.env import Env, make
from heterodox.play import Games, play
from heterodox.registration import register_envs
from heterodox.vector import VecEnv

register_envs()

__all__ = [
    "Agent",
    "AgentError",
    "Claim",
    "Condition",
    "Engine",
    "EngineResult",
    "Env",
    "EvaluationError",
    "Game",
    "Games",
    "IllegalMoveError",
    "Loader",
    "NetworkAgent",
    "NetworkError",
    "NotationError",
    "OptionError",
    "Outcome",
    "PositionError",
    "Search",
    "UnknownVariantError",
    "VecEnv",
    "Verdict",
    "__version__",
    "agent",
    "encoding_spec",
    "make",
    "nnue_data",
    "nnue_features",
    "parse_agent",
    "play",
    "read_shard",
    "self_play",
    "stats",
    "variants",
    "zoo_agents",
    "zoo_file",
    "zoo_network_dir",
]
