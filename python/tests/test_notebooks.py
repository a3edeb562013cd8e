"""The notebooks in notebooks/ run as written, on small settings
(HETERODOX_NOTEBOOK_SMALL=1). Their code cells are executed in order in one
namespace, as a kernel would run them, with the standard library's json
reading the .ipynb (no Jupyter needed in the test environment); a cell that
raises fails the test and names the cell."""

import json
import os
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
    report = workdir / "reports" / "attacker-notebook"
    assert "hostage-favours-the-attacker: " in printed
    assert "verdict: agents-too-weak" in printed
    assert "draw rate, Hostage minus chess: " in printed
    assert (report / "summary.md").is_file()
    for plot in ["a-initiative.png", "b-sacrifices.png", "c-decisiveness.png"]:
        assert (report / "plots" / plot).is_file()
    assert "heterodox claim hostage-favours-the-attacker --agent ab@2000n --games 8" in printed
    # The piece values of a quick run: a line per variant, a plot per fit.
    values = workdir / "reports" / "piece-values-notebook"
    assert "piece-values: " in printed
    for variant in ["chess", "poison", "hostage", "madscientist", "traitor"]:
        assert (
            f"\n{variant} (16 games): pawn 1.0" in printed
            or f"\n{variant} (16 games, logits): pawn " in printed
            or f"\n{variant}: no values" in printed
        ), variant
    fitted = printed.count(" (16 games): pawn 1.0") + printed.count(" (16 games, logits): ")
    assert fitted >= 1, printed
    assert len(list((values / "plots").glob("values-*.png"))) == fitted


# What each notebook must have printed and written.
CHECKS = {"quickstart.ipynb": check_quickstart, "claims.ipynb": check_claims}
