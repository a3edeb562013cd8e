"""The processes of a Ray run, as plain classes: the self-play worker, the
learner and the shared inference server. heterodox.ray.driver turns them
into Ray actors (``ray.remote(...)(SelfPlayWorker)``); kept free of Ray
here, so each can also be built and tested in one process.

Files (under ``run.dir``, shared by every node):

* ``shards/wNNN-TTTTTT.hdxshard``: task TTTTTT of worker NNN, written
  atomically by the Rust writer (temporary ``.wNNN-TTTTTT.hdxshard.tmp-*``,
  fsync, rename), so a shard is either whole or absent; a worker killed
  while writing leaves only its temporary file, which it deletes when Ray
  restarts it and which no reader takes (its name does not end in
  .hdxshard, and ``read_shard`` refuses it).
* ``learner/ckpt-VVVVVV/``: the learner's checkpoints (heterodox.torch
  format, which ``heterodox selfplay --net`` plays), with
  ``ckpt-VVVVVV.optim.pt`` its optimizer state, and ``learner/state.json``
  naming the last complete one, written last and atomically: a learner
  restarted after a kill resumes from the checkpoint it names.
* ``last/``: the newest weights, for ``heterodox selfplay --net run/last``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import numpy as np

import heterodox
from heterodox._atomic import write_file
from heterodox.ray.config import RayConfig

#: The weights as they travel through Ray's object store: the learner's
#: version number and every tensor of the network as a numpy array.
Weights = tuple[int, dict[str, np.ndarray]]
Evaluator = Callable[[dict[str, np.ndarray]], tuple[np.ndarray, np.ndarray]]

SHARDS = "shards"
LEARNER = "learner"
STATE_FILE = "state.json"


def shard_name(worker: int, task: int) -> str:
    """The file name of a worker's task: one per (worker, task), so a task
    retried after a kill writes the same name and no game is counted
    twice."""
    return f"w{worker:03}-{task:06}.hdxshard"


def task_seed(seed: int, worker: int, task: int) -> int:
    """A distinct self-play seed per (run seed, worker, task)."""
    return ((seed * 1_000_003 + worker) * 1_000_003 + task) % (1 << 62)


def discard_unfinished(shard_dir: Path, worker: int) -> list[str]:
    """Deletes the temporary files a killed writer of this worker left
    (``.wNNN-*.hdxshard.tmp-*``) and returns their names. Only the worker's
    own: a restarted actor is the only process writing its names."""
    removed = []
    for path in shard_dir.glob(f".w{worker:03}-*.tmp-*"):
        try:
            path.unlink()
            removed.append(path.name)
        except FileNotFoundError:
            pass
    return sorted(removed)


def _new_network(config: RayConfig) -> Any:
    import heterodox.torch as hx

    n = config.network
    return hx.ResNet.for_variant(config.variant, history=config.history, rules=config.options,
                                 blocks=n.blocks, channels=n.channels, value_hidden=n.value_hidden)


def _to_numpy(net: Any) -> dict[str, np.ndarray]:
    return {name: tensor.detach().cpu().numpy().copy() for name, tensor in net.state_dict().items()}


def _load_numpy(net: Any, tensors: dict[str, np.ndarray]) -> None:
    import torch

    # Arrays from the object store are read-only views of shared memory:
    # copied into tensors the network owns.
    net.load_state_dict({name: torch.tensor(array) for name, array in tensors.items()})


class SelfPlayWorker:
    """One self-play actor: each ``play`` call runs the Rust self-play
    workers (``heterodox.self_play``) for ``games_per_worker`` games with
    the given weights and writes them as one shard."""

    def __init__(self, config: RayConfig, index: int, server: Any = None):
        self.config = config
        self.index = index
        self.server = server
        self.shard_dir = config.run_dir / SHARDS
        self.shard_dir.mkdir(parents=True, exist_ok=True)
        # Built when this process starts, i.e. also when Ray restarts the
        # actor after a crash: what the dead process left unfinished goes.
        self.discarded = discard_unfinished(self.shard_dir, index)
        self.version = -1
        self.net: Any = None
        self.evaluate: Evaluator | None = None
        if config.selfplay.evaluator == "cpu":
            import torch

            # The Rust search's threads share the actor's cores with PyTorch.
            torch.set_num_threads(1)

    def pid(self) -> int:
        """The actor's process id (what the fault test kills)."""
        return os.getpid()

    def discarded_files(self) -> list[str]:
        """The temporary files this process deleted when it started."""
        return self.discarded

    def _evaluator(self, weights: Weights) -> Evaluator | None:
        kind = self.config.selfplay.evaluator
        if kind == "uniform":
            return None
        if kind == "inference":
            import ray

            server = self.server
            return lambda requests: ray.get(server.evaluate.remote(requests))
        version, tensors = weights
        if self.net is None:
            self.net = _new_network(self.config)
        if version != self.version:
            import heterodox.torch as hx

            _load_numpy(self.net, tensors)
            self.evaluate = hx.evaluator(self.net.eval(), "cpu")
            self.version = version
        return self.evaluate

    def play(self, task: int, weights: Weights) -> dict[str, Any]:
        """Plays task ``task`` with ``weights`` (resolved by Ray from the
        object store) and returns the run's totals with the shard's path."""
        s = self.config.selfplay
        path = self.shard_dir / shard_name(self.index, task)
        stats = heterodox.self_play(
            self.config.variant, path, self._evaluator(weights),
            games=s.games_per_worker, concurrent=s.concurrent, simulations=s.simulations,
            root_policy=s.root_policy, seed=task_seed(self.config.seed, self.index, task),
            history=self.config.history, max_plies=s.max_plies or None,
            temperature_plies=s.temperature_plies, opening_plies=s.opening_plies,
            producer=f"heterodox.ray worker {self.index} task {task} weights {weights[0]}",
            rules=self.config.options,
        )
        return {**stats, "worker": self.index, "task": task, "path": str(path),
                "version": weights[0], "pid": os.getpid()}


