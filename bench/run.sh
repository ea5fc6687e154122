#!/usr/bin/env bash
# Runs the surflet-vs-peers benchmarks and prints the markdown tables of
# BENCHMARKS.md (machine header included).
#
#   bench/run.sh                 # everything (~6 minutes of measuring)
#   bench/run.sh 'simplex2d'     # only groups/ids matching a criterion filter
#   bench/run.sh --table-only    # reprint the tables from the last run
#   bench/run.sh --native [...]  # same, every Rust crate built with
#                                # RUSTFLAGS="-C target-cpu=native" (own target dir)
#
# Needs cmake, a C++17 compiler and libclang (FastNoise2 is C++, bound with
# bindgen): `apt-get install -y cmake libclang-dev`. No network is needed once
# the crates are in cargo's cache: FastNoise2 0.10's source, FastSIMD included,
# ships inside the fastnoise2-sys 0.1.3 crate.
set -euo pipefail
cd "$(dirname "$0")"

mode="default build"
if [[ "${1:-}" == "--native" ]]; then
    shift
    export RUSTFLAGS="-C target-cpu=native"
    export CARGO_TARGET_DIR=target/native
    mode='RUSTFLAGS="-C target-cpu=native"'
fi
target_dir=${CARGO_TARGET_DIR:-target}

table_only=0
if [[ "${1:-}" == "--table-only" ]]; then
    table_only=1
    shift
fi
if [[ $table_only == 0 ]]; then
    for tool in cmake c++; do
        command -v "$tool" >/dev/null || {
            echo "run.sh: $tool not found; apt-get install -y cmake libclang-dev g++" >&2
            exit 1
        }
    done
    # Build first (nice: the build is long and the machine may be shared),
    # then measure with nothing of ours compiling.
    nice cargo bench --bench noise --no-run
    load=$(cut -d' ' -f1 /proc/loadavg)
    if awk "BEGIN { exit !($load > 0.5) }"; then
        echo "run.sh: warning: load average is $load; other work will add noise" >&2
    fi
    if [[ $# -eq 0 ]]; then
        # A full run replaces every result, so no stale row survives.
        rm -rf "$target_dir/criterion"
    fi
    cargo bench --bench noise -- "$@"
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512dq|avx512bw|avx512vl)$' | tr '\n' ' ')
echo "Machine: $cpu, $(nproc) logical cores; SIMD flags: ${flags% }"
echo "Toolchain: $(rustc --version); $(c++ --version | head -1); $(cmake --version | head -1)"
echo "Build: $mode; FastNoise2 0.10.0 via fastnoise2-sys 0.1.3 (-O3, its CMake defaults)"
echo
python3 table.py "$target_dir/criterion"
