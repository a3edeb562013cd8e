"""``heterodox.play`` from Python against ``heterodox arena`` on the same
games: both play the same agents, openings and seeds (the same games, which
the script checks), so the ratio of their wall times is the cost of the
Python call.

    make build && .venv/bin/python bench/play_vs_arena.py
    .venv/bin/python bench/play_vs_arena.py --variant chess --agents ab@3,greedy --games 200
    HETERODOX_BIN=target/quick/heterodox .venv/bin/python bench/play_vs_arena.py

The CLI is ``--bin``, else ``$HETERODOX_BIN``, else
``target/release/heterodox``; the Python extension is the one installed in
the interpreter running this script (``make build`` installs the release
one). Each side runs ``--rounds`` times, interleaved; the figure is the
median games/s of each and the ratio Python / CLI (at least 0.9 is the
target: the games are the same Rust code, the Python call adds its table).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import heterodox

REPO = Path(__file__).resolve().parents[1]


def movetexts(pgn: str) -> list[str]:
    """Each game's result and moves, headers left out."""
    blocks = re.split(r"\n\n(?=\[Event)", pgn.strip())
    return [" ".join(line for line in block.splitlines() if line and not line.startswith("[")) for block in blocks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="hostage")
    parser.add_argument("--agents", default="ab@2,greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bin", default=os.environ.get("HETERODOX_BIN", REPO / "target" / "release" / "heterodox"))
    args = parser.parse_args()
    agents = args.agents.split(",")
    cli, python = [], []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "arena"
            start = time.perf_counter()
            subprocess.run(
                [args.bin, "arena", "--variant", args.variant, "--agents", args.agents, "--games", str(args.games),
                 "--seed", str(args.seed), "--out", out, "--quiet"],
                check=True, capture_output=True,
            )
            cli.append(args.games / (time.perf_counter() - start))
            arena = movetexts((out / "games.pgn").read_text())
        start = time.perf_counter()
        games = heterodox.play(args.variant, agents, args.games, seed=args.seed, progress=False)
        table = games.to_pandas()
        python.append(args.games / (time.perf_counter() - start))
        assert movetexts(games.pgn()) == arena, "heterodox.play and heterodox arena played other games"
        assert len(table) == args.games
    cli_rate, python_rate = statistics.median(cli), statistics.median(python)
    print(f"{args.variant}, {args.agents}, {args.games} games, {os.cpu_count()} cores, median of {args.rounds}")
    print(f"heterodox arena:  {cli_rate:8.1f} games/s")
    print(f"heterodox.play:   {python_rate:8.1f} games/s (with its pandas table)")
    print(f"ratio Python / CLI: {python_rate / cli_rate:.2f}")


if __name__ == "__main__":
    main()
