"""heterodox.stats against scipy and statsmodels on the same data.

Where the method is the same the numbers must agree to 1e-6 (most agree to
1e-12); the comment above each comparison records the largest difference
measured on this data (scipy 1.17.1, statsmodels 0.15.0), which
docs/stats.md reports. The SPRT and pentanomial Elo are checked against
values published by fastchess (Disservin/fastchess, app/tests/sprt_test.cpp
and app/tests/elo_test.cpp) and against the module's formula recomputed
here with numpy.
"""

import math

import numpy as np
import pytest
import scipy.optimize
import scipy.stats
import statsmodels.api as sm
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize

import heterodox.stats as hs

RNG = np.random.default_rng(20240611)


def game_scores(n, p_win, p_draw, rng=RNG):
    """n game scores (1, 1/2, 0) with the given win and draw rates."""
    u = rng.random(n)
    return np.where(u < p_win, 1.0, np.where(u < p_win + p_draw, 0.5, 0.0))


def max_relative(ours, theirs):
    ours, theirs = np.asarray(ours, float), np.asarray(theirs, float)
    return float(np.max(np.abs(ours - theirs) / np.maximum(np.abs(theirs), 1e-300)))


# --- the normal and t distributions ------------------------------------------


def test_normal_against_scipy():
    x = np.linspace(-37.0, 8.0, 4501)
    # Largest relative difference measured: cdf 2.3e-13, sf 2.3e-13.
    assert max_relative([hs.normal_cdf(v) for v in x], scipy.stats.norm.cdf(x)) < 1e-12
    assert max_relative([hs.normal_sf(v) for v in -x], scipy.stats.norm.sf(-x)) < 1e-12
    p = np.concatenate([10.0 ** -np.arange(1, 300, 7.0), np.linspace(0.001, 0.999, 999)])
    # Largest relative difference measured vs norm.ppf: 7.7e-16 (AS 241).
    assert max_relative([hs.normal_quantile(v) for v in p], scipy.stats.norm.ppf(p)) < 1e-13
    assert hs.normal_quantile(0.0) == -math.inf and hs.normal_quantile(1.0) == math.inf
    assert abs(hs.normal_quantile(0.975) - 1.959963984540054) < 1e-15


def test_t_against_scipy():
    t = np.linspace(-60.0, 60.0, 241)
    worst_cdf = worst_ppf = 0.0
    for df in [0.6, 1.0, 2.5, 7.3, 30.0, 1234.5, 1e5]:
        ours = np.array([hs.t_cdf(v, df) for v in t])
        theirs = scipy.stats.t.cdf(t, df)
        # Relative to the smaller tail, where a p-value lives.
        tail = np.minimum(theirs, 1 - theirs)
        keep = tail > 1e-300
        worst_cdf = max(worst_cdf, float(np.max(np.abs(ours - theirs)[keep] / tail[keep])))
        p = np.array([1e-12, 1e-6, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.999999])
        worst_ppf = max(
            worst_ppf,
            max_relative([hs.t_quantile(v, df) for v in p if v != 0.5], scipy.stats.t.ppf(p[p != 0.5], df)),
        )
    # Largest relative differences measured: cdf 1.0e-11 (at 1e5 df; about
    # 1e-13 below 1e3 df), ppf 6.9e-12.
    assert worst_cdf < 1e-10
    assert worst_ppf < 1e-10


# --- a proportion -------------------------------------------------------------


def test_wilson_against_statsmodels():
    worst = 0.0
    for n in [1, 2, 7, 40, 333, 10_000]:
        for successes in sorted({0.0, 0.5, n / 3, n / 2, n - 0.5, float(n)}):
            if successes > n:
                continue
            for confidence in [0.8, 0.95, 0.99]:
                w = hs.wilson(successes, n, confidence)
                low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
                # statsmodels leaves rounding at the bounds 0 and 1 (-1e-17);
                # ours says 0 and 1 exactly.
                low, high = min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0)
                worst = max(worst, abs(w.low - low), abs(w.high - high))
                assert w.estimate == successes / n
    # Largest absolute difference measured: 2.2e-16.
    assert worst < 1e-12


# --- means ------------------------------------------------------------------------


