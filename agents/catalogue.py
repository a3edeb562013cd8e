#!/usr/bin/env python3
"""The catalogue of shipped agents, agents/agents.toml: what it lists and
its checksums.

One entry (``[[agent]]``) per rule set the project ships an agent for:
its plain name, variant and rule settings (``key=value`` joined by ``,``
in key order, as a net file names them; empty for the default rules), its
card, its AlphaZero network (a checkpoint directory: ``config.json``,
``model.safetensors``, ``spec.json``) and its engine net
(``nnue.safetensors``) where it has one, and the SHA-256 of each of
those files (``[agent.sha256]``; the card is not summed, its scores
change). The
Rust ``Zoo`` (selfplay/src/agent/zoo.rs) is the one reader every consumer
asks; its build embeds every listed file in the binaries and the Python
extension and refuses to build when a checksum differs, naming this
script:

    python3 agents/catalogue.py           rewrites the checksums
    python3 agents/catalogue.py --check   exits 1, naming each stale one

The entries themselves (which agents, which files) are written by hand;
this script only computes checksums. Plain Python 3.11 or later (tomllib).
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python before 3.11
    tomllib = None

AGENTS = Path(__file__).resolve().parent
MANIFEST = AGENTS / "agents.toml"
#: A checksum line of the manifest: `"FILE" = "HEX"` in an agent's
#: `[agent.sha256]` table.
CHECKSUM = re.compile(r'^(?P<head>\s*"(?P<file>[^"]+)"\s*=\s*")(?P<sum>[0-9a-f]*)(?P<tail>".*)$')


def load(manifest: Path = MANIFEST) -> list[dict]:
    """The manifest's agents, in its order (each a dict as TOML reads it)."""
    if tomllib is None:
        sys.exit("agents/catalogue.py needs Python 3.11 or later (tomllib)")
    return tomllib.loads(manifest.read_text(encoding="utf-8"))["agent"]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rewritten(text: str, root: Path) -> tuple[str, list[str]]:
    """The manifest with every checksum recomputed, and the files whose
    checksum changed."""
    stale, lines = [], []
    for line in text.splitlines(keepends=True):
        match = CHECKSUM.match(line.rstrip("\n"))
        if match:
            actual = sha256(root / match["file"])
            if actual != match["sum"]:
                stale.append(match["file"])
                line = f'{match["head"]}{actual}{match["tail"]}\n'
        lines.append(line)
    return "".join(lines), stale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail on a stale checksum")
    args = parser.parse_args()
    text = MANIFEST.read_text(encoding="utf-8")
    new, stale = rewritten(text, AGENTS)
    if args.check:
        for file in stale:
            print(f"agents/agents.toml: the checksum of agents/{file} is stale "
                  "(python3 agents/catalogue.py rewrites it)", file=sys.stderr)
        return 1 if stale else 0
    if stale:
        MANIFEST.write_text(new, encoding="utf-8")
    print(f"agents/agents.toml: {len(stale)} checksum(s) rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
