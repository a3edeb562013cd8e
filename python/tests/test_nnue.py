"""The engine's learned evaluation from Python: teacher data as arrays
(heterodox.nnue_data), a net trained in PyTorch (heterodox.nnue) and saved
as a net file, and the engine evaluating with that file; bad files and
wrong variants are refused with NetworkError. The PyTorch trainer is the
Rust one's recipe (``heterodox nnue train``): the same initialisation
scheme, limits, held-out games, schedule and steps, the steps checked
against the Rust trainer's from its step-0 weights."""

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

import heterodox  # noqa: E402
import heterodox.nnue as nnue  # noqa: E402
from support import BINARY

REPO = Path(__file__).resolve().parents[2]
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
    epochs = nnue.train(net, data, epochs=3, batch_size=128, lr=3e-3, quiet=True)
    assert [e["epoch"] for e in epochs] == [1, 2, 3]
    assert epochs[-1]["train_loss"] < epochs[0]["train_loss"]
    assert epochs[-1]["held_out_loss"] < epochs[0]["held_out_loss"]
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


# --- One recipe: the PyTorch trainer against `heterodox nnue train` ---------

#: Tolerances of the PyTorch trainer against the Rust one from the same
#: step-0 weights (float32 in both; libtorch and PyTorch may sum in other
#: orders): every loss within this relative difference ...
LOSS_RTOL = 1e-5
#: ... and every weight within WEIGHT_RTOL * |w| + WEIGHT_ATOL (the weights
#: are of the order of 0.01 to 0.1 after these steps).
WEIGHT_RTOL = 1e-4
WEIGHT_ATOL = 1e-6


@pytest.fixture(scope="module")
def short_games_dir(tmp_path_factory):
    """About 1300 chess positions in 64 games of 24 plies (16 a shard): held
    out are games 0, 20, 40 and 60, about 70 positions; the training ones
    fit one batch of 4096."""
    out = tmp_path_factory.mktemp("teach") / "short"
    subprocess.run(
        [BINARY, "teach", "--variant", "chess", "--value-only", "--engine", "ab@1/classical",
         "--positions", "1200", "--max-plies", "24", "--games-per-shard", "16", "--out", out,
         "--quiet"],
        check=True, capture_output=True, timeout=120,
    )
    return out


def rust_train(teach_dir, out, *args):
    """Runs `heterodox nnue train` on the teacher directory into `out`
    and returns its training.json."""
    subprocess.run(
        [BINARY, "nnue", "train", "--data", teach_dir, "--out", out, "--quiet", *map(str, args)],
        check=True, capture_output=True, timeout=300,
    )
    return json.loads((out / "training.json").read_text())


def weights(net):
    return {
        "ft.weight": net.ft.weight.detach().numpy().astype(np.float64),
        "ft.bias": net.ft_bias.detach().numpy().astype(np.float64),
        "out.weight": net.out.weight.detach().numpy().reshape(-1).astype(np.float64),
        "out.bias": net.out.bias.detach().numpy().astype(np.float64),
    }


