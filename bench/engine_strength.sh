#!/usr/bin/env bash
# The engine's strength (issue 25): `ab@100ms` against `greedy` and against
# `rollout@64` in every variant and in Traitor's impromptu commitment, 200
# paired games each (100 openings of 4 random plies, both colours), 200-ply
# cap, seed 1. Prints one arena table per pairing and a summary; the games
# and results lie under $OUT (default runs/engine-strength).
#
#   bench/engine_strength.sh                 # everything (about 30 minutes on 2 cores)
#   GAMES=40 bench/engine_strength.sh hostage
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-target/release/heterodox}
GAMES=${GAMES:-200}
OUT=${OUT:-runs/engine-strength}
AGENT=${AGENT:-ab@100ms}
[ -x "$BIN" ] || cargo build --release --bin heterodox
mkdir -p "$OUT"
setups=("chess" "poison" "hostage" "madscientist" "traitor" "traitor --commitment impromptu")
if [ $# -gt 0 ]; then setups=("$@"); fi
for setup in "${setups[@]}"; do
    read -r variant rest <<<"$setup"
    name=$(echo "$setup" | tr -d '-' | tr ' ' '_')
    # shellcheck disable=SC2086
    "$BIN" arena --variant "$variant" $rest --agents "$AGENT,greedy,rollout@64" \
        --games "$GAMES" --seed 1 --max-plies 200 --quiet --out "$OUT/$name" |
        tee "$OUT/$name.txt"
done
