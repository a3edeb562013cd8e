"""heterodox.ray on a local Ray cluster (two self-play actors on this
machine): a self-play actor's process is SIGKILLed mid-run and training
goes on, with every shard whole; the learner's process is killed too and
it resumes from its checkpoint; a second run on the same directory
resumes. Ray is bounded for a small CI box (2 CPUs, 100 MB object store,
no dashboard, no worker logs on the driver's output).

The config checks and the ImportError without Ray need no cluster.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import heterodox
from heterodox.ray import ConfigError, RayConfig

REPO = Path(__file__).resolve().parents[2]

TINY = {
    "cluster": {"num_cpus": 2, "object_store_memory": 100_000_000},
    "selfplay": {"workers": 2, "games_per_worker": 4, "simulations": 16, "max_plies": 40,
                 "cpus_per_worker": 1.0},
    "network": {"blocks": 1, "channels": 8, "value_hidden": 16},
    # cpus = 0: the two actors hold both CPUs of the local cluster, and the
    # learner (a short SGD burst per shard) shares them.
    "learner": {"batch_size": 32, "steps_per_shard": 4, "window_shards": 8, "cpus": 0.0},
}


def tiny_config(run_dir, steps):
    return RayConfig.from_dict({**TINY, "run": {"dir": str(run_dir), "steps": steps}})


# --- no Ray needed ----------------------------------------------------------


def test_shipped_config_reads():
    config = RayConfig.from_toml(REPO / "configs" / "ray" / "hostage.toml")
    assert config.variant == "hostage" and config.selfplay.workers == 2
    assert config.to_dict()["learner"]["batch_size"] == 256


@pytest.mark.parametrize("tables, message", [
    ({"selfplay": {"wrokers": 2}}, "unknown field `selfplay.wrokers`"),
    ({"gpu": 1}, "unknown field `gpu`"),
    ({"selfplay": {"workers": 0}}, "selfplay.workers = 0 is out of range"),
    ({"selfplay": {"workers": 2.5}}, "selfplay.workers = 2.5: expected int"),
    ({"selfplay": {"evaluator": "tpu"}}, "selfplay.evaluator = 'tpu'"),
    ({"learner": {"batch_size": "big"}}, "learner.batch_size = 'big': expected int"),
    ({"learner": {"momentum": 1.0}}, "learner.momentum = 1.0 is out of range"),
    ({"run": {"steps": 0, "minutes": 0}}, "would never stop"),
    ({"variant": "checkers"}, "unknown variant 'checkers'"),
    ({"options": {"mode": "defector"}}, "no rule option 'mode'"),
    ({"learner": 3}, "learner: expected a table"),
])
def test_bad_config_is_a_config_error(tables, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")) as error:
        RayConfig.from_dict(tables)
    assert isinstance(error.value, ValueError)


def test_bad_toml_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[selfplay]\nworkers = -1\n")
    with pytest.raises(ConfigError, match=r"bad.toml: selfplay.workers = -1"):
        RayConfig.from_toml(path)


def test_cli_reports_a_bad_config(tmp_path, capsys):
    from heterodox.ray import main

    path = tmp_path / "bad.toml"
    path.write_text("[learner]\nbatch = 64\n")
    assert main(["--config", str(path)]) == 2
    assert "unknown field `learner.batch`" in capsys.readouterr().err


def test_importable_without_ray():
    """`import heterodox` and `import heterodox.ray` never need Ray; using
    it without Ray says what to install."""
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import heterodox, heterodox.ray\n"
        "heterodox.ray.RayConfig.from_dict({'selfplay': {'workers': 3}})\n"
        "try:\n"
        "    heterodox.ray.import_ray()\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         timeout=60).stdout
    assert "pip install 'heterodox[ray]'" in out


def test_truncated_shard_is_refused(tmp_path):
    """What the fault tolerance relies on: a shard is whole or refused."""
    path = tmp_path / "whole.hdxshard"
    heterodox.self_play("hostage", path, games=1, simulations=4, max_plies=6)
    bad = tmp_path / "cut.hdxshard"
    bad.write_bytes(path.read_bytes()[:-20])
    with pytest.raises(ValueError):
        heterodox.read_shard(bad)
    temp = tmp_path / ".w000-000000.hdxshard.tmp-4242-0"
    temp.write_bytes(path.read_bytes())
    with pytest.raises(ValueError, match="temporary"):
        heterodox.read_shard(temp)


# --- on a local Ray cluster --------------------------------------------------


@pytest.fixture(scope="module")
def local_cluster():
    ray = pytest.importorskip("ray")
    pytest.importorskip("torch")
    pytest.importorskip("safetensors")
    from heterodox.ray import init_ray

    init_ray(tiny_config("unused", 1))
    yield ray
    ray.shutdown()


def check_shards(run_dir):
    """Every shard in the run reads whole; no temporary file is left."""
    shard_dir = run_dir / "shards"
    names = sorted(p.name for p in shard_dir.iterdir())
    assert names and all(n.endswith(".hdxshard") and not n.startswith(".") for n in names), names
    for name in names:
        assert len(heterodox.read_shard(shard_dir / name)["games"]) == 4
    return names


def test_killed_actors_are_restarted_and_training_goes_on(local_cluster, tmp_path):
    run_dir = tmp_path / "run"
    shard_dir = run_dir / "shards"
    shard_dir.mkdir(parents=True)
    # What a worker 0 killed while writing would have left: its temporary
    # file (the Rust writer renames only a complete, synced file).
    stale = shard_dir / ".w000-000000.hdxshard.tmp-999999-0"
    stale.write_bytes(b"HDXSHARD half a shard")
    events, killed = [], {}

    def on_event(kind, info):
        events.append((kind, dict(info)))
        if kind == "started" and "learner" not in killed:
            killed["learner_pid"] = info["pid"]
        if kind == "submitted" and info["worker"] == 0 and info["task"] == 1 and "worker" not in killed:
            # Worker 0 has just been handed task 1: killed at once, with the
            # task in flight. (A kill some time later raced the task: on an
            # idle machine a tiny task can finish first, and the restarted
            # actor then plays the next task without any failure.)
            killed["worker"] = info["pid"]
            os.kill(info["pid"], signal.SIGKILL)
        if kind == "trained" and info.get("version") == 2 and "learner" not in killed:
            killed["learner"] = killed["learner_pid"]
            os.kill(killed["learner_pid"], signal.SIGKILL)

    from heterodox.ray import train

    summary = train(tiny_config(run_dir, steps=40), on_event=on_event)

    assert summary.step >= 40
    assert "learner" in killed and "worker" in killed
    assert summary.worker_failures >= 1, events
    failed = [info for kind, info in events if kind == "worker_failed"]
    assert failed[0]["worker"] == 0 and failed[0]["task"] == 1
    # The lost task was played again, by a new process, into the same name.
    redone = [info for kind, info in events if kind == "shard" and info["worker"] == 0 and info["task"] == 1]
    assert len(redone) == 1 and redone[0]["pid"] != killed["worker"]
    assert not stale.exists()
    names = check_shards(run_dir)
    assert "w000-000001.hdxshard" in names
    assert sorted(Path(p).name for p in summary.shards) == names
    # The learner went on from its checkpoint: weights versions follow one
    # another (a fresh learner would start again at version 1).
    versions = [info["version"] for kind, info in events if kind == "trained" and info.get("new_shards")]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) > 2
    assert heterodox.Loader(shard_dir).num_games == 4 * len(names)
    import heterodox.torch as hx

    hx.load(run_dir / "last", expected_spec=heterodox.encoding_spec("hostage"))


def test_a_second_run_resumes_the_first(local_cluster, tmp_path):
    from heterodox.ray import train

    run_dir = tmp_path / "run"
    first = train(tiny_config(run_dir, steps=8))
    events = []
    second = train(tiny_config(run_dir, steps=first.step + 8), on_event=lambda k, i: events.append((k, i)))
    (started,) = [info for kind, info in events if kind == "started"]
    assert started["resumed_from"] is not None
    assert started["step"] == first.step and started["version"] == first.version
    assert second.step >= first.step + 8 and second.version > first.version
    # New tasks, new names: no shard the first run wrote was overwritten.
    assert not set(first.shards) & set(second.shards)
    check_shards(run_dir)
