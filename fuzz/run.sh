#!/usr/bin/env bash
# A real fuzzing run: every cargo-fuzz target (or the ones named) for
# FUZZ_SECONDS each (default 600), starting from the committed corpus in
# fuzz/corpus/TARGET. Afterwards each corpus is reduced to a set of inputs
# that covers the same features (libFuzzer's -set_cover_merge), ready to
# commit; `cargo test --workspace` replays it (tests/cli/fuzz_corpus.rs), so
# CI checks every kept input without building a fuzzer.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Stable Rust works: `-s none`
# needs no sanitizer runtime, and RUSTC_BOOTSTRAP lets cargo-fuzz pass its
# few -Z flags. -O -a: optimised, with debug assertions and overflow checks,
# so an arithmetic overflow in the hash is a crash the fuzzer reports.
#
# A crash stops the run; its input is in fuzz/artifacts/TARGET/. Fix the
# bug, then copy the input into fuzz/corpus/TARGET/ (keep its crash-* name)
# so that the test suite replays it from then on, and record it in
# fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${FUZZ_SECONDS:-600}"
export RUSTC_BOOTSTRAP=1
flags=(-s none -O -a)
cargo fuzz build "${flags[@]}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
bin="target/$(rustc -vV | sed -n 's/^host: //p')/release"
for target in "${targets[@]}"; do
    corpus="corpus/$target"
    mkdir -p "$corpus"
    before=$(find "$corpus" -type f | wc -l)
    log="$(mktemp)"
    echo "fuzz: $target for ${seconds}s from $before inputs"
    # A hang is an input that takes over 10 s; an unbounded allocation one
    # that passes 2 GiB (libFuzzer's -rss_limit_mb, which also caps a single
    # malloc): both are reported as crashes.
    if ! cargo fuzz run "${flags[@]}" "$target" "$corpus" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 >"$log" 2>&1; then
        tail -n 80 "$log"
        echo "fuzz: $target crashed; the input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    grep '^Done' "$log"
    rm -f "$log"
    reduced="$(mktemp -d)"
    "$bin/$target" -set_cover_merge=1 "$reduced" "$corpus" >/dev/null 2>&1
    # Crash regressions stay whatever the merge thinks of them.
    find "$corpus" -maxdepth 1 -name 'crash-*' -exec cp {} "$reduced" \;
    rm -rf "$corpus"
    mv "$reduced" "$corpus"
    echo "fuzz: $target corpus $before -> $(find "$corpus" -type f | wc -l) inputs"
done
