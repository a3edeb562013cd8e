"""heterodox.plot draws a run's metrics file (as `heterodox train` writes
it) into PNG files, skips lines a killed run left half-written, and says
what is wrong with a run it cannot plot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from heterodox import plot

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def score(s: float, low: float, high: float) -> dict:
    return {
        "games": 32, "wins": 0, "draws": 0, "losses": 0,
        "score": s, "score_low": low, "score_high": high,
        "elo": None, "elo_low": None, "elo_high": None,
    }


def iteration(i: int) -> dict:
    return {
        "kind": "iteration", "iteration": i, "step": 40 * i, "elapsed_seconds": 20.0 * i,
        "selfplay": {
            "games": 32, "positions": 3000, "white_wins": 10, "draws": 12, "black_wins": 10,
            "truncated": 0, "average_length": 90.0 + i, "positions_per_second": 300.0,
            "simulations_per_second": 9000.0,
        },
        "training": {
            "steps": 40, "loss": 4.0 - 0.1 * i, "policy_loss": 3.0, "value_loss": 1.0 - 0.05 * i,
            "value_accuracy": 0.5 + 0.01 * i, "policy_entropy": 2.5, "learning_rate": 0.02,
            "positions_per_second": 5000.0, "window_games": 32 * i, "window_positions": 3000 * i,
        },
        "seconds": {"selfplay": 15.0, "training": 3.0, "evaluation": 0.0},
    }


def write_run(tmp_path: Path, lines: list[str]) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(line + "\n" for line in lines))
    return run


def test_plots_a_run_and_skips_a_half_written_line(tmp_path: Path) -> None:
    lines = [json.dumps(iteration(i)) for i in range(1, 6)]
    lines.insert(3, json.dumps({"kind": "evaluation", "iteration": 3, "step": 120,
                                "elapsed_seconds": 60.0, "simulations": 32,
                                "vs_random": score(0.8, 0.7, 0.9), "vs_uniform": score(0.55, 0.4, 0.7),
                                "average_length": 80.0, "seconds": 30.0}))
    lines.append('{"kind": "iteration", "itera')
    run = write_run(tmp_path, lines)
    iterations, evaluations = plot.read_metrics(run / "metrics.jsonl")
    assert [i["iteration"] for i in iterations] == [1, 2, 3, 4, 5]
    assert [e["iteration"] for e in evaluations] == [3]
    paths = plot.plot_run(run)
    assert [p.name for p in paths] == ["scores.png", "training.png"]
    for path in paths:
        assert path.parent == run / "plots"
        assert path.read_bytes()[:8] == PNG_MAGIC
    # Nothing but the two plots: no temporary file left behind.
    assert sorted(p.name for p in (run / "plots").iterdir()) == ["scores.png", "training.png"]


def test_a_run_without_iterations_is_a_value_error(tmp_path: Path) -> None:
    run = write_run(tmp_path, ['{"kind": "evaluation"'])
    with pytest.raises(ValueError, match="holds no iteration"):
        plot.plot_run(run)
    with pytest.raises(FileNotFoundError):
        plot.plot_run(tmp_path / "absent")


def test_runs_as_a_script_without_the_native_module(tmp_path: Path) -> None:
    run = write_run(tmp_path, [json.dumps(iteration(1))])
    script = Path(plot.__file__)
    # The native module made unimportable: the script must not need it.
    code = (
        "import runpy, sys; sys.modules['heterodox._core'] = None; "
        f"sys.argv = ['plot.py', {str(run)!r}]; runpy.run_path({str(script)!r}, run_name='__main__')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [str(run / "plots" / "scores.png"), str(run / "plots" / "training.png")]
    missing = subprocess.run([sys.executable, str(script), str(tmp_path / "nope")], capture_output=True, text=True)
    assert missing.returncode == 1
    assert missing.stderr.startswith("error: ")


def claim_json(plots):
    return json.dumps({"claim": "first-move-advantage", "verdict": "inconclusive", "plots": plots})


def test_a_claim_report_gets_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    from heterodox.plot import main

    (tmp_path / "claim.json").write_text(claim_json([
        {"file": "white-score.png", "title": "White's score", "ylabel": "score",
         "categories": ["chess", "hostage", "traitor defector/impromptu"],
         "series": [{"label": "White", "y": [0.55, None, 0.5], "low": [0.5, None, 0.4], "high": [0.6, None, 0.6]}],
         "reference": 0.5, "horizontal": True},
        {"file": "terminations.png", "title": "How games ended", "ylabel": "games",
         "categories": ["1/2-1/2 (stalemate)", "1/2-1/2 (ply cap)"],
         "series": [{"label": "KHH-K", "y": [30, 10]}, {"label": "KD-K", "y": [3, 7]}]},
    ]))
    assert main([str(tmp_path)]) == 0
    for name in ["white-score.png", "terminations.png"]:
        data = (tmp_path / "plots" / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
    # No staging files are left beside them.
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["terminations.png", "white-score.png"]


def test_a_claim_report_without_plots_is_an_error(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from heterodox.plot import main, plot_claim

    (tmp_path / "claim.json").write_text(claim_json([]))
    with pytest.raises(ValueError, match="describes no plots"):
        plot_claim(tmp_path)
    assert main([str(tmp_path)]) == 1
    assert "describes no plots" in capsys.readouterr().err
