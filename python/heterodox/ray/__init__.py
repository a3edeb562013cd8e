"""AlphaZero on a Ray cluster: the same self-play workers, shards and
checkpoints as one machine, spread over as many as the cluster has.

    python -m heterodox.ray --config configs/ray/hostage.toml                # local
    python -m heterodox.ray --config configs/ray/hostage.toml --address auto # a cluster

Self-play actors (``SelfPlayWorker``) run the Rust self-play workers through
``heterodox.self_play``, each with its own evaluator (its own CPU copy of
the network, or requests to a shared ``InferenceServer`` on a GPU), and
write one shard per task to the shared run directory; the learner
(``Learner``, the PyTorch trainer of heterodox.learn) trains on the shards
as they arrive and checkpoints; each new version of the weights goes to
the actors through Ray's object store. Actors are restarted when they die;
see docs/scale-out.md.

    python -m heterodox.ray claim NAME --out OUT --parts N --address auto -- OPTIONS

plays a strategy claim's games in N tasks across the cluster and writes
the report a run on one machine writes (``heterodox.ray.claim``);
``python -m heterodox.ray teach`` writes a teacher directory shard by
shard in tasks, the same directory one machine writes
(``heterodox.ray.teach``).

Needs Ray (optional extra ``heterodox[ray]``) and PyTorch; neither is
imported until used, so ``import heterodox.ray`` and the config checks
work without them, and ``train`` says what to install.
"""

from heterodox.ray.actors import (
    InferenceServer,
    Learner,
    SelfPlayWorker,
    discard_unfinished,
    shard_name,
)
from heterodox.ray.config import (
    ClusterConfig,
    ConfigError,
    InferenceConfig,
    LearnerConfig,
    NetworkConfig,
    RayConfig,
    RunConfig,
    SelfPlayConfig,
)
from heterodox.ray.claim import ClaimRunError, ClaimRunSummary, run_arena, run_claim
from heterodox.ray.driver import RunSummary, import_ray, init_ray, train
from heterodox.ray.games import play
from heterodox.ray.teach import TeachRunError, TeachRunSummary, run_teach
from heterodox.ray.cli import main

__all__ = [
    "ClaimRunError",
    "ClaimRunSummary",
    "ClusterConfig",
    "ConfigError",
    "InferenceConfig",
    "InferenceServer",
    "Learner",
    "LearnerConfig",
    "NetworkConfig",
    "RayConfig",
    "RunConfig",
    "RunSummary",
    "SelfPlayConfig",
    "SelfPlayWorker",
    "TeachRunError",
    "TeachRunSummary",
    "discard_unfinished",
    "import_ray",
    "init_ray",
    "main",
    "play",
    "run_arena",
    "run_claim",
    "run_teach",
    "shard_name",
    "train",
]
