"""Our engine against Stockfish in FIDE chess (issue 25), and its speed.

Installs Debian's `stockfish` (15.1) with apt and python-chess into
.venv-peers when missing: neither is a project dependency.

    python3 bench/stockfish_match.py                     # ab@100ms v UCI_Elo 1350, 200 games
    python3 bench/stockfish_match.py --games 40 --elo 1500
    python3 bench/stockfish_match.py --speed-only        # nodes/s against `stockfish bench`

The match: `heterodox uci --agent ab@100ms` against Stockfish with
UCI_LimitStrength and UCI_Elo (1350 is its lowest calibrated level), both
at --movetime ms per move, one thread and 16 MiB of hash each. Games come
in pairs: one opening of --opening-plies random legal plies (seeded), each
side White once; a game longer than --max-plies plies is scored a draw.
Prints the score with a 95% interval (normal approximation over the pairs)
and the Elo difference.

The speed: Stockfish 15.1's own `bench` (16 MiB, one thread, depth 13, its
positions) against `heterodox bench --depth 8` (ours, one thread, chess
figure), both run here in the same session.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / ".venv-peers"
STOCKFISH = "/usr/games/stockfish"


def ensure_stockfish() -> str:
    path = shutil.which("stockfish") or (STOCKFISH if os.path.exists(STOCKFISH) else None)
    if path:
        return path
    subprocess.run(["apt-get", "install", "-y", "-q", "stockfish"], check=True)
    return STOCKFISH


def ensure_python_chess() -> None:
    try:
        import chess  # noqa: F401
        return
    except ImportError:
        pass
    python = PEERS / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "chess==1.11.2"], check=True)
    # Run again inside the peers' environment.
    os.execv(str(python), [str(python), *sys.argv])


def heterodox_binary() -> Path:
    binary = ROOT / "target" / "release" / "heterodox"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "heterodox", "--bin", "heterodox-net"],
                       cwd=ROOT, check=True)
    return binary


def speed(stockfish: str) -> None:
    out = subprocess.run([stockfish, "bench", "16", "1", "13"], capture_output=True, text=True)
    text = out.stdout + out.stderr
    sf_nps = int(re.search(r"Nodes/second\s*:\s*(\d+)", text).group(1))
    ours = subprocess.run([str(heterodox_binary()), "bench", "--depth", "8"],
                          capture_output=True, text=True, check=True).stdout
    print(ours.strip())
    chess_line = next(line for line in ours.splitlines() if line.split()[:1] == ["chess"])
    numbers = [int(n.replace(",", "")) for n in re.findall(r"[\d,]+", chess_line)]
    our_nps = numbers[-1]
    print(f"stockfish 15.1 bench (16 MiB, 1 thread, depth 13): {sf_nps:,} nodes/s")
    print(f"heterodox bench chess (depth 8, 1 thread):          {our_nps:,} nodes/s")
    print(f"ratio heterodox / stockfish: {our_nps / sf_nps:.2f} x")


def play_game(chess, engine_white, engine_black, opening, movetime, max_plies):
    board = chess.Board()
    for move in opening:
        board.push(move)
    limit = chess.engine.Limit(time=movetime / 1000)
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine = engine_white if board.turn == chess.WHITE else engine_black
        board.push(engine.play(board, limit).move)
    if board.ply() >= max_plies and not board.is_game_over(claim_draw=True):
        return 0.5
    result = board.result(claim_draw=True)
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


def match(args, stockfish: str) -> None:
    import chess
    import chess.engine

    ours = chess.engine.SimpleEngine.popen_uci(
        [str(heterodox_binary()), "uci", "--agent", args.agent, "--seed", str(args.seed)])
    theirs = chess.engine.SimpleEngine.popen_uci(stockfish)
    theirs.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": args.elo})
    rng = random.Random(args.seed)
    pair_scores = []
    try:
        for pair in range(args.games // 2):
            board = chess.Board()
            opening = []
            for _ in range(args.opening_plies):
                move = rng.choice(list(board.legal_moves))
                board.push(move)
                opening.append(move)
            ours.protocol.send_line("ucinewgame")
            as_white = play_game(chess, ours, theirs, opening, args.movetime, args.max_plies)
            as_black = 1.0 - play_game(chess, theirs, ours, opening, args.movetime, args.max_plies)
            pair_scores.append(as_white + as_black)
            done = sum(pair_scores)
            print(f"pair {pair + 1}: {as_white} + {as_black}  running {done}/{2 * len(pair_scores)}",
                  flush=True)
    finally:
        ours.quit()
        theirs.quit()
    n = len(pair_scores)
    mean = sum(pair_scores) / (2 * n)
    var = sum((s / 2 - mean) ** 2 for s in pair_scores) / max(n - 1, 1)
    half = 1.96 * math.sqrt(var / n)
    lo, hi = max(mean - half, 0.0), min(mean + half, 1.0)

    def elo(p: float) -> float:
        p = min(max(p, 1e-4), 1 - 1e-4)
        return -400 * math.log10(1 / p - 1)

    print(f"{args.agent} v Stockfish 15.1 UCI_Elo {args.elo} at {args.movetime} ms: "
          f"{2 * n} games, score {100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}], "
          f"Elo {elo(mean):+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="ab@100ms")
    parser.add_argument("--elo", type=int, default=1350)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--movetime", type=int, default=100, help="ms per move, both sides")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    stockfish = ensure_stockfish()
    ensure_python_chess()
    if not args.no_speed:
        speed(stockfish)
    if not args.speed_only:
        match(args, stockfish)


if __name__ == "__main__":
    main()
