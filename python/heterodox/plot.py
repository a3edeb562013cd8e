"""Curves of a training run, and the plots of a claim report, as PNG files.

    python -m heterodox.plot RUN            # writes RUN/plots/*.png
    python -m heterodox.plot REPORT         # a claim report (claim.json)
    python python/heterodox/plot.py RUN     # the same, without building
                                            # the native module

``heterodox train`` writes ``RUN/metrics.jsonl``: one JSON object per line,
``"kind": "iteration"`` (self-play, loss, value accuracy, policy entropy,
game length, throughput, time split) or ``"kind": "evaluation"`` (the
agent's score against random play and against the uniform-evaluator search
at equal simulations, with 95% confidence intervals). This module draws:

* ``scores.png``: both scores against the iteration, with their intervals;
* ``training.png``: losses, value accuracy, policy entropy, game length and
  positions per second against the iteration.

It reads only the metrics file and needs only matplotlib (``pip install
matplotlib``); it imports nothing from the native module, so it also runs
as a plain script. Lines that do not parse (a run killed mid-line) are
skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def read_metrics(path: os.PathLike[str] | str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The iteration lines and the evaluation lines of a metrics file."""
    iterations: list[dict[str, Any]] = []
    evaluations: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as file:
        for line in file:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if not isinstance(record, dict):
                continue
            if record.get("kind") == "iteration":
                iterations.append(record)
            elif record.get("kind") == "evaluation":
                evaluations.append(record)
    return iterations, evaluations


