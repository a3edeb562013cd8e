#!/usr/bin/env bash
# One round of the learned evaluation's loop for one rule set: teacher
# data from the engine (the classical evaluation in round 1, the previous
# round's net after), a net trained on it, and the net against the
# classical evaluation at equal time. docs/engine.md ("Learned
# evaluation") gives the figures this printed.
#
#   bench/nnue_loop.sh VARIANT ROUND POSITIONS [VARIANT OPTIONS...]
#   bench/nnue_loop.sh hostage 1 1000000
#   bench/nnue_loop.sh hostage 2 400000          # labels with round 1's net
#   bench/nnue_loop.sh traitor 1 300000 --mode defector --commitment impromptu
#
# Environment: OUT (default runs/nnue), DEPTH (teacher depth, 3), GAMES
# (arena games, 100), MOVETIME (ms a move, 30), EPOCHS (6), BASE (what the
# net is added to: none, or classical for a correction to the tuned
# hand-written evaluation), RESULT_WEIGHT (the game result's share of
# the target, `nnue train`'s default when unset; the shipped nets on the
# classical base use 0), DATA (a teacher directory already made for this
# round: the teacher step is skipped).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
variant=$1 round=$2 positions=$3
shift 3
out=${OUT:-runs/nnue}/$variant-r$round
depth=${DEPTH:-3} games=${GAMES:-100} movetime=${MOVETIME:-30} epochs=${EPOCHS:-6}
base=${BASE:-none}
heterodox=target/release/heterodox
[ -x "$heterodox" ] || cargo build --release
mkdir -p "$out"

engine=(--engine "ab@$depth/classical")
if [ "$round" -gt 1 ]; then
    previous=${OUT:-runs/nnue}/$variant-r$((round - 1))
    engine=(--engine "ab@$depth" --net "$previous/net/nnue.safetensors")
fi
if [ -n "${DATA:-}" ]; then
    echo "== teacher data: $DATA"
    ln -sfn "$(realpath "$DATA")" "$out/data"
else
    echo "== teacher data: $positions positions, ${engine[*]}"
    "$heterodox" teach --variant "$variant" "$@" --value-only "${engine[@]}" \
        --positions "$positions" --random-plies 12 --seed "$((round - 1))" --out "$out/data" --quiet
fi

# A later round trains on every round's data so far (its shards joined).
data=$out/data
if [ "$round" -gt 1 ]; then
    data=$out/joined
    rm -rf "$data" && mkdir -p "$data"
    for r in $(seq 1 "$round"); do
        for shard in "${OUT:-runs/nnue}/$variant-r$r/data"/*.hdxshard; do
            ln -s "$(realpath "$shard")" "$data/r$r-$(basename "$shard")"
        done
    done
fi
echo "== net (base $base)"
"$heterodox" nnue train --data "$data" --out "$out/net" --epochs "$epochs" --batch 8192 --lr 0.002 \
    --base "$base" ${RESULT_WEIGHT:+--result-weight "$RESULT_WEIGHT"} --quiet

echo "== the net against the classical evaluation, $movetime ms a move"
zoo=$out/zoo
mkdir -p "$zoo/$variant"
cp "$out/net/nnue.safetensors" "$zoo/$variant/nnue.safetensors"
HETERODOX_ZOO=$zoo "$heterodox" arena --variant "$variant" "$@" \
    --agents "ab@${movetime}ms,ab@${movetime}ms/classical" --games "$games" --seed 1 \
    --quiet --out "$out/arena"
