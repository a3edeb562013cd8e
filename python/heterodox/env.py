"""A single game as a Gymnasium-style environment: :func:`make`.

``make(variant, **rules)`` wraps a one-game :class:`heterodox.VecEnv`
(auto-reset off), so a single game and a batch share one implementation
and one action space. When ``gymnasium`` is installed the class derives
from ``gymnasium.Env`` and has ``observation_space`` and ``action_space``;
without it, everything else works the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from heterodox._core import IllegalMoveError, VecEnv

try:  # optional: pip install heterodox[pettingzoo] (or gymnasium alone)
    import gymnasium as _gymnasium
    from gymnasium import spaces as _spaces

    _Base: type = _gymnasium.Env
except ImportError:  # pragma: no cover - exercised only without gymnasium
    _gymnasium = None
    _spaces = None
    _Base = object

__all__ = ["Env", "make"]


class Env(_Base):  # type: ignore[misc, valid-type]
    """One game of a variant: ``reset(seed=None) -> (obs, info)`` and
    ``step(action) -> (obs, reward, terminated, truncated, info)``.

    ``obs`` is float32 ``(C, 8, 8)`` from the point of view of the player
    to act; ``action`` is a flat index into ``num_actions`` actions;
    ``reward`` is +1 / -1 / 0 for the player who just acted, on the step
    that ends the game. ``info`` holds ``action_mask`` (bool,
    ``(num_actions,)``), ``current_player`` (0 = white, 1 = black: who acts
    next; a Traitor announcement or a Mad Scientist discard is followed by
    another step of the same player), ``legal_moves`` (long notation) and
    ``legal_actions`` (their indices, same order). After the game ends,
    call ``reset()``; ``step`` raises ``IllegalMoveError`` (a
    ``ValueError``) until then, as it does for an illegal action (the game
    unchanged).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        variant: str = "chess",
        *,
        history: int = 1,
        max_plies: int | None = None,
        render_mode: str | None = None,
        **rules: str | int | bool,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self._vec = VecEnv(
            variant, 1, history=history, max_plies=max_plies, auto_reset=False, **rules
        )
        self._actions = np.zeros(1, dtype=np.int64)
        self._over = False
        self.variant: str = self._vec.variant
        self.num_actions: int = self._vec.num_actions
        self.channel_names: list[str] = self._vec.channel_names
        self.observation_shape: tuple[int, int, int] = tuple(self._vec.observation_shape)
        if _spaces is not None:
            self.observation_space = _spaces.Box(
                low=-np.inf, high=np.inf, shape=self.observation_shape, dtype=np.float32
            )
            self.action_space = _spaces.Discrete(self.num_actions)

    def _info(self, info: dict[str, np.ndarray]) -> dict[str, Any]:
        return {
            "action_mask": info["action_mask"][0],
            "current_player": int(info["current_player"][0]),
            "legal_moves": self._vec.legal_moves(0),
            "legal_actions": self._vec.legal_actions(0),
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game; with a seed, the same game as any env reset
        with that seed (variants with random set-ups use it)."""
        del options  # Gymnasium's signature; no reset options
        if _gymnasium is not None:
            super().reset(seed=seed)  # seeds Gymnasium's np_random, as its API expects
        obs, info = self._vec.reset(seed)
        self._over = False
        return obs[0], self._info(info)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays the action with index ``action`` (see ``info['action_mask']``)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        if self._over:
            raise IllegalMoveError("the game is over: call reset() to start a new one")
        if not 0 <= action < self.num_actions:
            raise IllegalMoveError(
                f"illegal action {action}: indices run 0..{self.num_actions} "
                f"(position {self.fen()})"
            )
        self._actions[0] = action
        obs, rewards, terminated, truncated, info = self._vec.step(self._actions)
        self._over = bool(terminated[0] or truncated[0])
        return (
            obs[0],
            float(rewards[0]),
            bool(terminated[0]),
            bool(truncated[0]),
            self._info(info),
        )

    def fen(self) -> str:
        """The current position string."""
        return self._vec.fen(0)

    def render(self) -> str:
        """The board as text (see ``Game.render``)."""
        return self._vec.render(0)

    def _repr_svg_(self) -> str:
        return self._vec.render_svg(0)

    def __repr__(self) -> str:
        return f"heterodox.make({self.variant!r})"


def make(variant: str = "chess", **kwargs: Any) -> Env:
    """A single game of ``variant``: ``make('traitor', mode='defector')``.
    Keyword arguments are ``history``, ``max_plies``, ``render_mode`` and
    the variant's rule options; unknown variants and options raise
    ``UnknownVariantError`` and ``OptionError`` (both ``ValueError``)
    listing the valid ones."""
    return Env(variant, **kwargs)
