#!/usr/bin/env bash
# Builds and runs every benchmark (5 repetitions each) and prints min and median of each, plus
# ratios against the baselines measured in the same run (bench/baselines.txt).
#   bench/run.sh                 all benchmark programs
#   bench/run.sh bench_dispatch  just one
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for exe in build/bench/*/bench_*; do
  name=$(basename "$exe")
  if (($#)) && [[ " $* " != *" $name "* ]]; then continue; fi
  echo "running $name" >&2
  "$exe" --benchmark_repetitions=5 --benchmark_out="$out/$name.json" --benchmark_out_format=json \
    >/dev/null
done
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
