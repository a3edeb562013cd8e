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

Bad input raises a subclass of ``ValueError`` naming its kind:
``IllegalMoveError``, ``NotationError``, ``PositionError``,
``UnknownVariantError`` and ``OptionError``.
"""

from heterodox._core import (
    Game,
    IllegalMoveError,
    NotationError,
    OptionError,
    Outcome,
    PositionError,
    UnknownVariantError,
    __version__,
    variants,
)
from heterodox.env import Env, make
from heterodox.registration import register_envs
from heterodox.vector import VecEnv

register_envs()

__all__ = [
    "Env",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "OptionError",
    "Outcome",
    "PositionError",
    "UnknownVariantError",
    "VecEnv",
    "__version__",
    "make",
    "variants",
]
