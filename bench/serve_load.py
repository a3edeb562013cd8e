"""Load benchmark of `heterodox serve`: many concurrent games on loopback,
each played with seeded random legal moves through the HTTP/JSON API, every
request timed.

    .venv/bin/python bench/serve_load.py                       # starts target/release/heterodox
    .venv/bin/python bench/serve_load.py --games 200 --plies 40
    .venv/bin/python bench/serve_load.py --url http://127.0.0.1:8080/

Game i plays variant i mod 5 (chess, poison, hostage, madscientist,
traitor); even games are human against human (the client moves for both
seats: GET legal moves, POST a move), odd ones human against the `random`
agent (POST agent: the server's blocking threads). All games are created
before the first move, so they are all live at once. Prints the requests,
errors, p50 and p99 latency per kind of request and overall, and requests
per second. Only loopback: the requests are bounded in number (games x
plies) and the run stops by itself.
"""

import argparse
import http.client
import json
import os
import random
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

VARIANTS = ["chess", "poison", "hostage", "madscientist", "traitor"]
ROOT = Path(__file__).resolve().parents[1]


class Client:
    """One keep-alive connection; every request timed."""

    def __init__(self, host, port, latencies, errors):
        self.connection = http.client.HTTPConnection(host, port, timeout=60)
        self.latencies = latencies
        self.errors = errors

    def request(self, kind, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        data = json.dumps(body) if body is not None else None
        start = time.perf_counter()
        try:
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.errors.append(f"{kind}: {e}")
            return None
        self.latencies.setdefault(kind, []).append(time.perf_counter() - start)
        if response.status >= 400:
            self.errors.append(f"{kind}: {response.status} {payload[:200]!r}")
            return None
        return json.loads(payload)


def play_game(index, client, start_barrier, plies, seed):
    rng = random.Random(seed * 1_000_003 + index)
    variant = VARIANTS[index % len(VARIANTS)]
    black = "human" if index % 2 == 0 else "random"
    game = client.request(
        "new game", "POST", "/api/games",
        {"variant": variant, "white": "human", "black": black, "seed": index},
    )
    start_barrier.wait()
    if game is None:
        return
    base = f"/api/games/{game['id']}"
    tokens = game["tokens"]
    state = client.request("state", "GET", f"{base}?token={tokens['white']}")
    for _ in range(plies):
        if state is None or state["over"]:
            return
        if state["to_move"] == "agent":
            state = client.request("agent move", "POST", f"{base}/agent", {"token": tokens["white"]})
            continue
        token = tokens[state["turn"]]
        legal = client.request("legal moves", "GET", f"{base}/legal?token={token}")
        if legal is None or not legal["moves"]:
            return
        move = rng.choice(legal["moves"])["long"]
        state = client.request("move", "POST", f"{base}/move", {"token": token, "move": move})


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(url, games, plies, seed):
    """Plays the games; returns (latencies by kind, errors, seconds, peak live games)."""
    parsed = urlparse(url)
    latencies, errors = {}, []
    barrier = threading.Barrier(games + 1)
    clients = [Client(parsed.hostname, parsed.port, latencies, errors) for _ in range(games)]
    threads = [
        threading.Thread(target=play_game, args=(i, clients[i], barrier, plies, seed))
        for i in range(games)
    ]
    for thread in threads:
        thread.start()
    barrier.wait()
    live = Client(parsed.hostname, parsed.port, {}, errors).request("info", "GET", "/api/info")
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    return latencies, errors, seconds, (live or {}).get("games")


def report(latencies, errors, seconds, live):
    lines = [f"live games at the start: {live}"]
    everything = [x for values in latencies.values() for x in values]
    for kind, values in sorted(latencies.items()) + [("all", everything)]:
        lines.append(
            f"{kind:12} {len(values):6} requests  p50 {1000 * percentile(values, 0.5):7.2f} ms"
            f"  p99 {1000 * percentile(values, 0.99):7.2f} ms"
        )
    moves = len(everything) - len(latencies.get("new game", []))
    lines.append(f"errors: {len(errors)}; {moves / seconds:.0f} requests/s over {seconds:.1f} s")
    lines.extend(errors[:10])
    return "\n".join(lines)


def start_server(max_games):
    binary = Path(os.environ.get("HETERODOX_BIN", ROOT / "target" / "release" / "heterodox"))
    process = subprocess.Popen(
        [str(binary), "serve", "--port", "0", "--device", "cpu", "--max-games", str(max_games), "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    if not line.startswith("heterodox serve: http://"):
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, line.split()[2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start target/release/heterodox)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--plies", type=int, default=40, help="requests' worth of steps per game")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    process = None
    url = args.url
    if url is None:
        process, url = start_server(max(args.games, 1000))
    try:
        latencies, errors, seconds, live = run(url, args.games, args.plies, args.seed)
    finally:
        if process is not None:
            process.kill()
            process.wait()
    print(f"{args.games} concurrent games, up to {args.plies} steps each, on {url}")
    print(report(latencies, errors, seconds, live))
    raise SystemExit(1 if errors else 0)


if __name__ == "__main__":
    main()
