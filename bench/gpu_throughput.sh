#!/usr/bin/env bash
# Self-play and training throughput on a CUDA GPU, against the same
# machine's CPU cores: short `heterodox train` runs of Hostage Chess with
# three network sizes (docs/training.md, "GPU").
#
#   bash bench/gpu_throughput.sh [OUT_DIR]
#
# Needs a `heterodox-net` whose libtorch is a CUDA build: on a machine with
# PyTorch+CUDA installed, point LD_LIBRARY_PATH at its torch/lib (the
# binary built against the CPU wheel then loads the CUDA one; its
# --no-as-needed link keeps libtorch_cuda.so, see build.rs). Variables:
#   HETERODOX_NET  the binary (default: target/release/heterodox-net)
#   TORCH_LIB      a libtorch directory to load instead of the linked one
#   RUN_SECONDS    the wall-clock limit of each run (default 80)
# Each run is two iterations (the first warms CUDA up); the figures to
# read are the second iteration's `selfplay.positions_per_second`,
# `selfplay.simulations_per_second` and `training.positions_per_second`
# in OUT_DIR/<run>.jsonl, summarised at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-runs/gpu-throughput}
net=${HETERODOX_NET:-target/release/heterodox-net}
seconds=${RUN_SECONDS:-80}
mkdir -p "$out"
if [ -n "${TORCH_LIB:-}" ]; then
    export LD_LIBRARY_PATH="$TORCH_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # Belt and braces: the CUDA backend registers itself when loaded.
    [ -e "$TORCH_LIB/libtorch_cuda.so" ] && export LD_PRELOAD="$TORCH_LIB/libtorch_cuda.so"
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
echo "cpu cores: $(nproc)"
"$net" model --variant hostage --cuda || exit 1

scratch=$(mktemp -d)
# name device blocks channels games max_plies iterations batch
runs=(
    "gpu-2x32 cuda 2 32 256 100 2 256"
    "gpu-6x64 cuda 6 64 256 100 2 256"
    "gpu-10x128 cuda 10 128 256 100 2 1024"
    "cpu-10x128 cpu 10 128 32 40 1 256"
)
for spec in "${runs[@]}"; do
    read -r name device blocks channels games plies iterations batch <<<"$spec"
    cat >"$scratch/$name.toml" <<EOF
variant = "hostage"
seed = 0
[run]
iterations = $iterations
minutes = 0.0
[selfplay]
games = $games
concurrent = $games
max_plies = $plies
adjudicate_cp = 0
[search]
simulations = 64
[network]
blocks = $blocks
channels = $channels
value_hidden = 128
auxiliary_heads = true
[training]
batch_size = $batch
steps_per_iteration = 50
[evaluation]
at_end = false
[teacher]
positions = 0
EOF
    echo "== $name: $blocks blocks x $channels channels, $games games at once, 64 simulations, $device"
    rm -rf "$scratch/run-$name"
    timeout "$seconds" "$net" train --config "$scratch/$name.toml" --run "$scratch/run-$name" \
        --device "$device" --quiet
    echo "exit $?"
    cp "$scratch/run-$name/metrics.jsonl" "$out/$name.jsonl" 2>/dev/null
done
rm -rf "$scratch"

python3 - "$out" <<'EOF'
import json, pathlib, sys
print(f"{'run':<12} {'iter':>4} {'selfplay pos/s':>15} {'sims/s':>10} {'trained pos/s':>14}")
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.jsonl")):
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row.get("kind") != "iteration":
            continue
        sp, tr = row["selfplay"], row["training"]
        print(f"{path.stem:<12} {row['iteration']:>4} {sp['positions_per_second']:>15.0f} "
              f"{sp['simulations_per_second']:>10.0f} {tr['positions_per_second']:>14.0f}")
EOF
