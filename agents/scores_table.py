#!/usr/bin/env python3
"""The scores table of agents/README.md, written from the agents' cards.

Every current agent (each network agents/agents.toml lists, in its
order; agents/archive/ is not read) has a card,
agents/NAME/README.md, with a section `## Scores` whose first fenced
toml block reads, for example:

    rule_set = "Hostage Chess"
    made_by = "`heterodox train --config configs/hostage.toml --minutes 60` (60 min, 2 CPU cores)"

    [scores]
    random = "100.0% [98.1, 100.0]"
    greedy = "100.0% [98.1, 100.0]"
    "rollout@64" = "99.8% [97.7, 100.0]"
    "ab@1" = "29.5% [23.6, 36.2]"

`[scores]` maps each opponent to the agent's score against it at 64
simulations a move with both probes, in the card's order; `random`,
`greedy` and `rollout@64` are required. An optional `agent` names the
agent string the scores were measured with when it is not the plain
`zoo:NAME@64`, for example `agent = "zoo:hostage@64/quiescence"` for a
network trained with the quiescence at its leaves; its row then says so.
The table has one row per agent, in the catalogue's order, between the lines `<!-- scores:begin -->` and
`<!-- scores:end -->` of agents/README.md.

    python3 agents/scores_table.py           rewrites the table
    python3 agents/scores_table.py --check   exits 1, naming the difference,
                                             when the table is stale

Plain Python 3.11 or later (tomllib), no other package.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python before 3.11
    tomllib = None

AGENTS = Path(__file__).resolve().parent
BEGIN = "<!-- scores:begin -->"
END = "<!-- scores:end -->"
HEADING = "## Scores"
FIELDS = ("rule_set", "made_by", "scores")
OPTIONAL_FIELDS = ("agent",)
REQUIRED_OPPONENTS = ("random", "greedy", "rollout@64")
COLUMNS = (
    "agent",
    "rule set",
    "made by",
    "strength (64 simulations a move, with both probes)",
)


class CardError(ValueError):
    """A card, or agents/README.md, that the table cannot be made from."""


def shown(path: Path, agents_dir: Path) -> str:
    """`path` as the error names it: from the repository root when it is
    under `agents_dir`'s parent."""
    try:
        return str(path.relative_to(agents_dir.parent))
    except ValueError:
        return str(path)


def current_agents(agents_dir: Path) -> list[Path]:
    """The network directories of the agents the catalogue lists
    (`agents_dir`/agents.toml, read as agents/catalogue.py describes it),
    in its order; agents/archive/ is not listed."""
    manifest = agents_dir / "agents.toml"
    if not manifest.is_file():
        raise CardError(f"{shown(manifest, agents_dir)}: the catalogue of shipped agents is missing")
    agents = tomllib.loads(manifest.read_text(encoding="utf-8")).get("agent", [])
    return [agents_dir / agent["network"] for agent in agents if "network" in agent]


