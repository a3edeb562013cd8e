#!/usr/bin/env bash
# The learning-per-position ablation of docs/training.md ("More learning
# per position"): Hostage Chess, the `make train` recipe, one setting
# changed per arm, equal CPU time, each final network against the engine
# at depth 1 in 200 paired games.
#
#   bash bench/training_ablation.sh [OUT_DIR]
#
# 1. base: the supervised start alone (configs/hostage.toml, `--minutes
#    0.01`: the teacher's phase, its evaluation, checkpoint 0);
# 2. arms A (as configured), B (playout cap randomization: 32 simulations
#    in full on a quarter of the moves, 12 on the others), C (surprise
#    weighting 0.5), D (at most one row per new position), F (self-play
#    without quiescence at the leaves): each a copy of
#    base whose config.toml changes that setting, continued with
#    `--resume` for MINUTES (default 8), one at a time;
# 3. E: a 4x48 network from scratch for 4 + MINUTES minutes (its own
#    supervised phase, no evaluation after it);
# 4. `heterodox arena` of each final network (64 simulations, quiescence
#    0.5) against `ab@1/classical`, 200 games, seed 1.
# Variables: HETERODOX (default target/release/heterodox), MINUTES,
# TEACHER_DIR (labelled games to reuse, e.g. runs/hostage-train/teacher
# of a `make train`; default: made by the base run). About 85 minutes on
# 2 cores.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs/training-ablation}
bin=${HETERODOX:-target/release/heterodox}
minutes=${MINUTES:-8}
mkdir -p "$out"
config=$out/base.toml
if [ -n "${TEACHER_DIR:-}" ]; then
    sed "s#^dir = \"\" .*#dir = \"$(realpath "$TEACHER_DIR")\"#" configs/hostage.toml > "$config"
else
    cp configs/hostage.toml "$config"
fi
[ -d "$out/base" ] || "$bin" train --config "$config" --run "$out/base" --minutes 0.01 --quiet
arm() {
    local name=$1; shift
    rm -rf "${out:?}/$name"; cp -a "$out/base" "$out/$name"
    sed -i "s#^minutes = 0.01#minutes = $minutes#" "$out/$name/config.toml"
    for setting in "$@"; do
        # The first line of the key: [search]'s simulations come before
        # [evaluation]'s.
        sed -i "0,/^${setting%%=*} = .*/s##${setting%%=*} = ${setting#*=}#" "$out/$name/config.toml"
    done
    echo "== $name: ${*:-as configured}"
    "$bin" train --run "$out/$name" --resume --quiet | tail -3
}
arm A
arm B simulations=32 full_search_share=0.25 cheap_simulations=12
arm C surprise_weight=0.5
arm D max_sample_reuse=1.0
arm F quiescence_weight=0.0
sed -e 's#^after_teacher = true .*#after_teacher = false#' \
    -e '0,/^blocks = .*/s//blocks = 4/' -e '0,/^channels = .*/s//channels = 48/' "$config" > "$out/e.toml"
echo "== E: 4x48"
rm -rf "${out:?}/E"
"$bin" train --config "$out/e.toml" --run "$out/E" --minutes "$(echo "$minutes + 4" | bc)" --quiet | tail -3
for name in A B C D E F; do
    echo "== arena $name"
    "$bin" arena --variant hostage --agents "net:$out/$name/last@64/quiescence,ab@1/classical" \
        --games 200 --seed 1 --out "$out/arena-$name" --quiet | tail -3
done
