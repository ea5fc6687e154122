#!/usr/bin/env bash
# Prints this machine's CPU as the benchmark tables name it: the model name,
# the family and model numbers, and the microarchitecture where they give
# it, because the same code can compare 2× differently against a peer on
# two of them (Zen 4 executes a 512-bit operation as two 256-bit halves,
# Zen 5 and Intel's AVX-512 cores do not).
set -euo pipefail
field() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'; }
name=$(field 'model name')
vendor=$(field vendor_id)
family=$(field 'cpu family')
model=$(field model)
arch=""
case "$vendor:$family" in
    AuthenticAMD:25)
        # Family 19h: Zen 3 and Zen 4 share it; the model ranges tell them apart.
        if (( (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0xaf) )); then
            arch="Zen 4: 512-bit operations in two 256-bit halves"
        else
            arch="Zen 3: no AVX-512"
        fi ;;
    AuthenticAMD:26) arch="Zen 5: full-width 512-bit operations" ;;
    AuthenticAMD:23) arch="Zen 1/2: no AVX-512" ;;
    GenuineIntel:6)
        case "$model" in
            143) arch="Sapphire Rapids" ;;
            207) arch="Emerald Rapids" ;;
            173 | 174) arch="Granite Rapids" ;;
            106 | 108) arch="Ice Lake SP" ;;
            85) arch="Skylake SP / Cascade Lake" ;;
        esac ;;
esac
echo "$name, family $family model $model${arch:+ ($arch)}"