def test_welch_against_scipy():
    worst = {"statistic": 0.0, "df": 0.0, "pvalue": 0.0, "interval": 0.0}
    cases = [
        (game_scores(12, 0.5, 0.2), game_scores(9, 0.3, 0.4)),
        (game_scores(300, 0.45, 0.3), game_scores(250, 0.4, 0.3)),
        (RNG.normal(0.0, 1.0, 5), RNG.normal(2.0, 3.0, 40)),
        (RNG.normal(10.0, 0.1, 2), RNG.normal(10.1, 5.0, 3)),
        (RNG.normal(0.0, 1.0, 4000), RNG.normal(0.05, 1.2, 3000)),
    ]
    for a, b in cases:
        for confidence in [0.9, 0.95, 0.999]:
            ours = hs.welch(a, b, confidence)
            theirs = scipy.stats.ttest_ind(a, b, equal_var=False)
            ci = theirs.confidence_interval(confidence)
            worst["statistic"] = max(worst["statistic"], abs(ours.statistic - theirs.statistic))
            worst["df"] = max(worst["df"], abs(ours.df - theirs.df) / theirs.df)
            worst["pvalue"] = max(worst["pvalue"], abs(ours.pvalue - theirs.pvalue))
            worst["interval"] = max(
                worst["interval"], abs(ours.low - ci.low), abs(ours.high - ci.high)
            )
            assert abs(ours.difference - (a.mean() - b.mean())) < 1e-12
    # Largest differences measured: statistic 5.3e-15, df 1.6e-15
    # (relative), p-value 2.5e-16, interval bounds 1.8e-12.
    assert worst["statistic"] < 1e-10, worst
    assert worst["df"] < 1e-10, worst
    assert worst["pvalue"] < 1e-10, worst
    assert worst["interval"] < 1e-10, worst


def test_welch_z_and_mean_are_the_claims():
    a, b = game_scores(200, 0.5, 0.3), game_scores(150, 0.35, 0.3)
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    d = hs.welch_z(a, b)
    assert abs(d.difference - (a.mean() - b.mean())) < 1e-12
    assert abs(d.statistic - d.difference / se) < 1e-12
    assert abs(d.low - (d.difference - 1.959963984540054 * se)) < 1e-12
    # The claims' p-value uses Numerical Recipes' normal fit: difference
    # from 2 norm.sf(|z|) measured 7.7e-11 here (2.4e-7 at most).
    assert abs(d.pvalue - 2 * scipy.stats.norm.sf(abs(d.statistic))) < 1e-6
    m = hs.mean(a, proportion=True)
    assert m.n == a.size and abs(m.mean - a.mean()) < 1e-15
    assert abs(m.std_error - a.std(ddof=1) / math.sqrt(a.size)) < 1e-15
    w = hs.wilson(a.sum(), a.size)
    assert abs(m.low - w.low) < 1e-15 and abs(m.high - w.high) < 1e-15
    normal = hs.mean(RNG.normal(size=30))
    assert abs(normal.high - normal.mean - 1.959963984540054 * normal.std_error) < 1e-12


# --- Elo, pairs and the SPRT ------------------------------------------------------


def test_elo():
    assert hs.elo(0.5) == 0.0
    assert abs(hs.elo(10 / 11) - 400.0) < 1e-9
    assert hs.elo(1.0) == math.inf and hs.elo(0.0) == -math.inf
    for e in [-500.0, -3.0, 42.0, 300.0]:
        assert abs(hs.score_of_elo(e) - 1 / (1 + 10 ** (-e / 400))) < 1e-15
        assert abs(hs.elo(hs.score_of_elo(e)) - e) < 1e-9


def numpy_pentanomial(counts, epsilon=1e-3):
    """Mean score, per-pair variance, and both with fishtest's pseudo-count
    for empty bins: the formulas of heterodox_stats::pentanomial."""
    scores = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    c = np.asarray(counts, float)
    mean = (scores * c).sum() / c.sum()
    variance = ((scores - mean) ** 2 * c).sum() / c.sum()
    r = np.where(c == 0, epsilon, c)
    r_mean = (scores * r).sum() / r.sum()
    r_variance = ((scores - r_mean) ** 2 * r).sum() / r.sum()
    return mean, variance, r_mean, r_variance


# fastchess' published "EloPentanomial" cases: Stats(LL, LD, WL, DD, WD, WW),
# diff() and error() to 2 decimals (WL and DD share the pair total 1).
FASTCHESS_ELO = [
    ([34, 54, 31 + 32, 64, 75], 55.58, 27.65),
    ([332, 433, 457 + 41, 333, 334], -8.64, 10.33),
    ([7895, 8757, 5485 + 200, 568, 9999], -21.04, 2.95),
]


