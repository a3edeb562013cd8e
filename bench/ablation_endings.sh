#!/usr/bin/env bash
# The ablation of docs/training.md ("Endings and auxiliary heads"): the
# make-train recipe (Hostage, teacher at depth 1, 4000 supervised steps)
# followed by ITERATIONS self-play iterations under each setting, at the
# same budget (iterations, not minutes, so that machine load does not
# change it), each ending with the trainer's evaluation (100 games per
# opponent at 64 simulations, 95% intervals).
#
#   bench/ablation_endings.sh [OUT] [ITERATIONS]
#
# Arms: control (no adjudication, no resignation, no auxiliary heads),
# +adjudication, +adjudication +resignation, +adjudication +auxiliary heads.
# The teacher data is made once; each supervised network (with and without
# the auxiliary heads) once, then copied into the arms that continue it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:-runs/ablation}
ITERATIONS=${2:-40}
BIN=target/release/heterodox
mkdir -p "$OUT"

# base NAME AUX: the supervised start, no iterations, no evaluation.
base() {
  local name=$1 aux=$2
  [ -e "$OUT/$name/last" ] && return 0
  sed -e "s|^dir = \"\"|dir = \"$OUT/teacher\"|" \
      -e "s|^minutes = 12.0|minutes = 0.001|" \
      -e "s|^at_end = true|at_end = false|" \
      -e "s|^auxiliary_heads = false|auxiliary_heads = $aux|" \
      configs/hostage.toml > "$OUT/$name.toml"
  "$BIN" train --config "$OUT/$name.toml" --run "$OUT/$name" --quiet
}

# arm NAME BASE ADJUDICATE_CP RESIGN_THRESHOLD
arm() {
  local name=$1 from=$2 cp=$3 resign=$4
  [ -e "$OUT/$name/done" ] && return 0
  rm -rf "${OUT:?}/$name"
  cp -r "$OUT/$from" "$OUT/$name"
  sed -i -e "s|^minutes = .*|minutes = 0.0|" \
         -e "s|^iterations = 0|iterations = $ITERATIONS|" \
         -e "s|^at_end = false|at_end = true|" \
         -e "/^\[selfplay\]/,/^\[/ s|^adjudicate_cp = .*|adjudicate_cp = $cp|" \
         -e "/^\[selfplay.resign\]/,/^\[/ s|^threshold = .*|threshold = $resign|" \
         "$OUT/$name/config.toml"
  local start=$SECONDS
  "$BIN" train --run "$OUT/$name" --resume --quiet 2>&1 | tail -4 | tee "$OUT/$name/summary.txt"
  echo "seconds: $((SECONDS - start))" | tee -a "$OUT/$name/summary.txt"
  touch "$OUT/$name/done"
}

base base false
base base-aux true
arm control base 0 0.0
arm adjudicate base 300 0.0
arm adjudicate-resign base 300 0.9
arm adjudicate-aux base-aux 300 0.0
for name in control adjudicate adjudicate-resign adjudicate-aux; do
  echo "== $name"; cat "$OUT/$name/summary.txt"
done
