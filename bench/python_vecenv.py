"""Python stepping throughput: Heterodox VecEnv against PettingZoo and
OpenSpiel chess, measured in the same run.

    .venv/bin/python bench/python_vecenv.py                # chess, 256 and 1024 envs
    .venv/bin/python bench/python_vecenv.py --seconds 5 --variant chess --envs 64 1024

Every contender steps uniformly random legal actions and reads the
observation and the legal-action mask of every step:

* Heterodox ``VecEnv``: float32 observations ``(N, C, 8, 8)`` and bool
  masks ``(N, num_actions)`` for all N envs per call; the random legal
  actions are chosen from the masks in numpy (vectorised, no Python loop
  over envs). ``env.step`` alone is timed too, to show how much of a step
  is the numpy choice. Both hand-overs: ``copy=True`` (fresh arrays, one
  memcpy per buffer) and ``copy=False`` (read-only views, no copy).
* Heterodox ``make`` (one game per call), for the per-call overhead.
* PettingZoo ``chess_v6`` (``env.last()`` observation dict: board planes and
  action mask), if ``pettingzoo`` and ``chess`` are installed.
* OpenSpiel ``chess`` (``observation_tensor()`` and
  ``legal_actions_mask()``), if ``open_spiel`` is installed.

Install the optional contenders with
``.venv/bin/pip install pettingzoo open_spiel chess``.
Figures are steps (single-player actions) per second, wall clock, with
the machine's cores available to rayon (``os.cpu_count()`` of them).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import heterodox
from heterodox.spaces import random_legal_actions


def bench_vecenv(
    variant: str, num_envs: int, seconds: float, copy: bool, player: str = "numpy"
) -> tuple[float, float]:
    """(end-to-end steps/s, steps/s of env.step alone). ``player``: the
    random player, ``"numpy"`` (``random_legal_actions`` over the masks)
    or ``"rust"`` (``env.random_actions``, drawn from the legal lists)."""
    env = heterodox.VecEnv(variant, num_envs, seed=0, copy=copy)
    rng = np.random.default_rng(0)
    if player == "numpy":
        def choose(info):
            return random_legal_actions(info["action_mask"], rng)
    else:
        def choose(info):
            return env.random_actions(int(rng.integers(2**63)))
    obs, info = env.reset()
    for _ in range(10):  # warm up: caches, thread pool
        obs, _, _, _, info = env.step(choose(info))
    calls = 0
    in_step = 0.0
    start = time.perf_counter()
    while (now := time.perf_counter()) - start < seconds:
        actions = choose(info)
        before = time.perf_counter()
        obs, rewards, terminated, truncated, info = env.step(actions)
        in_step += time.perf_counter() - before
        calls += 1
    elapsed = now - start
    assert obs.dtype == np.float32 and info["action_mask"].dtype == np.int8
    return calls * num_envs / elapsed, calls * num_envs / in_step


def bench_make(variant: str, seconds: float) -> float:
    env = heterodox.make(variant)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated or truncated:
            obs, info = env.reset()
    return steps / (time.perf_counter() - start)


def bench_pettingzoo(seconds: float) -> float | None:
    try:
        from pettingzoo.classic import chess_v6
    except ImportError:
        return None
    env = chess_v6.env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.reset()
            continue
        board, mask = observation["observation"], observation["action_mask"]
        assert board.shape == (8, 8, 111)
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def bench_openspiel(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        observation = np.asarray(state.observation_tensor(), dtype=np.float32)
        mask = np.asarray(state.legal_actions_mask(), dtype=bool)
        assert observation.size > 0
        legal = np.flatnonzero(mask)
        state.apply_action(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--envs", type=int, nargs="+", default=[256, 1024])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    args = parser.parse_args()

    print(f"cores: {os.cpu_count()}, variant: {args.variant}, {args.seconds:g} s per figure")
    vec = {}
    for n in args.envs:
        for copy in (True, False):
            total, step_only = bench_vecenv(args.variant, n, args.seconds, copy)
            vec[(n, copy)] = total
            print(
                f"heterodox VecEnv {n:5d} envs, copy={copy!s:5}: {total:10,.0f} steps/s "
                f"(env.step alone {step_only:,.0f})"
            )
    single = bench_make(args.variant, args.seconds)
    print(f"heterodox make (one game per call):     {single:10,.0f} steps/s")
    if args.variant != "chess":
        return
    best_config = max(vec, key=vec.get)
    best = vec[best_config]
    label = f"VecEnv {best_config[0]} envs copy={best_config[1]}"
    pettingzoo = bench_pettingzoo(args.seconds)
    openspiel = bench_openspiel(args.seconds)
    for name, rate in [("PettingZoo chess_v6", pettingzoo), ("OpenSpiel chess", openspiel)]:
        if rate is None:
            print(f"{name + ':':39s} not installed")
            continue
        print(
            f"{name + ':':39s} {rate:10,.0f} steps/s "
            f"(heterodox {label}: {best / rate:,.0f} x; make: {single / rate:,.1f} x)"
        )


if __name__ == "__main__":
    main()
