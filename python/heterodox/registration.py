"""Gymnasium ids for every variant: ``heterodox/<variant>-v0``.

``gymnasium.make("heterodox/poison-v0", render_mode="ansi")`` builds
``heterodox.make("poison", render_mode="ansi")``; keyword arguments (rule
options, ``fen``, ``history``, ``max_plies``) pass through. The ``v0``
suffix is the API's version; each variant's encoding carries its own
version (``docs/encoding.md``). ``gymnasium.make_vec`` builds the
batched :class:`heterodox.VecEnv` (``vectorization_mode="vector_entry_point"``).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from heterodox._core import variants

__all__ = ["env_id", "register_envs"]

NAMESPACE = "heterodox"


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant: ``heterodox/<variant>-v0``."""
    return f"{NAMESPACE}/{variant}-v0"


def _vector_entry_point(variant: str, num_envs: int = 1, **kwargs: Any) -> Any:
    from heterodox.vector import VecEnv

    return VecEnv(variant, num_envs, **kwargs)


def register_envs() -> None:
    """Registers every variant's id (again, harmlessly, on a reload)."""
    for variant in variants():
        name = env_id(variant)
        if name in gymnasium.registry:
            continue
        gymnasium.register(
            id=name,
            entry_point="heterodox.env:Env",
            vector_entry_point=f"{__name__}:_vector_entry_point",
            kwargs={"variant": variant},
            nondeterministic=False,
        )
