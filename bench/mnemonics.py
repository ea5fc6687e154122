#!/usr/bin/env python3
"""mnemonics.py CALLGRIND_OUT BINARY FN_SUBSTRING [REPS_DIVISOR]
Per-mnemonic instruction counts (self cost) of the functions whose name
contains FN_SUBSTRING, from a callgrind --dump-instr=yes profile."""
import re, subprocess, sys, collections
out, binary, fsub = sys.argv[1:4]
costs = collections.Counter()
fn = None; addr = 0; skip = False
names = {}
for line in open(out):
    line = line.rstrip('\n')
    m = re.match(r'^fn=\((\d+)\)(?: (.*))?$', line)
    if m:
        if m.group(2): names[m.group(1)] = m.group(2)
        fn = names.get(m.group(1), ''); continue
    if line.startswith(('cfn=', 'cfi=', 'cob=', 'fl=', 'fi=', 'fe=', 'ob=')):
        m = re.match(r'^c?fn=\((\d+)\) (.*)$', line)
        if m: names[m.group(1)] = m.group(2)
        continue
    if line.startswith('calls='):
        skip = True; continue
    m = re.match(r'^(0x[0-9a-f]+|\+\d+|-\d+|\*)\s+(\S+)\s+(\d+)', line)
    if not m: continue
    a = m.group(1)
    if a.startswith('0x'): addr = int(a, 16)
    elif a.startswith('+'): addr += int(a[1:])
    elif a.startswith('-'): addr -= int(a[1:])
    if skip: skip = False; continue
    if fn and fsub in fn:
        costs[addr] += int(m.group(3))
dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary], capture_output=True, text=True).stdout
mn = {}
for l in dis.splitlines():
    m = re.match(r'^\s*([0-9a-f]+):\s+(\S+)', l)
    if m: mn[int(m.group(1), 16)] = m.group(2)
# PIE: callgrind may report load addresses; find the offset that matches.
base = 0
if costs and min(costs) not in mn:
    for b in (0x108000, 0x100000, 0x400000, 0x4000000):
        if sum(1 for a in costs if a - b in mn) > 0.9 * len(costs):
            base = b; break
by = collections.Counter()
for a, c in costs.items():
    by[mn.get(a - base, '?')] += c
total = sum(by.values())
print(f'total {total}')
for k, v in by.most_common():
    print(f'{k:16} {v:12} {v/total*100:5.1f}%')
