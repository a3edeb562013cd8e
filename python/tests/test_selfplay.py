"""heterodox.self_play (the Rust workers with a Python evaluator), shards and
the numpy Loader over them."""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

import heterodox
from heterodox import Game, Loader, read_shard, self_play
from support import BINARY

SETTINGS = dict(games=3, concurrent=2, simulations=8, max_plies=16, seed=5)


def uniform(requests):
    counts = np.diff(requests["offsets"]).astype(np.float32)
    return (np.float32(1.0) / counts)[requests["leaf"]], np.zeros(len(counts), dtype=np.float32)


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    directory = tmp_path_factory.mktemp("shards")
    calls = []

    def counting(requests):
        calls.append(len(requests["offsets"]) - 1)
        assert "game" not in requests
        return uniform(requests)

    by_python = self_play("hostage", directory / "python.hdxshard", counting, **SETTINGS)
    by_rust = self_play("hostage", directory / "rust.hdxshard", None, **SETTINGS)
    return directory, by_python, by_rust, calls


def test_python_uniform_plays_the_rust_uniform_games(shards):
    directory, by_python, by_rust, calls = shards
    python, rust = read_shard(directory / "python.hdxshard"), read_shard(directory / "rust.hdxshard")
    assert python["games"] == rust["games"]
    assert {k: v for k, v in by_python.items() if k != "seconds"} == {
        k: v for k, v in by_rust.items() if k != "seconds"
    }
    assert by_python["games"] == 3
    assert sum(calls) == by_python["evaluations"]
    # Every move's search ran its 8 simulations (evaluated leaves and
    # descents that ended in a finished game).
    assert by_python["simulations"] == by_python["positions"] * 8


def test_the_shard_holds_what_was_played(shards):
    directory, stats, _, _ = shards
    shard = read_shard(directory / "python.hdxshard")
    assert shard["variant"] == "hostage"
    assert shard["encoding_version"] >= 1
    assert shard["producer"] == "heterodox python self_play"
    games = shard["games"]
    assert [g["seed"] for g in games] == sorted(g["seed"] for g in games)
    assert sum(len(g["actions"]) for g in games) == stats["positions"]
    for g in games:
        # Every game replays through the rules, each action legal where played.
        game = Game("hostage")
        for action, policy in zip(g["actions"], g["policies"]):
            assert action in game.legal_action_indices()
            assert {index for index, _ in policy} <= set(game.legal_action_indices())
            assert sum(p for _, p in policy) == pytest.approx(1.0, abs=1e-3)
            game.play_index(action)
        outcome = game.outcome()
        assert g["result"] == ("*" if outcome is None else outcome.result)
        assert g["termination"] == ("ply cap" if outcome is None else outcome.termination)


def test_loader_batches(shards):
    directory, stats, _, _ = shards
    loader = Loader(directory / "python.hdxshard", seed=1)
    assert loader.variant == "hostage"
    assert loader.num_games == 3 and loader.num_positions == stats["positions"] == len(loader)
    batch = loader.sample(32)
    c = loader.observation_shape[0]
    assert batch["observations"].shape == (32, c, 8, 8) and batch["observations"].dtype == np.float32
    assert batch["masks"].shape == (32, loader.num_actions) and batch["masks"].dtype == bool
    np.testing.assert_allclose(batch["policies"].sum(axis=1), 1.0, rtol=1e-5)
    assert not (batch["policies"] > 0)[~batch["masks"]].any()
    # The first position of the first game is the start, seen by White.
    first = loader.batch(np.array([0], dtype=np.int64))
    np.testing.assert_array_equal(first["observations"][0], Game("hostage").observation())
    np.testing.assert_array_equal(np.flatnonzero(first["masks"][0]), sorted(Game("hostage").legal_action_indices()))
    # Every game was cut at the ply cap (value target 0) or decided.
    assert set(np.unique(batch["values"])) <= {-1.0, 0.0, 1.0}
    again = Loader(directory, seed=1)  # a directory of shards: both files
    assert again.num_games == 6
    with pytest.raises(ValueError, match="out of range"):
        loader.batch(np.array([loader.num_positions], dtype=np.int64))
    with pytest.raises(ValueError, match="batch_size"):
        loader.sample(0)


