"""Heterodox: rules of chess variants for reinforcement-learning self-play.

>>> import heterodox
>>> game = heterodox.Game("chess")
>>> game.play("e4")
'e2e4'
>>> game.turn
'black'

Everything here comes from the native module :mod:`heterodox._core`
(written in Rust); see its type stub ``_core.pyi`` for the documentation.
"""

from heterodox._core import Game, Outcome, __version__, variants

__all__ = ["Game", "Outcome", "__version__", "variants"]
