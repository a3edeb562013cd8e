"""Teacher data on a Ray cluster: the shards of `heterodox teach` written
by tasks anywhere, the directory the same as one machine's.

    python -m heterodox.ray teach --out /shared/teach/hostage --positions 2000000 --address auto \\
        -- --variant hostage --engine ab@2

A teacher run writes shards `teach-00000.hdxshard`, `teach-00001...` until
their labelled positions reach the target; the games of shard k are
seeded by their numbers alone, so any process writes the same shard k.
Each task here runs ``heterodox teach ARGS --out OUT --shard K`` (the
shard alone; one already written is kept) on its worker's cores. The
driver keeps as many tasks in flight as the cluster has CPUs for, in
order of K, until the shards from 0 have the positions asked; it then
removes any shard written past that point and runs ``heterodox teach ARGS
--out OUT`` once, which finds its target reached and prints the summary.
The directory is then byte for byte what one `heterodox teach` writes.
A task whose worker dies is run again by Ray (the shard is written
atomically, so none is half there); a driver started again over the
same directory keeps the shards written.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from heterodox.ray.claim import ClaimRunError, _die_with_parent, connect, default_binary

#: on_progress(info): 'positions' in the shards from 0 done in order,
#: 'target', 'shards' written, 'in_flight', 'positions_per_second'.
ProgressHook = Callable[[dict[str, Any]], None]

SHARD_LINE = re.compile(r"^shard (\d+): (\d+) positions in (\d+) games: ")


class TeachRunError(ClaimRunError):
    """A shard that failed for a reason running it again cannot cure (bad
    arguments), or a directory the final check refused."""


@dataclass
class TeachRunSummary:
    out: Path
    shards: int
    positions: int
    seconds: float
    #: What `heterodox teach` printed over the finished directory.
    output: str


def teach_shard(binary: str, args: list[str], out: str, positions: int, k: int,
                threads: int = 1) -> tuple[int, int]:
    """The body of one task: writes shard k of ``out`` (or keeps it) and
    returns (k, its labelled positions), the Rust code on ``threads``
    threads."""
    command = [binary, "teach", *args, "--positions", str(positions), "--out", out,
               "--shard", str(k), "--quiet"]
    env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          preexec_fn=_die_with_parent)
    match = SHARD_LINE.match(done.stdout)
    if done.returncode != 0 or match is None:
        raise TeachRunError(f"shard {k} failed: {done.stderr.strip() or done.stdout.strip()}")
    return k, int(match.group(2))


def run_teach(
    args: list[str],
    out: str | os.PathLike,
    positions: int,
    *,
    binary: str | os.PathLike | None = None,
    cpus_per_shard: float = 1.0,
    in_flight: int | None = None,
    on_progress: ProgressHook | None = None,
    max_retries: int = 3,
) -> TeachRunSummary:
    """Fills the teacher directory ``out`` with ``positions`` labelled
    positions in Ray tasks, a shard each (see the module docs). ``args``:
    heterodox teach's options without --out, --positions and --shard.
    Ray must be initialised."""
    from heterodox.ray.driver import import_ray

    ray = import_ray()
    for flag in ("--out", "--positions", "--shard"):
        if any(arg == flag or arg.startswith(flag + "=") for arg in args):
            raise TeachRunError(f"{flag} is the driver's to set: leave it out of the teacher's arguments")
    if positions < 1:
        raise TeachRunError(f"positions = {positions} is out of range (at least 1)")
    out = Path(out).resolve()
    binary = str(Path(binary or default_binary()).resolve())
    if in_flight is None:
        cpus = ray.cluster_resources().get("CPU", 1.0)
        in_flight = max(1, int(cpus / cpus_per_shard))
    task = ray.remote(teach_shard).options(num_cpus=cpus_per_shard, max_retries=max_retries,
                                           retry_exceptions=False)
    threads = max(1, int(cpus_per_shard))
    started = time.monotonic()
    found: dict[int, int] = {}
    pending: dict[Any, int] = {}
    next_k, last = 0, None

    def in_order() -> tuple[int, int | None]:
        """Positions of the shards from 0 done in order, and the shard
        that reaches the target (None while none does)."""
        total, k = 0, 0
        while k in found:
            total += found[k]
            if total >= positions:
                return total, k
            k += 1
        return total, None

    while last is None or pending:
        while last is None and len(pending) < in_flight:
            pending[task.remote(binary, list(args), str(out), positions, next_k, threads)] = next_k
            next_k += 1
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            pending.pop(ref)
            try:
                k, count = ray.get(ref)
            except Exception as error:  # the task's own error, after Ray's retries
                for other in pending:
                    ray.cancel(other, force=True)
                cause = getattr(error, "cause", None) or error
                raise TeachRunError(str(cause)) from error
            found[k] = count
        total, last = in_order()
        if on_progress is not None:
            elapsed = time.monotonic() - started
            on_progress({"positions": total, "target": positions, "shards": len(found),
                         "in_flight": len(pending),
                         "positions_per_second": sum(found.values()) / elapsed if elapsed else 0.0})
    # Shards past the target were played ahead: one machine stops before them.
    for k in found:
        if k > last:
            (out / f"teach-{k:05}.hdxshard").unlink(missing_ok=True)
    check = subprocess.run([binary, "teach", *args, "--positions", str(positions), "--out", str(out),
                            "--quiet"], capture_output=True, text=True)
    if check.returncode != 0 or "this run: 0 positions" not in check.stdout:
        raise TeachRunError(f"the finished directory did not check: {check.stderr.strip() or check.stdout}")
    total, _ = in_order()
    return TeachRunSummary(out=out, shards=last + 1, positions=total,
                           seconds=time.monotonic() - started, output=check.stdout)


def parse_args(argv: list[str]) -> Any:
    """The options of ``python -m heterodox.ray teach``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m heterodox.ray teach",
                                     description="teacher data on a Ray cluster",
                                     epilog="after --: heterodox teach's options (--variant, --engine, ...)")
    parser.add_argument("--out", required=True, help="the teacher directory, on storage every node shares")
    parser.add_argument("--positions", type=int, required=True, help="labelled positions to have")
    parser.add_argument("--address", help="an existing cluster ('auto'); default: Ray on this machine")
    parser.add_argument("--cpus-per-shard", type=float, default=1.0,
                        help="CPUs Ray reserves for each task (its Rust threads)")
    ours, teach_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    args = parser.parse_args(ours)
    args.teach_args = teach_args
    return args


def main(argv: list[str]) -> int:
    """``python -m heterodox.ray teach --out DIR --positions N [--address A] -- TEACH OPTIONS``."""
    args = parse_args(argv)
    connect(args.address)

    def show(info: dict[str, Any]) -> None:
        print(f"\r{info['positions']}/{info['target']} positions  {info['shards']} shards  "
              f"{info['in_flight']} in flight  {info['positions_per_second']:.0f} positions/s",
              end="", file=sys.stderr, flush=True)

    try:
        summary = run_teach(args.teach_args, args.out, args.positions,
                            cpus_per_shard=args.cpus_per_shard, on_progress=show)
    except TeachRunError as error:
        print(f"\nerror: {error}", file=sys.stderr)
        return 1
    print(file=sys.stderr)
    print(summary.output, end="")
    print(f"{summary.shards} shards, {summary.positions} positions in {summary.seconds:.1f} s")
    return 0