def scores_block(text: str) -> str | None:
    """The first ```toml block of the card's `## Scores` section."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == HEADING)
    except StopIteration:
        return None
    block = None
    for line in lines[start + 1:]:
        if block is None:
            if line.startswith("## "):
                return None
            if line.strip() == "```toml":
                block = []
        elif line.strip() == "```":
            return "\n".join(block) + "\n"
        else:
            block.append(line)
    return None


def read_card(card: Path, agents_dir: Path = AGENTS) -> dict:
    """The scores block of `card`: rule_set, made_by and scores (opponent
    to text). Raises CardError naming the card and what is wrong."""
    name = shown(card, agents_dir)
    if tomllib is None:
        raise CardError("agents/scores_table.py needs Python 3.11 or later (tomllib)")
    if not card.is_file():
        raise CardError(f"{name}: missing (every agent has a card)")
    block = scores_block(card.read_text(encoding="utf-8"))
    if block is None:
        raise CardError(f"{name}: no '{HEADING}' section with a ```toml block")
    try:
        data = tomllib.loads(block)
    except tomllib.TOMLDecodeError as e:
        raise CardError(f"{name}: the scores block is not TOML: {e}") from None
    missing = [field for field in FIELDS if field not in data]
    if missing:
        raise CardError(f"{name}: the scores block has no {', '.join(missing)}")
    unknown = sorted(set(data) - set(FIELDS) - set(OPTIONAL_FIELDS))
    if unknown:
        raise CardError(f"{name}: the scores block has unknown fields {', '.join(unknown)} "
                        f"(it has {', '.join(FIELDS)}, and optionally {', '.join(OPTIONAL_FIELDS)})")
    for field in ("rule_set", "made_by", *(f for f in OPTIONAL_FIELDS if f in data)):
        if not isinstance(data[field], str) or not data[field].strip():
            raise CardError(f"{name}: {field} must be a text that is not empty")
    scores = data["scores"]
    if not isinstance(scores, dict) or not scores:
        raise CardError(f"{name}: scores must be a table of opponent = \"score\"")
    for opponent, score in scores.items():
        if not isinstance(score, str) or not score.strip():
            raise CardError(f"{name}: the score against {opponent} must be a text that is not empty")
    absent = [opponent for opponent in REQUIRED_OPPONENTS if opponent not in scores]
    if absent:
        raise CardError(f"{name}: scores has no {', '.join(absent)}")
    expected = f"zoo:{card.parent.name}@"
    if "agent" in data and not data["agent"].startswith(expected):
        raise CardError(f"{name}: agent must be the agent string of this card's network, "
                        f"'{expected}SIMS...', not '{data['agent']}'")
    one_line = [(field, data[field]) for field in ("rule_set", "made_by", "agent") if field in data]
    for field, value in [*one_line,
                         *(("scores", f"{k} {v}") for k, v in scores.items())]:
        if "\n" in value:
            raise CardError(f"{name}: {field} must be one line")
    return data


def cell(text: str) -> str:
    return text.strip().replace("|", "\\|")


def table(agents_dir: Path = AGENTS) -> str:
    """The Markdown table of the current agents' cards."""
    rows = [
        "| " + " | ".join(COLUMNS) + " |",
        "| " + " | ".join("---" for _ in COLUMNS) + " |",
    ]
    for directory in current_agents(agents_dir):
        card = read_card(directory / "README.md", agents_dir)
        strength = ", ".join(f"{opponent} {score.strip()}" for opponent, score in card["scores"].items())
        if "agent" in card:
            strength = f"as `{card['agent'].strip()}`: {strength}"
        link = f"[{directory.name}]({directory.name}/README.md)"
        rows.append("| " + " | ".join(cell(c) for c in
                                       (link, card["rule_set"], card["made_by"], strength)) + " |")
    return "\n".join(rows) + "\n"


def with_table(readme: str, rows: str, name: str = "agents/README.md") -> str:
    """`readme` with `rows` between its markers."""
    begin, end = readme.find(BEGIN), readme.find(END)
    if begin < 0 or end < 0 or end < begin or readme.count(BEGIN) != 1 or readme.count(END) != 1:
        raise CardError(f"{name}: needs one line '{BEGIN}' and, after it, one line '{END}'")
    head = readme[: begin + len(BEGIN)]
    return f"{head}\n{rows}{readme[end:]}"


def main(argv: list[str] | None = None, agents_dir: Path = AGENTS) -> int:
    parser = argparse.ArgumentParser(
        description="Writes the scores table of agents/README.md from the agents' cards.")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1, naming the difference, when the table is stale")
    args = parser.parse_args(argv)
    readme_path = agents_dir / "README.md"
    name = shown(readme_path, agents_dir)
    try:
        readme = readme_path.read_text(encoding="utf-8")
        wanted = with_table(readme, table(agents_dir), name)
    except (CardError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if wanted == readme:
        return 0
    if args.check:
        diff = difflib.unified_diff(readme.splitlines(keepends=True), wanted.splitlines(keepends=True),
                                    f"{name} (as it is)", f"{name} (from the cards)")
        sys.stdout.writelines(diff)
        print(f"error: the scores table of {name} is stale: run python3 agents/scores_table.py",
              file=sys.stderr)
        return 1
    readme_path.write_text(wanted, encoding="utf-8")
    print(f"wrote the scores table of {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
