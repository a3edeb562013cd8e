"""The driver of a Ray run: starts the learner, the self-play actors and
(optionally) the inference server, feeds the learner the shards as they
arrive, and broadcasts each new version of the weights through Ray's
object store. It holds no training state of its own: a run directory
holds everything, so a driver started again on it goes on where the last
one stopped.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from heterodox.ray.actors import SHARDS, InferenceServer, Learner, SelfPlayWorker
from heterodox.ray.config import RayConfig

#: on_event(kind, info): 'started' (learner status), 'submitted' (worker,
#: task, pid: the worker's last known process id), 'shard' (a finished
#: task's totals), 'worker_failed' and 'learner_failed' (the error; the
#: task is retried), 'trained' (the learner's step, version, losses).
EventHook = Callable[[str, dict[str, Any]], None]


def import_ray() -> Any:
    """Ray, or an ImportError saying how to get it (it is an optional
    extra: ``import heterodox`` never needs it)."""
    try:
        import ray
    except ImportError as error:
        raise ImportError("heterodox.ray needs Ray: pip install 'heterodox[ray]' "
                          "(or pip install ray)") from error
    return ray


def init_ray(config: RayConfig, address: str | None = None) -> None:
    """Connects to the cluster at ``address`` (or config.cluster.address),
    or starts a local Ray instance bounded by the [cluster] settings: no
    dashboard, and the workers' logs kept out of the driver's output."""
    ray = import_ray()
    if ray.is_initialized():
        return
    address = address if address is not None else config.cluster.address
    if address:
        ray.init(address=address, log_to_driver=False, logging_level="warning")
    else:
        ray.init(num_cpus=config.cluster.num_cpus,
                 object_store_memory=config.cluster.object_store_memory,
                 include_dashboard=False, log_to_driver=False, logging_level="warning")


@dataclass
class RunSummary:
    """What a run did: the learner's final step and weights version, the
    shards written (paths), the positions and games played, the seconds,
    and how often an actor died and its work was redone."""

    step: int = 0
    version: int = 0
    shards: list[str] = field(default_factory=list)
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    worker_failures: int = 0
    learner_failures: int = 0
    resumed_from: str | None = None

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0


def _next_tasks(config: RayConfig) -> list[int]:
    """Per worker, the first task number not yet used in the run directory
    (a driver started again never overwrites a shard the learner read)."""
    next_task = [0] * config.selfplay.workers
    pattern = re.compile(r"^w(\d{3})-(\d{6})\.hdxshard$")
    shard_dir = config.run_dir / SHARDS
    if shard_dir.is_dir():
        for path in shard_dir.iterdir():
            match = pattern.match(path.name)
            if match and int(match[1]) < len(next_task):
                worker = int(match[1])
                next_task[worker] = max(next_task[worker], int(match[2]) + 1)
    return next_task


def wait_alive(ray: Any, actor: Any, timeout: float = 300.0) -> int:
    """Waits until Ray has restarted a dead actor (calls to one that is
    restarting fail at once, as ActorUnavailableError) and returns its new
    process id."""
    from ray.exceptions import RayActorError

    deadline = time.monotonic() + timeout
    delay = 0.05
    while True:
        try:
            return ray.get(actor.pid.remote())
        except RayActorError:
            if time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(1.0, 2 * delay)


def train(config: RayConfig, on_event: EventHook | None = None, address: str | None = None) -> RunSummary:
    """Runs self-play and training on Ray until run.steps learner steps or
    run.minutes minutes; connects first (init_ray) unless Ray already is.

    A self-play actor that dies (its process killed, its node lost) is
    restarted by Ray (max_restarts); the driver sees its task fail and
    submits the same task again, which writes the same shard name, so no
    game is lost or counted twice. The learner likewise: restarted, it
    resumes from its last checkpoint and gets the shards again.
    """
    ray = import_ray()
    from ray.exceptions import RayActorError

    init_ray(config, address)
    emit = on_event or (lambda kind, info: None)
    s, c = config.selfplay, config.learner
    config.run_dir.mkdir(parents=True, exist_ok=True)
    (config.run_dir / SHARDS).mkdir(exist_ok=True)
    (config.run_dir / "config.json").write_text(__import__("json").dumps(config.to_dict(), indent=1))

    learner = ray.remote(Learner).options(
        num_cpus=c.cpus, num_gpus=c.gpus, max_restarts=c.max_restarts,
    ).remote(config)
    status = ray.get(learner.status.remote())
    emit("started", status)
    summary = RunSummary(step=status["step"], version=status["version"],
                         resumed_from=status["resumed_from"])

    def learner_failed(error: Exception) -> None:
        """Counts a learner death and waits for Ray to restart it (it
        resumes from its checkpoint in its constructor)."""
        summary.learner_failures += 1
        if c.max_restarts != -1 and summary.learner_failures > c.max_restarts:
            raise error
        emit("learner_failed", {"error": repr(error)})
        wait_alive(ray, learner)

    def fetch_weights() -> Any:
        """The learner's weights, put into the object store by the driver:
        the driver owns them, so they outlive a learner that dies (an
        object the learner returned would be lost with it), and every
        actor of a node reads the node's one copy."""
        while True:
            try:
                return ray.put(ray.get(learner.weights.remote()))
            except RayActorError as error:
                learner_failed(error)

    weights_ref = fetch_weights()
    version = status["version"]

    server = None
    if s.evaluator == "inference":
        server = ray.remote(InferenceServer).options(
            num_cpus=config.inference.cpus, num_gpus=config.inference.gpus,
            max_restarts=config.inference.max_restarts,
        ).remote(config)
        ray.get(server.set_weights.remote(weights_ref))

    threads = str(max(1, math.ceil(s.cpus_per_worker)))
    worker_class = ray.remote(SelfPlayWorker).options(
        num_cpus=s.cpus_per_worker, max_restarts=s.max_restarts,
        # The Rust workers' thread pool: as many threads as reserved cores,
        # not as many as the node has (rayon's default), so actors sharing
        # a node do not fight for its cores.
        runtime_env={"env_vars": {"RAYON_NUM_THREADS": threads, "OMP_NUM_THREADS": "1"}},
    )
    workers = [worker_class.remote(config, i, server) for i in range(s.workers)]
    pids = ray.get([w.pid.remote() for w in workers])
    next_task = _next_tasks(config)
    pending: dict[Any, tuple[int, int]] = {}
    failures = [0] * s.workers

    def submit(worker: int, task: int) -> None:
        ref = workers[worker].play.remote(task, weights_ref)
        pending[ref] = (worker, task)
        emit("submitted", {"worker": worker, "task": task, "pid": pids[worker]})

    started = time.monotonic()

    def finished() -> bool:
        if config.run.steps and summary.step >= config.run.steps:
            return True
        return bool(config.run.minutes) and time.monotonic() - started >= 60 * config.run.minutes

    for worker in range(s.workers):
        submit(worker, next_task[worker])
        next_task[worker] += 1

    learner_ref = None
    learner_batch: list[str] = []
    waiting: list[str] = []
    while pending or learner_ref is not None:
        refs = list(pending) + ([learner_ref] if learner_ref is not None else [])
        (ref,), _ = ray.wait(refs, num_returns=1)
        if ref is learner_ref or (learner_ref is not None and ref == learner_ref):
            learner_ref = None
            try:
                result = ray.get(ref)
            except RayActorError as error:
                # Restarted by Ray from its last checkpoint; the same shards
                # again (it skips those it had checkpointed).
                learner_failed(error)
                waiting = learner_batch + waiting
            else:
                summary.step, summary.version = result["step"], result["version"]
                emit("trained", result)
                if result["version"] != version:
                    version = result["version"]
                    weights_ref = fetch_weights()
                    if server is not None:
                        server.set_weights.remote(weights_ref)
        else:
            worker, task = pending.pop(ref)
            try:
                result = ray.get(ref)
            except RayActorError as error:
                failures[worker] += 1
                summary.worker_failures += 1
                if s.max_restarts != -1 and failures[worker] > s.max_restarts:
                    raise
                emit("worker_failed", {"worker": worker, "task": task, "error": repr(error)})
                pids[worker] = wait_alive(ray, workers[worker])
                submit(worker, task)
                continue
            pids[worker] = result["pid"]
            summary.shards.append(result["path"])
            summary.games += result["games"]
            summary.positions += result["positions"]
            waiting.append(result["path"])
            emit("shard", result)
            if not finished():
                submit(worker, next_task[worker])
                next_task[worker] += 1
        if learner_ref is None and waiting and not finished():
            learner_batch, waiting = waiting, []
            learner_ref = learner.train.remote(learner_batch)
    summary.seconds = time.monotonic() - started
    for worker in workers:
        ray.kill(worker, no_restart=True)
    if server is not None:
        ray.kill(server, no_restart=True)
    ray.kill(learner, no_restart=True)
    return summary
