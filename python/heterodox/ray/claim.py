"""A strategy claim on a Ray cluster: the games split into parts played
anywhere, the report written by the code that writes it on one machine.

    python -m heterodox.ray claim first-move-advantage --parts 64 --address auto \\
        --out reports/first-move -- --games 11100 --agent ab@20000n

Each part is a Ray task running ``heterodox claim NAME ARGS --part K/N
--out OUT.parts/part-K`` on its worker's cores: it plays the pairs of every
duel whose number is K modulo N (each game's seeds and opening follow
from its index alone) into that part's journal, writing each game as it
finishes. A task whose worker dies is run again by Ray elsewhere, and
continues its part's journal: nothing is lost, nothing is played twice
(the task's ``heterodox`` dies with its worker, so two never write one
journal). When every part is done the driver merges the parts' journals
into ``OUT.journal`` (whole lines only, each game once, by index) and runs
``heterodox claim NAME ARGS --out OUT --resume``, which finds every game
kept, plays none, and writes the report: the same figures, byte for byte,
as a run on one machine with the same arguments.

OUT and OUT.parts must be on storage every node shares. A driver that was
stopped starts again with ``--resume``: the parts continue their journals.

An arena (``python -m heterodox.ray arena --out OUT --parts N -- --variant
hostage --agents A,B,C --games 2000``) runs the same way: its parts are
``heterodox arena ARGS --part K/N``, and the merged run writes the
games.pgn and results.json one `heterodox arena --out OUT` writes. An SPRT
decides as its games come in, so it stays on one machine.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from heterodox._atomic import write_file

#: on_progress(info): 'games' done so far in every part, 'games_per_second',
#: 'parts_done' of 'parts', 'nodes_alive', 'eta_seconds' (None until a part
#: is done), 'retries' (tasks Ray ran again after their worker died).
ProgressHook = Callable[[dict[str, Any]], None]


class ClaimRunError(RuntimeError):
    """A part that failed for a reason running it again cannot cure (bad
    arguments, a claim that does not exist), a journal that cannot be
    merged, or a report that was not written; the message says which."""


@dataclass
class ClaimRunSummary:
    """What a claim run on Ray did."""

    report: Path
    parts: int
    games: int
    seconds: float
    #: Tasks that Ray ran again because their worker died.
    retries: int
    #: The verdict line and the rest of heterodox claim's output.
    output: str


def default_binary() -> Path:
    """The ``heterodox`` command: ``$HETERODOX_BIN`` when set, else this
    checkout's release build (every node needs it at the same path)."""
    where = os.environ.get("HETERODOX_BIN")
    return Path(where) if where else Path(__file__).resolve().parents[3] / "target" / "release" / "heterodox"


def parts_dir(out: Path) -> Path:
    """Where the parts of the report ``out`` play: ``OUT.parts`` beside it."""
    return out.with_name(out.name + ".parts")


def part_out(out: Path, k: int) -> Path:
    return parts_dir(out) / f"part-{k}"


def journal_of(report: Path) -> Path:
    """A report's journal directory, as heterodox claim names it."""
    return report.with_name(report.name + ".journal")


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL when the worker that started it
    dies (Linux), so a task run again never shares its journal with an
    orphan of the first run."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def play_part(binary: str, words: list[str], args: list[str], out: str, k: int, n: int,
              threads: int = 1) -> int:
    """The body of one task: plays part k of n of ``heterodox WORDS ARGS``
    (``["claim", NAME]`` or ``["arena"]``) into ``out``'s journal and
    returns the games it holds, the Rust code on ``threads`` threads.
    Writes ``out.pid`` (the worker's process
    id) first, so a test or an operator can find the worker playing it,
    and appends it to ``out.starts``, which counts the part's starts."""
    out_path = Path(out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    write_file(out_path.with_name(out_path.name + ".pid"), f"{os.getpid()}\n")
    with open(out_path.with_name(out_path.name + ".starts"), "a", encoding="utf-8") as starts:
        starts.write(f"{os.getpid()}\n")
    command = [binary, *words, *args, "--out", out, "--part", f"{k}/{n}", "--quiet"]
    # The Rust code's threads: the CPUs Ray gave the task, not the node's.
    env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          preexec_fn=_die_with_parent)
    if done.returncode != 0:
        raise ClaimRunError(f"part {k}/{n} failed: {done.stderr.strip() or done.stdout.strip()}")
    return count_games(journal_of(out_path))


def _starts(out: Path, parts: int) -> int:
    """Starts of the parts' tasks so far (their ``.starts`` lines)."""
    total = 0
    for k in range(parts):
        starts = parts_dir(out) / f"part-{k}.starts"
        if starts.is_file():
            total += starts.read_text(encoding="utf-8").count("\n")
    return total


