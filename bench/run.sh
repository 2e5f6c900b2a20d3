#!/usr/bin/env bash
# Builds and runs every benchmark (5 rounds) and prints min and median of each, plus
# ratios against the baselines measured in the same run (bench/baselines.txt): our own baselines,
# libtorch's figures for the same work (bench_torch, built when libtorch-dev is installed) and the
# whole `schemac gen` process (process_gen, bench/process/gen_process.py).
#   bench/run.sh                              all benchmark programs
#   bench/run.sh bench_dispatch bench_torch   just these
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
# OpenBLAS picks its kernels by the CPU's model number. Where it does not know the model (virtual
# machines that report a generic one) it falls back to an SSE3 kernel of 2004, a baseline that
# would mean nothing: unless the caller chose a kernel, name the family the CPU's flags allow.
if [[ -z ${OPENBLAS_CORETYPE:-} ]]; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Five rounds, each running every program once: a benchmark and the baselines it is compared
# with (bench_torch's too) alternate in time, so a change in the machine's load or memory
# bandwidth during the run reaches both sides of a ratio. Inside a program the benchmarks run in
# random order (--benchmark_enable_random_interleaving).
for round in 1 2 3 4 5; do
  for exe in build/bench/*/bench_*; do
    name=$(basename "$exe")
    if (($#)) && [[ " $* " != *" $name "* ]]; then continue; fi
    echo "running $name (round $round of 5)" >&2
    "$exe" --benchmark_repetitions=1 --benchmark_enable_random_interleaving=true \
      --benchmark_out="$out/$name.$round.json" --benchmark_out_format=json >/dev/null
  done
done
if { ! (($#)) || [[ " $* " == *" process_gen "* ]]; } && [[ -x build/tools/schemac/schemac ]]; then
  echo "running process_gen" >&2
  python3 bench/process/gen_process.py build/tools/schemac/schemac "$out/process_gen.json"
fi
python3 bench/report.py bench/baselines.txt "$out"/*.json
# `schemac lint` end to end against torchgen's parse_native_yaml in the same run (needs a Python
# with torchgen: Debian's python3-torch gives /usr/bin/python3 one).
if (($# == 0)) || [[ " $* " == *" bench_lint "* ]]; then
  if /usr/bin/python3 -c 'import torchgen' 2>/dev/null; then
    /usr/bin/python3 bench/lint/vs_torchgen.py
  else
    echo "bench_lint_vs_torchgen: skipped (no torchgen for /usr/bin/python3)"
  fi
fi
