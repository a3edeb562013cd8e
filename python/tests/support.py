"""What the Python tests share (``from support import ...``: pytest puts
this folder on ``sys.path``)."""

import importlib.util
import os
from pathlib import Path

from heterodox import Game

REPO = Path(__file__).resolve().parents[2]
#: The CLI the tests run: ``$HETERODOX_BIN`` (``make test`` points it at the
#: test profile's build), else the checkout's release build.
BINARY = Path(os.environ.get("HETERODOX_BIN", REPO / "target" / "release" / "heterodox"))


def load_script(relative_path):
    """The module of a script of the repository that is not a package
    (a bench script, an example), loaded from its file: `bench/serve_load.py`."""
    path = REPO / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def start_game(variant, fen, legal):
    """A new `variant` game, checked to be that variant and to start at
    `fen` with `legal` legal moves: where each variant's tests begin."""
    game = Game(variant)
    assert game.variant == variant
    assert game.fen() == fen
    assert len(game.legal_moves()) == legal
    return game


def random_playout(game, rng, steps):
    """Plays up to `steps` random legal actions; the indices played."""
    played = []
    for _ in range(steps):
        legal = game.legal_action_indices()
        if not legal:
            break
        index = legal[rng.integers(len(legal))]
        played.append(index)
        game.play_index(index)
    return played

