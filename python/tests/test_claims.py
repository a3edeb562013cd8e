"""heterodox.Claim: conditions, measure, test and verdict, checked against
scipy on the same values; the report directory; claim files."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

import heterodox
from heterodox import Claim, Condition
from heterodox.claims import STRONG_ENOUGH

REPO = Path(__file__).resolve().parents[2]
# Values a measure gives, whatever the games: the verdict's arithmetic is
# then checked against scipy on known numbers.
HIGH = [0.9, 0.8, 1.0, 0.7, 0.9, 0.8]
MIDDLE = [0.6, 0.4, 0.5, 0.7, 0.3, 0.6]


def fixed(values):
    def measure(games):
        assert len(games) == len(values)
        return values

    return measure


def claim(measure, conditions=None, predicted="greater"):
    return Claim(
        name="test-claim",
        hypothesis="a test",
        source="the tests",
        conditions=conditions or [Condition("chess", opening_plies=4)],
        measure=measure,
        predicted=predicted,
        calibration=("random",),
    )


def run(c, agents="ab@2", games=6, **kwargs):
    return c.run(agents=agents, games=games, seed=3, calibration_games=6, progress=False, **kwargs)


def test_one_condition_is_the_t_test_against_the_reference():
    verdict = run(claim(fixed(HIGH)))
    expected = scipy.stats.ttest_1samp(HIGH, 0.5)
    interval = expected.confidence_interval(0.95)
    assert verdict.verdict == "supports"
    assert verdict.estimate == pytest.approx(np.mean(HIGH) - 0.5, abs=1e-12)
    assert verdict.pvalue == pytest.approx(expected.pvalue, rel=1e-9)
    assert (verdict.low, verdict.high) == pytest.approx((interval.low - 0.5, interval.high - 0.5), abs=1e-9)
    assert verdict.games == verdict.counted == {"chess": 6}
    assert run(claim(fixed(HIGH), predicted="less")).verdict == "contradicts"
    # The agent's calibration: 6 wins of 6 against random play clear the bar.
    (row,) = verdict.strength
    assert (row["agent"], row["opponent"], row["games"], row["score"]) == ("ab@2", "random", 6, 1.0)
    assert row["low"] == pytest.approx(6 / (6 + 1.959963984540054**2), abs=1e-9) and row["low"] >= STRONG_ENOUGH


def test_an_undecided_claim_says_how_many_games_would_decide():
    verdict = run(claim(fixed(MIDDLE)))
    assert verdict.verdict == "inconclusive"
    z = scipy.stats.norm.ppf(0.975) + scipy.stats.norm.ppf(0.8)
    effect = np.mean(MIDDLE) - 0.5
    assert verdict.games_to_decide == math.ceil(np.var(MIDDLE, ddof=1) * (z / effect) ** 2)
    assert f"about {verdict.games_to_decide} games per condition would decide" in verdict.conclusion


def test_two_conditions_are_welch_s_difference():
    conditions = [Condition("hostage", opening_plies=4), Condition("chess", opening_plies=4)]
    values = iter([HIGH, MIDDLE])
    verdict = run(claim(lambda games: next(values), conditions))
    expected = scipy.stats.ttest_ind(HIGH, MIDDLE, equal_var=False)
    interval = expected.confidence_interval(0.95)
    assert verdict.verdict == "supports"
    assert verdict.estimate == pytest.approx(np.mean(HIGH) - np.mean(MIDDLE), abs=1e-12)
    assert verdict.pvalue == pytest.approx(expected.pvalue, rel=1e-9)
    assert (verdict.low, verdict.high) == pytest.approx((interval.low, interval.high), abs=1e-9)
    assert verdict.means == pytest.approx({"hostage": np.mean(HIGH), "chess": np.mean(MIDDLE)})


def test_weak_agents_get_no_verdict():
    verdict = run(claim(fixed(HIGH)), agents="random")
    assert verdict.verdict == "agents too weak"
    assert "random scores" in verdict.conclusion and "under 60%" in verdict.conclusion


def test_a_repeated_game_counts_once():
    # A deterministic engine playing itself from the start, no random
    # plies: every game is the first one.
    repeated = run(claim("white_score", [Condition("chess", opening_plies=0)]), agents="ab@1")
    assert repeated.games == {"chess": 6} and repeated.counted == {"chess": 1}
    assert repeated.verdict == "inconclusive" and math.isnan(repeated.estimate)
    assert repeated.conclusion == "Inconclusive: fewer than 2 games counted in chess."
    # Seeded variety on the first 4 plies, any move within 10 pawns: the
    # games differ, and each is counted.
    varied = run(claim("white_score", [Condition("chess", opening_plies=0)]), agents="ab@1/vary=4:1000", games=8)
    played = heterodox.play("chess", "ab@1/vary=4:1000", 8, opening_plies=0, seed=3, progress=False)
    distinct = played.to_pandas().drop_duplicates(subset=["start", "moves"])
    assert varied.games == {"chess": 8} and varied.counted == {"chess": len(distinct)} and len(distinct) > 1


def test_the_report_directory(tmp_path):
    out = tmp_path / "report"
    verdict = run(claim("white_score"), out=out, agents=["ab@2", "greedy"])
    assert sorted(p.name for p in out.iterdir()) == ["claim.json", "games.csv", "games.pgn", "summary.md"]
    summary = (out / "summary.md").read_text()
    assert summary.startswith(f"# test-claim: {verdict.verdict}\n")
    assert "| ab@2 | random | 6 | " in summary and "| greedy | random | 6 | " in summary
    saved = json.loads((out / "claim.json").read_text())
    assert saved["verdict"]["verdict"] == verdict.verdict and saved["agents"] == ["ab@2", "greedy"]
    assert saved["measure"] == "white_score" and saved["reference"] == 0.5
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 6
    assert (out / "games.pgn").read_text().count("[Event ") == 6
    # Written again over itself: a report directory is replaced whole.
    run(claim("white_score"), out=out, agents=["ab@2", "greedy"])
    (out / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="notes.txt"):
        run(claim("white_score"), out=out, agents=["ab@2", "greedy"])


def test_a_claim_file_runs_from_the_command_line(tmp_path):
    path = tmp_path / "my_claim.py"
    path.write_text(
        "from heterodox import Claim, Condition\n"
        "claim = Claim(name='white-in-poison', hypothesis='White scores more than half',\n"
        "              source='a test', conditions=[Condition('poison')], calibration=('random',))\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "heterodox.claims", path, "--agents", "ab@2", "--games", "6",
         "--calibration-games", "6", "--quiet", "--out", tmp_path / "report"],
        capture_output=True, text=True, check=True,
    )
    # The same claim run here, with the same settings: the same verdict.
    same = Claim(name="white-in-poison", hypothesis="White scores more than half", source="a test",
                 conditions=[Condition("poison")], calibration=("random",))
    expected = same.run(agents="ab@2", games=6, seed=0, calibration_games=6, progress=False)
    assert done.stdout == f"white-in-poison: {expected.verdict}: {expected.conclusion}\n"
    assert (tmp_path / "report" / "summary.md").is_file()
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    failed = subprocess.run([sys.executable, "-m", "heterodox.claims", empty], capture_output=True, text=True)
    assert failed.returncode == 2 and "defines no `claim`" in failed.stderr


def test_constant_samples_and_duplicate_conditions():
    conditions = [Condition("chess", opening_plies=4), Condition("chess", opening_plies=4, name="again")]
    values = iter([[1.0] * 6, [0.5] * 6])
    verdict = run(claim(lambda games: next(values), conditions))
    assert (verdict.estimate, verdict.low, verdict.high, verdict.pvalue) == (0.5, 0.5, 0.5, 0.0)
    assert verdict.verdict == "supports" and verdict.games_to_decide is None
    with pytest.raises(ValueError, match="two conditions are both 'chess'"):
        claim("white_score", [Condition("chess"), Condition("chess", start="1.e4")])


def test_bad_claims_are_refused():
    with pytest.raises(ValueError, match="one condition or two, got 3"):
        claim("white_score", [Condition("chess")] * 3)
    with pytest.raises(ValueError, match="'greater' or 'less'"):
        claim("white_score", predicted="bigger")
    with pytest.raises(ValueError, match=r"the measure gave \(2,\) values for 6 games"):
        run(claim(lambda games: [1.0, 0.0]))
    with pytest.raises(ValueError, match="unknown measure 'material'"):
        claim("material")
    with pytest.raises(ValueError, match="calibration_games must be an int of at least 1, not 0"):
        claim("white_score").run(agents="random", games=4, calibration_games=0, progress=False)


def test_the_calibration_rule_is_the_command_line_s():
    verdict_rs = (REPO / "training" / "src" / "claims" / "verdict.rs").read_text()
    assert f"pub const STRONG_ENOUGH: f64 = {STRONG_ENOUGH};" in verdict_rs
