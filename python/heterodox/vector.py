"""``heterodox.VecEnv``: N games stepped together in Rust, as a
``gymnasium.vector.VectorEnv``.

The stepping is the native :class:`heterodox._core.VecEnv` (one call per
step for the whole batch, rayon, the GIL released); this class adds what
Gymnasium's vector API and its wrappers (``RecordEpisodeStatistics``, ...)
expect: the spaces, ``metadata["autoreset_mode"]``, ``close()``,
``reset(seed=int | list, options=dict)``, and at the end of a game the
final observation and final info of Gymnasium 1.x's same-step auto-reset.
Everything else (``fen(i)``, ``legal_moves(i)``, ``render(i)``, ...) is the
native env's, reached through attribute lookup.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from heterodox import _core
from heterodox._conventions import RENDER_MODES, check_render_mode
from heterodox.spaces import LegalDiscrete, LegalMultiDiscrete

__all__ = ["VecEnv"]


class VecEnv(VectorEnv):
    """N games of one variant stepped together in Rust, in parallel.

    VecEnv(variant, num_envs, seed=0, history=1, max_plies=None,
    auto_reset=True, copy=True, fens=None, rules=None, **rules). ``seed``
    is the env's (each game's set-up is drawn from it); rule options are
    the variant's, as keywords or, for a rule named like an argument (the
    Traitor rule ``seed``), in ``rules={...}``. ``fens``: one position
    string for every env or one per env, where every game starts.

    Observations are float32 ``(num_envs, C, 8, 8)``, values in 0..1, each
    from the point of view of the player to act in that env; actions are
    flat indices, one per env, in a numpy array of any integer dtype or a
    list or tuple of ints; ``info['action_mask']`` (int8 0 / 1, ``(num_envs,
    num_actions)``, the dtype of ``make()``'s and PettingZoo's masks and of
    Gymnasium's masked sampling) marks the legal ones and
    ``info['current_player']`` (uint8, 0 = white) says who acts. Rewards
    are +1 / -1 / 0 for the player who acted on the step that ended a
    game.

    ``autoreset_mode`` (``metadata["autoreset_mode"]``, a
    ``gymnasium.vector.AutoresetMode``): ``NEXT_STEP`` returns a finished
    game's last observation in the step that ends it and starts the next
    game in the following step (its action ignored, reward 0), as
    Gymnasium's own vector envs; ``DISABLED`` (``auto_reset=False``) keeps
    finished games until ``reset()`` or ``reset(options={"reset_mask":
    mask})``; ``SAME_STEP`` (the default, the fastest: no step is spent
    on restarts) restarts a finished game in the same step: that step's
    reward and flags are the finished game's, its observation and mask
    the new game's, and ``info`` carries ``final_obs`` (object array, the
    finished games' last observations, None elsewhere), ``final_info`` (a
    dict of arrays: ``outcome``, ``fen``, ``current_player``) and their
    masks ``_final_obs`` / ``_final_info``, as Gymnasium 1.x defines them
    (wrappers written only for next-step auto-reset, such as
    ``NormalizeObservation``, refuse this mode).
    Whenever a game ends by the rules, ``info['outcome']`` (object array
    of :class:`heterodox.Outcome`, None elsewhere) and ``info['_outcome']``
    say how.
    """

    metadata = {
        "render_modes": list(RENDER_MODES),
        "render_fps": 1,
        "autoreset_mode": AutoresetMode.SAME_STEP,
    }

    def __init__(
        self,
        variant: str,
        num_envs: int,
        seed: int | None = 0,
        history: int | None = 1,
        max_plies: int | None = None,
        auto_reset: bool = True,
        copy: bool = True,
        fens: list[str] | str | None = None,
        rules: dict[str, str | int | bool] | None = None,
        render_mode: str | None = None,
        autoreset_mode: AutoresetMode | str | None = None,
        **options: str | int | bool,
    ) -> None:
        check_render_mode(render_mode)
        if isinstance(fens, str):
            fens = [fens]
        if autoreset_mode is None:
            mode = AutoresetMode.SAME_STEP if auto_reset else AutoresetMode.DISABLED
        else:
            try:
                mode = AutoresetMode(autoreset_mode)
            except ValueError:
                raise ValueError(
                    "autoreset_mode must be 'NextStep', 'SameStep' or 'Disabled' "
                    f"(gymnasium.vector.AutoresetMode), not {autoreset_mode!r}"
                ) from None
        auto_reset = mode is AutoresetMode.SAME_STEP
        self._env = _core.VecEnv(
            variant,
            num_envs,
            seed=seed,
            history=history,
            max_plies=max_plies,
            auto_reset=auto_reset,
            copy=copy,
            fens=fens,
            rules=rules,
            **options,
        )
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, autoreset_mode=mode)
        # Next-step mode: the envs whose game ended in the last step, which
        # start their next game in this one.
        self._ended = np.zeros(self._env.num_envs, dtype=np.bool_)
        self.num_envs = self._env.num_envs
        n, shape = self._env.num_actions, tuple(self._env.observation_shape)
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, dtype=np.float32)
        self.single_action_space = LegalDiscrete(n)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = LegalMultiDiscrete(n, self.num_envs)

    def __getattr__(self, name: str) -> Any:
        # Only called for attributes this object lacks: the native env's
        # methods and properties (fen, legal_moves, num_actions, ...).
        if name == "_env":
            raise AttributeError(name)
        return getattr(self._env, name)

    def __len__(self) -> int:
        return self.num_envs

    @property
    def native(self) -> _core.VecEnv:
        """The native batch this env steps."""
        return self._env

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a new game in every env (see ``_core.VecEnv.reset``:
        ``VecEnv(..., seed=7).reset()`` and ``.reset(seed=7)`` start the
        same games). ``options={"fens": [...]}`` sets where games start."""
        if seed is not None:
            self._np_random, self._np_random_seed = _seeded(seed)
        obs, info = self._env.reset(seed=seed, options=options)
        if options is None or "reset_mask" not in options:
            self._ended[:] = False
        else:
            self._ended &= ~np.asarray(options["reset_mask"], dtype=np.bool_)
        self.action_space.legal = info["action_mask"]
        return obs, info

    def step(
        self, actions: np.ndarray | list[int] | tuple[int, ...]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one action per env: a numpy array of any integer dtype of
        shape ``(num_envs,)``, or a list or tuple of ``num_envs`` ints
        (``TypeError`` for floats or bools, ``ValueError`` for another
        shape; the games unchanged)."""
        if self.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP and self._ended.any():
            obs, rewards, terminated, truncated, info = self._env.step(actions, self._ended)
        else:
            obs, rewards, terminated, truncated, info = self._env.step(actions)
        self._ended = terminated | truncated
        self.action_space.legal = info["action_mask"]
        ended = np.flatnonzero(self._ended)
        if len(ended):
            self._add_endings(ended, terminated, info)
        return obs, rewards, terminated, truncated, info

    def _add_endings(
        self, ended: np.ndarray, terminated: np.ndarray, info: dict[str, Any]
    ) -> None:
        """The outcome of every game that ended, and with auto-reset the
        final observation and final info of Gymnasium's same-step mode."""
        n = self.num_envs
        mask = np.zeros(n, dtype=np.bool_)
        mask[ended] = True
        outcomes = np.full(n, None, dtype=object)
        for i in ended:
            outcomes[i] = self._env.last_outcome(int(i)) if terminated[i] else None
        info["outcome"], info["_outcome"] = outcomes, terminated.copy()
        if not self._env.auto_reset:
            return
        final_obs = np.full(n, None, dtype=object)
        fens = np.full(n, None, dtype=object)
        players = np.zeros(n, dtype=np.uint8)
        for i in ended:
            i = int(i)
            final_obs[i] = self._env.final_observation(i)
            fens[i] = self._env.last_fen(i)
            players[i] = 0 if fens[i].split(" ")[1] == "w" else 1
        info["final_obs"], info["_final_obs"] = final_obs, mask
        info["final_info"] = {
            "outcome": outcomes,
            "_outcome": terminated.copy(),
            "fen": fens,
            "_fen": mask.copy(),
            "current_player": players,
            "_current_player": mask.copy(),
        }
        info["_final_info"] = mask.copy()

    def render(
        self, env: int | None = None
    ) -> str | tuple[str, ...] | tuple[np.ndarray, ...] | None:
        """Every env's board, one per env as Gymnasium's vector envs give
        them: text (``'ansi'``), SVG (``'svg'``) or an RGB frame
        (``'rgb_array'``, uint8 ``(384, 576, 3)`` each); None without a
        render mode. ``render(i)`` is env i's board as text
        (``render_svg(i)`` as SVG, ``render_rgb(i)`` as a frame), whatever
        the render mode."""
        if env is not None:
            return self._env.render(env)
        if self.render_mode is None:
            return None
        draw = {
            "svg": self._env.render_svg,
            "rgb_array": self._env.render_rgb,
        }.get(self.render_mode, self._env.render)
        return tuple(draw(i) for i in range(self.num_envs))

    def _repr_svg_(self) -> str:
        """Jupyter shows a VecEnv as env 0's board."""
        return self._env.render_svg(0)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process."""

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return f"heterodox.{self._env!r}"


def _seeded(seed: int | list[int | None]) -> tuple[np.random.Generator, Any]:
    """Gymnasium's np_random for a reset seed (a list is hashed whole)."""
    from gymnasium.utils import seeding

    if isinstance(seed, (list, tuple)):
        entropy = [0 if s is None else int(s) for s in seed]
        return np.random.default_rng(entropy), seed
    return seeding.np_random(int(seed))
