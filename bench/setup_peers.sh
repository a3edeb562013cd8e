#!/usr/bin/env bash
# Creates .venv-peers: a separate virtual environment with the search-speed
# peers of bench/search_vs_mctx.py: jax (CPU), pgx and mctx, and OpenSpiel
# (optional). None of them is a project dependency and the project's .venv
# is not touched. Idempotent: a .venv-peers that already holds these pins is
# left as it is.
#
#   bash bench/setup_peers.sh                    # jax, pgx, mctx, open_spiel
#   NO_OPEN_SPIEL=1 bash bench/setup_peers.sh    # without open_spiel
#   PYTHON=python3.11 bash bench/setup_peers.sh  # another interpreter
set -euo pipefail

cd "$(dirname "$0")/.."
VENV=.venv-peers
PYTHON=${PYTHON:-python3}

# Versions that install from PyPI wheels here (CPython 3.11, x86_64 Linux).
# The jaxlib wheel from PyPI is the CPU build; jax and jaxlib must match.
PINS=(
  "jax==0.10.2"
  "jaxlib==0.10.2"
  "pgx==2.6.0"
  "mctx==0.0.71"
  "chex==0.1.92"
  "numpy==2.4.6"
)
# Optional: a manylinux wheel (C++ MCTSBot and RandomRolloutEvaluator).
OPEN_SPIEL_PIN="open_spiel==2.0.2"

WANT="${PINS[*]}"
if [[ -z "${NO_OPEN_SPIEL:-}" ]]; then
  WANT="$WANT $OPEN_SPIEL_PIN"
fi
STAMP="$VENV/.peers-pins"

if [[ -x "$VENV/bin/python" && -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" ]]; then
  echo "$VENV is up to date ($WANT)"
  exit 0
fi

if [[ ! -x "$VENV/bin/python" ]]; then
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
fi

"$VENV/bin/python" -m pip install --quiet --only-binary=jaxlib "${PINS[@]}"

if [[ -z "${NO_OPEN_SPIEL:-}" ]]; then
  if ! "$VENV/bin/python" -m pip install --quiet --only-binary=:all: "$OPEN_SPIEL_PIN"; then
    echo "$VENV: $OPEN_SPIEL_PIN has no wheel for this interpreter; skipped (optional)" >&2
  fi
fi

# Fails here (and leaves no stamp) if the peers do not import.
"$VENV/bin/python" -c "import jax, pgx, mctx; pgx.make('chess')"
echo "$WANT" >"$STAMP"
"$VENV/bin/python" -m pip list 2>/dev/null | grep -iE '^(jax|jaxlib|pgx|mctx|chex|numpy|open.spiel) '
