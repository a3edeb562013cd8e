"""agents/scores_table.py: the scores table of agents/README.md is the one
the agents' cards make, and a card it cannot read is named."""

import subprocess
import sys
from pathlib import Path

import pytest
from support import load_script

pytest.importorskip("tomllib")  # the script's only need beyond the standard library: Python 3.11

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "agents" / "scores_table.py"

CARD = """# toy: a card

## Scores

```toml
rule_set = "Toy Chess"
made_by = "`heterodox train --config configs/toy.toml` (1 min, 2 CPU cores)"

[scores]
random = "100.0% [98.1, 100.0]"
greedy = "50.0% [43.1, 56.9]"
"rollout@64" = "75.0% [68.6, 80.5]"
```

## How it was made
"""

README = """# Shipped agents

<!-- scores:begin -->
<!-- scores:end -->
"""


def scores_table():
    return load_script("agents/scores_table.py")


def toy_agents(directory: Path, card: str) -> Path:
    """An agents/ directory with one agent, `toy`, and its card."""
    agents = directory / "agents"
    (agents / "toy").mkdir(parents=True)
    (agents / "toy" / "model.safetensors").write_bytes(b"")
    (agents / "agents.toml").write_text(
        '[[agent]]\nname = "toy"\nvariant = "chess"\nrules = ""\ncard = "toy/README.md"\nnetwork = "toy"\n',
        encoding="utf-8")
    (agents / "toy" / "README.md").write_text(card, encoding="utf-8")
    (agents / "README.md").write_text(README, encoding="utf-8")
    return agents


def test_the_readme_table_is_the_one_the_cards_make():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_table_is_written_and_a_stale_one_is_named(tmp_path, capsys):
    module = scores_table()
    agents = toy_agents(tmp_path, CARD)
    assert module.main(["--check"], agents_dir=agents) == 1
    out, err = capsys.readouterr()
    assert "+| [toy](toy/README.md) | Toy Chess | `heterodox train --config configs/toy.toml` " in out
    assert "the scores table of agents/README.md is stale" in err
    assert module.main([], agents_dir=agents) == 0
    readme = (agents / "README.md").read_text(encoding="utf-8")
    assert ("| [toy](toy/README.md) | Toy Chess | `heterodox train --config configs/toy.toml` "
            "(1 min, 2 CPU cores) | random 100.0% [98.1, 100.0], greedy 50.0% [43.1, 56.9], "
            "rollout@64 75.0% [68.6, 80.5] |\n<!-- scores:end -->") in readme
    assert module.main(["--check"], agents_dir=agents) == 0


def test_a_card_names_the_agent_string_its_scores_were_measured_with(tmp_path):
    module = scores_table()
    card = CARD.replace('[scores]', 'agent = "zoo:toy@64/quiescence"\n\n[scores]')
    agents = toy_agents(tmp_path, card)
    assert module.main([], agents_dir=agents) == 0
    readme = (agents / "README.md").read_text(encoding="utf-8")
    assert ("(1 min, 2 CPU cores) | as `zoo:toy@64/quiescence`: random 100.0% [98.1, 100.0], "
            "greedy 50.0% [43.1, 56.9], rollout@64 75.0% [68.6, 80.5] |") in readme


@pytest.mark.parametrize(
    "card, message",
    [
        (CARD.replace('made_by = "`heterodox train --config configs/toy.toml` (1 min, 2 CPU cores)"\n', ""),
         "the scores block has no made_by"),
        (CARD.replace('greedy = "50.0% [43.1, 56.9]"\n', ""), "scores has no greedy"),
        (CARD.replace("rule_set", "rules"), "the scores block has no rule_set"),
        (CARD.replace("## Scores", "## Strength"), "no '## Scores' section"),
        (CARD.replace("[scores]", 'agent = "zoo:hostage@64"\n\n[scores]'),
         "agent must be the agent string of this card's network, 'zoo:toy@SIMS...', not 'zoo:hostage@64'"),
        (CARD.replace("[scores]", 'player = "zoo:toy@64"\n\n[scores]'),
         "unknown fields player"),
    ],
)
def test_a_card_missing_a_field_is_named(tmp_path, capsys, card, message):
    module = scores_table()
    agents = toy_agents(tmp_path, card)
    with pytest.raises(module.CardError, match=message) as raised:
        module.table(agents)
    assert str(raised.value).startswith("agents/toy/README.md: "), raised.value
    # The command line says the same and changes nothing.
    assert module.main([], agents_dir=agents) == 1
    assert "error: agents/toy/README.md: " in capsys.readouterr().err
    assert (agents / "README.md").read_text(encoding="utf-8") == README


def test_the_catalogue_checksums_are_current_and_a_stale_one_is_named(tmp_path):
    done = subprocess.run([sys.executable, str(REPO / "agents" / "catalogue.py"), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    catalogue = load_script("agents/catalogue.py")
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "nnue.safetensors").write_bytes(b"a net")
    summed = "1e9e1d4bcb9b1ba1ab2f1e8a1ad2f0a4c3a3e38b8b3f5a0b0f1e0d4b5d0c6b1a"
    text = f'[[agent]]\nname = "toy"\n[agent.sha256]\n"toy/nnue.safetensors" = "{summed}"\n'
    new, stale = catalogue.rewritten(text, tmp_path)
    assert stale == ["toy/nnue.safetensors"]
    assert new.splitlines()[-1] == (  # the SHA-256 of b"a net"
        '"toy/nnue.safetensors" = "18e2346af0fdc0759fb807cf69ad1bcc6776d9eb577f2945fd2064423a8f463a"')
    assert catalogue.rewritten(new, tmp_path) == (new, [])
