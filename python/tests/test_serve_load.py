"""The load benchmark of `heterodox serve` (bench/serve_load.py) as a test:
200 games live at once on loopback, each played with random legal moves
through the API (half against the random agent), and not one error. The
latency figures are the benchmark's to report, not this test's."""

from support import load_script


def load_bench():
    return load_script("bench/serve_load.py")


def test_two_hundred_concurrent_games_without_an_error():
    bench = load_bench()
    process, url = bench.start_server(1000)
    try:
        latencies, errors, _, live = bench.run(url, games=200, plies=8, seed=1)
    finally:
        process.kill()
        process.wait()
    assert errors == []
    assert live == 200
    assert len(latencies["new game"]) == 200
    # Every game made its moves: 8 steps each, as legal-move reads and
    # moves (human seats) or agent moves.
    steps = len(latencies["move"]) + len(latencies["agent move"])
    assert steps == 200 * 8
