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
