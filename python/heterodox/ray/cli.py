"""The commands of a Ray run:

    python -m heterodox.ray --config configs/ray/hostage.toml [--address auto]
        [--run DIR] [--steps N] [--minutes M] [--workers N]
    python -m heterodox.ray claim NAME --out OUT --parts N [--address auto]
        [--resume] -- CLAIM OPTIONS        (heterodox.ray.claim)
    python -m heterodox.ray arena --out OUT --parts N [--address auto]
        [--resume] -- ARENA OPTIONS        (heterodox.ray.claim)
    python -m heterodox.ray teach --out DIR --positions N [--address auto]
        -- TEACH OPTIONS                   (heterodox.ray.teach)

Without --address (and without cluster.address in the config) it starts
Ray on this machine; with one it joins that cluster (``auto``: the one
this node belongs to, as started by ``ray start``). A run directory that
already holds a learner checkpoint is resumed.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from heterodox.ray.config import ConfigError, RayConfig


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m heterodox.ray",
                                     description="AlphaZero self-play and training on Ray")
    parser.add_argument("--config", help="TOML file (configs/ray/hostage.toml); default: built-in defaults")
    parser.add_argument("--address", help="an existing cluster ('auto', 'ray://host:10001'); "
                                          "default: a local Ray instance")
    parser.add_argument("--run", help="run directory, on storage every node shares (run.dir)")
    parser.add_argument("--steps", type=int, help="learner SGD steps (run.steps)")
    parser.add_argument("--minutes", type=float, help="wall-clock limit (run.minutes)")
    parser.add_argument("--workers", type=int, help="self-play actors (selfplay.workers)")
    return parser.parse_args(argv)


def config_of(args: argparse.Namespace) -> RayConfig:
    """The config file with the command line's overrides, checked."""
    config = RayConfig.from_toml(args.config) if args.config else RayConfig()
    if args.run is not None:
        config.run = dataclasses.replace(config.run, dir=args.run)
    if args.steps is not None:
        config.run = dataclasses.replace(config.run, steps=args.steps)
    if args.minutes is not None:
        config.run = dataclasses.replace(config.run, minutes=args.minutes)
    if args.workers is not None:
        config.selfplay = dataclasses.replace(config.selfplay, workers=args.workers)
    config.validate()
    return config


def print_event(kind: str, info: dict[str, Any]) -> None:
    if kind == "started":
        where = f"resumed from {info['resumed_from']}" if info["resumed_from"] else "fresh network"
        print(f"learner: {where}, step {info['step']}, device {info['device']}", flush=True)
    elif kind == "trained" and info.get("new_shards"):
        print(f"step {info['step']:>6}  weights v{info['version']}  +{info['new_shards']} shards  "
              f"{info['positions']} positions in window  policy loss {info['policy_loss']:.3f}  "
              f"value loss {info['value_loss']:.3f}", flush=True)
    elif kind in ("worker_failed", "learner_failed"):
        print(f"{kind.replace('_', ' ')}: {info}; retrying", flush=True)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["claim"]:
        from heterodox.ray.claim import main as claim_main

        return claim_main(argv[1:])
    if argv[:1] == ["arena"]:
        from heterodox.ray.claim import main as claim_main

        return claim_main(argv[1:], "arena")
    if argv[:1] == ["teach"]:
        from heterodox.ray.teach import main as teach_main

        return teach_main(argv[1:])
    args = parse_args(argv)
    try:
        config = config_of(args)
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from heterodox.ray.driver import train

    summary = train(config, on_event=print_event, address=args.address)
    print(f"done: step {summary.step}, weights v{summary.version}; {len(summary.shards)} shards, "
          f"{summary.games} games, {summary.positions} positions in {summary.seconds:.1f} s "
          f"({summary.positions_per_second:.0f} positions/s); restarts: "
          f"{summary.worker_failures} self-play, {summary.learner_failures} learner")
    print(f"checkpoint: {config.run_dir / 'last'} (heterodox selfplay --variant {config.variant} "
          f"--net {config.run_dir / 'last'} --out DIR)")
    return 0
