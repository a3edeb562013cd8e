"""Strategy claims as values: a ``Claim`` names its conditions (variant,
rules, start positions), a measure over each game, the predicted
direction and the opponents that calibrate its agents; ``claim.run(...)``
plays the games (``heterodox.play``), measures how strong the agents are,
tests the prediction (``heterodox.stats``) and returns a ``Verdict``,
writing a report directory when asked (summary.md, claim.json, games.csv,
games.pgn).

>>> import heterodox
>>> claim = heterodox.Claim(
...     name="white-scores-more-in-hostage",
...     hypothesis="White scores more than half in Hostage Chess",
...     source="an example",
...     conditions=[heterodox.Condition("hostage")],
... )
>>> verdict = claim.run(agents="ab@2", games=20, calibration_games=8, progress=False)

A claim file is a Python file that defines ``claim``; ``python -m
heterodox.claims FILE --games N --agents A --out DIR`` runs it
(docs/claims.md, "Claims from Python").
"""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from heterodox import stats
from heterodox._atomic import publish_dir
from heterodox._core import check_measures
from heterodox.play import Games, _last, play

#: A measure: a column of the games' table, a measure name (its value at
#: each game's last ply), or a function of the games giving one value per
#: game (NaN: the game does not count).
Measure = str | Callable[[Games], Sequence[float]]

#: The calibration rule, the command line's claims' own
#: (training/src/claims/verdict.rs, ``STRONG_ENOUGH``): an agent whose score
#: against random play has a 95% lower bound under 60% is too weak for a
#: verdict. A perfect score clears it from 6 games on.
STRONG_ENOUGH = 0.6

REPORT_FILES = ("summary.md", "claim.json", "games.csv", "games.pgn")

#: The table's columns a claim may measure by name.
NUMERIC_COLUMNS = ("white_score", "plies")


@dataclass(frozen=True)
class Condition:
    """Where a claim's games are played: a variant, its rule options, the
    start positions (a FEN or a move line, or a list the games take in
    turn) and the random plies that open each game after them."""

    variant: str
    rules: dict[str, Any] = field(default_factory=dict)
    start: str | Sequence[str] | None = None
    opening_plies: int = 4
    name: str | None = None

    @property
    def label(self) -> str:
        return self.name or (f"{self.variant} ({_rules_text(self.rules)})" if self.rules else self.variant)


@dataclass(frozen=True)
class Verdict:
    """What a claim's run concluded: ``verdict`` is 'supports',
    'contradicts', 'inconclusive' or 'agents too weak'; ``estimate`` with
    its 95% interval (``low``, ``high``) and ``pvalue`` is the tested
    quantity (the first condition's mean measure minus the second's, or
    minus the reference with one condition); ``games`` per condition, of
    which ``counted`` count (a repeated game counts once; a game whose
    measure is NaN, not at all); ``games_to_decide`` is how
    many games per condition a 5% two-sided test with 80% power would need
    at the effect measured (None when it is 0); ``strength`` each agent's
    score against each calibration opponent, with its interval."""

    claim: str
    verdict: str
    estimate: float
    low: float
    high: float
    pvalue: float
    games: dict[str, int]
    counted: dict[str, int]
    means: dict[str, float]
    games_to_decide: int | None
    strength: list[dict[str, Any]]
    conclusion: str


