#!/usr/bin/env bash
# Installs surflet's C library under PREFIX: lib/libsurflet_c.so and
# lib/libsurflet_c.a, include/surflet.h, and lib/pkgconfig/surflet.pc, so
# that `pkg-config --cflags --libs surflet` finds it (with
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig unless PREFIX is a system prefix).
#
#   crates/surflet-c/install.sh PREFIX [LIBDIR]
#
# Without LIBDIR it builds the libraries first (`cargo build --release -p
# surflet-c`); with it, it takes them from there (CI passes target/debug,
# which the test command built).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 PREFIX [LIBDIR]" >&2
    exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$1"
prefix="$(cd "$1" && pwd)"
if [ $# -eq 2 ]; then
    libdir="$2"
else
    (cd "$here" && cargo build --release -p surflet-c)
    libdir="$(cd "$here/../.." && pwd)/target/release"
fi
for lib in libsurflet_c.so libsurflet_c.a; do
    if [ ! -f "$libdir/$lib" ]; then
        echo "$libdir/$lib is missing: build surflet-c first" >&2
        exit 1
    fi
done
# The crate's version: its own manifest's (a published crate), or the
# workspace's (a clone).
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" "$here/../../Cargo.toml" 2>/dev/null | head -n 1)"
# The system libraries a static link of the Rust standard library needs on
# Linux with glibc (what `rustc --print native-static-libs` lists there).
native="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
cp "$libdir/libsurflet_c.so" "$libdir/libsurflet_c.a" "$prefix/lib/"
cp "$here/include/surflet.h" "$prefix/include/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" -e "s|@NATIVE_LIBS@|$native|" \
    "$here/surflet.pc.in" > "$prefix/lib/pkgconfig/surflet.pc"
echo "installed surflet $version under $prefix"
