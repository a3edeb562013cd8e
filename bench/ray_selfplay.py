"""Ray's overhead on self-play: positions/s of the plain Rust self-play
workers in one process against the same work done by 1 and 2 Ray actors
(heterodox.ray.SelfPlayWorker) on this machine.

    .venv/bin/python bench/ray_selfplay.py                       # small PyTorch net on CPU
    .venv/bin/python bench/ray_selfplay.py --evaluator uniform   # the Rust uniform evaluator

Every mode plays the same work (--shards shards of --games games,
--simulations per move, the same evaluator): 'plain' calls
heterodox.self_play once per shard in this process, with the Rust workers'
threads over all --cpus cores; 'ray x1' hands the shards to one actor
holding all --cpus cores; 'ray x2' to two actors of --cpus / 2 cores each.
Actor start-up (Ray, PyTorch import) is not timed: each actor first plays
one tiny warm-up task.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import heterodox
from heterodox.ray import RayConfig, SelfPlayWorker, init_ray
from heterodox.ray.actors import _new_network, _to_numpy, task_seed


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hostage")
    parser.add_argument("--evaluator", choices=("cpu", "uniform"), default="cpu",
                        help="cpu: a PyTorch network per process (--blocks x --channels)")
    parser.add_argument("--games", type=int, default=16, help="games per shard")
    parser.add_argument("--shards", type=int, default=4, help="shards in all (even)")
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--max-plies", type=int, default=80)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 2)
    return parser.parse_args()


def config_for(args: argparse.Namespace, run_dir: str, workers: int) -> RayConfig:
    return RayConfig.from_dict({
        "variant": args.variant,
        "cluster": {"num_cpus": args.cpus, "object_store_memory": 100_000_000},
        "run": {"dir": run_dir, "steps": 1},
        "selfplay": {"workers": workers, "games_per_worker": args.games,
                     "simulations": args.simulations, "max_plies": args.max_plies,
                     "evaluator": args.evaluator, "cpus_per_worker": args.cpus / workers},
        "network": {"blocks": args.blocks, "channels": args.channels},
    })


def plain(args: argparse.Namespace, run_dir: str) -> float:
    """The Rust workers in this process (what heterodox.ray's actors wrap)."""
    config = config_for(args, run_dir, 1)
    evaluator = None
    if args.evaluator == "cpu":
        import torch

        import heterodox.torch as hx

        torch.set_num_threads(1)
        evaluator = hx.evaluator(_new_network(config).eval(), "cpu")
    s = config.selfplay

    def shard(task: int, games: int, simulations: int) -> int:
        return heterodox.self_play(
            args.variant, Path(run_dir) / f"plain-{task:06}.hdxshard", evaluator, games=games,
            simulations=simulations, root_policy=s.root_policy, max_plies=s.max_plies,
            temperature_plies=s.temperature_plies, seed=task_seed(0, task % 2, task // 2),
        )["positions"]

    shard(10_000, 1, 2)  # warm-up
    started = time.perf_counter()
    positions = sum(shard(task, args.games, args.simulations) for task in range(args.shards))
    return positions / (time.perf_counter() - started)


def with_ray(args: argparse.Namespace, run_dir: str, workers: int) -> float:
    import ray

    config = config_for(args, run_dir, workers)
    threads = str(max(1, args.cpus // workers))
    actor = ray.remote(SelfPlayWorker).options(
        num_cpus=args.cpus / workers,
        runtime_env={"env_vars": {"RAYON_NUM_THREADS": threads, "OMP_NUM_THREADS": "1"}})
    actors = [actor.remote(config, i) for i in range(workers)]
    weights = ray.put((0, _to_numpy(_new_network(config))))
    ray.get([a.pid.remote() for a in actors])
    # Warm-up: PyTorch imported, the network built, in every actor.
    ray.get([a.play.remote(10_000, weights) for a in actors])
    started = time.perf_counter()
    refs = [actors[task % workers].play.remote(task // workers, weights) for task in range(args.shards)]
    positions = sum(r["positions"] for r in ray.get(refs))
    rate = positions / (time.perf_counter() - started)
    for a in actors:
        ray.kill(a)
    return rate


def learner_rate(args: argparse.Namespace, run_dir: str) -> float:
    """Positions/s one learner trains on (SGD samples, batch 256, this
    process's CPU, one PyTorch thread), on the shards 'plain' wrote: what
    sets how many self-play cores one learner can keep up with."""
    import torch

    from heterodox.learn import optimizer_for, sgd_step

    torch.set_num_threads(1)
    net = _new_network(config_for(args, run_dir, 1))
    optimizer = optimizer_for(net)
    loader = heterodox.Loader(sorted(Path(run_dir).glob("plain-*.hdxshard")))
    sgd_step(net, optimizer, loader.sample(256), "cpu")
    steps, started = 20, time.perf_counter()
    for _ in range(steps):
        sgd_step(net, optimizer, loader.sample(256), "cpu")
    return steps * 256 / (time.perf_counter() - started)


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory() as run_dir:
        rates = {"plain": plain(args, run_dir)}
        learner = learner_rate(args, run_dir)
        init_ray(config_for(args, run_dir, 1))
        rates["ray x1"] = with_ray(args, run_dir, 1)
        rates["ray x2"] = with_ray(args, run_dir, 2)
    print(f"{args.variant}, evaluator {args.evaluator}"
          f"{f' ({args.blocks}x{args.channels} PyTorch, 1 thread per process)' if args.evaluator == 'cpu' else ''}, "
          f"{args.shards} shards x {args.games} games, {args.simulations} simulations, "
          f"max {args.max_plies} plies, {args.cpus} CPUs")
    print("| mode | positions/s | / plain |")
    print("| --- | ---: | ---: |")
    for mode, rate in rates.items():
        print(f"| {mode} | {rate:.0f} | {rate / rates['plain']:.2f} |")
    print(f"learner (CPU, 1 thread, batch 256, {args.blocks}x{args.channels}): {learner:.0f} samples/s")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
