"""A strategy claim and teacher data on a local Ray cluster (two worker
processes). The claim's report is byte for byte the one-machine run's, a
worker killed in the middle loses nothing and plays no game twice, and a
stopped driver resumes; the claim is Hostage's attacker claim with the
engine at depth 1 and a handful of games (seconds of play, every duel
split across parts). The teacher directory written shard by shard in
tasks is byte for byte one `heterodox teach`'s.
"""

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from support import BINARY

REPO = Path(__file__).resolve().parents[2]
CLAIM = "hostage-favours-the-attacker"
ARGS = ["--games", "12", "--calibration-games", "4", "--agent", "ab@1", "--concurrent", "2"]
REPORT_FILES = ["claim.json", "games.csv", "games.pgn", "summary.md"]


@pytest.fixture(scope="module")
def cluster():
    ray = pytest.importorskip("ray")
    if not BINARY.is_file():
        pytest.skip(f"{BINARY} is not built (make build-rust)")
    ray.init(num_cpus=2, object_store_memory=100_000_000, include_dashboard=False,
             log_to_driver=False, logging_level="warning")
    yield ray
    ray.shutdown()


def one_machine_report(where: Path) -> dict[str, bytes]:
    """The report of the same claim played by one `heterodox claim` run,
    from `where`, with the same relative --out (so its command is the
    same word for word)."""
    where.mkdir()
    subprocess.run([str(BINARY), "claim", CLAIM, *ARGS, "--out", "report", "--quiet"],
                   cwd=where, check=True, capture_output=True, timeout=300)
    return {name: (where / "report" / name).read_bytes() for name in REPORT_FILES}


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> dict[str, bytes]:
    """The one-machine report, played once for every test that compares."""
    return one_machine_report(tmp_path_factory.mktemp("one") / "one")


def ray_report(where: Path, parts: int, **options) -> tuple[dict[str, bytes], object]:
    from heterodox.ray.claim import run_claim

    where.mkdir(exist_ok=True)
    cwd = os.getcwd()
    os.chdir(where)
    try:
        summary = run_claim(CLAIM, ARGS, "report", parts, binary=BINARY, poll_seconds=0.2, **options)
    finally:
        os.chdir(cwd)
    files = {name: (where / "report" / name).read_bytes() for name in REPORT_FILES}
    return files, summary


def test_a_claim_on_ray_writes_the_one_machine_report(cluster, expected, tmp_path):
    seen = []
    files, summary = ray_report(tmp_path / "ray", parts=3, on_progress=seen.append)
    for name in REPORT_FILES:
        assert files[name] == expected[name], name
    claim = json.loads(files["claim.json"])
    assert summary.parts == 3 and summary.retries == 0
    # 12 games a variant, 4 paired calibration games against each of four
    # opponents a variant (random, greedy, rollout@64, the shipped network).
    assert summary.games == 2 * 12 + 2 * 4 * 4
    assert claim["command"].startswith(f"heterodox claim {CLAIM} --agent ab@1 --games 12")
    assert seen and seen[-1]["parts"] == 3
    assert {"games", "games_per_second", "parts_done", "nodes_alive", "eta_seconds"} <= set(seen[-1])
    # The parts and the journals are gone once the report is out.
    assert not (tmp_path / "ray" / "report.parts").exists()
    assert not (tmp_path / "ray" / "report.journal").exists()


def test_a_killed_worker_loses_nothing_and_plays_no_game_twice(cluster, expected, tmp_path):
    where = tmp_path / "ray"
    where.mkdir()
    parts = where / "report.parts"
    killed = []

    def kill_a_worker():
        # The first worker whose part has finished a game dies mid-part.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            for journal in sorted(parts.glob("part-*.journal")):
                pid_file = parts / journal.name.replace(".journal", ".pid")
                lines = sum(p.read_bytes().count(b"\n") for p in journal.glob("*.jsonl"))
                if lines >= 1 and pid_file.is_file():
                    pid = int(pid_file.read_text())
                    os.kill(pid, signal.SIGKILL)
                    killed.append((journal.name, pid, lines))
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_a_worker)
    killer.start()
    files, summary = ray_report(where, parts=2)
    killer.join()
    assert killed, "no worker was killed"
    assert summary.retries >= 1
    assert summary.games == 2 * 12 + 2 * 4 * 4
    for name in REPORT_FILES:
        assert files[name] == expected[name], name