@needs_binary
@pytest.mark.parametrize("base", ["none", "classical"])
def test_from_the_rust_step_0_weights_pytorch_takes_the_rust_trainers_steps(short_games_dir, tmp_path, base):
    """One batch an epoch (the batch holds every training position), 4
    epochs, the last at 0.3 lr: the same train and held-out loss at every
    epoch, the same learning rates, the same split and the same final
    weights, within LOSS_RTOL and WEIGHT_RTOL/WEIGHT_ATOL (measured, PyTorch
    2.11 and tch on its libtorch, CPU: losses within 2e-7 relative, weights
    within 1.7e-7, a tenth of the tolerance)."""
    data = heterodox.nnue_data(short_games_dir)
    settings = dict(epochs=4, batch_size=4096, lr=1e-2, result_weight=0.4)
    train_positions, held_out = nnue.split(data)
    assert len(train_positions) <= settings["batch_size"]
    assert np.unique(data["games"][held_out]).tolist() == [0, 20, 40, 60]
    out = tmp_path / "rust"
    report = rust_train(
        short_games_dir, out, "--hidden", 8, "--epochs", settings["epochs"], "--batch",
        settings["batch_size"], "--lr", settings["lr"], "--result-weight",
        settings["result_weight"], "--seed", 11, "--base", base,
    )
    # The same held-out games, so the same positions on both sides.
    assert report["data"]["train_positions"] == len(train_positions)
    assert report["data"]["held_out_positions"] == len(held_out)
    rw = settings["result_weight"]
    assert report["teacher_held_out_loss"] == pytest.approx(nnue.teacher_loss(data, held_out, rw), rel=1e-12)
    assert report["classical_held_out_loss"] == pytest.approx(nnue.classical_loss(data, held_out, rw), rel=1e-12)

    net = nnue.load(out / "initial.safetensors")
    assert net.base == base
    epochs = nnue.train(net, data, seed=0, quiet=True, **settings)
    rust, python = report["epochs"], epochs
    assert [e["learning_rate"] for e in rust] == [e["learning_rate"] for e in python] == [1e-2] * 3 + [1e-2 * 0.3]
    largest = 0.0
    for r, p in zip(rust, python, strict=True):
        for key in ("train_loss", "held_out_loss"):
            difference = abs(r[key] - p[key]) / abs(r[key])
            largest = max(largest, difference)
            assert difference <= LOSS_RTOL, (r["epoch"], key, r[key], p[key])
    # The steps moved the net: the last epoch's train loss is below the first's.
    assert python[-1]["train_loss"] < python[0]["train_loss"]
    trained = weights(nnue.load(out / "nnue.safetensors"))
    initial = weights(nnue.load(out / "initial.safetensors"))
    ours = weights(net)
    worst = 0.0  # the largest |difference| / (WEIGHT_RTOL |w| + WEIGHT_ATOL)
    for name, theirs in trained.items():
        share = np.abs(ours[name] - theirs) / (WEIGHT_RTOL * np.abs(theirs) + WEIGHT_ATOL)
        worst = max(worst, share.max())
        assert share.max() <= 1, (name, np.abs(ours[name] - theirs).max())
        # The steps moved every parameter far beyond the tolerance.
        assert np.abs(theirs - initial[name]).max() > 1e3 * WEIGHT_ATOL, name
    print(f"largest relative loss difference {largest:.3g}; largest weight difference "
          f"{max(np.abs(ours[n] - trained[n]).max() for n in trained):.3g}, "
          f"{worst:.3g} of its tolerance")


def assert_uniform(values, bound, name):
    """`values` drawn uniform in [-bound, bound): all inside it, the
    largest |value| above (1 - 10/n) bound (a chance of e^-10 to miss),
    and the mean (0), the standard deviation (bound / sqrt(3)) and the
    share in each quarter of the range (1/4) each within 5 standard errors
    of n uniform draws."""
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    n = len(values)
    assert values.min() >= -bound and values.max() < bound, name
    assert np.abs(values).max() > (1 - 10 / n) * bound, name
    assert abs(values.mean()) <= 5 * bound / np.sqrt(3 * n), name
    # The variance of x^2 for x uniform in ±b is 4 b^4 / 45.
    assert abs(values.std() - bound / np.sqrt(3)) <= 5 * np.sqrt(4 / 45 / n) * bound / (2 / np.sqrt(3)), name
    quarters = np.histogram(values, bins=4, range=(-bound, bound))[0] / n
    assert np.abs(quarters - 0.25).max() <= 5 * np.sqrt(0.1875 / n), (name, quarters)