def test_errors(tmp_path):
    def broken(requests):
        raise RuntimeError("device lost")

    with pytest.raises(RuntimeError, match="device lost"):
        self_play("chess", tmp_path / "x.hdxshard", broken, games=2, simulations=4, max_plies=4)
    assert not list(tmp_path.iterdir())

    def bad(requests):
        priors, values = uniform(requests)
        return priors.astype(np.float64), values

    with pytest.raises(heterodox.EvaluationError, match="float32"):
        self_play("chess", None, bad, games=1, simulations=4, max_plies=4)
    with pytest.raises(ValueError, match="hdxshard"):
        self_play("chess", tmp_path / "x.bin", None, games=1, simulations=4, max_plies=4)
    (tmp_path / "junk.hdxshard").write_bytes(b"not a shard at all, really not")
    with pytest.raises(ValueError, match="HDXSHARD"):
        read_shard(tmp_path / "junk.hdxshard")
    with pytest.raises(OSError):
        read_shard(tmp_path / "missing.hdxshard")


def test_random_opening_plies_are_played_but_not_trained_on(tmp_path):
    path = tmp_path / "openings.hdxshard"
    stats = self_play("chess", path, None, games=4, simulations=4, max_plies=20, seed=2, opening_plies=6)
    games = read_shard(path)["games"]
    # Each game opens with 0 to 6 random plies, recorded without a policy.
    openings = []
    for g in games:
        searched = [len(policy) > 0 for policy in g["policies"]]
        opening = searched.index(True)
        assert all(searched[opening:])
        openings.append(opening)
    assert openings == [4, 0, 0, 3]
    assert stats["positions"] == sum(len(g["actions"]) - k for g, k in zip(games, openings))
    assert Loader(path, seed=0).num_positions == stats["positions"]
    with pytest.raises(ValueError, match="opening_plies"):
        self_play("chess", None, None, games=1, opening_plies=1001)


def test_playout_caps_record_only_the_full_searches_with_their_surprise(tmp_path):
    path = tmp_path / "capped.hdxshard"
    stats = self_play("chess", path, None, games=4, simulations=16, max_plies=20, seed=2,
                      root_policy="gumbel", full_search_share=0.5, cheap_simulations=4)
    games = read_shard(path)["games"]
    plies = sum(len(g["actions"]) for g in games)
    positions = sum(1 for g in games for policy in g["policies"] if policy)
    assert 0 < positions < plies and stats["positions"] == positions
    # A full move ran 16 simulations, a cheap one 4.
    assert stats["simulations"] == 16 * positions + 4 * (plies - positions)
    for g in games:
        for policy, surprise in zip(g["policies"], g["surprises"]):
            if not policy:
                assert surprise == 0.0
                continue
            # The uniform evaluator's prior is 1/n: the surprise is sum p ln(p n).
            n = len(policy)
            expected = sum(p * np.log(p * n) for _, p in policy if p > 0)
            assert surprise == pytest.approx(max(expected, 0.0), abs=1e-3)
    # Surprise weighting draws from the same positions.
    loader = Loader(path, seed=1, surprise_weight=0.5)
    assert loader.num_positions == positions
    assert loader.sample(8)["observations"].shape[0] == 8
    with pytest.raises(ValueError, match="surprise_weight 1.5 is not in"):
        Loader(path, surprise_weight=1.5)
    with pytest.raises(ValueError, match="full_search_share"):
        self_play("chess", None, None, games=1, full_search_share=1.5)
    with pytest.raises(ValueError, match="cheap_simulations"):
        self_play("chess", None, None, games=1, simulations=8, full_search_share=0.5, cheap_simulations=9)


REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not BINARY.exists(), reason=f"no heterodox binary at {BINARY}")
def test_same_games_as_the_heterodox_cli(shards, tmp_path):
    """`heterodox selfplay --net uniform` (the Rust workers and the Rust
    UniformEvaluator) plays the games a Python uniform evaluator played."""
    directory, _, _, _ = shards
    subprocess.run(
        [BINARY, "selfplay", "--variant", "hostage", "--net", "uniform", "--games", "3",
         "--concurrent", "2", "--sims", "8", "--policy", "puct", "--max-plies", "16",
         "--seed", "5", "--quiet", "--out", tmp_path],
        check=True, capture_output=True, timeout=120,
    )
    (shard,) = tmp_path.glob("*.hdxshard")
    assert read_shard(shard)["games"] == read_shard(directory / "python.hdxshard")["games"]
