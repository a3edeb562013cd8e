"""Heterodox: rules of chess variants for reinforcement-learning self-play.

>>> import heterodox
>>> game = heterodox.Game("chess")
>>> game.play("e4")
'e2e4'
>>> game.turn
'black'

``Game``, ``Outcome`` and the batched ``VecEnv`` come from the native
module :mod:`heterodox._core` (written in Rust; its type stub ``_core.pyi``
documents them); ``make`` (one game as a Gymnasium-style env) is in
:mod:`heterodox.env`, and the PettingZoo AEC env in
:mod:`heterodox.pettingzoo` (optional extra ``heterodox[pettingzoo]``).

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
    VecEnv,
    __version__,
    variants,
)
from heterodox.env import Env, make

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
