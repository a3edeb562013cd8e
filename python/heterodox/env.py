"""A single game as a Gymnasium environment: :func:`make`.

``make(variant, fen=None, **rules)`` is a ``gymnasium.Env`` over one
:class:`heterodox.Game`: observations, action indices and masks come from
the same Rust encoding as :class:`heterodox.VecEnv`'s, so a policy trained
on either plays the other. Registered with Gymnasium as
``heterodox/<variant>-v0`` (``gymnasium.make("heterodox/hostage-v0")``).

Seeds: ``reset(seed=...)`` seeds the env (Gymnasium's ``np_random``); rule
options are the variant's and never the env's. The one variant with a
random set-up, Traitor with ``selection='random'``, draws a set-up per
game from ``np_random`` unless the rules fix it with their own ``seed``
option: ``make('traitor', selection='random', seed=7)`` starts every game
from the set-up of ``Game('traitor', selection='random', seed=7)``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from heterodox._conventions import MASK_DTYPE, RENDER_MODES, check_render_mode
from heterodox._core import Game, IllegalMoveError, Outcome, VecEnv
from heterodox.registration import env_id
from heterodox.spaces import LegalDiscrete

__all__ = ["Env", "make"]

class Env(gymnasium.Env):
    """One game of a variant: ``reset(seed=None, options=None) -> (obs,
    info)`` and ``step(action) -> (obs, reward, terminated, truncated,
    info)``.

    ``obs`` is float32 ``(C, 8, 8)``, values in 0..1, from the point of
    view of the player to act; ``action`` is a flat index into
    ``num_actions`` actions (``action_space``, a ``Discrete`` whose
    ``sample()`` draws a legal action); ``reward`` is +1 / -1 / 0 for the
    player who just acted, on the step that ends the game. ``info`` holds
    ``action_mask`` (int8 ``(num_actions,)``, Gymnasium's convention:
    ``action_space.sample(mask=info["action_mask"])``), ``current_player``
    (0 = white, 1 = black: who acts next; a Traitor announcement or a Mad
    Scientist discard is followed by another step of the same player),
    ``legal_moves`` (long notation) and ``legal_actions`` (their indices,
    same order); on the step that ends a game, ``outcome``: the
    :class:`heterodox.Outcome` (winner and termination), or None when the
    game was cut at ``max_plies`` (truncated). Once the game is over,
    ``step`` raises ``IllegalMoveError`` (a ``ValueError``) until
    ``reset()``, as it does for an illegal action (the game unchanged).
    ``reset(options={"fen": ...})`` starts from a position string.

    ``render()`` draws the board as the ``render_mode`` says: ``'ansi'``
    text, an ``'svg'`` document, or an ``'rgb_array'`` frame (uint8
    ``(384, 576, 3)``, see ``Game.render_rgb``; ``render_fps`` 1, for
    ``gymnasium.wrappers.RecordVideo``).
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        variant: str = "chess",
        *,
        fen: str | None = None,
        history: int = 1,
        max_plies: int | None = None,
        render_mode: str | None = None,
        **rules: str | int | bool,
    ) -> None:
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self._rules = dict(rules)
        self._fen = fen
        self._game = Game(variant, fen, **rules)
        # A one-env batch reads and checks the settings exactly as VecEnv
        # does (history, max_plies, rules) and knows the default ply cap.
        probe = VecEnv(variant, 1, history=history, max_plies=max_plies, rules=self._rules)
        self.variant: str = self._game.variant
        self.history: int = history
        self.max_plies: int = probe.max_plies
        self.num_actions: int = self._game.num_actions
        self.channel_names: list[str] = probe.channel_names
        self.observation_shape: tuple[int, int, int] = tuple(probe.observation_shape)
        self._random_setup = (
            self.variant == "traitor"
            and str(rules.get("selection", "")) == "random"
            and "seed" not in rules
        )
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=self.observation_shape, dtype=np.float32
        )
        self.action_space = LegalDiscrete(self.num_actions)
        self._over = False
        self._refresh_mask()

    @property
    def game(self) -> Game:
        """The game being played (a copy: playing on it leaves the env as it is)."""
        return self._game.copy()

    def _refresh_mask(self) -> np.ndarray:
        mask = np.zeros(self.num_actions, dtype=MASK_DTYPE)
        mask[self._game.legal_action_indices()] = 1
        self.action_space.legal = mask
        return mask

    def _observation_and_info(self) -> tuple[np.ndarray, dict[str, Any]]:
        obs = self._game.observation(history=self.history)
        mask = self._refresh_mask()
        info: dict[str, Any] = {
            "action_mask": mask.copy(),
            "current_player": 0 if self._game.turn == "white" else 1,
            "legal_moves": self._game.legal_moves(),
            "legal_actions": self._game.legal_action_indices(),
        }
        return obs, info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game: from ``options["fen"]`` when given, else from
        the ``fen`` the env was made with, else the variant's start."""
        super().reset(seed=seed)
        options = dict(options or {})
        fen = options.pop("fen", self._fen)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)} (valid options: fen)")
        rules = dict(self._rules)
        if self._random_setup and fen is None:
            rules["seed"] = int(self.np_random.integers(2**63))
        self._game = Game(self.variant, fen, **rules)
        self._over = False
        return self._observation_and_info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Plays the action with index ``action`` (see ``info['action_mask']``)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, not {type(action).__name__}")
        if self._over:
            raise IllegalMoveError("the game is over: call reset() to start a new one")
        if not 0 <= action < self.num_actions:
            raise IllegalMoveError(
                f"illegal action {action}: indices run 0..{self.num_actions} "
                f"(position {self._game.fen()})"
            )
        actor = self._game.turn
        try:
            self._game.play_index(int(action))
        except IllegalMoveError:
            raise IllegalMoveError(
                f"illegal action {action}: not the index of a legal action "
                f"(info['action_mask']) in position {self._game.fen()}"
            ) from None
        outcome: Outcome | None = self._game.outcome()
        terminated = outcome is not None
        truncated = not terminated and self._game.plies >= self.max_plies
        reward = outcome.reward(actor) if outcome is not None else 0.0
        self._over = terminated or truncated
        obs, info = self._observation_and_info()
        if self._over:
            info["outcome"] = outcome
        return obs, reward, terminated, truncated, info

    def fen(self) -> str:
        """The current position string."""
        return self._game.fen()

    def render(self) -> str | np.ndarray | None:
        """The board in the ``render_mode`` the env was made with: text
        (``'ansi'``, see ``Game.render``), an SVG document (``'svg'``) or an
        RGB frame (``'rgb_array'``: uint8 ``(384, 576, 3)``, see
        ``Game.render_rgb``); None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode: make(..., render_mode='ansi')"
            )
            return None
        if self.render_mode == "svg":
            return self._game._repr_svg_()
        if self.render_mode == "rgb_array":
            return self._game.render_rgb()
        return self._game.render()

    def _repr_svg_(self) -> str:
        return self._game._repr_svg_()

    def __repr__(self) -> str:
        return f"heterodox.make({self.variant!r})"


def make(variant: str = "chess", **kwargs: Any) -> Env:
    """A single game of ``variant``: ``make('traitor', mode='defector')``.
    Keyword arguments are ``fen`` (the start position), ``history``,
    ``max_plies``, ``render_mode`` ('ansi', 'svg' or 'rgb_array') and the variant's rule
    options; unknown variants and options raise ``UnknownVariantError``
    and ``OptionError`` (both ``ValueError``) listing the valid ones. The
    env's ``spec`` is its registered id's with these arguments, so
    ``env.spec.make()`` builds another like it (as ``gymnasium.make`` does,
    with Gymnasium's checking wrappers)."""
    env = Env(variant, **kwargs)
    registered = gymnasium.spec(env_id(env.variant))
    env.spec = dataclasses.replace(registered, kwargs={**registered.kwargs, **kwargs})
    return env