@dataclass(frozen=True)
class Claim:
    """A strategy claim: ``hypothesis`` (in plain words) from ``source``;
    ``conditions`` (one: its mean measure is compared with ``reference``;
    two: the first's with the second's); ``measure`` (default: White's
    score); ``predicted``: 'greater' or 'less' (the first condition's mean
    against the other or the reference); ``calibration``: the opponents
    every agent of the run is measured against."""

    name: str
    hypothesis: str
    source: str
    conditions: Sequence[Condition]
    measure: Measure = "white_score"
    predicted: str = "greater"
    reference: float = 0.5
    calibration: Sequence[str] = ("random", "greedy")
    max_plies: int = 200

    def __post_init__(self) -> None:
        if len(self.conditions) not in (1, 2):
            raise ValueError(f"claim '{self.name}': one condition or two, got {len(self.conditions)}")
        if self.predicted not in ("greater", "less"):
            raise ValueError(f"claim '{self.name}': predicted is 'greater' or 'less', not {self.predicted!r}")
        if isinstance(self.measure, str) and self.measure not in NUMERIC_COLUMNS:
            check_measures([self.measure])
        labels = [c.label for c in self.conditions]
        if len(set(labels)) != len(labels):
            raise ValueError(f"claim '{self.name}': two conditions are both '{labels[0]}': name them (Condition(name=...))")

    def run(
        self,
        agents: str | Sequence[str] = "ab@100ms",
        games: int = 200,
        *,
        seed: int = 0,
        calibration_games: int = 20,
        out: str | Path | None = None,
        progress: bool = True,
        parts: int | None = None,
    ) -> Verdict:
        """Plays ``games`` games in each condition between ``agents`` (one
        agent string: against itself; two: paired colours), ``calibration_games``
        of each agent against each calibration opponent in the first
        condition, tests the prediction and returns the verdict; with
        ``out``, writes the report directory there (replacing a report).
        ``parts=N`` plays every set of games in N Ray tasks
        (``heterodox.ray.play``; Ray initialised, ``out`` given, the games
        journaled in ``OUT.games`` beside it until done): the same games
        and verdict as one machine."""
        names = [agents] if isinstance(agents, str) else list(agents)
        for name, value, least in (("games", games, 2), ("calibration_games", calibration_games, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"claim '{self.name}': {name} must be an int of at least {least}, not {value!r}")
        if parts is not None and out is None:
            raise ValueError(f"claim '{self.name}': parts= plays on Ray and journals beside the report: give out")
        runs = _Runs(None if parts is None else Path(out).with_name(Path(out).name + ".games"), parts, progress)
        played = [
            runs.play(c.variant, names, games, rules=c.rules, start=c.start, opening_plies=c.opening_plies,
                      max_plies=self.max_plies, seed=seed + k, condition=c.label)
            for k, c in enumerate(self.conditions)
        ]
        strength = self._calibrate(names, calibration_games, seed, runs)
        values = [self._values(g) for g in played]
        verdict = self._judge(values, strength, [g.condition for g in played])
        if out is not None:
            self._report(Path(out), played, verdict, names, seed)
        runs.clean()
        return verdict

    def _values(self, games: Games) -> np.ndarray:
        """The measure's value in each game (NaN: not counted). A game that
        repeats an earlier one move for move (a deterministic agent from one
        start) counts once."""
        if callable(self.measure):
            values = np.asarray(self.measure(games), dtype=float)
        else:
            table = games.to_pandas()
            if self.measure in table.columns:
                values = table[self.measure].to_numpy(dtype=float)
            else:
                values = np.array([_last(row) for row in games.measure(self.measure)])
        if values.shape != (len(games),):
            raise ValueError(f"claim '{self.name}': the measure gave {values.shape} values for {len(games)} games")
        table = games.to_pandas()
        # As the arena counts them: the same start and moves, and between two
        # agents the same agent on White.
        same = ["start", "moves"] + (["white"] if games.agents[0] != games.agents[1] else [])
        repeated = table.duplicated(subset=same).to_numpy()
        return np.where(repeated, np.nan, values)

    def _calibrate(self, names: list[str], n: int, seed: int, runs: _Runs) -> list[dict[str, Any]]:
        condition = self.conditions[0]
        rows = []
        for agent in dict.fromkeys(names):
            for opponent in self.calibration:
                games = runs.play(condition.variant, [agent, opponent], n, rules=condition.rules,
                                  max_plies=self.max_plies, seed=seed + 1000)
                table = games.to_pandas()
                # The table names agents in their canonical form.
                score = np.where(table.white == games.agents[0], table.white_score, 1 - table.white_score)
                interval = stats.wilson(float(score.sum()), len(score))
                rows.append({"agent": games.agents[0], "opponent": games.agents[1], "games": len(score),
                             "score": float(score.mean()), "low": interval.low, "high": interval.high})
        return rows

    def _judge(self, values: list[np.ndarray], strength: list[dict[str, Any]], labels: list[str]) -> Verdict:
        kept = [v[~np.isnan(v)] for v in values]
        means = {label: float(v.mean()) if len(v) else math.nan for label, v in zip(labels, kept)}
        counts = {label: len(v) for label, v in zip(labels, kept)}
        played = {label: len(v) for label, v in zip(labels, values)}
        short = [label for label, v in zip(labels, kept) if len(v) < 2]
        if short:
            estimate = low = high = pvalue = math.nan
        elif len(kept) == 2 and all(np.ptp(v) == 0 for v in kept):
            # No spread in either: the difference is exact.
            estimate = low = high = float(kept[0][0] - kept[1][0])
            pvalue = 1.0 if estimate == 0 else 0.0
        elif len(kept) == 2:
            test = stats.welch(kept[0], kept[1])
            estimate, low, high, pvalue = test.difference, test.low, test.high, test.pvalue
        else:
            test = stats.ttest_1samp(kept[0], self.reference)
            estimate, low, high, pvalue = test.difference, test.low, test.high, test.pvalue
        sign = 1 if self.predicted == "greater" else -1
        weak = [row for row in strength if row["opponent"] == "random" and row["low"] < STRONG_ENOUGH]
        decide = None if short else _games_to_decide(kept, self.reference)
        if short:
            verdict = "inconclusive"
            conclusion = f"Inconclusive: fewer than 2 games counted in {', '.join(short)}."
        elif weak:
            verdict = "agents too weak"
            why = ", ".join(f"{row['agent']} scores {row['score']:.0%} [{row['low']:.0%}, {row['high']:.0%}] against random"
                            for row in weak)
            conclusion = f"No verdict: {why}, a lower bound under {STRONG_ENOUGH:.0%}."
        elif pvalue < 0.05 and estimate * sign > 0:
            verdict, conclusion = "supports", f"The games support the claim (p = {pvalue:.3g})."
        elif pvalue < 0.05:
            verdict, conclusion = "contradicts", f"The games contradict the claim (p = {pvalue:.3g})."
        else:
            verdict = "inconclusive"
            conclusion = (f"Inconclusive (p = {pvalue:.3g})"
                          + (f": about {decide} games per condition would decide at the effect measured." if decide else "."))
        return Verdict(self.name, verdict, estimate, low, high, pvalue, played, counts, means, decide, strength,
                       conclusion)

    def _report(self, out: Path, played: list[Games], verdict: Verdict, names: list[str], seed: int) -> None:
        tables = [g.to_pandas() for g in played]
        import pandas

        csv = pandas.concat(tables).to_csv(index=False)
        pgn = "\n".join(g.pgn() for g in played)
        claim = {
            "claim": self.name, "hypothesis": self.hypothesis, "source": self.source,
            "conditions": [asdict(c) | {"label": c.label} for c in self.conditions],
            "measure": self.measure if isinstance(self.measure, str) else getattr(self.measure, "__name__", "function"),
            "predicted": self.predicted, "reference": self.reference if len(self.conditions) == 1 else None,
            "agents": names, "seed": seed, "verdict": asdict(verdict),
        }
        summary = _summary(self, verdict, names, seed)
        if math.isnan(verdict.estimate):
            summary = summary.replace("= +nan [+nan, +nan], p = nan", "not measured")

        def write(staging: Path) -> None:
            (staging / "summary.md").write_text(summary, encoding="utf-8")
            (staging / "claim.json").write_text(json.dumps(claim, indent=2, default=str) + "\n", encoding="utf-8")
            (staging / "games.csv").write_text(csv, encoding="utf-8")
            (staging / "games.pgn").write_text(pgn, encoding="utf-8")

        publish_dir(out, REPORT_FILES, write)


class _Runs:
    """Where a claim's games are played: here (``heterodox.play``), or with
    ``parts`` in Ray tasks (``heterodox.ray.play``), each set of games
    journaled in a directory of its own under ``base``."""

    def __init__(self, base: Path | None, parts: int | None, progress: bool):
        self.base, self.parts, self.progress, self.count = base, parts, progress, 0

    def play(self, variant: str, agents: list[str], games: int, **options: Any) -> Games:
        if self.parts is None or self.base is None:
            return play(variant, agents, games, progress=self.progress, **options)
        from heterodox.ray.games import play as play_on_ray

        self.count += 1
        return play_on_ray(variant, agents, games, parts=self.parts, out=self.base / f"games-{self.count}",
                           **options)

    def clean(self) -> None:
        if self.base is not None and self.base.exists():
            shutil.rmtree(self.base)


def _summary(claim: Claim, verdict: Verdict, names: list[str], seed: int) -> str:
    lines = [
        f"# {claim.name}: {verdict.verdict}", "",
        f"Hypothesis: {claim.hypothesis} ({claim.source}).", "",
        f"Agents: {', '.join(names)}; seed {seed}.", "",
        "| condition | games | counted | mean measure |", "|---|---:|---:|---:|",
        *[f"| {label} | {verdict.games[label]} | {verdict.counted[label]} | {verdict.means[label]:.3f} |"
          for label in verdict.games],
        "", "A game that repeats another move for move counts once; a game the measure leaves out (NaN) not at all.",
        "",
        f"Tested: {'the first condition minus the second' if len(claim.conditions) == 2 else f'the mean minus {claim.reference}'}"
        f" = {verdict.estimate:+.3f} [{verdict.low:+.3f}, {verdict.high:+.3f}], p = {verdict.pvalue:.3g}"
        f" (predicted: {claim.predicted}).", "",
        "| agent | opponent | games | score | 95% interval |", "|---|---|---:|---:|---|",
        *[f"| {r['agent']} | {r['opponent']} | {r['games']} | {r['score']:.1%} | [{r['low']:.1%}, {r['high']:.1%}] |"
          for r in verdict.strength],
        "", verdict.conclusion, "",
    ]
    return "\n".join(lines)


def _games_to_decide(kept: list[np.ndarray], reference: float) -> int | None:
    """Games per condition at which a 5% two-sided test has 80% power at
    the effect measured, from the measured spread (the normal
    approximation); None where no effect was measured."""
    means = [float(v.mean()) for v in kept]
    effect = means[0] - (means[1] if len(kept) == 2 else reference)
    variance = sum(float(v.var(ddof=1)) for v in kept)
    if effect == 0 or not math.isfinite(effect) or variance == 0:
        return None
    return math.ceil(stats.games_for_effect(effect, variance))


def _rules_text(rules: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.items())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m heterodox.claims FILE``: runs the claim a Python file
    defines (its variable ``claim``) and prints the verdict."""
    import argparse
    import runpy

    parser = argparse.ArgumentParser(prog="python -m heterodox.claims", description=main.__doc__)
    parser.add_argument("file", help="a Python file defining `claim = heterodox.Claim(...)`")
    parser.add_argument("--agents", default="ab@100ms", help="one agent string, or two separated by a comma")
    parser.add_argument("--games", type=int, default=200, help="games per condition")
    parser.add_argument("--calibration-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="the report directory")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--parts", type=int, help="play the games in N Ray tasks (needs --out)")
    parser.add_argument("--address", help="the Ray cluster to join ('auto'); default: Ray on this machine")
    args = parser.parse_args(argv)
    defined = runpy.run_path(args.file)
    claim = defined.get("claim")
    if not isinstance(claim, Claim):
        parser.error(f"{args.file} defines no `claim` (a heterodox.Claim)")
    if args.parts is not None:
        if args.out is None:
            parser.error("--parts plays on Ray and journals beside the report: give --out")
        from heterodox.ray.claim import connect

        connect(args.address)
    verdict = claim.run(agents=args.agents.split(","), games=args.games, seed=args.seed,
                        calibration_games=args.calibration_games, out=args.out, progress=not args.quiet,
                        parts=args.parts)
    print(f"{claim.name}: {verdict.verdict}: {verdict.conclusion}")
    return 0


if __name__ == "__main__":
    # Run as a script, this file is `__main__`, a copy of the module: the
    # claim file's `heterodox.Claim` is the package's, so is its runner.
    from heterodox.claims import main as package_main

    raise SystemExit(package_main())
