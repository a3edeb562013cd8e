"""The notebooks in notebooks/ run as written, on small settings
(HETERODOX_NOTEBOOK_SMALL=1). Their code cells are executed in order in one
namespace, as a kernel would run them, with the standard library's json
reading the .ipynb (no Jupyter needed in the test environment); a cell that
raises fails the test and names the cell."""

import json
import os
import re
from pathlib import Path

import pytest

from support import BINARY
from test_plot import iteration

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(notebook, tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(json.dumps(iteration(i)) + "\n" for i in range(1, 4)))
    if notebook.name == "claims.ipynb":
        binary = BINARY
        if not binary.is_file():
            pytest.skip(f"the CLI is not built ({binary})")
        monkeypatch.setenv("HETERODOX_BIN", str(binary))
    monkeypatch.setenv("HETERODOX_NOTEBOOK_SMALL", "1")
    monkeypatch.setenv("HETERODOX_RUN", str(run))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.delenv("HETERODOX_CHECKPOINT", raising=False)
    monkeypatch.chdir(tmp_path)
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    namespace = {"__name__": "__main__"}
    for k, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        try:
            exec(compile(source, f"{notebook.name}[cell {k}]", "exec"), namespace)
        except Exception as error:  # noqa: BLE001 - name the cell, keep the cause
            raise AssertionError(f"{notebook.name}: cell {k} failed: {error!r}") from error
    printed = capsys.readouterr().out
    CHECKS[notebook.name](printed, run, tmp_path)


def check_quickstart(printed: str, run: Path, _: Path) -> None:
    assert "best: a1a8" in printed
    assert str(run / "plots") in printed
    assert os.path.exists(run / "plots" / "training.png")


def check_claims(printed: str, _: Path, workdir: Path) -> None:
    # The table, its statistics, four claims stated in the notebook, each
    # with its verdict and report, the Traitor selections' table, and the
    # catalogue of the built-in ones.
    assert "ab@300n against greedy: " in printed
    for name, report in [
        ("fried-liver-favours-white-more-in-hostage", "fried-liver-ab@300n"),
        ("the-first-poisoner-scores-more", "first-poison-ab@300n"),
        ("the-first-monster-builder-scores-more", "first-monster-ab@300n"),
        ("the-equilibrium-selection-beats-the-queen", "equilibrium-ab@300n"),
    ]:
        assert re.search(rf"{name} \(ab@300n\): (supports|contradicts|inconclusive|agents too weak): ", printed), name
        files = sorted(p.name for p in (workdir / "reports" / report).iterdir())
        assert files == ["claim.json", "games.csv", "games.pgn", "summary.md"], report
    assert "# the-first-monster-builder-scores-more: " in printed
    assert "White's mix: {" in printed and "Black's mix: {" in printed
    assert re.search(r"black\s+S-", printed), "the table of selections against selections"
    assert "hostage-favours-the-attacker" in printed and "piece-values" in printed


# What each notebook must have printed and written.
CHECKS = {"quickstart.ipynb": check_quickstart, "claims.ipynb": check_claims}
