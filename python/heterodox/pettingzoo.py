"""PettingZoo AEC environment of any variant: ``heterodox.pettingzoo.env``.

Needs the optional extra: ``pip install heterodox[pettingzoo]``.

Agents are ``'white'`` and ``'black'``. ``agent_selection`` is the player
to act, which is not always the other one: a Traitor announcement and a
Mad Scientist discard are each followed by another step of the same
player. Observations are dicts ``{'observation': float32 (C, 8, 8),
'action_mask': int8 (num_actions,)}``. The acting agent's observation is
the current position from its point of view; the other agent's is the one
from its own most recent step (zeros before its first), with an all-zero
mask, since it has nothing to play. Rewards are zero-sum: +1 / -1 / 0 at
the end of a game, when both agents' ``infos`` hold ``outcome``: the
:class:`heterodox.Outcome` (winner and termination; None when the game
was cut at ``max_plies``). Illegal actions raise ``heterodox.IllegalMoveError``
(a ``ValueError``; the game unchanged), never a silent loss.
``render_mode`` is ``'ansi'``, ``'svg'`` or ``'rgb_array'`` (a uint8
``(384, 576, 3)`` frame), as for :func:`heterodox.make`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv as _AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - only without the extra
    raise ImportError(
        "heterodox.pettingzoo needs the optional extra: pip install 'heterodox[pettingzoo]'"
    ) from error

from heterodox.env import MASK_DTYPE, RENDER_MODES, check_render_mode, make

__all__ = ["AECEnv", "env", "raw_env"]

AGENTS = ["white", "black"]


class AECEnv(_AECEnv):
    """A game of ``variant`` for two agents, ``'white'`` and ``'black'``."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "heterodox_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self, variant: str = "chess", render_mode: str | None = None, **rules: Any
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.game = make(variant, render_mode=render_mode, **rules)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"heterodox_{self.game.variant}_v0")
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        shape = self.game.observation_shape
        n = self.game.num_actions
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=MASK_DTYPE),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in AGENTS}
        self._zero_mask = np.zeros(n, dtype=MASK_DTYPE)
        self._observations = {agent: np.zeros(shape, dtype=np.float32) for agent in AGENTS}
        self._mask = self._zero_mask
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _take(self, obs: np.ndarray, info: dict[str, Any]) -> None:
        """Records the position after a reset or step: whose step it is,
        that player's observation and mask, and everyone's info."""
        agent = AGENTS[info["current_player"]]
        self.agent_selection = agent
        self._observations[agent] = obs
        self._mask = info["action_mask"].astype(MASK_DTYPE)
        for name in self.agents:
            self.infos[name] = (
                {"legal_moves": info["legal_moves"], "legal_actions": info["legal_actions"]}
                if name == agent
                else {"legal_moves": [], "legal_actions": []}
            )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # PettingZoo's api_test passes options the env does not know; only
        # a start position is read.
        fen = (options or {}).get("fen")
        obs, info = self.game.reset(seed=seed, options=None if fen is None else {"fen": fen})
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        shape = self.game.observation_shape
        self._observations = {agent: np.zeros(shape, dtype=np.float32) for agent in AGENTS}
        self._take(obs, info)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        acting = agent == self.agent_selection and not (
            self.terminations[agent] or self.truncations[agent]
        )
        return {
            "observation": self._observations[agent],
            "action_mask": self._mask if acting else self._zero_mask,
        }

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        obs, reward, terminated, truncated, info = self.game.step(int(action))
        other = AGENTS[1 - AGENTS.index(agent)]
        self.rewards = {agent: reward, other: -reward}
        if terminated or truncated:
            self.terminations = dict.fromkeys(self.agents, terminated)
            self.truncations = dict.fromkeys(self.agents, truncated)
            self._observations[AGENTS[info["current_player"]]] = obs
            self._mask = self._zero_mask
            self.infos = {
                name: {"legal_moves": [], "legal_actions": [], "outcome": info["outcome"]}
                for name in self.agents
            }
            self.agent_selection = other
        else:
            self._take(obs, info)
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """The board as the ``render_mode`` says: text (``'ansi'``), an SVG
        document (``'svg'``) or an RGB frame (``'rgb_array'``, uint8
        ``(384, 576, 3)``); None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode ('ansi', 'svg' or 'rgb_array')"
            )
            return None
        return self.game.render()

    def _repr_svg_(self) -> str:
        return self.game._repr_svg_()

    def close(self) -> None:
        pass


def raw_env(variant: str = "chess", render_mode: str | None = None, **rules: Any) -> AECEnv:
    """The environment without PettingZoo's wrappers."""
    return AECEnv(variant, render_mode=render_mode, **rules)


def env(variant: str = "chess", render_mode: str | None = None, **rules: Any) -> _AECEnv:
    """``heterodox.pettingzoo.env('poison')``: the AEC environment wrapped
    as PettingZoo's classic games are (out-of-bounds actions and call order
    checked)."""
    wrapped: _AECEnv = raw_env(variant, render_mode=render_mode, **rules)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _Wrapped(wrapped)


class _Wrapped(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, which hides private attributes,
    with the board picture passed through for Jupyter."""

    def _repr_svg_(self) -> str:
        return self.unwrapped._repr_svg_()
