"""The statistics of Heterodox's claims and arena, for Python: the same Rust
code (the ``heterodox-stats`` crate) that the command line runs, so a
number computed here is the number ``heterodox claim`` or ``heterodox
arena`` prints. The API follows ``scipy.stats``: functions of the data
that return small frozen dataclasses with named fields.

>>> import heterodox.stats as hs
>>> hs.wilson(24.5, 40)                       # a score of 24.5 / 40
Wilson(estimate=0.6125, low=0.4580963546328445, high=0.7471887850977661)
>>> round(hs.elo(0.6125), 1)
79.5
>>> hs.sprt([223, 9863, 21279, 10037, 246], elo0=0.5, elo1=2.5).decision
'H0'

What is here (docs/stats.md gives each one's formula, its Rust path and
its measured agreement with scipy and statsmodels):

* distributions: ``normal_cdf``, ``normal_sf``, ``normal_quantile``,
  ``t_cdf``, ``t_quantile``;
* a proportion: ``wilson`` (Wilson's score interval);
* means: ``mean`` (the claims' mean and interval), ``welch`` (Welch's
  t-test, as ``scipy.stats.ttest_ind(equal_var=False)``), ``welch_z``
  (the claims' normal version of it), ``ttest_1samp`` (the one-sample
  t-test);
* Elo: ``elo``, ``score_of_elo``;
* paired games: ``pentanomial``, ``pair_counts``, ``sprt``;
* regression: ``logistic`` (quasi-binomial, HC0 sandwich errors, ridge);
* resampling: ``bootstrap`` (seeded percentile bootstrap);
* planning: ``power``, ``games_to_decide``, ``games_for_effect``,
  ``games_for_interval``.

Bad input (NaN, values out of range, empty or mismatched samples, sizes
over the limits) raises ``ValueError`` with a message naming the argument.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Optional, Union

import numpy as np

from heterodox import _core

__all__ = [
    "Bootstrap",
    "Coefficient",
    "Difference",
    "Mean",
    "Pentanomial",
    "Sprt",
    "Welch",
    "Wilson",
    "bootstrap",
    "elo",
    "games_for_interval",
    "games_to_decide",
    "logistic",
    "mean",
    "normal_cdf",
    "normal_quantile",
    "normal_sf",
    "pair_counts",
    "pentanomial",
    "power",
    "score_of_elo",
    "sprt",
    "t_cdf",
    "t_quantile",
    "welch",
    "welch_z",
    "wilson",
]

# A sample: a sequence of numbers or a 1-D numpy array.
Sample = Union[Sequence[float], np.ndarray]


@dataclass(frozen=True)
class Wilson:
    """A proportion and its Wilson score interval."""

    estimate: float
    low: float
    high: float


@dataclass(frozen=True)
class Mean:
    """A sample mean, its standard error (sample standard deviation over
    sqrt(n); 0 for one value) and its 95% interval (Wilson's for a
    proportion, else mean -+ 1.96 std_error)."""

    n: int
    mean: float
    std_error: float
    low: float
    high: float


@dataclass(frozen=True)
class Welch:
    """Welch's t-test of mean(a) - mean(b): the difference, its interval
    (t quantile of ``df`` degrees of freedom), the t statistic, the
    Welch-Satterthwaite degrees of freedom and the two-sided p-value."""

    difference: float
    low: float
    high: float
    statistic: float
    df: float
    pvalue: float
    std_error: float


@dataclass(frozen=True)
class OneSample(Welch):
    """The one-sample t-test of mean(values) - reference: the difference,
    its interval (t quantile of ``df`` = n - 1 degrees of freedom), the t
    statistic and the two-sided p-value (``Welch``'s fields)."""


@dataclass(frozen=True)
class Difference:
    """The claims' Welch z test of mean(a) - mean(b): normal reference
    distribution and 95% normal interval."""

    difference: float
    low: float
    high: float
    statistic: float
    pvalue: float


@dataclass(frozen=True)
class Pentanomial:
    """Pairs of colour-swapped games counted by their total: ``counts[k]``
    pairs scored k/2 (0-2, 1/2-3/2, 1-1, 3/2-1/2, 2-0); the mean score per
    game, the variance of the per-pair mean score, and the Elo with its
    95% interval (``inf`` where the score bound is 0 or 1)."""

    counts: tuple[int, int, int, int, int]
    pairs: int
    score: float
    variance: float
    elo: float
    elo_low: float
    elo_high: float


@dataclass(frozen=True)
class Sprt:
    """Where a GSPRT stands: the log-likelihood ratio, the bounds it stops
    at, and the decision ('H1': elo1 accepted, 'H0': elo0 accepted, or
    'continue'; always 'continue' under 10 pairs)."""

    llr: float
    lower: float
    upper: float
    decision: Literal["H0", "H1", "continue"]


@dataclass(frozen=True)
class Coefficient:
    """A logistic-regression coefficient: estimate, sandwich (HC0) standard
    error, 95% normal interval, z statistic and two-sided p-value."""

    estimate: float
    se: float
    low: float
    high: float
    z: float
    pvalue: float


@dataclass(frozen=True)
class Bootstrap:
    """A percentile bootstrap: the statistic of the data, the interval of
    its replicates, their standard deviation, and how they were drawn."""

    estimate: float
    low: float
    high: float
    std_error: float
    resamples: int
    seed: int


def _sample(values: Sample, name: str) -> np.ndarray:
    """``values`` as a 1-D float64 array; ValueError for anything else."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be a sequence of numbers: {error}") from None
    if array.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, not of shape {array.shape}")
    return array


def _int(value: int, name: str, low: int, high: int) -> int:
    """``value`` as an int in [low, high]; ValueError otherwise (bools
    refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= int(value) <= high:
        raise ValueError(f"{name} must be an int from {low} to {high}, not {value}")
    return int(value)


def _counts(counts: Sequence[int]) -> list[int]:
    counts = list(counts)
    if len(counts) != 5:
        raise ValueError(
            f"counts must be 5 numbers of pairs (totals 0, 1/2, 1, 3/2, 2), not {len(counts)}"
        )
    return [_int(c, "counts", 0, 2**32 - 1) for c in counts]


def normal_cdf(x: float) -> float:
    """P(Z <= x) for a standard normal Z (relative error about 1e-13)."""
    return _core.stats_normal_cdf(float(x))


def normal_sf(x: float) -> float:
    """P(Z > x), accurate far in the tail (no 1 - cdf cancellation)."""
    return _core.stats_normal_sf(float(x))


def normal_quantile(p: float) -> float:
    """The standard normal quantile of p, as ``scipy.stats.norm.ppf``."""
    return _core.stats_normal_quantile(float(p))


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with df > 0 degrees of freedom (real)."""
    return _core.stats_t_cdf(float(t), float(df))


def t_quantile(p: float, df: float) -> float:
    """The quantile of p for Student's t with df degrees of freedom."""
    return _core.stats_t_quantile(float(p), float(df))


def wilson(successes: float, n: int, confidence: float = 0.95) -> Wilson:
    """Wilson's score interval of ``successes`` out of ``n`` trials at a
    two-sided ``confidence``. ``successes`` may be fractional (a game's
    score: a draw is half a win), as statsmodels'
    ``proportion_confint(successes, n, alpha=1 - confidence,
    method='wilson')`` allows."""
    estimate, low, high = _core.stats_wilson(
        float(successes), _int(n, "n", 1, 2**63 - 1), float(confidence)
    )
    return Wilson(estimate, low, high)


def mean(values: Sample, proportion: bool = False) -> Mean:
    """The claims' mean of per-game values with its standard error and 95%
    interval: Wilson's for a ``proportion`` (values in [0, 1]), else the
    normal one."""
    n, m, se, low, high = _core.stats_mean(_sample(values, "values"), bool(proportion))
    return Mean(n, m, se, low, high)


def welch(a: Sample, b: Sample, confidence: float = 0.95) -> Welch:
    """Welch's t-test of mean(a) - mean(b) for independent samples of
    possibly unequal variance (at least 2 values each), with the interval
    at ``confidence``: ``scipy.stats.ttest_ind(a, b, equal_var=False)`` and
    its ``confidence_interval(confidence)``."""
    difference, se, statistic, df, pvalue, low, high = _core.stats_welch(
        _sample(a, "a"), _sample(b, "b"), float(confidence)
    )
    return Welch(difference, low, high, statistic, df, pvalue, se)


def ttest_1samp(values: Sample, reference: float = 0.0, confidence: float = 0.95) -> OneSample:
    """The one-sample t-test of mean(values) = ``reference`` (at least 2
    values), with the interval at ``confidence``:
    ``scipy.stats.ttest_1samp(values, reference)``. Constant values have
    no spread: the interval is the point and the p-value 0 (1 when the
    mean is the reference)."""
    sample = _sample(values, "values")
    if len(sample) < 2:
        raise ValueError(f"values: at least 2 are needed, got {len(sample)}")
    n = len(sample)
    difference = float(sample.mean()) - float(reference)
    error = float(sample.std(ddof=1)) / math.sqrt(n)
    df = float(n - 1)
    if error == 0:
        pvalue = 1.0 if difference == 0 else 0.0
        statistic = math.copysign(math.inf, difference) if difference else 0.0
        return OneSample(difference, difference, difference, statistic, df, pvalue, 0.0)
    half = t_quantile(0.5 + confidence / 2, df) * error
    statistic = difference / error
    pvalue = 2 * t_cdf(-abs(statistic), df)
    return OneSample(difference, difference - half, difference + half, statistic, df, pvalue, error)


def welch_z(a: Sample, b: Sample) -> Difference:
    """The claims' test of mean(a) - mean(b): Welch's statistic referred to
    the normal distribution, with a 95% normal interval (``welch`` is the
    t-test; the two agree for the hundreds of games a claim plays)."""
    difference, low, high, z, pvalue = _core.stats_welch_z(_sample(a, "a"), _sample(b, "b"))
    return Difference(difference, low, high, z, pvalue)


def elo(score: float) -> float:
    """The Elo difference ``400 log10(s / (1 - s))`` of a mean score in
    [0, 1]; ``inf`` at 1 and ``-inf`` at 0."""
    return _core.stats_elo(float(score))


def score_of_elo(elo: float) -> float:
    """The expected score ``1 / (1 + 10^(-elo / 400))`` of a player ``elo``
    stronger."""
    return _core.stats_score_of_elo(float(elo))


def pentanomial(counts: Sequence[int]) -> Pentanomial:
    """The statistics of pair counts ``[0-2, 1/2-3/2, 1-1, 3/2-1/2, 2-0]``
    (``pair_counts`` makes them from pair totals), as the arena reports
    them."""
    checked = _counts(counts)
    pairs, score, variance, e, low, high = _core.stats_pentanomial(checked)
    return Pentanomial(
        (checked[0], checked[1], checked[2], checked[3], checked[4]),
        pairs,
        score,
        variance,
        e,
        low,
        high,
    )


def pair_counts(totals: Sample) -> tuple[int, int, int, int, int]:
    """The pentanomial counts of pair totals, each 0, 0.5, 1, 1.5 or 2 (a
    player's score over two games from one opening, colours swapped)."""
    c = _core.stats_pair_counts(_sample(totals, "totals"))
    return (c[0], c[1], c[2], c[3], c[4])


def sprt(
    counts: Sequence[int],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
) -> Sprt:
    """The GSPRT of "elo1 stronger" against "elo0" on pentanomial pair
    counts (normal approximation of the log-likelihood ratio over the
    regularized counts, as fishtest; docs/stats.md), with error rates
    ``alpha`` and ``beta``, each in (0, 0.5)."""
    llr, lower, upper, decision = _core.stats_sprt(
        _counts(counts), float(elo0), float(elo1), float(alpha), float(beta)
    )
    return Sprt(llr, lower, upper, decision)


def logistic(
    x: Union[Sequence[Sequence[float]], Sequence[float], np.ndarray],
    y: Sample,
    ridge: float = 0.0,
) -> tuple[Coefficient, ...]:
    """Quasi-binomial logistic regression ``logit E[y] = b0 + x . b`` of
    responses ``y`` in [0, 1] (fractional: a game's score) on predictors
    ``x`` (n rows of k predictors, or n values for one), **without** an
    intercept column: the intercept is added and is the first coefficient
    returned, then one per column of ``x``. Standard errors are the HC0
    sandwich, as statsmodels' ``GLM(y, add_constant(x),
    family=Binomial()).fit(cov_type='HC0')``. ``ridge`` > 0 adds the
    penalty ``ridge / 2 |b|^2`` on every coefficient but the intercept,
    which keeps separated data finite. ValueError when the predictors are
    collinear, the data separate (without a ridge) or there are no more
    rows than coefficients."""
    design = np.asarray(x, dtype=np.float64)
    if design.ndim == 1:
        design = design[:, None]
    if design.ndim != 2:
        raise ValueError(f"x must be one- or two-dimensional, not of shape {design.shape}")
    rows = _core.stats_logistic(np.ascontiguousarray(design), _sample(y, "y"), float(ridge))
    return tuple(Coefficient(*row) for row in rows)


def bootstrap(
    values: Sample,
    statistic: Literal["mean", "difference"] = "mean",
    *,
    other: Optional[Sample] = None,
    resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Bootstrap:
    """Seeded percentile bootstrap of the mean of ``values``, or with
    ``statistic='difference'`` of ``mean(values) - mean(other)`` (each
    sample resampled on its own). The interval is the replicates'
    percentiles, as ``scipy.stats.bootstrap(..., method='percentile')``;
    the same ``seed`` gives the same numbers everywhere (SplitMix64, not
    numpy's generator, so not scipy's draws)."""
    r = _int(resamples, "resamples", 2, 10_000_000)
    s = _int(seed, "seed", 0, 2**64 - 1)
    if statistic == "mean":
        if other is not None:
            raise ValueError("other is for statistic='difference'")
        result = _core.stats_bootstrap_mean(_sample(values, "values"), r, float(confidence), s)
    elif statistic == "difference":
        if other is None:
            raise ValueError("statistic='difference' needs the other sample (other=...)")
        result = _core.stats_bootstrap_difference(
            _sample(values, "values"), _sample(other, "other"), r, float(confidence), s
        )
    else:
        raise ValueError(f"statistic must be 'mean' or 'difference', not {statistic!r}")
    estimate, low, high, se, count = result
    return Bootstrap(estimate, low, high, se, count, s)


def power(
    score: float,
    games: float,
    *,
    other: Optional[float] = None,
    alpha: float = 0.05,
) -> float:
    """The power of the two-sided level-``alpha`` test of "score = 1/2" over
    ``games`` games when the true score is ``score``; with ``other``, of
    the test of two proportions ``score`` and ``other`` with ``games``
    games each. Normal approximation on the arcsine scale, as statsmodels'
    ``NormalIndPower`` with ``proportion_effectsize``."""
    if other is None:
        return _core.stats_power_of_score(float(score), float(games), float(alpha))
    return _core.stats_power_of_difference(
        float(score), float(other), float(games), float(alpha)
    )


def games_to_decide(
    score: float,
    *,
    other: Optional[float] = None,
    alpha: float = 0.05,
    power: float = 0.8,
) -> float:
    """The games at which the two-sided level-``alpha`` test of "score =
    1/2" has the given ``power`` when the true score is ``score``; with
    ``other``, the games on each side for the test of two proportions.
    A real number: round up. Draws make a score's variance smaller than
    the Bernoulli variance assumed, so with draws this is an upper bound.
    ``games_to_decide(score_of_elo(20))`` plans a match against a 20-Elo
    difference."""
    if other is None:
        return _core.stats_games_for_score(float(score), float(alpha), float(power))
    return _core.stats_games_for_difference(
        float(score), float(other), float(alpha), float(power)
    )


def games_for_effect(effect: float, variance: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """The games (per sample) at which the two-sided level-``alpha`` normal
    test of a mean has the given ``power`` when the true difference is
    ``effect`` and one game's variance is ``variance`` (both samples'
    summed, for a difference of two means): ``variance ((z_{1-alpha/2} +
    z_power) / effect)^2``. A real number: round up; inf for no effect."""
    if effect == 0:
        return math.inf
    z = normal_quantile(1 - alpha / 2) + normal_quantile(power)
    return float(variance) * (z / float(effect)) ** 2


def games_for_interval(half_width: float, sd: float = 0.5, confidence: float = 0.95) -> float:
    """The games for which the normal interval of a mean score at
    ``confidence`` has half-width ``half_width``, one game's standard
    deviation being ``sd`` (0.5, the default, bounds any score's):
    ``(z sd / half_width)^2``."""
    return _core.stats_games_for_half_width(float(half_width), float(sd), float(confidence))
