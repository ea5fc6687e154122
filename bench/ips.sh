#!/usr/bin/env bash
# ips.sh BINARY KIND DIM [MODE]: instructions a sample under callgrind,
# (count at 3 repetitions - count at 1) / 2 / samples.
b=$1; k=$2; d=$3; m=${4:-}
case $d in 2) n=262144;; 3) n=262144;; 4) n=65536;; esac
c() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$b" $k $d $1 $m 2>&1 | sed -n 's/.*Collected : //p'; }
a=$(c 1); z=$(c 3)
python3 -c "print(f'{($z-$a)/2/$n:.2f}')"