def count_games(journal: Path) -> int:
    """Whole lines in a journal's duel files (a torn last line not counted)."""
    if not journal.is_dir():
        return 0
    games = 0
    for path in journal.glob("*.jsonl"):
        games += path.read_bytes().count(b"\n")
    return games


def merge_journals(out: Path, parts: int) -> int:
    """Merges the parts' journals into ``OUT.journal``: run.json (the same
    settings in every part, or ClaimRunError), and for each duel its games
    from every part, whole lines only, sorted by index; a game twice is a
    ClaimRunError. Each file is written atomically; an older merge is
    replaced. Returns the games merged."""
    journals = [journal_of(part_out(out, k)) for k in range(parts)]
    runs = []
    for journal in journals:
        run_file = journal / "run.json"
        if run_file.is_file():
            runs.append(json.loads(run_file.read_text(encoding="utf-8")))
    if not runs:
        raise ClaimRunError(f"no part wrote a journal under {parts_dir(out)}")
    settings = runs[0]["settings"]
    for run in runs[1:]:
        if run["settings"] != settings:
            raise ClaimRunError("the parts were played with different settings: remove "
                                f"{parts_dir(out)} and start again")
    duels: dict[str, dict[int, str]] = {}
    for journal in journals:
        for path in sorted(journal.glob("*.jsonl")) if journal.is_dir() else []:
            games = duels.setdefault(path.name, {})
            for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
                if not line.endswith("\n"):
                    continue  # torn by a kill: its game is played again
                index = json.loads(line)["index"]
                if index in games:
                    raise ClaimRunError(f"game {index} of {path.stem} is in two parts' journals")
                games[index] = line
    target = journal_of(out)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for name, games in sorted(duels.items()):
        write_file(target / name, "".join(games[k] for k in sorted(games)))
    # run.json last: a journal is only resumed once it is whole.
    write_file(target / "run.json", json.dumps(runs[0], indent=2) + "\n")
    return sum(len(games) for games in duels.values())


def run_claim(name: str, args: list[str], out: str | os.PathLike, parts: int,
              **options: Any) -> ClaimRunSummary:
    """Plays claim ``name`` (``args``: heterodox claim's options, without
    --out, --part and --resume) in ``parts`` Ray tasks and writes its
    report to ``out`` (see the module docs). Ray must be initialised
    (``heterodox.ray.init_ray``, or ``ray.init``). ``resume=True``:
    continue the parts of a driver that was stopped; without it, parts left
    behind are a ClaimRunError naming them, never silently reused. The
    other options: ``binary``, ``cpus_per_part``, ``on_progress``,
    ``poll_seconds``, ``max_retries``."""
    return run_parts(["claim", name], args, out, parts, **options)


def run_arena(args: list[str], out: str | os.PathLike, parts: int,
              **options: Any) -> ClaimRunSummary:
    """An arena (``args``: heterodox arena's options, without --out,
    --part, --resume and --sprt, which decides as it goes) in ``parts`` Ray
    tasks, its results written to ``out`` as one `heterodox arena --out
    OUT` writes them: the same games.pgn and results.json, byte for byte,
    and the table printed (``output``). Options as ``run_claim``'s."""
    if any(arg == "--sprt" or arg.startswith("--sprt=") for arg in args):
        raise ClaimRunError("an SPRT decides as its games come in: it runs on one machine")
    return run_parts(["arena"], args, out, parts, **options)


