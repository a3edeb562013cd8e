"""The configuration of a Ray run (heterodox.ray): dataclasses read from a
TOML file, every field checked before anything starts.

It imports neither Ray nor PyTorch, so a config can be checked (and the
tests of its errors run) on a machine that has neither.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
# Optional[X] rather than `X | None`: get_type_hints evaluates the annotations,
# and the package supports Python 3.9.
from typing import Any, Optional, Union, get_args, get_origin, get_type_hints

import heterodox


class ConfigError(ValueError):
    """A Ray run's config that cannot be used: an unknown table or field, a
    value of the wrong type or out of range, an unknown variant or rule.
    The message names the field (``selfplay.workers``) and what it accepts.
    """


@dataclass
class ClusterConfig:
    """Where the run goes: ``address`` None starts a local Ray instance on
    this machine (``num_cpus``, ``object_store_memory`` bound it); any
    other address (``"auto"``, ``"ray://host:10001"``) joins an existing
    cluster, whose own resources then count."""

    address: Optional[str] = None
    num_cpus: Optional[int] = None
    object_store_memory: Optional[int] = None


@dataclass
class RunConfig:
    """When the run stops (after ``steps`` learner SGD steps, or after
    ``minutes``, whichever comes first; 0 turns a limit off), and ``dir``,
    the run directory: it must be on a file system every node sees (NFS, a
    shared volume), since the workers write shards there and the learner
    reads them and writes its checkpoints there."""

    dir: str = "runs/ray"
    steps: int = 300
    minutes: float = 0.0


@dataclass
class SelfPlayConfig:
    """The self-play actors: ``workers`` actors, each playing
    ``games_per_worker`` games into one shard per task (the unit a killed
    actor loses and the learner receives), ``cpus_per_worker`` cores each
    (Ray's reservation and the Rust workers' threads). ``evaluator``:
    'cpu' (each actor runs its own copy of the network on its cores),
    'inference' (the actors send their leaves to one shared inference
    actor, on a GPU where [inference] asks for one) or 'uniform' (the
    Rust uniform evaluator: no network, for measuring the plumbing)."""

    workers: int = 2
    games_per_worker: int = 16
    concurrent: Optional[int] = None
    simulations: int = 16
    root_policy: str = "gumbel"
    max_plies: int = 160
    temperature_plies: int = 30
    opening_plies: int = 0
    evaluator: str = "cpu"
    cpus_per_worker: float = 1.0
    max_restarts: int = 10


@dataclass
class NetworkConfig:
    """The tower of the network (its input and output shapes come from the
    variant's encoding spec), as the Rust trainer's [network]."""

    blocks: int = 2
    channels: int = 32
    value_hidden: int = 64


@dataclass
class LearnerConfig:
    """The PyTorch learner: ``steps_per_shard`` SGD steps of
    ``batch_size`` positions for each new shard (so training keeps pace
    with the data, whatever the number of workers), on the positions of
    the last ``window_shards`` shards. ``device`` 'auto' is CUDA where the
    learner's node has it; ``gpus`` and ``cpus`` are its Ray reservation."""

    batch_size: int = 256
    steps_per_shard: int = 10
    window_shards: int = 16
    learning_rate: float = 0.02
    momentum: float = 0.9
    weight_decay: float = 1e-4
    nesterov: bool = True
    z_weight: float = 0.5
    device: str = "auto"
    cpus: float = 1.0
    gpus: float = 0.0
    torch_threads: int = 1
    keep_checkpoints: int = 3
    max_restarts: int = 10


@dataclass
class InferenceConfig:
    """The shared inference actor (selfplay.evaluator = 'inference'):
    ``gpus`` > 0 places it on a GPU node and runs it on CUDA."""

    gpus: float = 0.0
    cpus: float = 1.0
    max_restarts: int = 10


@dataclass
class RayConfig:
    """A whole Ray run: the variant and its rules, and one table per part."""

    variant: str = "hostage"
    seed: int = 0
    history: int = 1
    options: dict[str, str] = field(default_factory=dict)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
    run: RunConfig = field(default_factory=RunConfig)
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    network: NetworkConfig = field(default_factory=NetworkConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    inference: InferenceConfig = field(default_factory=InferenceConfig)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RayConfig:
        """A config from the tables of a TOML file (absent fields take their
        defaults), checked: ConfigError names the first bad field."""
        config = _build(cls, data, "")
        config.validate()
        return config

    @classmethod
    def from_toml(cls, path: str | os.PathLike[str]) -> RayConfig:
        """Reads and checks a TOML config file."""
        try:
            import tomllib
        except ImportError:  # Python < 3.11
            try:
                import tomli as tomllib  # type: ignore[no-redef]
            except ImportError as error:
                raise ImportError("reading a TOML config on Python < 3.11 needs tomli "
                                  "(pip install tomli)") from error
        try:
            with open(path, "rb") as file:
                data = tomllib.load(file)
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"config {path}: {error}") from error
        try:
            return cls.from_dict(data)
        except ConfigError as error:
            raise ConfigError(f"config {path}: {error}") from None

    def to_dict(self) -> dict[str, Any]:
        """The config as plain tables (what the run directory records)."""
        return dataclasses.asdict(self)

    def validate(self) -> None:
        """Checks ranges and names; ConfigError for the first bad field."""
        if self.variant not in heterodox.variants():
            raise ConfigError(f"variant: unknown variant {self.variant!r}, expected one of "
                              f"{', '.join(heterodox.variants())}")
        try:
            heterodox.encoding_spec(self.variant, history=self.history, rules=self.options)
        except ValueError as error:
            raise ConfigError(f"options/history: {error}") from None
        _at_least("seed", self.seed, 0)
        _at_least("history", self.history, 1)
        if self.cluster.num_cpus is not None:
            _at_least("cluster.num_cpus", self.cluster.num_cpus, 1)
        if self.cluster.object_store_memory is not None:
            _at_least("cluster.object_store_memory", self.cluster.object_store_memory, 78 * 2**20)
        if not self.run.dir:
            raise ConfigError("run.dir: empty path")
        _at_least("run.steps", self.run.steps, 0)
        _at_least("run.minutes", self.run.minutes, 0.0)
        if self.run.steps == 0 and self.run.minutes == 0:
            raise ConfigError("run.steps and run.minutes are both 0: the run would never stop")
        s = self.selfplay
        _at_least("selfplay.workers", s.workers, 1)
        _at_least("selfplay.games_per_worker", s.games_per_worker, 1)
        if s.concurrent is not None:
            _at_least("selfplay.concurrent", s.concurrent, 1)
        _at_least("selfplay.simulations", s.simulations, 1)
        _one_of("selfplay.root_policy", s.root_policy, ("gumbel", "puct"))
        _at_least("selfplay.max_plies", s.max_plies, 0)
        _at_least("selfplay.temperature_plies", s.temperature_plies, 0)
        _at_least("selfplay.opening_plies", s.opening_plies, 0)
        _one_of("selfplay.evaluator", s.evaluator, ("cpu", "inference", "uniform"))
        _at_least("selfplay.cpus_per_worker", s.cpus_per_worker, 0.0)
        _at_least("selfplay.max_restarts", s.max_restarts, -1)
        for name in ("blocks", "channels", "value_hidden"):
            _at_least(f"network.{name}", getattr(self.network, name), 1 if name != "blocks" else 0)
        learner = self.learner
        _at_least("learner.batch_size", learner.batch_size, 1)
        _at_least("learner.steps_per_shard", learner.steps_per_shard, 1)
        _at_least("learner.window_shards", learner.window_shards, 1)
        if not learner.learning_rate > 0:
            raise ConfigError(f"learner.learning_rate = {learner.learning_rate} must be > 0")
        if not 0 <= learner.momentum < 1:
            raise ConfigError(f"learner.momentum = {learner.momentum} is out of range (0 to less than 1)")
        _at_least("learner.weight_decay", learner.weight_decay, 0.0)
        if not 0 <= learner.z_weight <= 1:
            raise ConfigError(f"learner.z_weight = {learner.z_weight} is out of range (0 to 1)")
        _one_of("learner.device", learner.device, ("auto", "cpu", "cuda"))
        _at_least("learner.cpus", learner.cpus, 0.0)
        _at_least("learner.gpus", learner.gpus, 0.0)
        _at_least("learner.torch_threads", learner.torch_threads, 1)
        _at_least("learner.keep_checkpoints", learner.keep_checkpoints, 1)
        _at_least("learner.max_restarts", learner.max_restarts, -1)
        _at_least("inference.gpus", self.inference.gpus, 0.0)
        _at_least("inference.cpus", self.inference.cpus, 0.0)
        _at_least("inference.max_restarts", self.inference.max_restarts, -1)

    @property
    def run_dir(self) -> Path:
        return Path(self.run.dir)


def _at_least(name: str, value: float, low: float) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{name} = {value} is not a finite number")
    if value < low:
        raise ConfigError(f"{name} = {value} is out of range (at least {low})")


def _one_of(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ConfigError(f"{name} = {value!r}, expected one of {', '.join(map(repr, allowed))}")


def _build(cls: type, data: Any, prefix: str) -> Any:
    """One dataclass from one TOML table, refusing unknown keys and values
    of the wrong type (TOML's int is accepted for a float field)."""
    where = prefix.rstrip(".") or "config"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a table, found {type(data).__name__}")
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ConfigError(f"unknown field `{prefix}{unknown[0]}`, expected one of "
                          f"{', '.join(f'`{name}`' for name in fields)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        hint = hints[name]
        if dataclasses.is_dataclass(hint):
            values[name] = _build(hint, value, f"{prefix}{name}.")
        elif get_origin(hint) is dict:
            if not isinstance(value, dict):
                raise ConfigError(f"{prefix}{name}: expected a table of rule options")
            values[name] = {str(k): str(v).lower() if isinstance(v, bool) else str(v)
                            for k, v in value.items()}
        else:
            values[name] = _check_type(f"{prefix}{name}", value, hint)
    return cls(**values)


def _check_type(name: str, value: Any, hint: Any) -> Any:
    allowed = get_args(hint) if get_origin(hint) is Union or type(hint).__name__ == "UnionType" else (hint,)
    for kind in allowed:
        if kind is type(None):
            continue
        if kind is float and isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return value
        if kind in (str, bool) and type(value) is kind:
            return value
    names = " or ".join(k.__name__ for k in allowed if k is not type(None))
    raise ConfigError(f"{name} = {value!r}: expected {names}, found {type(value).__name__}")
