#!/usr/bin/env bash
# Runs the surflet-vs-peers benchmarks and prints the markdown tables of
# BENCHMARKS.md (machine header included).
#
#   bench/run.sh --both          # the final measurement: builds both, then
#                                # measures the default build and the native
#                                # one (about 9.5 minutes of measuring each)
#   bench/run.sh                 # the default (portable) build only
#   bench/run.sh --native [...]  # every Rust crate built with
#                                # RUSTFLAGS="-C target-cpu=native" (own target dir)
#   bench/run.sh 'simplex2d'     # only groups/ids matching a criterion filter
#   bench/run.sh '^(opensimplex2|cellular)'
#                                # only issue 13's new-noise groups (~3 min)
#   bench/run.sh --table-only    # reprint the tables from the last run
#   bench/run.sh --native --table-only
#   bench/run.sh --both --table-only
#
# Arguments after the mode are passed to criterion (a filter, or e.g.
# `--measurement-time 2`). Each build's tables are also written to
# target/tables.md and target/native/tables.md. A CARGO_TARGET_DIR set by the
# caller replaces `target` in those paths (e.g. to reuse another checkout's
# build of the peers: FastNoise2's C++ takes minutes to build).
#
# Needs cmake, a C++17 compiler and libclang (FastNoise2 is C++, bound with
# bindgen): `apt-get install -y cmake libclang-dev g++`. No network is needed
# once the crates are in cargo's cache: FastNoise2 0.10's source, FastSIMD
# included, ships inside the fastnoise2-sys 0.1.3 crate.
set -euo pipefail
cd "$(dirname "$0")"

modes=(default)
case "${1:-}" in
    --native) modes=(native); shift ;;
    --both) modes=(default native); shift ;;
esac
table_only=0
if [[ "${1:-}" == "--table-only" ]]; then
    table_only=1
    shift
fi

base_target=${CARGO_TARGET_DIR:-target}

# Sets RUSTFLAGS, CARGO_TARGET_DIR and the build label for a mode.
use_mode() {
    if [[ $1 == native ]]; then
        export RUSTFLAGS="-C target-cpu=native"
        export CARGO_TARGET_DIR=$base_target/native
        label='RUSTFLAGS="-C target-cpu=native"'
    else
        unset RUSTFLAGS
        export CARGO_TARGET_DIR=$base_target
        label="default build (portable: runtime dispatch)"
    fi
}

if [[ $table_only == 0 ]]; then
    for tool in cmake c++; do
        command -v "$tool" >/dev/null || {
            echo "run.sh: $tool not found; apt-get install -y cmake libclang-dev g++" >&2
            exit 1
        }
    done
    # Build everything first (nice: the build is long and the machine may be
    # shared), then measure with nothing of ours compiling.
    for m in "${modes[@]}"; do
        use_mode "$m"
        nice cargo bench --bench noise --no-run
    done
    for m in "${modes[@]}"; do
        use_mode "$m"
        load=$(cut -d' ' -f1 /proc/loadavg)
        if awk "BEGIN { exit !($load > 0.5) }"; then
            echo "run.sh: warning: load average is $load; other work will add noise" >&2
        fi
        if [[ $# -eq 0 ]]; then
            # A full run replaces every result, so no stale row survives.
            rm -rf "$CARGO_TARGET_DIR/criterion"
        fi
        echo "run.sh: measuring the $m build" >&2
        start=$(date +%s)
        cargo bench --bench noise -- "$@"
        echo "run.sh: the $m build took $(( $(date +%s) - start )) s to measure" >&2
    done
fi

cpu=$(./cpu-name.sh)
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f|avx512dq|avx512bw|avx512vl)$' | tr '\n' ' ')
for m in "${modes[@]}"; do
    use_mode "$m"
    {
        echo "## ${m^} build"
        echo
        echo "Machine: $cpu, $(nproc) logical cores; SIMD flags: ${flags% }"
        echo "Toolchain: $(rustc --version); $(c++ --version | head -1); $(cmake --version | head -1)"
        echo "Build: $label; FastNoise2 0.10.0 via fastnoise2-sys 0.1.3 (-O3, its CMake defaults); quick-noise 0.3.0 (runtime dispatch)"
        echo "Load average before printing: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo
        python3 table.py "$CARGO_TARGET_DIR/criterion"
    } | tee "$CARGO_TARGET_DIR/tables.md"
done
