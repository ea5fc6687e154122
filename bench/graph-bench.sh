#!/usr/bin/env bash
# Msamples/s of noise graphs against their parts: `surflet bench --expr`,
# a 1024² 2D grid and the same points as an array, f32, 1 and 2 threads.
# Prints the rows of the table in BENCHMARKS.md ("Noise graphs").
S=${1:-target/release/surflet}
for e in "perlin()" "simplex()" "perlin() + 0" "-perlin()" "perlin() + simplex()" \
         "clamp(perlin() * 2, -1, 1)" "terrace(perlin(), points=[-1, 0, 1], smooth=true)" \
         "select(perlin(), simplex(), control=value(), falloff=0.1)" \
         "displace(perlin(), by=[simplex(), value()])"; do
  for t in 1 2; do
    $S bench --expr "$e" --call grid,points --threads $t --size 1024 --json |
      python3 -c "import json,sys; d=json.load(sys.stdin); r=d['rows'] if isinstance(d,dict) and 'rows' in d else d; print('| \`$e\` | $t | ' + ' | '.join(str(round(x['msamples_per_s'],1)) for x in r) + ' |')"
  done
done