def test_a_stopped_driver_resumes_its_parts(cluster, expected, tmp_path):
    from heterodox.ray.claim import ClaimRunError, part_out, play_part

    where = tmp_path / "ray"
    where.mkdir()
    # A driver that stopped after part 0 of 2 was played.
    games = play_part(str(BINARY), ["claim", CLAIM], ARGS, str(where / "report.parts" / "part-0"), 0, 2)
    assert games > 0
    with pytest.raises(ClaimRunError, match=r"holds the parts of an earlier run: add --resume"):
        ray_report(where, parts=2)
    files, summary = ray_report(where, parts=2, resume=True)
    for name in REPORT_FILES:
        assert files[name] == expected[name], name
    assert not part_out(where / "report", 0).exists()


def test_a_part_that_cannot_run_is_an_error_naming_it(cluster, tmp_path):
    from heterodox.ray.claim import ClaimRunError, run_claim

    with pytest.raises(ClaimRunError, match=r"part \d/2 failed: error: config: bad agent 'ab@0': the engine's budget"):
        run_claim(CLAIM, ["--agent", "ab@0"], tmp_path / "report", 2, binary=BINARY)
    with pytest.raises(ClaimRunError, match=r"^--out is the driver's to set"):
        run_claim(CLAIM, ["--out", "x"], tmp_path / "report", 2, binary=BINARY)
    shutil.rmtree(tmp_path / "report.parts", ignore_errors=True)


def test_the_cluster_config_is_one_ray_up_accepts():
    """configs/ray/cluster.yaml passes Ray's own cluster-launcher schema, a
    misspelt field does not, and the command it documents parses."""
    yaml = pytest.importorskip("yaml")
    pytest.importorskip("ray")
    from ray.autoscaler._private.util import prepare_config, validate_config

    from heterodox.ray.claim import parse_args

    config = yaml.safe_load((REPO / "configs" / "ray" / "cluster.yaml").read_text())
    validate_config(prepare_config(config))
    assert config["max_workers"] == len(config["provider"]["worker_ips"])
    assert config["file_mounts"] == {"~/heterodox": "."}
    bad = {**config, "max_wrokers": 2}
    with pytest.raises(Exception, match="'max_wrokers' was unexpected"):
        validate_config(prepare_config(bad))
    args = parse_args(["first-move-advantage", "--address", "auto", "--out", "/shared/reports/first-move",
                       "--parts", "256", "--", "--games", "11100", "--agent", "ab@20000n"])
    assert (args.name, args.parts, args.claim_args) == (
        "first-move-advantage", 256, ["--games", "11100", "--agent", "ab@20000n"])


TEACH = ["--variant", "hostage", "--engine", "ab@1", "--max-plies", "10", "--games-per-shard", "2",
         "--seed", "5"]


def test_teacher_shards_on_ray_are_the_one_machine_directory(cluster, tmp_path):
    from heterodox.ray.teach import TeachRunError, run_teach

    one = tmp_path / "one"
    subprocess.run([str(BINARY), "teach", *TEACH, "--positions", "60", "--out", str(one), "--quiet"],
                   check=True, capture_output=True, timeout=300)
    seen = []
    summary = run_teach(TEACH, tmp_path / "ray", 60, binary=BINARY, on_progress=seen.append)
    expected = sorted(p.name for p in one.iterdir())
    assert sorted(p.name for p in (tmp_path / "ray").iterdir()) == expected
    for name in expected:
        assert (tmp_path / "ray" / name).read_bytes() == (one / name).read_bytes(), name
    assert summary.shards == len(expected) - 1  # and teach.json
    assert summary.positions >= 60 and seen[-1]["target"] == 60
    assert "this run: 0 positions in 0 games" in summary.output
    with pytest.raises(TeachRunError, match=r"^--shard is the driver's to set"):
        run_teach([*TEACH, "--shard", "0"], tmp_path / "bad", 60, binary=BINARY)
    with pytest.raises(TeachRunError, match=r"^shard \d+ failed: error: --engine 'ab@x'"):
        run_teach(["--variant", "hostage", "--engine", "ab@x"], tmp_path / "bad", 60, binary=BINARY)


