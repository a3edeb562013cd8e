"""``heterodox.play`` on a Ray cluster: a notebook's games (a claim's
conditions, ``Claim.run(parts=N)``) split into parts played anywhere and
returned as the one table a single machine gives.

    games = heterodox.ray.play("hostage", ["ab@2", "greedy"], 2000, parts=64,
                               out="runs/hostage-greedy")

Each part is a Ray task calling ``heterodox.play(..., part=(k, n),
out=OUT.parts/part-k)``: the pairs whose number is k modulo n (each game's
seeds and opening follow from its index alone), journaled as they finish.
A task whose worker dies is run again and continues its part's journal.
The driver then merges the journals into ``OUT.journal`` (the CLI's
``merge_journals``: whole lines, each game once, by index) and calls
``heterodox.play(..., out=OUT, resume=True)``, which finds every game kept,
plays none and returns them in order: the same table, game for game, as
one machine's call with the same arguments.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from heterodox.play import Games
from heterodox.play import play as play_here
from heterodox.ray.claim import ClaimRunError, journal_of, merge_journals, part_out, parts_dir


def _play_part(variant: str, agents: list[str], games: int, options: dict[str, Any], out: str,
               k: int, n: int) -> int:
    """The body of one task: part k of n into ``out``'s journal (continued
    when a retried task finds it); returns the games it holds."""
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    resume = (journal_of(Path(out)) / "run.json").is_file()
    played = play_here(variant, agents, games, part=(k, n), out=out, resume=resume, progress=False,
                       **options)
    return len(played)


def play(variant: str, agents: str | list[str], games: int, *, parts: int, out: str | os.PathLike,
         resume: bool = False, cpus_per_part: float = 1.0, max_retries: int = 3,
         **options: Any) -> Games:
    """Plays ``heterodox.play(variant, agents, games, **options)`` in
    ``parts`` Ray tasks and returns its games, writing games.pgn and
    games.csv to ``out`` (on storage every node shares, like
    ``OUT.parts``). Ray must be initialised (``heterodox.ray.init_ray`` or
    ``ray.init``). ``resume=True`` continues the parts of a driver that was
    stopped; without it, parts left behind are a ``ClaimRunError``."""
    from heterodox.ray.driver import import_ray

    ray = import_ray()
    if not 1 <= parts <= 65536:
        raise ClaimRunError(f"parts = {parts} is out of range (1 to 65536)")
    for name in ("out", "resume", "part", "progress"):
        if name in options:
            raise ClaimRunError(f"{name} is the driver's to set")
    names = [agents] if isinstance(agents, str) else list(agents)
    out = Path(out).resolve()
    if parts_dir(out).exists() and not resume:
        raise ClaimRunError(f"{parts_dir(out)} holds the parts of an earlier run: pass resume=True to "
                            "continue it, or remove it to start over")
    task = ray.remote(_play_part).options(num_cpus=cpus_per_part, max_retries=max_retries)
    refs = [task.remote(variant, names, games, options, str(part_out(out, k)), k, parts)
            for k in range(parts)]
    try:
        ray.get(refs)
    except Exception as error:  # a part's own error, after Ray's retries
        for ref in refs:
            ray.cancel(ref, force=True)
        raise ClaimRunError(str(getattr(error, "cause", None) or error)) from error
    merge_journals(out, parts)
    result = play_here(variant, names, games, out=out, resume=True, progress=False, **options)
    shutil.rmtree(parts_dir(out))
    return result
