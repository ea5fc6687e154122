#!/usr/bin/env bash
# Prints the directional-artefacts table of docs/QUALITY.md: `surflet
# analyze` (defaults: 512x512 samples, 4 a lattice cell, seed 0) on each
# noise and slice below, as a markdown table.
#
#   docs/quality/anisotropy.sh [SURFLET]   (default: target/release/surflet)
set -euo pipefail
cd "$(dirname "$0")/../.."
surflet=${1:-target/release/surflet}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=(
    "classic2005-java"
    "classic2005-java --plane diagonal"
    "perlin2002-java"
    "perlin"
    "perlin --dims 3 --plane diagonal"
    "value"
    "value-cubic"
    "simplex"
    "simplex --dims 3"
    "simplex --dims 3 --plane diagonal"
    "opensimplex2"
    "opensimplex2 --dims 3"
    "opensimplex2s"
    "opensimplex2s --dims 3"
    "opensimplex2-java"
    "opensimplex2s-java"
    "cellular"
    "cellular --return f2-f1"
    "cellular --distance manhattan"
)
echo "| \`surflet analyze DIR …\` | std | centroid (cycles/unit) | anisotropy | floor |"
echo "|---|--:|--:|--:|--:|"
for r in "${runs[@]}"; do
    # shellcheck disable=SC2086
    "$surflet" analyze "$tmp/out" $r >/dev/null
    python3 - "$tmp/out/summary.json" "$r" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
d = s["anisotropy_detail"]
print(f"| `{sys.argv[2]}` | {s['std']:.3f} | {s['spectrum']['centroid']:.3f} | "
      f"{s['anisotropy']:.3f} | {d['floor']:.3f} |")
PY
    rm -rf "$tmp/out"
done
