"""Search throughput driven from Python against the Rust workers, with the
same network on CPU, measured in the same run.

    .venv/bin/python bench/python_search.py                      # hostage, 32 games x 8 leaves = 256
    .venv/bin/python bench/python_search.py --variant chess --games 64 --simulations 64

One checkpoint (the default tower, fresh weights, written by
``heterodox.torch.save``) is evaluated by:

* **python-search**: ``heterodox.Search`` over ``--games`` games, each
  round's leaves (``games x leaves_per_round``, 256 by default) evaluated
  by the PyTorch port of the network (``heterodox.torch.evaluator``), the
  tree work in Rust; the games play ``--moves`` moves.
* **python-selfplay**: ``heterodox.self_play``, the Rust workers with the
  same PyTorch evaluator called from Rust.
* **rust**: ``heterodox selfplay --net CHECKPOINT --device cpu``, the Rust
  workers with the tch network (its printed simulations/s), when the
  binary is built (target/release/heterodox or $HETERODOX_BIN).

Figures are simulations per second (evaluated leaves and descents that
ended in a finished game, as every driver counts them), wall clock.
PyTorch runs with ``--torch-threads`` threads (1 by default: rayon's tree
work shares the cores, and more threads than free cores make each forward
pass wait for a descheduled one), and so does libtorch in the Rust binary
(``OMP_NUM_THREADS``), so that both sides compute alike.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import torch

import heterodox
import heterodox.torch as hx

REPO = Path(__file__).resolve().parents[1]


def python_search(args, model):
    evaluate = hx.evaluator(model)
    search = heterodox.Search(args.variant, num_games=args.games, simulations=args.simulations,
                              leaves_per_round=args.leaves, max_plies=10_000, seed=1)
    simulations = 0
    started = time.perf_counter()
    for _ in range(args.moves):
        while not search.done:
            requests = search.gather()
            search.apply(*evaluate(requests))
        simulations += sum(search.simulations())
        search.step()
    return simulations / (time.perf_counter() - started)


def python_selfplay(args, model):
    stats = heterodox.self_play(args.variant, None, hx.evaluator(model), games=args.games,
                                simulations=args.simulations, leaves_per_round=args.leaves,
                                max_plies=args.moves, seed=1)
    return stats["simulations"] / stats["seconds"]


def rust(args, checkpoint, out):
    binary = Path(os.environ.get("HETERODOX_BIN", REPO / "target" / "release" / "heterodox"))
    if not binary.exists():
        return None
    done = subprocess.run(
        [binary, "selfplay", "--variant", args.variant, "--net", checkpoint, "--games", str(args.games),
         "--concurrent", str(args.games), "--sims", str(args.simulations), "--policy", "puct",
         "--max-plies", str(args.moves), "--device", "cpu", "--quiet", "--out", out],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, OMP_NUM_THREADS=str(args.torch_threads)),
    )
    match = re.search(r"([\d.]+) simulations/s", done.stdout + done.stderr)
    return float(match.group(1)) if match else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hostage")
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--leaves", type=int, default=8, help="leaves per game per round")
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--moves", type=int, default=4, help="moves played per game")
    parser.add_argument("--torch-threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(0)
    model = hx.ResNet.for_variant(args.variant).eval()
    with tempfile.TemporaryDirectory() as tmp:
        checkpoint = Path(tmp) / "net"
        hx.save(model, checkpoint)
        figures = {
            "python-search": python_search(args, model),
            "python-selfplay": python_selfplay(args, model),
            "rust": rust(args, checkpoint, Path(tmp) / "games"),
        }
    print(f"{args.variant}: {args.games} games x {args.leaves} leaves per round, "
          f"{args.simulations} simulations per move, {args.moves} moves, "
          f"torch threads {args.torch_threads}, {os.cpu_count()} cores")
    for name, figure in figures.items():
        print(f"  {name:16} " + ("n/a (no binary)" if figure is None else f"{figure:10.0f} simulations/s"))
    if figures["rust"]:
        print(f"  python-search / rust = {figures['python-search'] / figures['rust']:.2f}")


if __name__ == "__main__":
    main()
