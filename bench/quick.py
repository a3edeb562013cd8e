"""The project's headline speed figures, each measured briefly and set
beside its record: ``make bench-quick`` (30 s to a minute, the build aside).

    make bench-quick                                    # the release build
    .venv/bin/python bench/quick.py                     # the same
    .venv/bin/python bench/quick.py --only vecenv --only mcts
    .venv/bin/python bench/quick.py --seconds 2         # twice as long each
    .venv/bin/python bench/quick.py --profile quick     # target/quick/, perft built in that profile
    HETERODOX_BIN=target/quick/heterodox .venv/bin/python bench/quick.py
    .venv/bin/python bench/quick.py --bin path/to/heterodox

Nothing is built but the perft example (``cargo build``, untimed; a no-op
when it is current): the CLI (``--bin``, else ``$HETERODOX_BIN``, else
``target/PROFILE/heterodox``, ``target/release/heterodox`` by default) and
the Python extension installed in the interpreter running this script
(``make build`` / ``maturin develop``) are measured as they are.

The measurements, in this order (``--only`` takes these names):

* ``perft``: FIDE perft from the start position to depth 5 (4,865,609
  leaves, bulk counting), one thread, Heterodox's ``Chess`` against
  shakmaty in the same run, 15 interleaved rounds, the median of each:
  ``cargo run --release -p heterodox-env --example perft_vs_shakmaty``
  (env/examples/perft_vs_shakmaty.rs; built with ``cargo build``, then
  its executable run). Figures: Heterodox's nodes/s and the ratio
  Heterodox / shakmaty.
* ``vecenv``: the Python ``heterodox.VecEnv`` loop, chess, 1024 envs,
  ``copy=False``: actions drawn by ``heterodox.spaces.random_legal_actions``
  from the masks, then ``env.step`` (``bench_vecenv`` of
  bench/python_vecenv.py, one run of about 3 s). Figures: steps/s of the
  whole loop (random player and step), and of ``env.step`` alone (the time
  inside ``env.step`` only, in the same run); then the same loop with the
  random player drawn in Rust (``env.random_actions(seed)``, no scan of the
  masks).
* ``mcts``: the Rust search's simulations/s with the uniform evaluator (so
  only the tree work and the rules are timed): ``heterodox selfplay
  --variant chess --net uniform``, 1024 games, 128 at once, each cut
  after 40 plies (the openings), 32 simulations a move, Gumbel root: about
  1.3 million simulations, 5 to 10 s; the figure it prints.
* ``engine``: the alpha-beta engine's nodes/s, ``heterodox bench`` (every
  variant's benchmark positions to depth 8, one thread): the ``total ...
  nps`` figure.
* ``serve``: requests/s of ``heterodox serve`` under bench/serve_load.py's
  load: 200 concurrent games on loopback, up to 40 steps each (random legal
  moves, half against the random agent), a fixed load of about 14,000
  requests.

``--seconds`` scales the timed measurements (perft rounds, the VecEnv run,
the self-play games); ``heterodox bench`` and the serve load are fixed
amounts of work. The rayon pools (VecEnv, self-play) and the server use
every core.

The records are in ONE place: the ``toml`` block of the section "Headline
figures (`make bench-quick`)" of bench/README.md, one table per figure
(value, unit, date, command, machine). Each figure prints one line: today's
value, the recorded one with its date and today / recorded; a ratio below
0.8 is flagged DROP (this machine's noise is about +-10-15%, far more while
other jobs take its cores). Each measurement prints how many cores it kept
busy (its CPU time and its children's over its wall time) and the load
average; a DROP of a measurement that kept fewer than 0.8 of the cores it
can use (1 for perft and the engine, all for the others) busy says
"starved": other jobs had the cores, so the figure says little.
The exit status is 0 whatever the figures; 1 only when a measurement
itself fails (a command fails or prints no figure), after the others ran.
To move a record, edit its table (value, date, machine) in bench/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "bench" / "README.md"
SECTION = "## Headline figures (`make bench-quick`)"
MEASUREMENTS = ["perft", "vecenv", "mcts", "engine", "serve"]
#: The cores each measurement can keep busy (None: all of them).
THREADS = {"perft": 1, "vecenv": None, "mcts": None, "engine": 1, "serve": None}
#: A measurement that kept fewer than this share of them busy was starved
#: by other jobs: its DROP says so.
STARVED_BELOW = 0.8
#: today / recorded below this is a DROP.
DROP_BELOW = 0.8


class MeasurementFailed(Exception):
    """A measurement that gave no figure (a failed command, no figure in its output)."""


def load_script(relative_path: str):
    """The module of a script of the repository that is not a package,
    loaded from its file (as python/tests/support.py's ``load_script``)."""
    path = ROOT / relative_path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_records(readme: Path = README) -> dict[str, dict]:
    """The tables of the ``toml`` block in bench/README.md's headline
    section, by figure name."""
    text = readme.read_text()
    start = text.find(SECTION)
    if start < 0:
        raise SystemExit(f"{readme}: no section {SECTION!r}")
    block = re.search(r"^```toml\n(.*?)^```", text[start:], re.S | re.M)
    if block is None:
        raise SystemExit(f"{readme}: no ```toml block under {SECTION!r}")
    return tomllib.loads(block.group(1))


def run(command: list[str], **kwargs) -> str:
    """stdout of `command`; a MeasurementFailed with its stderr's tail if it fails."""
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
        raise MeasurementFailed(f"{' '.join(map(str, command))} exited {done.returncode}:\n{tail}")
    return done.stdout


def find(pattern: str, text: str, what: str) -> re.Match:
    match = re.search(pattern, text, re.M)
    if match is None:
        raise MeasurementFailed(f"no {what} in the output:\n{text.strip()}")
    return match


def number(text: str) -> float:
    return float(text.replace(",", ""))


# --- the measurements: each returns {figure name: value} ----------------------


def measure_perft(args) -> dict[str, float]:
    # Built first (untimed, a no-op when current), then its executable run
    # (not `cargo run`, which would wait again for a build lock others hold).
    command = [os.environ.get("CARGO", "cargo"), "build", "--profile", args.profile, "-q",
               "-p", "heterodox-env", "--example", "perft_vs_shakmaty", "--message-format", "json"]
    started, cpu = time.perf_counter(), cpu_seconds()
    messages = run(command, cwd=ROOT)
    args.untimed += time.perf_counter() - started
    args.untimed_cpu += cpu_seconds() - cpu
    executable = None
    for message in messages.splitlines():
        artifact = json.loads(message)
        if artifact.get("reason") == "compiler-artifact" and artifact.get("executable"):
            executable = artifact["executable"]
    if executable is None:
        raise MeasurementFailed(f"{' '.join(command)} named no executable")
    rounds = max(3, round(15 * args.seconds))
    built = f" (built in {args.untimed:.0f} s, not counted)" if args.untimed > 2 else ""
    print(f"  {os.path.relpath(executable, ROOT)} --rounds {rounds}{built}")
    out = run([executable, "--rounds", str(rounds)])
    ours = number(find(r"^\s*heterodox\s+([\d.]+) nodes/s", out, "heterodox nodes/s").group(1))
    theirs = number(find(r"^\s*shakmaty\s+([\d.]+) nodes/s", out, "shakmaty nodes/s").group(1))
    print(f"  heterodox {ours:,.0f} nodes/s, shakmaty {theirs:,.0f} nodes/s (medians of {rounds} rounds)")
    return {"perft": ours, "perft-vs-shakmaty": ours / theirs}


def measure_vecenv(args) -> dict[str, float]:
    vecenv = load_script("bench/python_vecenv.py")
    from heterodox import _core

    seconds = 3.0 * args.seconds
    print(f"  bench_vecenv('chess', 1024, {seconds:g}, copy=False) of bench/python_vecenv.py; {_core.__file__}")
    total, step_only = vecenv.bench_vecenv("chess", 1024, seconds, copy=False)
    rust, _ = vecenv.bench_vecenv("chess", 1024, seconds, copy=False, player="rust")
    return {"vecenv-random": total, "vecenv-step": step_only, "vecenv-random-rust": rust}


def measure_mcts(args) -> dict[str, float]:
    games = max(128, round(1024 * args.seconds))
    with tempfile.TemporaryDirectory(prefix="bench-quick-") as out:
        command = [
            str(args.bin), "selfplay", "--variant", "chess", "--net", "uniform",
            "--games", str(games), "--concurrent", "128", "--sims", "32", "--policy", "gumbel",
            "--max-plies", "40", "--seed", "1", "--quiet", "--out", out,
        ]
        print(f"  heterodox {' '.join(command[1:-2])}")
        text = run(command)
    line = find(r"^.*simulations/s.*$", text, "simulations/s").group(0)
    print(f"  {line.strip()}")
    return {"mcts": number(find(r"([\d.]+) simulations/s", line, "simulations/s").group(1))}


def measure_engine(args) -> dict[str, float]:
    print("  heterodox bench")
    text = run([str(args.bin), "bench"])
    total = find(r"^total nodes (\d+) time ([\d.]+) s nps (\d+)", text, "the total line")
    print(f"  {total.group(0)}")
    return {"engine": float(total.group(3))}


def measure_serve(args) -> dict[str, float]:
    serve_load = load_script("bench/serve_load.py")
    games, plies = 200, 40
    print(f"  bench/serve_load.py --games {games} --plies {plies}")
    os.environ["HETERODOX_BIN"] = str(args.bin)  # start_server runs it
    process, url = serve_load.start_server(max(games, 1000))
    try:
        latencies, errors, seconds, live = serve_load.run(url, games, plies, seed=0)
    finally:
        process.kill()
        process.wait()
    if errors:
        raise MeasurementFailed(f"{len(errors)} failed requests, the first: {errors[0]}")
    everything = [x for values in latencies.values() for x in values]
    requests = len(everything) - len(latencies.get("new game", []))
    p50 = 1000 * serve_load.percentile(everything, 0.5)
    p99 = 1000 * serve_load.percentile(everything, 0.99)
    print(f"  {requests:,} requests in {seconds:.1f} s, "
          f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, no error")
    return {"serve": requests / seconds}


MEASURE = {
    "perft": measure_perft,
    "vecenv": measure_vecenv,
    "mcts": measure_mcts,
    "engine": measure_engine,
    "serve": measure_serve,
}


# --- the report ---------------------------------------------------------------


def show(value: float, unit: str) -> str:
    if unit == "ratio":
        return f"{value:.2f}"
    return f"{value:,.0f} {unit}"


#: The widths of a figure's line: name, today, recorded (date).
NAME, TODAY, RECORDED = 18, 22, 38


def compare(name: str, value: float, records: dict[str, dict]) -> tuple[str, bool]:
    """The figure's line and whether it is a DROP."""
    record = records.get(name)
    if record is None or not record.get("value", 0) > 0:
        return f"{name:<{NAME}} {value:>{TODAY},.2f}   (no record in bench/README.md)", False
    unit = record["unit"]
    ratio = value / record["value"]
    drop = ratio < DROP_BELOW
    recorded = f"{show(record['value'], unit)} ({record['date']})"
    flag = "  DROP" if drop else ""
    return f"{name:<{NAME}} {show(value, unit):>{TODAY}}   {recorded:<{RECORDED}} {ratio:5.2f}{flag}", drop


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children, user and system."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def load_average() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, metavar="SCALE",
                        help="scale of the timed measurements (1: 30 s to a minute in all)")
    parser.add_argument("--only", action="append", choices=MEASUREMENTS, metavar="NAME",
                        help=f"run only this measurement (repeatable): {', '.join(MEASUREMENTS)}")
    parser.add_argument("--profile", default="release",
                        help="cargo profile of the perft example and of the default --bin (release)")
    parser.add_argument("--bin", type=Path, default=None,
                        help="the heterodox CLI (default: $HETERODOX_BIN, else target/PROFILE/heterodox)")
    args = parser.parse_args()
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    if args.bin is None:
        args.bin = Path(os.environ.get("HETERODOX_BIN") or ROOT / "target" / args.profile / "heterodox")
    args.bin = args.bin.resolve()
    args.untimed = args.untimed_cpu = 0.0  # wall and CPU seconds spent building, not measuring
    chosen = [name for name in MEASUREMENTS if not args.only or name in args.only]
    records = load_records()

    print(f"bench-quick: {', '.join(chosen)}; CLI {args.bin}; perft built in profile {args.profile}; "
          f"{os.cpu_count()} cores; load average {load_average()}")
    if any(name in ("mcts", "engine", "serve") for name in chosen) and not args.bin.exists():
        print(f"  no {args.bin}: build it (make build) or name one with --bin / $HETERODOX_BIN")
    started = time.perf_counter()
    lines, drops, failed = [], 0, []
    for name in chosen:
        print(f"== {name}")
        began, cpu, building, building_cpu = time.perf_counter(), cpu_seconds(), args.untimed, args.untimed_cpu
        try:
            figures = MEASURE[name](args)
        except MeasurementFailed as failure:
            print(f"  FAILED: {failure}")
            failed.append(name)
            continue
        except (Exception, SystemExit) as failure:  # an import, a server that did not start, ...
            print(f"  FAILED: {type(failure).__name__}: {failure}")
            failed.append(name)
            continue
        wall = time.perf_counter() - began - (args.untimed - building)
        busy = (cpu_seconds() - cpu - (args.untimed_cpu - building_cpu)) / wall
        usable = THREADS[name] or os.cpu_count()
        starved = busy < STARVED_BELOW * usable
        for figure, value in figures.items():
            line, drop = compare(figure, value, records)
            if drop and starved:
                line += f" (starved: {busy:.1f} of {usable} cores busy)"
            drops += drop
            lines.append(line)
            print(f"  {line}")
        print(f"  ({wall:.1f} s, {busy:.1f} of {os.cpu_count()} cores busy; load average {load_average()})")

    print()
    print(f"{'figure':<{NAME}} {'today':>{TODAY}}   {'recorded (date)':<{RECORDED}} today/recorded")
    for line in lines:
        print(line)
    for name in failed:
        print(f"{name:<{NAME}} {'FAILED':>{TODAY}}")
    measuring = time.perf_counter() - started - args.untimed
    built = f" (+ {args.untimed:.0f} s building)" if args.untimed > 2 else ""
    print(f"{len(lines)} figure{'s' * (len(lines) != 1)}, {drops} DROP (below {DROP_BELOW} of the record), {len(failed)} failed; "
          f"{measuring:.0f} s{built}; load average {load_average()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
