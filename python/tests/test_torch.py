"""heterodox.torch: the Rust trainer's ResNet in PyTorch, on the same
checkpoints. The tch side is the `heterodox` binary of this repository
(target/release/heterodox, or $HETERODOX_BIN); those tests are skipped
without it, as all of these are without torch and safetensors."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("safetensors")

import heterodox  # noqa: E402
import heterodox.torch as hx  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402
from support import BINARY

REPO = Path(__file__).resolve().parents[2]
TOWER = dict(blocks=2, channels=16, value_hidden=32)


def binary_help():
    if not BINARY.exists():
        return None
    done = subprocess.run([BINARY, "model", "--help"], capture_output=True, text=True, timeout=60)
    return done.stdout if done.returncode == 0 else None


HELP = binary_help()
needs_binary = pytest.mark.skipif(HELP is None, reason=f"no heterodox binary at {BINARY}")
needs_forward = pytest.mark.skipif(
    HELP is None or "--forward" not in HELP,
    reason="the heterodox binary has no `model --forward` (rebuild it)",
)
needs_loss = pytest.mark.skipif(
    HELP is None or "--loss" not in HELP,
    reason="the heterodox binary has no `model --loss` (rebuild it)",
)


def observations(variant, n=5, seed=0):
    """Start observations and a few random plies later, as float32 [n, C, 8, 8]."""
    env = heterodox.VecEnv(variant, n, seed=seed)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(6):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, _, _, _, info = env.step(actions)
    return obs


def randomise_statistics(model, seed=0):
    """Non-trivial batch-norm statistics, so that the test sees them used."""
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, buffer in model.named_buffers():
            if name.endswith("running_mean"):
                buffer.copy_(torch.randn(buffer.shape, generator=generator) * 0.1)
            elif name.endswith("running_var"):
                buffer.copy_(torch.rand(buffer.shape, generator=generator) + 0.5)


def rust_forward(checkpoint, x, tmp_path):
    save_file({"input": torch.from_numpy(x)}, str(tmp_path / "in.safetensors"))
    subprocess.run(
        [BINARY, "model", "--load", checkpoint, "--forward", tmp_path / "in.safetensors",
         "--out", tmp_path / "out.safetensors"],
        check=True, capture_output=True, timeout=120,
    )
    out = load_file(str(tmp_path / "out.safetensors"))
    return out["policy"].numpy(), out["value"].numpy()


@pytest.mark.parametrize("variant", ["chess", "traitor", "madscientist"])
def test_fresh_network_fits_the_spec(variant, tmp_path):
    spec = json.loads(heterodox.encoding_spec(variant))
    model = hx.ResNet.for_variant(variant, **TOWER).eval()
    x = torch.from_numpy(observations(variant, n=3))
    logits, value = model(x)
    assert logits.shape == (3, spec["num_actions"]) and value.shape == (3,)
    assert (model.config["policy_flat"] > 0) == (variant != "chess")
    hx.save(model, tmp_path / "net")
    assert sorted(p.name for p in (tmp_path / "net").iterdir()) == sorted(hx.CHECKPOINT_FILES)
    assert json.loads((tmp_path / "net" / "spec.json").read_text()) == spec
    names = set(load_file(str(tmp_path / "net" / "model.safetensors")))
    assert "stem.bn.running_var" in names and not any("num_batches" in n for n in names)


def test_round_trip_is_exact(tmp_path):
    model = hx.ResNet.for_variant("hostage", **TOWER)
    randomise_statistics(model)
    model.eval()
    hx.save(model, tmp_path / "net")
    hx.save(model, tmp_path / "net")  # replaces a checkpoint
    loaded = hx.load(tmp_path / "net", expected_spec=heterodox.encoding_spec("hostage"))
    x = torch.from_numpy(observations("hostage"))
    with torch.no_grad():
        for a, b in zip(model(x), loaded(x)):
            assert torch.equal(a, b)
    with pytest.raises(ValueError, match="another encoding: variant"):
        hx.load(tmp_path / "net", expected_spec=heterodox.encoding_spec("chess"))
    (tmp_path / "notes.txt").write_text("keep")
    shutil.copy(tmp_path / "notes.txt", tmp_path / "net" / "notes.txt")
    with pytest.raises(ValueError, match="refusing to replace"):
        hx.save(model, tmp_path / "net")
    tensors = load_file(str(tmp_path / "net" / "model.safetensors"))
    del tensors["value.fc2.bias"]
    save_file(tensors, str(tmp_path / "net" / "model.safetensors"))
    with pytest.raises(ValueError, match="value.fc2.bias is missing"):
        hx.load(tmp_path / "net")


def test_evaluator_drives_a_search():
    model = hx.ResNet.for_variant("poison", **TOWER)
    search = heterodox.Search("poison", num_games=2, simulations=8)
    search.run(hx.evaluator(model))
    policy = search.policy()
    np.testing.assert_allclose(policy.sum(axis=1), 1.0, rtol=1e-5)


@needs_binary
@pytest.mark.parametrize("variant", ["chess", "traitor"])
def test_tch_checkpoint_loads(variant, tmp_path):
    subprocess.run([BINARY, "model", "--variant", variant, "--save", tmp_path / "tch"],
                   check=True, capture_output=True, timeout=120)
    model = hx.load(tmp_path / "tch", expected_spec=heterodox.encoding_spec(variant))
    assert model.config == json.loads((tmp_path / "tch" / "config.json").read_text())
    x = torch.from_numpy(observations(variant, n=2))
    logits, value = model(x)
    assert logits.shape[1] == json.loads(heterodox.encoding_spec(variant))["num_actions"]


@needs_forward
@pytest.mark.parametrize("variant", ["chess", "traitor"])
def test_tch_and_pytorch_agree_both_ways(variant, tmp_path):
    x = observations(variant)
    # tch -> PyTorch
    subprocess.run([BINARY, "model", "--variant", variant, "--save", tmp_path / "tch"],
                   check=True, capture_output=True, timeout=120)
    model = hx.load(tmp_path / "tch")
    policy, value = rust_forward(tmp_path / "tch", x, tmp_path)
    with torch.no_grad():
        logits, v = model(torch.from_numpy(x))
    np.testing.assert_allclose(logits.numpy(), policy, atol=1e-5, rtol=0)
    np.testing.assert_allclose(v.numpy(), value, atol=1e-5, rtol=0)
    # PyTorch -> tch, with non-trivial batch-norm statistics
    mine = hx.ResNet.for_variant(variant, **TOWER)
    randomise_statistics(mine, seed=1)
    mine.eval()
    hx.save(mine, tmp_path / "py")
    policy, value = rust_forward(tmp_path / "py", x, tmp_path)
    with torch.no_grad():
        logits, v = mine(torch.from_numpy(x))
    np.testing.assert_allclose(logits.numpy(), policy, atol=1e-5, rtol=0)
    np.testing.assert_allclose(v.numpy(), value, atol=1e-5, rtol=0)


@needs_loss
@pytest.mark.parametrize("variant, auxiliary_heads", [("hostage", True), ("traitor", False)])
def test_the_loss_is_the_rust_trainers(variant, auxiliary_heads, tmp_path):
    """One batch, one network: heterodox.learn's loss terms equal the Rust
    trainer's (training/src/trainer/loss.rs, through `heterodox model
    --loss`), in training mode as an SGD step sees them; with the
    auxiliary heads, their terms too."""
    from heterodox.learn import aux_losses_of, loss_of

    heterodox.self_play(variant, tmp_path / "games.hdxshard", None, games=2, simulations=4,
                        max_plies=16)
    batch = heterodox.Loader(tmp_path, seed=3).sample(8)
    model = hx.ResNet.for_variant(variant, auxiliary_heads=auxiliary_heads, **TOWER)
    randomise_statistics(model, seed=2)
    hx.save(model, tmp_path / "net")
    save_file({
        "input": torch.from_numpy(batch["observations"]),
        "legal": torch.from_numpy(batch["masks"].astype(np.uint8)),
        "policy": torch.from_numpy(batch["policies"]),
        "value": torch.from_numpy(batch["values"]),
        "moves_left": torch.from_numpy(batch["moves_left"]),
        "material": torch.from_numpy(batch["material"]),
    }, str(tmp_path / "batch.safetensors"))
    subprocess.run(
        [BINARY, "model", "--load", tmp_path / "net", "--loss", tmp_path / "batch.safetensors",
         "--value-loss-weight", "0.5", "--moves-left-loss-weight", "0.3",
         "--material-loss-weight", "0.2", "--out", tmp_path / "loss.safetensors"],
        check=True, capture_output=True, timeout=120,
    )
    rust = {k: v.item() for k, v in load_file(str(tmp_path / "loss.safetensors")).items()}
    model.train()
    loss, policy_loss, value_loss = loss_of(model, batch, "cpu", value_loss_weight=0.5,
                                            moves_left_loss_weight=0.3, material_loss_weight=0.2)
    assert rust["policy_loss"] > 0.5 and rust["value_loss"] > 0.0
    assert abs(loss.item() - rust["loss"]) < 1e-5
    assert abs(policy_loss - rust["policy_loss"]) < 1e-5
    assert abs(value_loss - rust["value_loss"]) < 1e-5
    aux = aux_losses_of(model, batch, "cpu")
    if auxiliary_heads:
        assert rust["moves_left_loss"] > 0.0 and rust["material_loss"] > 0.0
        assert abs(aux[0] - rust["moves_left_loss"]) < 1e-5
        assert abs(aux[1] - rust["material_loss"]) < 1e-5
    else:
        assert aux is None
        assert rust["moves_left_loss"] == rust["material_loss"] == 0.0
    expected = (rust["policy_loss"] + 0.5 * rust["value_loss"]
                + 0.3 * rust["moves_left_loss"] + 0.2 * rust["material_loss"])
    assert abs(rust["loss"] - expected) < 1e-5


def test_shard_dataset(tmp_path):
    from heterodox.data import ShardDataset

    heterodox.self_play("poison", tmp_path / "a.hdxshard", None, games=2, simulations=4, max_plies=6)
    dataset = ShardDataset(tmp_path, batch_size=5, batches=3, seed=2)
    batches = list(torch.utils.data.DataLoader(dataset, batch_size=None))
    assert len(batches) == len(dataset) == 3
    first = batches[0]
    assert first["observations"].dtype == torch.float32 and first["observations"].shape[0] == 5
    assert first["masks"].dtype == torch.bool
    assert torch.equal(first["observations"], torch.from_numpy(
        heterodox.Loader(tmp_path, seed=2).sample(5)["observations"]))
    assert len(ShardDataset(tmp_path, batch_size=5)) == 3  # 12 positions, once over


def test_every_shipped_agent_loads_by_its_zoo_string():
    shipped = sorted(p.name for p in (REPO / "agents").glob("*") if (p / "model.safetensors").is_file())
    assert shipped, "agents/ ships at least one network"
    for name in shipped:
        model, simulations = hx.zoo(f"zoo:{name}@32")
        assert simulations == 32
        # The agent's own rule settings (a Traitor mode, a commitment):
        # its actions are those of its rules, not the variant's defaults.
        variant, rules = model.spec["variant"], model.spec["options"]
        search = heterodox.Search(variant, num_games=1, simulations=4, **rules)
        search.run(hx.evaluator(model))
        np.testing.assert_allclose(search.policy().sum(axis=1), 1.0, rtol=1e-5)
    assert hx.zoo(shipped[0])[1] == hx.ZOO_SIMULATIONS
    # The CLI's strings with search options name the same network.
    assert hx.zoo(f"zoo:{shipped[0]}@16/puct/nowins")[1] == 16
    assert hx.zoo(f"zoo:{shipped[0]}@16/nolosses")[1] == 16
    assert hx.zoo(f"zoo:{shipped[0]}/gumbel/nolosses")[1] == hx.ZOO_SIMULATIONS


@pytest.mark.parametrize(
    "agent, message",
    [
        ("zoo:../runs@64", "zoo: needs the name of a shipped agent"),
        ("zoo:hostage@x", "the simulations after '@' must be a number"),
        ("zoo:nosuchagent", "no shipped agent 'nosuchagent'"),
        ("zoo:hostage@64/mcts", "must be /puct or /gumbel, then /nolosses or /nowins"),
        ("zoo:hostage@64/nowins/nolosses", "must be /puct or /gumbel, then /nolosses or /nowins"),
    ],
)
def test_bad_zoo_strings_are_value_errors(agent, message):
    with pytest.raises(ValueError, match=message):
        hx.zoo(agent)