@needs_binary
@pytest.mark.parametrize("base", ["none", "classical"])
def test_both_trainers_draw_the_initial_weights_of_one_scheme(short_games_dir, tmp_path, base):
    """The Rust trainer's step-0 weights (initial.safetensors) and
    PyTorch's Net, 768 inputs x 128: every weight and bias uniform in
    ±1/sqrt(fan_in) (fan-in 768 for the transformer, 256 for the output),
    the output bias 0, and on the classical base the output weights 0
    too, so that the untrained net is the classical evaluation."""
    data = heterodox.nnue_data(short_games_dir)
    out = tmp_path / "rust"
    rust_train(short_games_dir, out, "--hidden", 128, "--epochs", 1, "--seed", 7, "--base", base)
    rust = nnue.load(out / "initial.safetensors")
    python = nnue.Net(data["inputs"], hidden=128, seed=7, base=base)
    ft_bound, out_bound = nnue.init_bounds(768, 128)
    assert (ft_bound, out_bound) == (pytest.approx(768 ** -0.5, rel=1e-7), 1 / 16)
    for net in (rust, python):
        w = weights(net)
        assert w["ft.weight"].shape == (768, 128)
        assert_uniform(w["ft.weight"], ft_bound, "ft.weight")
        assert_uniform(w["ft.bias"], ft_bound, "ft.bias")
        assert w["out.bias"].tolist() == [0.0]
        if base == "classical":
            assert w["out.weight"].tolist() == [0.0] * 256
        else:
            assert_uniform(w["out.weight"], out_bound, "out.weight")
    # The same seed draws other numbers in each language.
    assert not np.array_equal(weights(rust)["ft.weight"], weights(python)["ft.weight"])
    if base == "classical":
        _, held_out = nnue.split(data)
        for net in (rust, python):
            assert nnue.mean_loss(net, data, held_out) == pytest.approx(
                nnue.classical_loss(data, held_out), rel=1e-5)


def test_the_limits_clamp_what_the_engine_quantizes_and_leave_the_output_bias_free():
    net = nnue.Net(4, hidden=2)
    with torch.no_grad():
        net.ft.weight.fill_(40.0)
        net.ft_bias.fill_(-40.0)
        net.out.weight.fill_(32.0)
        net.out.bias.fill_(-40.0)
    net.clamp_weights()
    assert net.ft.weight.unique().tolist() == [31.0]
    assert net.ft_bias.unique().tolist() == [-31.0]
    assert net.out.weight.unique().tolist() == [31.0]
    assert net.out.bias.tolist() == [-40.0]


def test_the_learning_rate_drops_to_three_tenths_after_seventy_percent_of_the_epochs():
    assert [nnue.learning_rate(1e-3, 10, e) for e in range(1, 11)] == [1e-3] * 7 + [1e-3 * 0.3] * 3
    assert [nnue.learning_rate(1.0, 4, e) for e in range(1, 5)] == [1.0, 1.0, 1.0, 0.3]
    assert [nnue.learning_rate(1.0, 1, 1), nnue.learning_rate(1.0, 2, 2)] == [1.0, 1.0]


def test_the_held_out_positions_are_those_of_every_twentieth_game_and_the_target_blends():
    data = {"games": np.array([0, 0, 1, 19, 20, 21, 40, 40, 41], dtype=np.uint32)}
    train_positions, held_out = nnue.split(data)
    assert held_out.tolist() == [0, 1, 4, 6, 7]
    assert train_positions.tolist() == [2, 3, 5, 8]
    data = {"values": np.array([0.5, -1.0], dtype=np.float32), "results": np.array([-1.0, 1.0], dtype=np.float32)}
    # (1 - 0.25) (v + 1) / 2 + 0.25 (r + 1) / 2
    assert nnue.targets(data, np.array([0, 1])).tolist() == [0.5625, 0.25]
    with pytest.raises(ValueError, match="all of held-out games"):
        nnue.train(nnue.Net(4, hidden=2), {"games": np.array([0, 20], dtype=np.uint32)}, quiet=True)
    with pytest.raises(ValueError, match=r"nnue setting lr = 2.0 is out of range"):
        nnue.train(nnue.Net(4, hidden=2), {"games": np.array([1], dtype=np.uint32)}, lr=2.0, quiet=True)