@pytest.mark.parametrize("counts, diff, error", FASTCHESS_ELO)
def test_pentanomial_against_fastchess(counts, diff, error):
    p = hs.pentanomial(counts)
    assert p.pairs == sum(counts)
    # Measured: 55.5798 / 27.6534, -8.6427 / 10.3342, -21.0435 / 2.9453.
    assert abs(p.elo - diff) < 0.005
    assert abs((p.elo_high - p.elo_low) / 2 - error) < 0.005
    mean, variance, _, _ = numpy_pentanomial(counts)
    assert abs(p.score - mean) < 1e-15 and abs(p.variance - variance) < 1e-15
    half = 1.959963984540054 * math.sqrt(variance / sum(counts))
    assert abs(p.elo_low - hs.elo(mean - half)) < 1e-9


def test_pentanomial_edges_and_pair_counts():
    sweep = hs.pentanomial([0, 0, 0, 0, 20])
    assert sweep.score == 1.0 and sweep.elo == math.inf and sweep.elo_high == math.inf
    assert abs(sweep.elo_low - 948.2057573233492) < 1e-6
    assert hs.pair_counts([2, 1, 1.5, 1, 0, 0.5]) == (1, 1, 2, 1, 1)
    with pytest.raises(ValueError, match="one of 0, 0.5, 1, 1.5 and 2"):
        hs.pair_counts([0.75])


