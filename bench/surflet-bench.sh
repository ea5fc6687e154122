#!/usr/bin/env bash
# surflet's own batch calls on the issue-11 workloads, through `surflet
# bench` (no peers, no C++): grid and point-array calls, f32 and f64, one
# thread and every core. Prints the markdown table of BENCHMARKS.md.
#
#   bench/surflet-bench.sh            # about a minute of measuring
#   SECONDS_PER_ROW=2 bench/surflet-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/surflet
secs=${SECONDS_PER_ROW:-0.5}
cores=$(nproc)

# label | bench arguments
workloads=(
    "2D simplex 1024²|simplex --dims 2 --size 1024"
    "3D simplex 128³|simplex --dims 3 --size 128"
    "3D Perlin 128³|perlin --dims 3 --size 128"
    "4D simplex 64⁴|simplex --dims 4 --size 64"
    "2D Perlin 1024²|perlin --dims 2 --size 1024"
    "fBm 3D simplex ×5, 64³|simplex --dims 3 --size 64 --octaves 5"
    "2D value 1024²|value --dims 2 --size 1024"
    "fBm ×3 Perlin 2D 1024², freq 1/64|perlin --dims 2 --size 1024 --octaves 3 --frequency 1/64 --scale 1"
    "fBm ×3 value 3D 128³, freq 1/64|value --dims 3 --size 128 --octaves 3 --frequency 1/64 --scale 1"
    "fBm ×3 simplex 2D 1024², freq 1/64|simplex --dims 2 --size 1024 --octaves 3 --frequency 1/64 --scale 1"
    "fBm ×3 simplex 3D 128³, freq 1/64|simplex --dims 3 --size 128 --octaves 3 --frequency 1/64 --scale 1"
)

echo "Machine: $(bench/cpu-name.sh), $cores logical cores"
echo "Toolchain: $(rustc --version); default release build; $secs s per row"
echo
echo "| workload | grid f32 | points f32 | grid f32, $cores threads | grid f64 | points f64 |"
echo "|---|--:|--:|--:|--:|--:|"
for w in "${workloads[@]}"; do
    label=${w%%|*}
    args=${w#*|}
    # shellcheck disable=SC2086
    json=$("$bin" bench $args --call grid,points --precision f32,f64 \
        --threads "1,$cores" --seconds "$secs" --json)
    python3 - "$label" "$cores" <<EOF
import json, sys
label, cores = sys.argv[1], int(sys.argv[2])
rows = json.loads('''$json''')["rows"]
def rate(call, prec, threads):
    for r in rows:
        if (r["call"], r["precision"], r["threads"]) == (call, prec, threads):
            return f'{r["msamples_per_s"]:.0f}'
    return "–"
print(f"| {label} | {rate('grid','f32',1)} | {rate('points','f32',1)} | "
      f"{rate('grid','f32',cores)} | {rate('grid','f64',1)} | {rate('points','f64',1)} |")
EOF
done
