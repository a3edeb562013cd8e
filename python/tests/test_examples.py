"""python/examples/alphazero.py runs on tiny settings, and the checkpoint it
writes is one the Rust side plays (`heterodox selfplay --net`, when the
binary is built: target/release/heterodox or $HETERODOX_BIN)."""

import os
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("safetensors")

import heterodox  # noqa: E402
import heterodox.torch as hx  # noqa: E402
from support import BINARY, load_script  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def load_example(name):
    return load_script(f"python/examples/{name}.py")


def test_alphazero_example(tmp_path, capsys):
    out = tmp_path / "run"
    load_example("alphazero").main([
        "--variant", "hostage", "--out", str(out), "--iterations", "2", "--games", "2",
        "--simulations", "4", "--max-plies", "8", "--steps", "2", "--batch-size", "16",
        "--blocks", "1", "--channels", "8", "--device", "cpu",
    ])
    printed = capsys.readouterr().out
    assert "iteration 2: 2 games" in printed
    assert sorted(p.name for p in (out / "games").iterdir()) == ["iter-00001.hdxshard", "iter-00002.hdxshard"]
    assert heterodox.Loader(out / "games").num_positions == 2 * 2 * 8
    hx.load(out / "last", expected_spec=heterodox.encoding_spec("hostage"))
    if not BINARY.exists():
        pytest.skip(f"no heterodox binary at {BINARY}: the Rust side not checked")
    subprocess.run(
        [BINARY, "selfplay", "--variant", "hostage", "--net", out / "last", "--games", "1",
         "--sims", "4", "--max-plies", "4", "--device", "cpu", "--quiet", "--out", tmp_path / "rust"],
        check=True, capture_output=True, timeout=120,
    )
    (shard,) = (tmp_path / "rust").glob("*.hdxshard")
    assert len(heterodox.read_shard(shard)["games"]) == 1
