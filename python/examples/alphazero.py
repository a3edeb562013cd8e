"""AlphaZero in PyTorch on Heterodox's Rust pieces.

Each iteration: the Rust self-play workers play games of the network against
itself (``heterodox.self_play``; the network, in PyTorch, evaluates every
game's search leaves in one batch) and write them as a shard; the Rust
loader re-encodes positions from the last shards (``heterodox.Loader``); SGD
in PyTorch on the same loss as the Rust trainer (cross-entropy of the
masked policy against the search's target, plus the squared error of the
value against the game result; weight decay as L2). The checkpoint it writes
is the Rust trainer's format, so the Rust side plays it::

    python python/examples/alphazero.py --variant hostage --out runs/py-hostage
    target/release/heterodox selfplay --variant hostage --net runs/py-hostage/last --out /tmp/games

Small defaults (a few minutes on a CPU); raise --iterations, --games,
--simulations and the tower for a real run, on a GPU (--device cuda).
"""

import argparse
import time
from pathlib import Path

import torch

import heterodox
import heterodox.torch as hx
from heterodox.learn import optimizer_for, sgd_step


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="hostage")
    parser.add_argument("--out", type=Path, default=Path("runs/python-alphazero"))
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--games", type=int, default=32, help="self-play games per iteration")
    parser.add_argument("--simulations", type=int, default=32, help="per move")
    parser.add_argument("--max-plies", type=int, default=120, help="cut games after this many steps")
    parser.add_argument("--window", type=int, default=4, help="iterations of games trained on")
    parser.add_argument("--steps", type=int, default=100, help="SGD steps per iteration")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.02)
    parser.add_argument("--blocks", type=int, default=hx.DEFAULT_BLOCKS)
    parser.add_argument("--channels", type=int, default=hx.DEFAULT_CHANNELS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="PyTorch's CPU threads: the Rust search's threads share the cores, "
                             "and more threads than cores make every forward pass wait")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    device = torch.device(args.device)
    net = hx.ResNet.for_variant(args.variant, blocks=args.blocks, channels=args.channels).to(device)
    optimizer = optimizer_for(net, lr=args.lr)
    games = args.out / "games"
    games.mkdir(parents=True, exist_ok=True)
    for iteration in range(1, args.iterations + 1):
        started = time.perf_counter()
        net.eval()
        stats = heterodox.self_play(
            args.variant, games / f"iter-{iteration:05}.hdxshard", hx.evaluator(net, device),
            games=args.games, simulations=args.simulations, root_policy="gumbel",
            max_plies=args.max_plies, seed=args.seed * 1_000_003 + iteration,
            producer=f"python/examples/alphazero.py iteration {iteration}",
        )
        shards = sorted(games.glob("*.hdxshard"))[-args.window:]
        loader = heterodox.Loader(shards, seed=args.seed * 1_000_003 + iteration)
        for _ in range(args.steps):
            _, policy_loss, value_loss = sgd_step(net, optimizer, loader.sample(args.batch_size), device)
        net.eval()
        checkpoint = args.out / "checkpoints" / f"ckpt-{iteration:05}"
        hx.save(net, checkpoint)
        hx.save(net, args.out / "last")
        print(f"iteration {iteration}: {stats['games']} games "
              f"({stats['white_wins']}-{stats['black_wins']}-{stats['draws']}, "
              f"{stats['truncated']} cut), {stats['simulations'] / stats['seconds']:.0f} sims/s; "
              f"{loader.num_positions} positions, policy loss {policy_loss:.3f}, "
              f"value loss {value_loss:.3f}; {time.perf_counter() - started:.1f} s; {checkpoint}",
              flush=True)
    print(f"checkpoint: {args.out / 'last'} (heterodox selfplay --variant {args.variant} "
          f"--net {args.out / 'last'} --out DIR)")


if __name__ == "__main__":
    main()