class InferenceServer:
    """The shared evaluator of selfplay.evaluator = 'inference': one
    network, on a GPU when the actor got one, answering every worker's
    leaves (one forward pass per request)."""

    def __init__(self, config: RayConfig):
        import torch

        import heterodox.torch as hx

        self.device = "cuda" if config.inference.gpus > 0 and torch.cuda.is_available() else "cpu"
        if self.device == "cpu":
            torch.set_num_threads(max(1, int(config.inference.cpus)))
        self.net = _new_network(config).to(self.device).eval()
        self.version = -1
        self.evaluate_fn = hx.evaluator(self.net, self.device)

    def set_weights(self, weights: Weights) -> int:
        version, tensors = weights
        if version != self.version:
            _load_numpy(self.net, tensors)
            self.net.to(self.device).eval()
            self.version = version
        return self.version

    def evaluate(self, requests: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        return self.evaluate_fn(requests)


class Learner:
    """The PyTorch learner (heterodox.learn: the Rust trainer's loss and
    optimizer). ``train(shards)`` takes the shards finished since its last
    call, trains on the window of the newest ones and checkpoints; a
    learner built on a run directory that has a checkpoint resumes from
    it (weights, optimizer, step, the shards it had seen)."""

    def __init__(self, config: RayConfig):
        import torch

        import heterodox.torch as hx
        from heterodox.learn import optimizer_for

        self.config = config
        c = config.learner
        torch.set_num_threads(c.torch_threads)
        if c.device == "auto":
            self.device = "cuda" if torch.cuda.is_available() else "cpu"
        else:
            self.device = c.device
        self.dir = config.run_dir / LEARNER
        self.dir.mkdir(parents=True, exist_ok=True)
        self.spec = heterodox.encoding_spec(config.variant, history=config.history, rules=config.options)
        self.net = _new_network(config)
        self.optimizer = None
        self.step = 0
        self.version = 0
        self.shards: list[str] = []
        self.resumed_from: str | None = None
        state_path = self.dir / STATE_FILE
        if state_path.exists():
            state = json.loads(state_path.read_text(encoding="utf-8"))
            checkpoint = self.dir / state["checkpoint"]
            self.net = hx.load(checkpoint, expected_spec=self.spec)
            self.step, self.version, self.shards = state["step"], state["version"], state["shards"]
            self.resumed_from = str(checkpoint)
        self.net = self.net.to(self.device)
        self.optimizer = optimizer_for(self.net, lr=c.learning_rate, momentum=c.momentum,
                                       weight_decay=c.weight_decay, nesterov=c.nesterov)
        if self.resumed_from is not None:
            optim = Path(f"{self.resumed_from}.optim.pt")
            if optim.exists():
                self.optimizer.load_state_dict(torch.load(optim, map_location=self.device))

    def pid(self) -> int:
        return os.getpid()

    def status(self) -> dict[str, Any]:
        """Where the learner stands: step, weights version, shards seen, and
        the checkpoint it resumed from (None for a fresh start)."""
        return {"step": self.step, "version": self.version, "shards": len(self.shards),
                "resumed_from": self.resumed_from, "pid": os.getpid(), "device": self.device}

    def weights(self) -> Weights:
        """The current weights, for the object store."""
        return self.version, _to_numpy(self.net)

    def train(self, shards: list[str]) -> dict[str, Any]:
        """Adds the new shards (one already seen is skipped: the driver
        sends them again to a learner restarted mid-call), takes
        ``steps_per_shard`` SGD steps per new shard on the window, then
        checkpoints. Returns the step, version and losses."""
        from heterodox.learn import sgd_step

        c = self.config.learner
        new = [s for s in shards if s not in self.shards]
        self.shards.extend(new)
        if not new:
            return {"step": self.step, "version": self.version, "new_shards": 0}
        window = self.shards[-c.window_shards:]
        loader = heterodox.Loader(window, history=self.config.history, z_weight=c.z_weight,
                                  seed=self.config.seed * 1_000_003 + self.step)
        steps = c.steps_per_shard * len(new)
        losses = [sgd_step(self.net, self.optimizer, loader.sample(c.batch_size), self.device)
                  for _ in range(steps)]
        self.net.eval()
        self.step += steps
        self.version += 1
        self._checkpoint()
        loss, policy_loss, value_loss = (float(np.mean(column)) for column in zip(*losses))
        return {"step": self.step, "version": self.version, "new_shards": len(new),
                "positions": loader.num_positions, "loss": loss, "policy_loss": policy_loss,
                "value_loss": value_loss}

    def _checkpoint(self) -> None:
        """The checkpoint, its optimizer state, then state.json naming them
        (each write atomic, state.json last): a kill at any point leaves
        state.json naming a complete checkpoint."""
        import torch

        import heterodox.torch as hx

        name = f"ckpt-{self.version:06}"
        hx.save(self.net, self.dir / name)
        optim = self.dir / f"{name}.optim.pt"
        write_file(optim, lambda temp: torch.save(self.optimizer.state_dict(), temp))
        state = {"checkpoint": name, "step": self.step, "version": self.version,
                 "shards": self.shards}
        write_file(self.dir / STATE_FILE, json.dumps(state, indent=1))
        hx.save(self.net, self.config.run_dir / "last")
        kept = sorted(p for p in self.dir.glob("ckpt-*") if p.is_dir())[:-self.config.learner.keep_checkpoints]
        for old in kept:
            shutil.rmtree(old, ignore_errors=True)
            Path(f"{old}.optim.pt").unlink(missing_ok=True)
