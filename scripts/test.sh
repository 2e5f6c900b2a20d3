#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite:
#   1. the release build, with warnings as errors, and every test (unit, golden, end-to-end; GPU
#      tests skip without a GPU)
#   2. the suite again under AddressSanitizer + UndefinedBehaviorSanitizer (clang), with a short
#      libFuzzer smoke run of every fuzz target
#   3. the concurrency tests under ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SCHEMAC_UPDATE_GOLDEN:-}" ]; then
  echo "test.sh: SCHEMAC_UPDATE_GOLDEN is set; with it the golden tests rewrite their files and pass." >&2
  echo "test.sh: unset it to run the suite (refresh goldens on purpose with ctest -R NAME instead)." >&2
  exit 2
fi
scripts/install-deps.sh
jobs=$(nproc)
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# Runs ctest, keeping its output to count the results at the end.
run_ctest() {
  local name=$1; shift
  ctest "$@" 2>&1 | tee "$logs/$name.log"
}
export CCACHE_DIR="${CCACHE_DIR:-$HOME/.cache/ccache}"

echo "== format (clang-format --dry-run --Werror over lib/ and tools/)"
scripts/check-format.sh

echo "== release build (warnings are errors) and tests"
scripts/build.sh -DSCHEMAC_WERROR=ON
run_ctest release --test-dir build --output-on-failure -j"$jobs"

echo "== AddressSanitizer + UndefinedBehaviorSanitizer, with fuzz smoke runs"
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEMAC_SANITIZE=address,undefined -DSCHEMAC_FUZZ=ON -DSCHEMAC_BENCH=OFF >/dev/null
cmake --build build-asan -j"$jobs"
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
run_ctest asan --test-dir build-asan --output-on-failure -j"$jobs" -LE "slow|gpu"

echo "== ThreadSanitizer"
CC=clang CXX=clang++ cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCHEMAC_SANITIZE=thread -DSCHEMAC_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target tsan_tests
run_ctest tsan --test-dir build-tsan --output-on-failure -L tsan

total=$(( $(cat "$logs"/*.log | sed -n 's/.*tests failed out of \([0-9]*\)$/\1/p' | paste -sd+) ))
skipped=$(cat "$logs"/*.log | grep -c '(Skipped)$' || true)
echo "== all tests passed"
echo "all: $((total - skipped)) passed, 0 failed, $skipped skipped"
