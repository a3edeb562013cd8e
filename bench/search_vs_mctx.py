"""Search throughput with a uniform evaluator: Heterodox's selfplay search
against mctx on pgx chess (and, if installed, OpenSpiel's C++ MCTSBot),
measured in the same run, one contender after the other.

    bash bench/setup_peers.sh                          # once: .venv-peers
    .venv-peers/bin/python bench/search_vs_mctx.py     # about 2-3 minutes
    .venv-peers/bin/python bench/search_vs_mctx.py --seconds 5 --variants chess
    .venv-peers/bin/python bench/search_vs_mctx.py --mctx-puct --no-open-spiel

Contenders, all with 32 simulations per move and an evaluator that gives
uniform priors over the legal actions and value 0 (so only the search and
the rules are measured):

* mctx + pgx chess: 128 games as one batch; a jit-compiled move is
  ``mctx.gumbel_muzero_policy`` (``--mctx-puct`` adds ``mctx.muzero_policy``)
  whose ``recurrent_fn`` steps the pgx states and returns masked uniform
  logits and value 0, then ``env.step`` with the chosen actions and a reset
  of the finished games. Compiled and run once before the timing; then
  moves are timed for ``--seconds``. simulations/s = 128 * 32 * moves / s.
* Heterodox: the selfplay crate's bench executable
  (selfplay/benches/search.rs, built with ``cargo bench --no-run``): 256
  self-play games, 128 at a time, PUCT and Gumbel roots, every variant; its
  own figures are parsed (its duration is fixed by the bench, not by
  ``--seconds``).
* OpenSpiel ``pyspiel.MCTSBot`` on chess (one game, C++ UCT), value from
  one random rollout per leaf, if ``open_spiel`` is installed.

Threads: every contender gets the same CPUs (``--cores``, default all of
them; set with ``sched_setaffinity`` before jax is imported, inherited by
the Heterodox executable, whose rayon pool is sized to match). XLA's CPU
backend sizes its thread pool to those CPUs but runs most of this program's
operations on one thread; OpenSpiel's bot is single-threaded. The "CPU"
column is process CPU time / wall time: the cores a contender kept busy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATCH = 128
SIMULATIONS = 32


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0,
                   help="timed seconds per mctx / OpenSpiel contender (default 10)")
    p.add_argument("--cores", type=int, default=None,
                   help="CPUs given to every contender (default: all)")
    p.add_argument("--variants", nargs="*", default=[],
                   help="Heterodox variants to run (default: every variant)")
    p.add_argument("--mctx-puct", action="store_true",
                   help="also time mctx.muzero_policy (PUCT root; one more compile)")
    p.add_argument("--no-mctx", action="store_true", help="skip mctx + pgx")
    p.add_argument("--no-jax-cache", action="store_true",
                   help="compile afresh (default: jax's compilation cache in .venv-peers/jax-cache)")
    p.add_argument("--no-open-spiel", action="store_true", help="skip OpenSpiel")
    p.add_argument("--bench-bin", type=Path, default=None,
                   help="Heterodox search bench executable (default: found via cargo)")
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def set_cores(cores: int | None) -> int:
    """Pins this process (and its children) to the first `cores` CPUs."""
    available = sorted(os.sched_getaffinity(0))
    if cores is not None:
        if not 1 <= cores <= len(available):
            sys.exit(f"--cores must be in 1..{len(available)}")
        os.sched_setaffinity(0, available[:cores])
    return len(os.sched_getaffinity(0))


# --- mctx + pgx ---------------------------------------------------------------


def bench_mctx(root_policy: str, seconds: float, seed: int, cache_dir: Path | None) -> dict:
    import jax
    import jax.numpy as jnp
    import mctx
    import pgx

    if cache_dir is not None:  # compiled programs kept between runs
        jax.config.update("jax_compilation_cache_dir", str(cache_dir))
    env = pgx.make("chess")
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)
    rows = jnp.arange(BATCH)

    def uniform_logits(mask):
        return jnp.where(mask, 0.0, jnp.finfo(jnp.float32).min)

    def recurrent_fn(params, rng_key, action, state):
        del params, rng_key
        mover = state.current_player
        state = step(state, action)
        output = mctx.RecurrentFnOutput(
            reward=state.rewards[rows, mover],
            # two players, values from the mover's side; no value after the end
            discount=jnp.where(state.terminated, 0.0, -1.0),
            prior_logits=uniform_logits(state.legal_action_mask),
            value=jnp.zeros(BATCH),
        )
        return output, state

    def move(state, key):
        search_key, reset_key = jax.random.split(key)
        root = mctx.RootFnOutput(
            prior_logits=uniform_logits(state.legal_action_mask),
            value=jnp.zeros(BATCH),
            embedding=state,
        )
        common = dict(params=None, rng_key=search_key, root=root,
                      recurrent_fn=recurrent_fn, num_simulations=SIMULATIONS,
                      invalid_actions=~state.legal_action_mask)
        if root_policy == "gumbel":
            out = mctx.gumbel_muzero_policy(**common)
        else:
            out = mctx.muzero_policy(**common)
        state = step(state, out.action)
        done = state.terminated | state.truncated
        fresh = init(jax.random.split(reset_key, BATCH))

        def pick(new, old):
            return jnp.where(done.reshape((BATCH,) + (1,) * (old.ndim - 1)), new, old)

        return jax.tree_util.tree_map(pick, fresh, state)

    move = jax.jit(move)
    key = jax.random.PRNGKey(seed)
    key, sub = jax.random.split(key)
    state = jax.jit(init)(jax.random.split(sub, BATCH))

    start = time.perf_counter()
    key, sub = jax.random.split(key)
    state = move(state, sub)  # compile + one move
    jax.block_until_ready(state)
    compile_s = time.perf_counter() - start

    moves = 0
    cpu0, start = time.process_time(), time.perf_counter()
    while True:
        key, sub = jax.random.split(key)
        state = move(state, sub)
        jax.block_until_ready(state)
        moves += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and moves >= 2:
            break
    cpu = time.process_time() - cpu0
    return {
        "contender": "mctx + pgx",
        "variant": "chess",
        "policy": root_policy,
        "sims_per_s": BATCH * SIMULATIONS * moves / elapsed,
        "cpu": cpu / elapsed,
        "note": f"{moves} moves x {BATCH} games, {elapsed:.1f} s; "
                f"compile + first move {compile_s:.1f} s; jax {jax.__version__}",
    }


# --- Heterodox ------------------------------------------------------------------


def find_bench_bin() -> Path:
    cmd = ["cargo", "bench", "-p", "heterodox-selfplay", "--bench", "search",
           "--no-run", "--message-format=json"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if (msg.get("reason") == "compiler-artifact" and msg.get("executable")
                and "bench" in msg["target"]["kind"] and msg["target"]["name"] == "search"):
            return Path(msg["executable"])
    sys.exit("cargo did not report the search bench executable")


LINE = re.compile(r"^(\S+)\s+(puct|gumbel)\s+(\d+) simulations/s\s+(\d+) positions/s\s+\((.*)\)")


def bench_heterodox(binary: Path, cores: int, variants: list[str]) -> list[dict]:
    env = dict(os.environ, RAYON_NUM_THREADS=str(cores))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([str(binary), *variants], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / elapsed
    print(proc.stdout.splitlines()[0] if proc.stdout else "", flush=True)
    results = []
    for line in proc.stdout.splitlines():
        m = LINE.match(line)
        if m:
            results.append({
                "contender": "Heterodox",
                "variant": m[1],
                "policy": m[2],
                "sims_per_s": float(m[3]),
                "cpu": cpu,  # whole bench run
                "note": f"{m[4]} positions/s; {m[5]}",
            })
    if not results:
        sys.exit(f"no figures in the bench output:\n{proc.stdout}{proc.stderr}")
    return results


# --- OpenSpiel --------------------------------------------------------------------


def bench_open_spiel(seconds: float, seed: int) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, SIMULATIONS, 1000, False, seed, False)
    state = game.new_initial_state()
    moves = 0
    cpu0, start = time.process_time(), time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state.apply_action(bot.step(state))
        moves += 1
        if state.is_terminal():
            state = game.new_initial_state()
    cpu = time.process_time() - cpu0
    return {
        "contender": "OpenSpiel MCTSBot",
        "variant": "chess",
        "policy": "uct",
        "sims_per_s": SIMULATIONS * moves / elapsed,
        "cpu": cpu / elapsed,
        "note": f"1 random rollout per leaf, 1 game, {moves} moves, {elapsed:.1f} s",
    }


# --- main -------------------------------------------------------------------------


def row(r: dict) -> str:
    return (f"{r['contender']:<18} {r['variant']:<13} {r['policy']:<7} "
            f"{r['sims_per_s']:>12,.0f} {r['cpu']:>5.2f}  {r['note']}")


def main() -> None:
    args = parse_args()
    cores = set_cores(args.cores)  # before jax is imported
    load_start = os.getloadavg()
    print(f"{BATCH} games x {SIMULATIONS} simulations per move, uniform evaluator, "
          f"{cores} CPUs; load average {load_start[0]:.2f} {load_start[1]:.2f} "
          f"{load_start[2]:.2f}", flush=True)

    binary = args.bench_bin or find_bench_bin()
    results: list[dict] = []
    if not args.no_mctx:
        for policy in ["gumbel"] + (["puct"] if args.mctx_puct else []):
            print(f"mctx + pgx chess, {policy} ...", flush=True)
            cache = None if args.no_jax_cache else ROOT / ".venv-peers" / "jax-cache"
            results.append(bench_mctx(policy, args.seconds, args.seed, cache))
    print(f"Heterodox {binary.name} {' '.join(args.variants)} ...", flush=True)
    results += bench_heterodox(binary, cores, args.variants)
    if not args.no_open_spiel:
        print("OpenSpiel MCTSBot chess ...", flush=True)
        r = bench_open_spiel(args.seconds, args.seed)
        if r is None:
            print("OpenSpiel: not installed (bash bench/setup_peers.sh)")
        else:
            results.append(r)
    load_end = os.getloadavg()

    print()
    print(f"{'contender':<18} {'variant':<13} {'policy':<7} {'simulations/s':>12} "
          f"{'CPU':>5}  notes")
    for r in sorted(results, key=lambda r: (r["variant"] != "chess", r["variant"])):
        print(row(r))

    print()
    mctx_rows = {r["policy"]: r for r in results if r["contender"] == "mctx + pgx"}
    ours = {r["policy"]: r for r in results
            if r["contender"] == "Heterodox" and r["variant"] == "chess"}
    spiel = [r for r in results if r["contender"] == "OpenSpiel MCTSBot"]
    for policy, mine in ours.items():
        if "gumbel" in mctx_rows:
            print(f"chess: Heterodox {policy} / mctx gumbel = "
                  f"{mine['sims_per_s'] / mctx_rows['gumbel']['sims_per_s']:.1f} x")
        if policy in mctx_rows and policy != "gumbel":
            print(f"chess: Heterodox {policy} / mctx {policy} = "
                  f"{mine['sims_per_s'] / mctx_rows[policy]['sims_per_s']:.1f} x")
        if spiel:
            print(f"chess: Heterodox {policy} / OpenSpiel MCTSBot = "
                  f"{mine['sims_per_s'] / spiel[0]['sims_per_s']:.1f} x")
    print(f"load average at the end {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}"
          + ("  (above the CPU count: figures are noisy)" if max(load_start[0], load_end[0]) > cores + 0.5 else ""))


if __name__ == "__main__":
    main()
