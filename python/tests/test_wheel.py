"""A built wheel carries the shipped agents: installed into a fresh virtual
environment, away from the checkout, ``heterodox.agent("zoo:NAME@SIMS")``
plays one move of each shipped network and ``heterodox.Engine(variant)``
searches with each shipped engine net (the catalogue and its files are
built into the extension module: agents/README.md, "The catalogue").

Builds the wheel with maturin in the cargo profile the rest of the tests
were built in ($HETERODOX_CARGO_PROFILE, ``make test`` sets it; release
otherwise) and for this interpreter, so cargo reuses that build."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROFILE = os.environ.get("HETERODOX_CARGO_PROFILE", "release")

#: Run by the fresh environment's interpreter: one move of every shipped
#: network (2 simulations) and a depth-1 search of every shipped engine
#: net, reporting what it played and where the module lives.
PLAY_EACH = textwrap.dedent('''
    import json
    import heterodox

    played = {}
    for entry in heterodox.zoo_agents():
        options = dict(p.split("=") for p in entry["rules"].split(",") if p)
        game = heterodox.Game(entry["variant"], **options)
        if entry["network"] is not None:
            agent = heterodox.agent(f"zoo:{entry['name']}@2", seed=1)
            played[entry["name"]] = agent.move(game)
        if entry["nnue"] is not None:
            engine = heterodox.Engine(entry["variant"])
            engine.search(game, depth=1)
            played[entry["nnue"]] = str(engine.network)
    print(json.dumps({"module": heterodox.__file__, "played": played}))
''')


def site_packages(python: Path) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_an_installed_wheel_plays_every_shipped_agent_without_a_checkout(tmp_path):
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [str(Path(sys.executable).with_name("maturin")), "build", "--profile", PROFILE,
         "-m", str(REPO / "python" / "Cargo.toml"), "--out", str(wheels),
         # The interpreter `maturin develop` built for: another one (maturin
         # finds python3 on PATH) configures pyo3 anew, a minute's rebuild.
         "--interpreter", sys.executable],
        cwd=REPO, capture_output=True, text=True, timeout=1200)
    assert build.returncode == 0, build.stderr[-4000:]
    (wheel,) = wheels.glob("heterodox-*.whl")
    # A fresh environment: its own site-packages holds the wheel; numpy,
    # gymnasium and torch are borrowed from this one's (a plain path
    # entry after its own, so this checkout's editable install is not seen).
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
                   check=True, timeout=300)
    Path(site_packages(python), "borrowed.pth").write_text(site_packages(Path(sys.executable)) + "\n")
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("HETERODOX_ZOO", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([str(python), "-c", PLAY_EACH], cwd=away, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(report["module"]).is_relative_to(venv), report["module"]
    catalogue = [line for line in (REPO / "agents" / "agents.toml").read_text().splitlines()
                 if line.startswith(("name = ", "nnue = "))]
    names = [line.split('"')[1] for line in catalogue if line.startswith("name = ")]
    nets = [line.split('"')[1] for line in catalogue if line.startswith("nnue = ")]
    assert sorted(report["played"]) == sorted(names + nets)
    for net in nets:
        assert report["played"][net] == f"agents/{net}"
    # The networks were read from the module's own copy, written once to
    # the cache, not from the checkout.
    cached = list((tmp_path / "cache" / "heterodox" / "zoo").glob("*/*/model.safetensors"))
    assert sorted(p.parent.name for p in cached) == sorted(names)