def plot_run(run: os.PathLike[str] | str, out: os.PathLike[str] | str | None = None) -> list[Path]:
    """Writes the run's PNG curves into ``out`` (default ``RUN/plots``) and
    returns their paths. Raises ``FileNotFoundError`` without a metrics file
    and ``ValueError`` when it holds no iteration."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run = Path(run)
    iterations, evaluations = read_metrics(run / "metrics.jsonl")
    if not iterations:
        raise ValueError(f"{run / 'metrics.jsonl'} holds no iteration")
    out_dir = Path(out) if out is not None else run / "plots"
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    title = run.name

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label, colour in (
        ("vs_random", "against random play", "tab:blue"),
        ("vs_uniform", "against the uniform search", "tab:orange"),
        ("vs_greedy", "against greedy", "tab:green"),
        ("vs_engine", None, "tab:red"),
    ):
        # Runs made before greedy (or the engine) was an opponent, or that
        # left an opponent out, have no such score.
        scored = [e for e in evaluations if e.get(key)]
        if label is None:
            label = f"against {scored[-1].get('engine', 'the engine')}" if scored else ""

        if not scored:
            continue
        xs = [e["iteration"] for e in scored]
        ys = [100 * e[key]["score"] for e in scored]
        low = [100 * (e[key]["score"] - e[key]["score_low"]) for e in scored]
        high = [100 * (e[key]["score_high"] - e[key]["score"]) for e in scored]
        ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=3, label=label, color=colour)
    ax.axhline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_ylim(0, 100)
    ax.set_xlabel("iteration")
    ax.set_ylabel("score of the agent, % (95% CI)")
    sims = evaluations[-1]["simulations"] if evaluations else "?"
    ax.set_title(f"{title}: evaluation at {sims} simulations per move")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    written.append(_save(fig, out_dir / "scores.png"))
    plt.close(fig)

    trained = [i for i in iterations if i.get("training")]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    xs = [i["iteration"] for i in trained]
    panels = [
        (axes[0][0], "loss", [("loss", "total"), ("policy_loss", "policy"), ("value_loss", "value")]),
        (axes[0][1], "value accuracy", [("value_accuracy", None)]),
        (axes[0][2], "policy entropy (nats)", [("policy_entropy", None)]),
    ]
    for ax, name, series in panels:
        for key, label in series:
            ax.plot(xs, [i["training"][key] for i in trained], marker=".", label=label)
        if len(series) > 1:
            ax.legend()
        ax.set_title(name)
        ax.set_xlabel("iteration")
        ax.grid(alpha=0.3)
    all_xs = [i["iteration"] for i in iterations]
    ax = axes[1][0]
    ax.plot(all_xs, [i["selfplay"]["average_length"] for i in iterations], marker=".")
    ax.set_title("self-play game length (plies)")
    ax.set_xlabel("iteration")
    ax.grid(alpha=0.3)
    ax = axes[1][1]
    ax.plot(all_xs, [i["selfplay"]["positions_per_second"] for i in iterations], marker=".", label="self-play")
    ax.plot(xs, [i["training"]["positions_per_second"] for i in trained], marker=".", label="trained")
    ax.set_yscale("log")
    ax.set_title("positions per second")
    ax.set_xlabel("iteration")
    ax.legend()
    ax.grid(alpha=0.3)
    ax = axes[1][2]
    bottom = [0.0] * len(iterations)
    for key in ("selfplay", "training", "evaluation"):
        values = [i["seconds"][key] for i in iterations]
        ax.bar(all_xs, values, bottom=bottom, label=key)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_title("seconds per iteration")
    ax.set_xlabel("iteration")
    ax.legend()
    fig.suptitle(title)
    fig.tight_layout()
    written.append(_save(fig, out_dir / "training.png"))
    plt.close(fig)
    return written


def plot_claim(report: os.PathLike[str] | str, out: os.PathLike[str] | str | None = None) -> list[Path]:
    """Draws the plots a claim report describes (``claim.json``'s
    ``"plots"``: categories, series of values with optional 95% bounds, an
    optional reference line) as grouped bars into ``out`` (default
    ``REPORT/plots``) and returns their paths. ``heterodox claim`` calls
    this itself; call it again to redraw. Raises ``FileNotFoundError``
    without a claim.json and ``ValueError`` for one without plots."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    report = Path(report)
    with open(report / "claim.json", encoding="utf-8") as file:
        claim = json.load(file)
    plots = claim.get("plots")
    if not isinstance(plots, list) or not plots:
        raise ValueError(f"{report / 'claim.json'} describes no plots")
    out_dir = Path(out) if out is not None else report / "plots"
    out_dir.mkdir(parents=True, exist_ok=True)

    def number(value: Any) -> float:
        return float("nan") if value is None else float(value)

    written = []
    for plot in plots:
        categories = [str(c) for c in plot["categories"]]
        series = plot["series"]
        horizontal = bool(plot.get("horizontal"))
        size = (8, max(3.5, 0.38 * len(categories) + 1.5)) if horizontal else (max(6, 1.2 * len(categories) + 2), 4.5)
        fig, ax = plt.subplots(figsize=size)
        width = 0.8 / max(1, len(series))
        for k, one in enumerate(series):
            y = [number(v) for v in one["y"]]
            positions = [i + (k - (len(series) - 1) / 2) * width for i in range(len(categories))]
            error = None
            if "low" in one and "high" in one:
                low = [number(v) for v in one["low"]]
                high = [number(v) for v in one["high"]]
                error = [[max(0.0, a - b) if a == a and b == b else 0.0 for a, b in zip(y, low)],
                         [max(0.0, b - a) if a == a and b == b else 0.0 for a, b in zip(y, high)]]
            if horizontal:
                ax.barh(positions, y, height=width, xerr=error, capsize=3, label=one.get("label"))
            else:
                ax.bar(positions, y, width=width, yerr=error, capsize=3, label=one.get("label"))
        reference = plot.get("reference")
        if horizontal:
            ax.set_yticks(range(len(categories)), categories)
            ax.invert_yaxis()
            ax.set_xlabel(plot.get("ylabel", ""))
            if reference is not None:
                ax.axvline(reference, color="grey", linestyle="--", linewidth=1)
        else:
            ax.set_xticks(range(len(categories)), categories)
            ax.set_xlabel(plot.get("xlabel", ""))
            ax.set_ylabel(plot.get("ylabel", ""))
            if reference is not None:
                ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
        if len(series) > 1:
            ax.legend()
        ax.set_title(plot.get("title", ""))
        fig.tight_layout()
        written.append(_save(fig, out_dir / Path(plot["file"]).name))
        plt.close(fig)
    return written


def _save(fig: Any, path: Path) -> Path:
    """Saves beside the target and renames: a plot is whole or absent."""
    temp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fig.savefig(temp, dpi=100, format="png")
    os.replace(temp, path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m heterodox.plot", description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a run directory (holding metrics.jsonl) or a claim report (holding claim.json)")
    parser.add_argument("--out", help="where to write the PNG files (default RUN/plots)")
    args = parser.parse_args(argv)
    try:
        if (Path(args.run) / "claim.json").is_file():
            paths = plot_claim(args.run, args.out)
        else:
            paths = plot_run(args.run, args.out)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
