#!/usr/bin/env python3
"""Charges a profile of surflet's kernels to the functions that wrote them.

surflet's kernels are inlined into one function per instruction set, so a
flat profile names only `dispatch_f32::avx2`. This script reads each hot
address's inline chain from the binary's line tables (`addr2line -i`; the
harness builds with `debug = "line-tables-only"`) and charges it to the
innermost surflet function outside the SIMD wrapper layer (`simd/`), for
example `lowbias32 @ kernel/hash.rs` or `exec @ batch.rs`.

Instruction counts, from two callgrind runs (1 and 3 calls; the difference
leaves out set-up):

    B=bench/target/release/examples/instructions
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.1 $B simplex 2 1
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.3 $B simplex 2 3
    python3 bench/attribute.py callgrind $B cg.1 cg.3 262144 [--parts]

Time shares, from sampling (skid may charge a slow instruction's time to
the next one):

    perf record -e cpu-clock -F 5000 -o perf.data -- $B simplex 2 200
    python3 bench/attribute.py perf $B perf.data [--parts]

`--parts` groups the functions into the parts of BENCHMARKS.md ("Where
surflet loses time"). Output: instructions per sample (callgrind: the
difference over two calls, divided by 2 and by SAMPLES) or percent of
samples (perf), largest first.
"""
import collections
import re
import subprocess
import sys

# Function name -> part, for --parts.
PARTS = {
    "loop": ["exec", "run", "eval", "store_row", "load_row", "widen",
             "simplex_family", "hypercube_cached", "hypercube"],
    "gradient": ["grad1", "grad2", "grad3_catlike", "grad3_edges",
                 "grad4_edges", "grad4_simplex", "three_way", "lattice_value"],
    "hash": ["lowbias32", "bcc_step_hash", "bcc_hashes", "corner_node", "corner4"],
    "locate": ["tri2", "bcc_tetra", "split", "skew_split", "mul_split",
               "cell_sum", "pair_sum", "axes", "fade", "simplex4_lattice",
               "simplex4_corners"],
    "surflets": ["dot", "surflet", "simplex2", "simplex3", "simplex4",
                 "finish_sum", "poison", "blend", "ramp", "finish", "column_wide"],
}
PART_OF = {f: p for p, fs in PARTS.items() for f in fs}


def callgrind_counts(path, obj):
    """Self cost per instruction address of object `obj` (a substring of its
    path) in a callgrind file written with --dump-instr=yes."""
    counts = collections.Counter()
    names, cur, last, skip = {}, None, 0, False
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"^(c?ob)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, idx, name = m.groups()
            if name:
                names[idx] = name
            if kind == "ob":
                cur = names.get(idx)
            continue
        if line.startswith("calls="):
            skip = True  # the next cost line is the call's inclusive cost
            continue
        parts = line.split()
        if len(parts) < 3 or "=" in parts[0]:
            continue
        a = parts[0]
        if a.startswith("0x"):
            addr = int(a, 16)
        elif a[0] in "+-":
            addr = last + int(a)
        elif a == "*":
            addr = last
        else:
            continue
        last = addr
        if skip:
            skip = False
            continue
        if cur and obj in cur:
            counts[addr] += int(parts[2])
    return counts


def perf_counts(path, binary):
    """Samples per file address of `binary` in a `perf record` file."""
    mm = subprocess.run(["perf", "script", "-i", path, "--show-mmap-events"],
                        capture_output=True, text=True).stdout
    base = binary.rsplit("/", 1)[-1]
    m = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+) .*r-xp .*/"
                  + re.escape(base) + r"\n", mm)
    start, pgoff = int(m.group(1), 16), int(m.group(3), 16)
    # File offset -> virtual address of the executable segment.
    delta = 0
    for line in subprocess.run(["readelf", "-lW", binary],
                               capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if p and p[0] == "LOAD" and "E" in p[6:8]:
            delta = int(p[2], 16) - int(p[1], 16)
    counts = collections.Counter()
    for line in subprocess.run(["perf", "script", "-i", path, "-F", "ip,dso"],
                               capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if len(p) >= 2 and p[1].endswith(base + ")"):
            counts[int(p[0], 16) - start + pgoff + delta] += 1
    return counts


def charge(binary, counts):
    """Function label per address: the innermost surflet frame outside simd/."""
    addrs = sorted(counts)
    out = subprocess.run(["addr2line", "-e", binary, "-i", "-f", "-C", "-a"],
                         input="\n".join(hex(a) for a in addrs),
                         capture_output=True, text=True).stdout.splitlines()
    chains, cur, i = {}, None, 0
    while i < len(out):
        line = out[i]
        if line.startswith("0x") and int(line, 16) in counts and (
                i + 1 >= len(out) or not out[i + 1].startswith("0x")):
            cur = int(line, 16)
            chains[cur] = []
            i += 1
            continue
        chains[cur].append((line, out[i + 1]))
        i += 2
    labels = {}
    for a in addrs:
        labels[a] = "other"
        for name, loc in chains.get(a, []):
            if "/crates/surflet/src/" in loc and "/simd/" not in loc:
                labels[a] = name.split("<")[0] + " @ " + loc.split("/src/")[1].split(":")[0]
                break
    return labels


def main():
    args = [a for a in sys.argv[1:] if a != "--parts"]
    parts = "--parts" in sys.argv
    if len(args) >= 5 and args[0] == "callgrind":
        binary, one, three, samples = args[1], args[2], args[3], int(args[4])
        obj = binary.rsplit("/", 1)[-1]
        c1, c3 = callgrind_counts(one, obj), callgrind_counts(three, obj)
        counts = {a: c3[a] - c1.get(a, 0) for a in c3 if c3[a] - c1.get(a, 0) > 0}
        scale, unit = 1 / (2 * samples), "instructions a sample"
    elif len(args) >= 3 and args[0] == "perf":
        binary = args[1]
        counts = perf_counts(args[2], binary)
        scale, unit = 100 / sum(counts.values()), "% of samples"
    else:
        sys.exit(__doc__)
    labels = charge(binary, counts)
    total = collections.Counter()
    for a, c in counts.items():
        label = labels[a]
        if parts:
            name = label.split(" @ ")[0]
            # Instructions of the dispatch function's own body: loop glue.
            if name.startswith("surflet::simd::dispatch_"):
                name = "run"
            label = PART_OF.get(name, "other")
        total[label] += c
    print(f"{unit}:")
    for label, c in total.most_common():
        if c * scale >= 0.05:
            print(f"{c * scale:8.2f}  {label}")
    print(f"{sum(total.values()) * scale:8.2f}  total")


if __name__ == "__main__":
    main()
