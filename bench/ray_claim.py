"""Ray's overhead on a strategy claim: the same claim's games played by one
`heterodox claim` process, and by `heterodox.ray.claim` with 1 and 2
worker processes on this machine; the reports must be the same.

    .venv/bin/python bench/ray_claim.py                      # 2,000 games, the engine at depth 1
    .venv/bin/python bench/ray_claim.py --games 400 --calibration-games 25

Every mode plays the same games (hostage-favours-the-attacker, --games per
variant and --calibration-games per opponent): 'one machine' is one
process whose duels play --concurrent games at once over every core; 'ray
x1' is Ray with one CPU, the games in --parts tasks played one after the
other (each task --concurrent 1); 'ray x2' is Ray with two CPUs, two tasks
at once. Ray's start-up is not timed (a warm-up task runs first); each
task's own start (loading the agents) is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BINARY = REPO / "target" / "release" / "heterodox"
CLAIM = "hostage-favours-the-attacker"
REPORT_FILES = ["claim.json", "games.csv", "games.pgn", "summary.md"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=900, help="games per variant (two variants)")
    parser.add_argument("--calibration-games", type=int, default=25,
                        help="paired games per calibration opponent (four a variant)")
    parser.add_argument("--agent", default="ab@1")
    parser.add_argument("--parts", type=int, default=8)
    return parser.parse_args()


def report(where: Path) -> dict[str, bytes]:
    return {name: (where / "report" / name).read_bytes() for name in REPORT_FILES}


def main() -> None:
    args = parse_args()
    import ray

    from heterodox.ray.claim import run_claim

    games = 2 * args.games + 2 * 4 * args.calibration_games
    claim_args = ["--games", str(args.games), "--calibration-games", str(args.calibration_games),
                  "--agent", args.agent]
    root = Path(tempfile.mkdtemp(prefix="ray-claim-"))
    print(f"{CLAIM}, {args.agent}: {games} games; {os.cpu_count()} cores")

    one = root / "one"
    one.mkdir()
    start = time.perf_counter()
    subprocess.run([str(BINARY), "claim", CLAIM, *claim_args, "--concurrent", "2", "--out", "report",
                    "--quiet"], cwd=one, check=True, capture_output=True)
    plain = time.perf_counter() - start
    print(f"one machine   {plain:8.1f} s  {games / plain:8.1f} games/s")

    seconds = {}
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level="error")
        ray.get(ray.remote(lambda: 0).remote())  # a worker is up
        where = root / f"ray{cpus}"
        where.mkdir()
        os.chdir(where)
        start = time.perf_counter()
        # --concurrent 2 as the one-machine run: the command (and report) match.
        run_claim(CLAIM, [*claim_args, "--concurrent", "2"], "report", args.parts, binary=BINARY)
        seconds[cpus] = time.perf_counter() - start
        ray.shutdown()
        same = report(where) == report(one)
        print(f"ray x{cpus}        {seconds[cpus]:8.1f} s  {games / seconds[cpus]:8.1f} games/s  "
              f"report {'identical' if same else 'DIFFERS'}")
    print(f"scaling x1 -> x2: {seconds[1] / seconds[2]:.2f}x; "
          f"Ray x2 against one machine: {100 * (seconds[2] / plain - 1):+.1f}% time")


if __name__ == "__main__":
    main()
