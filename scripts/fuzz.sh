#!/usr/bin/env bash
# A long fuzzing campaign of one target:  scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG...]
#   TARGET   a fuzz target: schema_parser, yaml_loader, tags, compat, gen, simulate,
#            value_spec, source_scanner (the files fuzz/*.cpp); `scripts/fuzz.sh list` lists them
#   SECONDS  how long to run
# Builds the fuzz configuration (clang, AddressSanitizer + UndefinedBehaviorSanitizer, the code
# under test instrumented for coverage) in build-fuzz/, then runs the target on a working corpus
# (build-fuzz/fuzz/campaign_TARGET/, kept between runs) seeded from fuzz/corpus/TARGET/. A crash
# input is written to build-fuzz/fuzz/crash-*: fix the bug, then add the input to
# fuzz/corpus/TARGET/ so the smoke run of the test suite replays it for ever.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG...]}
if [[ $target == list ]]; then
  for f in fuzz/*.cpp; do basename "$f" .cpp; done
  exit 0
fi
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG...]}
shift 2
[[ -f fuzz/$target.cpp ]] || { echo "fuzz.sh: error: no fuzz target '$target' (see 'scripts/fuzz.sh list')" >&2; exit 2; }
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"
build=${SCHEMAC_FUZZ_BUILD:-build-fuzz}
if [[ ! -f $build/CMakeCache.txt ]]; then
  CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSCHEMAC_SANITIZE=address,undefined -DSCHEMAC_FUZZ=ON -DSCHEMAC_BENCH=OFF >/dev/null
fi
cmake --build "$build" -j"${JOBS:-$(nproc)}" --target "fuzz_$target"
work=$build/fuzz/campaign_$target
mkdir -p "$work"
seeds=()
[[ -d fuzz/corpus/$target ]] && seeds+=("fuzz/corpus/$target")
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
exec "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$build/fuzz/" -print_final_stats=1 "$@" "$work" "${seeds[@]}"
