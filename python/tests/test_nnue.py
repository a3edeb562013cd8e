"""The engine's learned evaluation from Python: teacher data as arrays
(heterodox.nnue_data), a net trained in PyTorch (heterodox.nnue) and saved
as a net file, and the engine evaluating with that file; bad files and
wrong variants are refused with NetworkError."""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

import heterodox  # noqa: E402
import heterodox.nnue as nnue  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("HETERODOX_BIN", REPO / "target" / "release" / "heterodox"))
needs_binary = pytest.mark.skipif(not BINARY.exists(), reason=f"no heterodox binary at {BINARY}")


@pytest.fixture(scope="module")
def teach_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("teach") / "chess"
    subprocess.run(
        [BINARY, "teach", "--variant", "chess", "--value-only", "--engine", "ab@1/classical",
         "--positions", "600", "--games-per-shard", "8", "--out", out, "--quiet"],
        check=True, capture_output=True, timeout=120,
    )
    return out


@needs_binary
def test_teacher_data_reads_as_the_arrays_the_trainer_reads(teach_dir):
    data = heterodox.nnue_data(teach_dir)
    n = len(data["values"])
    assert n > 300
    assert (data["variant"], data["rules"], data["feature_set"]) == ("chess", "", "chess-psq")
    assert (data["inputs"], data["feature_version"]) == (768, 1)
    offsets = data["offsets"]
    assert offsets.dtype == np.uint64 and len(offsets) == 2 * n + 1
    assert offsets[0] == 0 and offsets[-1] == len(data["features"])
    assert data["features"].dtype == np.uint16 and data["features"].max() < 768
    # In chess both perspectives see every piece once: equal list lengths.
    us = offsets[1::2] - offsets[0:-1:2]
    them = offsets[2::2] - offsets[1::2]
    assert np.array_equal(us, them) and us.min() >= 2 and us.max() <= 32
    assert set(np.unique(data["results"])) <= {-1.0, 0.0, 1.0}
    assert np.all(np.abs(data["values"]) <= 1.0)
    assert data["classical"].shape == (n,) and data["skipped"] > 0
    assert heterodox.nnue_data(teach_dir, max_positions=10)["values"].shape == (10,)


def test_the_features_of_the_start_position():
    us, them = heterodox.nnue_features(heterodox.Game("chess"))
    # Ours: pawns a2..h2 are (0 * 6 + 0) * 64 + 8..15; theirs from White's
    # side: Black's pawns a7..h7 are (1 * 6 + 0) * 64 + 48..55.
    assert us[:8] == list(range(8, 16))
    assert [f for f in us if 384 <= f < 448] == list(range(432, 440))
    # The start is symmetric: Black to move sees the same lists.
    game = heterodox.Game("chess", fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
    assert heterodox.nnue_features(game) == (us, them)
    assert len(us) == len(them) == 32


@needs_binary
def test_a_net_trained_in_pytorch_plays_in_the_engine(teach_dir, tmp_path):
    data = heterodox.nnue_data(teach_dir)
    torch.manual_seed(0)
    net = nnue.Net(data["inputs"], hidden=16, seed=3)
    losses = nnue.train(net, data, epochs=3, batch_size=128, lr=3e-3)
    assert losses[-1] < losses[0]
    path = tmp_path / "chess.safetensors"
    nnue.save(net, data, path)
    engine = heterodox.Engine("chess", evaluation=str(path))
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "4k3/8/8/8/8/8/8/4K2R b - - 0 1",
    ]:
        game = heterodox.Game("chess", fen=fen)
        us, them = heterodox.nnue_features(game)
        with torch.no_grad():
            y = net(torch.tensor(us), torch.tensor([0]), torch.tensor(them), torch.tensor([0]))
        expected = float(y[0]) * nnue.SCALE
        # The engine's quantized net agrees with PyTorch's float one.
        assert abs(engine.evaluate(game) - expected) <= 8 + 0.01 * abs(expected), fen
    assert engine.network == path
    result = engine.search(heterodox.Game("chess", fen="r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4"), depth=3)
    assert (result.move, result.mate) == ("f3f7", 1)


@needs_binary
def test_bad_net_files_are_refused_by_name(teach_dir, tmp_path):
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"not a net")
    with pytest.raises(heterodox.NetworkError, match="junk.safetensors"):
        heterodox.Engine("chess", evaluation=str(junk))
    data = heterodox.nnue_data(teach_dir)
    path = tmp_path / "chess.safetensors"
    nnue.save(nnue.Net(data["inputs"], hidden=4), data, path)
    with pytest.raises(heterodox.NetworkError, match="the net is for variant chess, not hostage"):
        heterodox.Engine("hostage", evaluation=str(path))
    with pytest.raises(ValueError, match="unknown evaluation 'best'"):
        heterodox.Engine("chess", evaluation="best")
    with pytest.raises(ValueError, match="base must be"):
        nnue.Net(768, base="both")
    classical = heterodox.Engine("chess", evaluation="classical")
    assert classical.network is None
    assert classical.evaluate(heterodox.Game("chess")) == 12


@needs_binary
def test_a_net_on_the_classical_base_adds_to_the_classical_evaluation(teach_dir, tmp_path):
    data = heterodox.nnue_data(teach_dir)
    net = nnue.Net(data["inputs"], hidden=4, base="classical")
    with torch.no_grad():
        net.out.weight.zero_()
        net.out.bias.fill_(0.25)  # 100 cp for the side to act
    path = tmp_path / "base.safetensors"
    nnue.save(net, data, path)
    hybrid = heterodox.Engine("chess", evaluation=str(path))
    classical = heterodox.Engine("chess", evaluation="classical")
    for fen in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K2R b - - 0 1"]:
        game = heterodox.Game("chess", fen=fen)
        assert hybrid.evaluate(game) == classical.evaluate(game) + 100