# fastchess' published "logistic pentanomial" cases (the exact GSPRT LLR to 2
# decimals, alpha = beta = 0.05).
FASTCHESS_SPRT = [
    ([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, -3.07),
    ([871, 26175, 55003 + 980, 26678, 821], 0.0, 2.0, -4.98),
]


@pytest.mark.parametrize("counts, elo0, elo1, llr", FASTCHESS_SPRT)
def test_sprt_against_fastchess(counts, elo0, elo1, llr):
    s = hs.sprt(counts, elo0, elo1)
    # The normal approximation lands within fastchess' rounding: measured
    # -3.0743 and -4.9782 (largest difference 0.0043).
    assert abs(s.llr - llr) < 0.005
    assert s.decision == "H0"


def test_sprt_against_the_formula():
    """The LLR of heterodox_stats::sprt's module docs, recomputed with numpy
    over the regularized counts: N (s1 - s0) (2 s - s0 - s1) / (2 v)."""
    cases = [
        ([50, 150, 400, 250, 150], 0.0, 10.0),
        ([300, 600, 1200, 600, 300], 0.0, 10.0),
        ([0, 0, 0, 0, 3], 0.0, 10.0),
        ([12, 130, 260, 141, 9], -3.0, 1.0),
        ([1, 2, 0, 5, 7], 0.0, 50.0),
    ]
    worst = 0.0
    for counts, elo0, elo1 in cases:
        _, _, s, v = numpy_pentanomial(counts)
        s0, s1 = 1 / (1 + 10 ** (-elo0 / 400)), 1 / (1 + 10 ** (-elo1 / 400))
        llr = sum(counts) * (s1 - s0) * (2 * s - s0 - s1) / (2 * v)
        result = hs.sprt(counts, elo0, elo1, alpha=0.05, beta=0.1)
        worst = max(worst, abs(result.llr - llr) / abs(llr))
        assert abs(result.lower - math.log(0.1 / 0.95)) < 1e-15
        assert abs(result.upper - math.log(0.9 / 0.05)) < 1e-15
    # Largest relative difference measured: 0 (the same operations).
    assert worst < 1e-12
    assert hs.sprt([50, 150, 400, 250, 150], 0, 10).decision == "H1"
    assert hs.sprt([300, 600, 1200, 600, 300], 0, 10).decision == "H0"
    # Under 10 pairs the test never decides.
    assert hs.sprt([0, 0, 0, 0, 3], 0, 10).decision == "continue"


# --- regression -----------------------------------------------------------------


def regression_data(n, k, rng):
    x = rng.normal(size=(n, k))
    beta = np.linspace(-0.8, 0.8, k)
    p = 1 / (1 + np.exp(-(0.3 + x @ beta)))
    u = rng.random(n)
    # Fractional scores: win, draw, loss around the logistic mean.
    y = np.where(u < p * 0.8, 1.0, np.where(u < p * 0.8 + 0.3, 0.5, 0.0))
    return x, y


def test_logistic_against_statsmodels_hc0():
    worst = {"estimate": 0.0, "se": 0.0, "z": 0.0, "pvalue": 0.0}
    for n, k in [(60, 1), (400, 3), (2000, 5)]:
        x, y = regression_data(n, k, RNG)
        ours = hs.logistic(x, y)
        glm = sm.GLM(y, sm.add_constant(x), family=sm.families.Binomial())
        fit = glm.fit(cov_type="HC0", tol=1e-13)
        for c, estimate, se, z, p in zip(ours, fit.params, fit.bse, fit.tvalues, fit.pvalues):
            worst["estimate"] = max(worst["estimate"], abs(c.estimate - estimate))
            worst["se"] = max(worst["se"], abs(c.se - se) / se)
            worst["z"] = max(worst["z"], abs(c.z - z))
            worst["pvalue"] = max(worst["pvalue"], abs(c.pvalue - p))
        # The sandwich by hand: HC0, no small-sample factor (an HC1 would
        # scale it by n / (n - k - 1)). statsmodels' GLM and Logit return
        # this same matrix for cov_type 'HC1' to 'HC3' too (they apply no
        # leverage or degrees-of-freedom correction to a GLM), so 'HC0' is
        # the name that describes ours.
        design = sm.add_constant(x)
        mu = 1 / (1 + np.exp(-(design @ fit.params)))
        bread = np.linalg.inv(design.T @ (design * (mu * (1 - mu))[:, None]))
        meat = design.T @ (design * ((y - mu) ** 2)[:, None])
        by_hand = np.sqrt(np.diag(bread @ meat @ bread))
        assert max_relative([c.se for c in ours], by_hand) < 1e-9
    # Largest differences measured: estimates 7.8e-16, standard errors
    # 1.1e-15 (relative; 1.3e-15 from the sandwich by hand), z 2.8e-14,
    # p-values 4.6e-8 (the claims' normal fit; 2.4e-7 at most).
    assert worst["estimate"] < 1e-9, worst
    assert worst["se"] < 1e-9, worst
    assert worst["z"] < 1e-9, worst
    assert worst["pvalue"] < 1e-6, worst


def test_logistic_ridge_solves_the_penalized_equations():
    x, y = regression_data(80, 2, RNG)
    ridge = 3.0
    design = sm.add_constant(x)

    def objective(beta):
        eta = design @ beta
        loglik = (y * eta - np.logaddexp(0.0, eta)).sum()
        return -loglik + ridge / 2 * (beta[1:] ** 2).sum()

    def gradient(beta):
        mu = 1 / (1 + np.exp(-(design @ beta)))
        g = -(design.T @ (y - mu))
        g[1:] += ridge * beta[1:]
        return g

    best = scipy.optimize.minimize(objective, np.zeros(3), jac=gradient, method="BFGS", options={"gtol": 1e-12})
    ours = np.array([c.estimate for c in hs.logistic(x, y, ridge=ridge)])
    # Largest difference measured from scipy's minimiser: 1.4e-12.
    assert np.max(np.abs(ours - best.x)) < 1e-6
    # Separated data: no estimate without a ridge, a finite one with it.
    sep_x, sep_y = np.arange(6.0), np.array([0, 0, 0, 1, 1, 1.0])
    with pytest.raises(ValueError, match="did not converge"):
        hs.logistic(sep_x, sep_y)
    assert 0.5 < hs.logistic(sep_x, sep_y, ridge=0.25)[1].estimate < 5


# --- bootstrap --------------------------------------------------------------------


def test_bootstrap_is_deterministic_and_matches_scipy():
    a, b = game_scores(150, 0.45, 0.3), game_scores(120, 0.35, 0.3)
    first = hs.bootstrap(a, resamples=20_000, seed=7)
    assert first == hs.bootstrap(a, resamples=20_000, seed=7)
    assert first != hs.bootstrap(a, resamples=20_000, seed=8)
    theirs = scipy.stats.bootstrap(
        (a,), np.mean, n_resamples=20_000, method="percentile", rng=np.random.default_rng(1)
    )
    se = a.std(ddof=1) / math.sqrt(a.size)
    # Two Monte-Carlo estimates of the same percentiles, each with a
    # standard deviation of about 0.02 se; and scores are halves, so the
    # means of 150 of them lie on a grid of 1/300 = 0.1 se. Differences
    # measured: one grid step, 0.10 se (bounds), 1.2% (standard error).
    assert abs(first.low - theirs.confidence_interval.low) / se < 0.25
    assert abs(first.high - theirs.confidence_interval.high) / se < 0.25
    assert abs(first.std_error / theirs.standard_error - 1) < 0.03
    assert abs(first.estimate - a.mean()) < 1e-15

    diff = hs.bootstrap(a, "difference", other=b, resamples=20_000, seed=3)
    assert diff == hs.bootstrap(a, "difference", other=b, resamples=20_000, seed=3)
    theirs = scipy.stats.bootstrap(
        (a, b),
        lambda u, v, axis=-1: u.mean(axis=axis) - v.mean(axis=axis),
        n_resamples=20_000,
        method="percentile",
        rng=np.random.default_rng(2),
    )
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    # Largest difference measured: 0.033 se (bounds), 0.8% (standard error).
    assert abs(diff.low - theirs.confidence_interval.low) / se < 0.25
    assert abs(diff.high - theirs.confidence_interval.high) / se < 0.25
    assert abs(diff.std_error / theirs.standard_error - 1) < 0.03
    assert abs(diff.estimate - (a.mean() - b.mean())) < 1e-15


# --- power ------------------------------------------------------------------------


def test_one_sample_t_against_scipy():
    # Largest differences measured: statistic 0, p-value 1.1e-16, bounds
    # 2.2e-16 (the same t distribution as welch).
    rng = np.random.default_rng(5)
    for n, reference in [(4, 0.5), (7, 0.5), (40, 0.3), (500, 0.52)]:
        values = rng.choice([0.0, 0.5, 1.0], size=n, p=[0.3, 0.2, 0.5])
        ours = hs.ttest_1samp(values, reference)
        theirs = scipy.stats.ttest_1samp(values, reference)
        interval = theirs.confidence_interval(0.95)
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-15)
        assert ours.df == n - 1
        assert ours.low + reference == pytest.approx(interval.low, abs=1e-9)
        assert ours.high + reference == pytest.approx(interval.high, abs=1e-9)
    flat = hs.ttest_1samp([1.0, 1.0, 1.0], 0.5)
    assert (flat.difference, flat.low, flat.high, flat.pvalue) == (0.5, 0.5, 0.5, 0.0)
    assert hs.ttest_1samp([0.5, 0.5], 0.5).pvalue == 1.0
    with pytest.raises(ValueError, match="at least 2 are needed, got 1"):
        hs.ttest_1samp([1.0], 0.5)


