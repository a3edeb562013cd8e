"""What every env of this package shares: the render modes, their check,
and the dtype of action masks.

Its own module so that :mod:`heterodox.env` and :mod:`heterodox.vector`
both import it and neither imports the other (``env`` imports
``registration``, which builds a :class:`heterodox.VecEnv`, so ``vector``
importing ``env`` made a loop). :mod:`heterodox.env` still names all three.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MASK_DTYPE", "RENDER_MODES", "check_render_mode"]

RENDER_MODES = ["ansi", "svg", "rgb_array"]

#: The dtype of every action mask a Gymnasium or PettingZoo env of this
#: package hands out (``make()``'s info, PettingZoo's observations,
#: ``VecEnv``'s info): Gymnasium's ``Discrete.sample(mask=...)`` takes int8.
MASK_DTYPE = np.int8


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None, 'ansi', 'svg' or 'rgb_array', not {render_mode!r}"
        )
