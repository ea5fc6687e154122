#!/usr/bin/env bash
# Two builds of surflet side by side on the value and Perlin workloads
# (with 2D simplex as a control), through `surflet bench`: each row runs
# the old binary, then the new one. Prints a markdown table.
#
#   bench/compare.sh OLD_BINARY NEW_BINARY [SECONDS_PER_ROW]
#
# Make OLD_BINARY from a worktree of the older commit, e.g.
#   git worktree add /tmp/old <commit>
#   (cd /tmp/old && cargo build --release -p surflet-cli)
set -euo pipefail
old=$1
new=$2
secs=${3:-1.5}
workloads=(
 "2D simplex 1024² (control)|simplex --dims 2 --size 1024"
 "3D Perlin 128³|perlin --dims 3 --size 128"
 "2D Perlin 1024²|perlin --dims 2 --size 1024"
 "2D value 1024²|value --dims 2 --size 1024"
 "3D value 128³|value --dims 3 --size 128"
 "4D Perlin 32⁴|perlin --dims 4 --size 32"
 "fBm ×3 Perlin 2D 1024², freq 1/64|perlin --dims 2 --size 1024 --octaves 3 --frequency 1/64 --scale 1"
 "fBm ×3 value 2D 1024², freq 1/64|value --dims 2 --size 1024 --octaves 3 --frequency 1/64 --scale 1"
 "fBm ×3 Perlin 3D 128³, freq 1/64|perlin --dims 3 --size 128 --octaves 3 --frequency 1/64 --scale 1"
 "fBm ×3 value 3D 128³, freq 1/64|value --dims 3 --size 128 --octaves 3 --frequency 1/64 --scale 1"
)
echo "| workload | grid f32 before → after | points f32 before → after | grid f32 2 threads before → after | grid f64 before → after |"
echo "|---|--:|--:|--:|--:|"
for w in "${workloads[@]}"; do
  label=${w%%|*}; args=${w#*|}
  o=$("$old" bench $args --call grid,points --precision f32,f64 --threads 1,2 --seconds "$secs" --json)
  n=$("$new" bench $args --call grid,points --precision f32,f64 --threads 1,2 --seconds "$secs" --json)
  python3 - "$label" "$o" "$n" <<'PY'
import json,sys
label,o,n=sys.argv[1],json.loads(sys.argv[2])["rows"],json.loads(sys.argv[3])["rows"]
def r(rows,c,p,t):
    for x in rows:
        if (x["call"],x["precision"],x["threads"])==(c,p,t): return x["msamples_per_s"]
def cell(c,p,t):
    a,b=r(o,c,p,t),r(n,c,p,t); return f"{a:.0f} → {b:.0f} ({b/a:.2f}×)"
print(f"| {label} | {cell('grid','f32',1)} | {cell('points','f32',1)} | {cell('grid','f32',2)} | {cell('grid','f64',1)} |")
PY
done