def test_games_for_effect_against_statsmodels():
    # The normal test of a mean with a known spread: statsmodels' power of
    # the z-test at effect size effect / sd (one sample: ratio 0). Its power
    # also counts rejections in the far tail, which the closed form leaves
    # out: largest difference measured 2.4e-6 relative.
    analysis = NormalIndPower()
    for effect, variance in [(0.1, 0.2), (0.05, 0.125), (-0.3, 0.25)]:
        ours = hs.games_for_effect(effect, variance)
        theirs = analysis.solve_power(abs(effect) / math.sqrt(variance), alpha=0.05, power=0.8, ratio=0)
        assert ours == pytest.approx(theirs, rel=1e-5)
        z = scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)
        assert ours == pytest.approx(variance * (z / effect) ** 2, rel=1e-12)
    assert hs.games_for_effect(0.0, 0.25) == math.inf


def test_power_against_statsmodels():
    analysis = NormalIndPower()
    worst_games = worst_power = 0.0
    for score in [0.52, 0.55, 0.65, 0.3]:
        h = proportion_effectsize(score, 0.5)
        for alpha, power in [(0.05, 0.8), (0.01, 0.9), (0.1, 0.5)]:
            ours = hs.games_to_decide(score, alpha=alpha, power=power)
            theirs = analysis.solve_power(h, alpha=alpha, power=power, ratio=0)
            worst_games = max(worst_games, abs(ours - theirs) / theirs)
            got = hs.power(score, ours, alpha=alpha)
            worst_power = max(worst_power, abs(got - analysis.power(h, ours, alpha, ratio=0)))
            assert abs(got - power) < 1e-12
    for p1, p2 in [(0.55, 0.5), (0.3, 0.45)]:
        h = proportion_effectsize(p1, p2)
        ours = hs.games_to_decide(p1, other=p2)
        theirs = analysis.solve_power(h, alpha=0.05, power=0.8, ratio=1)
        worst_games = max(worst_games, abs(ours - theirs) / theirs)
        worst_power = max(
            worst_power, abs(hs.power(p1, 500, other=p2) - analysis.power(h, 500, 0.05, ratio=1))
        )
    # Largest differences measured: games 1.4e-7 (relative; statsmodels'
    # own solver stops there: ours solves to the last bit), power 2.8e-16.
    assert worst_games < 1e-6
    assert worst_power < 1e-12
    # Closed form of the interval: (z sd / h)^2.
    z = scipy.stats.norm.ppf(0.975)
    assert abs(hs.games_for_interval(0.05) - (z * 0.5 / 0.05) ** 2) < 1e-9
    z99 = scipy.stats.norm.ppf(0.995)
    assert abs(hs.games_for_interval(0.02, sd=0.4, confidence=0.99) - (z99 * 0.4 / 0.02) ** 2) < 1e-8


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: hs.wilson(5, 0), "n must be an int from 1"),
        (lambda: hs.wilson(11, 10), "successes must be between 0"),
        (lambda: hs.wilson(5, 10, confidence=1.0), "confidence must be in"),
        (lambda: hs.wilson(math.nan, 10), "successes"),
        (lambda: hs.welch([1.0], [1.0, 2.0]), "a needs at least 2 values"),
        (lambda: hs.welch([1.0, math.nan], [1.0, 2.0]), "finite"),
        (lambda: hs.welch([1.0, 1.0], [2.0, 2.0]), "constant"),
        (lambda: hs.welch([[1.0, 2.0]], [1.0, 2.0]), "one-dimensional"),
        (lambda: hs.welch(["x", "y"], [1.0, 2.0]), "sequence of numbers"),
        (lambda: hs.mean([]), "at least 1 value"),
        (lambda: hs.mean([0.5, 2.0], proportion=True), r"\[0, 1\]"),
        (lambda: hs.elo(1.5), "score must be in"),
        (lambda: hs.score_of_elo(math.inf), "finite"),
        (lambda: hs.pentanomial([1, 2, 3]), "5 numbers"),
        (lambda: hs.pentanomial([1, -2, 3, 4, 5]), "counts must be an int"),
        (lambda: hs.pentanomial([0, 0, 0, 0, 0]), "no pairs"),
        (lambda: hs.pentanomial([2**31, 2**31, 0, 0, 0]), "at most"),
        (lambda: hs.sprt([1, 2, 3, 4, 5], 10, 0), "below elo1"),
        (lambda: hs.sprt([1, 2, 3, 4, 5], 0, 10, alpha=0.5), "alpha"),
        (lambda: hs.logistic([[1.0], [2.0]], [0.0, 1.0, 1.0]), "rows but y has"),
        (lambda: hs.logistic([[1.0], [2.0], [3.0]], [0.0, 2.0, 1.0]), r"y must be in \[0, 1\]"),
        (lambda: hs.logistic([[1.0], [2.0]], [0.0, 1.0]), "more games than its 2"),
        (lambda: hs.logistic([[1.0], [1.0], [1.0]], [0.0, 1.0, 0.5]), "collinear"),
        (lambda: hs.logistic([[1.0], [2.0], [3.0]], [0.0, 1.0, 0.5], ridge=-1), "ridge"),
        (lambda: hs.logistic(np.zeros((3, 2, 2)), [0.0, 1.0, 0.5]), "two-dimensional"),
        (lambda: hs.bootstrap([], seed=1), "at least 1"),
        (lambda: hs.bootstrap([1.0], resamples=1), "resamples must be an int from 2"),
        (lambda: hs.bootstrap([1.0], seed=-1), "seed"),
        (lambda: hs.bootstrap([1.0] * 1000, resamples=10_000_000), "draws"),
        (lambda: hs.bootstrap([1.0], "median"), "statistic must be"),
        (lambda: hs.bootstrap([1.0], "difference"), "needs the other sample"),
        (lambda: hs.games_to_decide(0.5), "equal proportions"),
        (lambda: hs.games_to_decide(0.6, power=0.01), "power must be above alpha"),
        (lambda: hs.power(0.6, 0), "games must be positive"),
        (lambda: hs.games_for_interval(0.0), "half_width"),
        (lambda: hs.normal_quantile(2.0), "p must be in"),
        (lambda: hs.t_quantile(0.5, 0.0), "df must be positive"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_results_are_frozen_and_typed():
    w = hs.wilson(3, 10)
    with pytest.raises(AttributeError):
        w.low = 0.0  # type: ignore[misc]
    fit = hs.logistic(np.arange(10.0), [0, 1, 0, 0, 1, 0, 1, 1, 0, 1.0])
    assert len(fit) == 2 and all(isinstance(c, hs.Coefficient) for c in fit)
    assert isinstance(hs.sprt([1, 2, 3, 4, 5], 0, 5).decision, str)
