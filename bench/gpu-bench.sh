#!/usr/bin/env bash
# `surflet bench --device gpu` beside the CPU, in the same run: for each
# workload the GPU's dispatch alone and dispatch plus read-back, then the
# CPU's f32 grid call on one thread and on every core, on the same grid
# (same origin, spacing and shape). Prints the markdown table of
# BENCHMARKS.md's GPU section.
#
#   bench/gpu-bench.sh                       # builds with --features gpu
#   SURFLET=path/to/surflet bench/gpu-bench.sh   # a binary built so already
#   SECONDS_PER_ROW=2 bench/gpu-bench.sh
#
# Needs a Vulkan, Metal or DX12 adapter: on a machine without a GPU, Mesa's
# lavapipe (Debian's mesa-vulkan-drivers), which runs the shader on the
# CPU's cores and so measures llvmpipe's code, not a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SURFLET:-}" ]; then
    cargo build --release --quiet -p surflet-cli --features gpu
    SURFLET=target/release/surflet
fi
secs=${SECONDS_PER_ROW:-1}
cores=$(nproc)
# The Vulkan loader's Wayland client complains on every context without one.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d)
    export XDG_RUNTIME_DIR
fi

# label | bench arguments (the same for both devices)
workloads=(
    "2D simplex 1024²|simplex --dims 2 --size 1024"
    "3D simplex 128³|simplex --dims 3 --size 128"
    "2D Perlin 1024²|perlin --dims 2 --size 1024"
    "3D Perlin 128³|perlin --dims 3 --size 128"
    "2D value 1024²|value --dims 2 --size 1024"
    "fBm ×3 Perlin 2D 1024², freq 1/64|perlin --dims 2 --size 1024 --octaves 3 --frequency 1/64 --scale 1"
    "fBm 3D simplex ×5, 64³|simplex --dims 3 --size 64 --octaves 5"
    "3D Perlin 128³, gradient|perlin --dims 3 --size 128 --gradient"
    "2D simplex 1024², warped|simplex --dims 2 --size 1024 --warp-amplitude 0.5"
)

device=$("$SURFLET" bench simplex --size 16 --device gpu --seconds 0 --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["device"])')
echo "Machine: $(bench/cpu-name.sh), $cores logical cores"
echo "GPU adapter: $device"
echo "Toolchain: $(rustc --version); release build with --features gpu; $secs s per row"
echo
echo "| workload | GPU dispatch | GPU grid + read-back | CPU grid, 1 thread | CPU grid, $cores threads |"
echo "|---|--:|--:|--:|--:|"
for w in "${workloads[@]}"; do
    label=${w%%|*}
    args=${w#*|}
    # shellcheck disable=SC2086
    gpu=$("$SURFLET" bench $args --device gpu --seconds "$secs" --json)
    # shellcheck disable=SC2086
    cpu=$("$SURFLET" bench $args --call grid --threads "1,$cores" --seconds "$secs" --json)
    python3 - "$label" "$cores" "$gpu" "$cpu" <<'EOF'
import json, sys
label, cores = sys.argv[1], int(sys.argv[2])
gpu, cpu = (json.loads(a)["rows"] for a in sys.argv[3:5])
def rate(rows, call, threads):
    for r in rows:
        if (r["call"], r["threads"]) == (call, threads):
            return f'{r["msamples_per_s"]:.0f}'
    return "–"
print(f"| {label} | {rate(gpu, 'dispatch', None)} | {rate(gpu, 'grid', None)} | "
      f"{rate(cpu, 'grid', 1)} | {rate(cpu, 'grid', cores)} |")
EOF
done