def run_parts(
    words: list[str],
    args: list[str],
    out: str | os.PathLike,
    parts: int,
    *,
    resume: bool = False,
    binary: str | os.PathLike | None = None,
    cpus_per_part: float = 1.0,
    on_progress: ProgressHook | None = None,
    poll_seconds: float = 1.0,
    max_retries: int = 3,
) -> ClaimRunSummary:
    """``heterodox WORDS ARGS`` (a claim or an arena) in ``parts`` Ray
    tasks, then once with ``--out OUT --resume`` over their merged
    journals (see the module docs)."""
    from heterodox.ray.driver import import_ray

    ray = import_ray()
    if not 1 <= parts <= 65536:
        raise ClaimRunError(f"parts = {parts} is out of range (1 to 65536)")
    for flag in ("--out", "--part", "--resume"):
        if any(arg == flag or arg.startswith(flag + "=") for arg in args):
            raise ClaimRunError(f"{flag} is the driver's to set: leave it out of the {words[0]}'s arguments")
    # The report's --out as given (its command then reads as a run on one
    # machine's), the parts by absolute path (tasks run in other places).
    given, out = Path(out), Path(out).resolve()
    binary = str(Path(binary or default_binary()).resolve())
    if parts_dir(out).exists() and not resume:
        raise ClaimRunError(f"{parts_dir(out)} holds the parts of an earlier run: add --resume to "
                            "continue it, or remove it to start over")
    task = ray.remote(play_part).options(num_cpus=cpus_per_part, max_retries=max_retries,
                                         retry_exceptions=False)
    started = time.monotonic()
    threads = max(1, int(cpus_per_part))
    pending = {task.remote(binary, list(words), list(args), str(part_out(out, k)), k, parts, threads): k
               for k in range(parts)}
    done_parts: set[int] = set()
    baseline = _starts(out, parts)
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=poll_seconds)
        for ref in ready:
            k = pending.pop(ref)
            try:
                ray.get(ref)
            except Exception as error:  # the task's own error, after Ray's retries
                for other in pending:
                    ray.cancel(other, force=True)
                cause = getattr(error, "cause", None) or error
                raise ClaimRunError(str(cause)) from error
            done_parts.add(k)
        # Every start of a part beyond its first in this run is a task Ray
        # ran again after its worker died.
        retries = max(0, _starts(out, parts) - baseline - parts)
        if on_progress is not None:
            games = sum(count_games(journal_of(part_out(out, k))) for k in range(parts))
            elapsed = time.monotonic() - started
            eta = elapsed * (parts - len(done_parts)) / len(done_parts) if done_parts else None
            on_progress({
                "games": games,
                "games_per_second": games / elapsed if elapsed > 0 else 0.0,
                "parts_done": len(done_parts),
                "parts": parts,
                "nodes_alive": sum(1 for node in ray.nodes() if node.get("Alive")),
                "eta_seconds": eta,
                "retries": retries,
            })
    retries = max(0, _starts(out, parts) - baseline - parts)
    games = merge_journals(out, parts)
    report = subprocess.run([binary, *words, *args, "--out", str(given), "--resume", "--quiet"],
                            capture_output=True, text=True)
    if report.returncode != 0:
        raise ClaimRunError(f"the results were not written: {report.stderr.strip()}")
    shutil.rmtree(parts_dir(out))
    return ClaimRunSummary(report=given, parts=parts, games=games, seconds=time.monotonic() - started,
                           retries=retries, output=report.stdout)


def connect(address: str | None) -> None:
    """Joins the cluster at ``address`` ('auto': the one this node belongs
    to), or starts Ray on this machine; the workers' logs stay off the
    driver's output."""
    from heterodox.ray.driver import import_ray

    ray = import_ray()
    if address:
        ray.init(address=address, log_to_driver=False, logging_level="warning")
    else:
        ray.init(include_dashboard=False, log_to_driver=False, logging_level="warning")


def parse_args(argv: list[str], command: str = "claim") -> Any:
    """The options of ``python -m heterodox.ray claim`` (or ``arena``,
    which names no claim)."""
    import argparse

    parser = argparse.ArgumentParser(prog=f"python -m heterodox.ray {command}",
                                     description=f"a {command}'s games on a Ray cluster")
    if command == "claim":
        parser.add_argument("name", help="the claim (heterodox claim --list)")
    parser.add_argument("--out", required=True, help="the report directory, on storage every node shares")
    parser.add_argument("--parts", type=int, required=True, help="tasks to split the games into")
    parser.add_argument("--address", help="an existing cluster ('auto'); default: Ray on this machine")
    parser.add_argument("--resume", action="store_true", help="continue a stopped driver's parts")
    parser.add_argument("--cpus-per-part", type=float, default=1.0,
                        help="CPUs Ray reserves for each task (its Rust threads)")
    parser.epilog = f"after --: heterodox {command}'s options (--games, --agent(s), --seed, ...)"
    ours, claim_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    args = parser.parse_args(ours)
    args.claim_args = claim_args
    return args


def main(argv: list[str], command: str = "claim") -> int:
    """``python -m heterodox.ray claim NAME --out OUT --parts N [--address A]
    [--resume] [--cpus-per-part C] -- CLAIM OPTIONS``, or ``arena`` with
    no NAME and heterodox arena's options."""
    args = parse_args(argv, command)
    connect(args.address)

    def show(info: dict[str, Any]) -> None:
        eta = "?" if info["eta_seconds"] is None else f"{info['eta_seconds']:.0f} s"
        print(f"\r{info['games']} games  {info['games_per_second']:.1f} games/s  parts "
              f"{info['parts_done']}/{info['parts']}  nodes {info['nodes_alive']}  eta {eta}  "
              f"retries {info['retries']}", end="", file=sys.stderr, flush=True)

    options = dict(resume=args.resume, cpus_per_part=args.cpus_per_part, on_progress=show)
    try:
        if command == "claim":
            summary = run_claim(args.name, args.claim_args, args.out, args.parts, **options)
        else:
            summary = run_arena(args.claim_args, args.out, args.parts, **options)
    except ClaimRunError as error:
        print(f"\nerror: {error}", file=sys.stderr)
        return 1
    print(file=sys.stderr)
    print(summary.output, end="")
    print(f"{summary.games} games in {summary.parts} parts, {summary.seconds:.1f} s, "
          f"{summary.retries} parts run again")
    return 0