ARENA = ["--variant", "hostage", "--agents", "ab@1,greedy,random", "--schedule", "round-robin",
         "--games", "6", "--seed", "3"]


def test_an_arena_on_ray_writes_the_one_machine_results(cluster, tmp_path):
    from heterodox.ray.claim import ClaimRunError, run_arena

    one = tmp_path / "one"
    one.mkdir()
    table = subprocess.run([str(BINARY), "arena", *ARENA, "--out", "results", "--quiet"], cwd=one,
                           check=True, capture_output=True, text=True, timeout=300).stdout
    where = tmp_path / "ray"
    where.mkdir()
    cwd = os.getcwd()
    os.chdir(where)
    try:
        summary = run_arena(ARENA, "results", 3, binary=BINARY, poll_seconds=0.2)
    finally:
        os.chdir(cwd)
    for name in ["games.pgn", "results.json"]:
        assert (where / "results" / name).read_bytes() == (one / "results" / name).read_bytes(), name
    assert summary.output == table
    assert summary.games == 3 * 6
    with pytest.raises(ClaimRunError, match=r"^an SPRT decides as its games come in"):
        run_arena([*ARENA, "--sprt", "0,50"], tmp_path / "x", 2, binary=BINARY)


def test_a_python_claim_on_ray_plays_the_one_machine_games(cluster, tmp_path):
    # heterodox.Claim(...).run(parts=3): every set of games (the two
    # conditions' and the calibration's) split into 3 Ray tasks, merged:
    # the same tables, verdict and report as one machine.
    import heterodox
    from heterodox.ray import ClaimRunError

    claim = heterodox.Claim(
        name="hostage-against-chess", hypothesis="White scores more in Hostage than in chess",
        source="a test", conditions=[heterodox.Condition("hostage", opening_plies=2),
                                     heterodox.Condition("chess", opening_plies=2)],
        calibration=("random",))
    options = dict(agents=["ab@1", "greedy"], games=8, seed=3, calibration_games=4, progress=False)
    here = claim.run(out=tmp_path / "here", **options)
    there = claim.run(out=tmp_path / "there", parts=3, **options)
    assert there == here
    for name in ["games.csv", "games.pgn"]:
        assert (tmp_path / "there" / name).read_bytes() == (tmp_path / "here" / name).read_bytes(), name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here", "there"]
    # Parts left behind by a stopped run are never silently reused.
    (tmp_path / "again.games" / "games-1.parts").mkdir(parents=True)
    with pytest.raises(ClaimRunError, match="holds the parts of an earlier run"):
        claim.run(out=tmp_path / "again", parts=2, **options)
    with pytest.raises(ValueError, match="give out"):
        claim.run(parts=2, **options)


def test_the_merge_reads_every_line_and_drops_only_a_torn_last_one(tmp_path):
    """What the fault tolerance relies on, without a cluster: a game is
    merged once, a line torn by a kill is left out (its game is played
    again), a game in two parts' journals and parts of different settings
    are refused."""
    from heterodox.ray.claim import ClaimRunError, journal_of, merge_journals, part_out

    out = tmp_path / "report"

    def part(k, lines, settings=None):
        journal = journal_of(part_out(out, k))
        journal.mkdir(parents=True, exist_ok=True)
        run = {"settings": settings or {"games": 4}, "command": f"part {k}"}
        (journal / "run.json").write_text(json.dumps(run))
        (journal / "hostage-self-01.jsonl").write_text(lines)

    game = lambda index: json.dumps({"index": index, "a_white": index % 2 == 0}) + "\n"  # noqa: E731
    part(0, game(2) + game(0))
    part(1, game(1) + game(3)[:-9])  # the last line torn
    assert merge_journals(out, 2) == 3
    merged = journal_of(out) / "hostage-self-01.jsonl"
    assert [json.loads(line)["index"] for line in merged.read_text().splitlines()] == [0, 1, 2]
    assert json.loads((journal_of(out) / "run.json").read_text())["settings"] == {"games": 4}
    part(1, game(1) + game(2))
    with pytest.raises(ClaimRunError, match=r"^game 2 of hostage-self-01 is in two parts' journals$"):
        merge_journals(out, 2)
    part(1, game(1), settings={"games": 6})
    with pytest.raises(ClaimRunError, match=r"^the parts were played with different settings"):
        merge_journals(out, 2)
