#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite, every test at least once:
#   1. the format check
#   2. the AddressSanitizer + UndefinedBehaviorSanitizer build (clang) and the suite under it, with
#      a short libFuzzer smoke run of every fuzz target, but for the tests of
#      tests/sanitizer_skip.txt (external programs, whole-output goldens) and the slow and GPU ones
#   3. the release build, with warnings as errors: tools, libraries, benchmarks, CUDA and PyTorch
#      interop where found, and the test programs stage 2 did not run in full (a program whose
#      every test ran there, compiled alike in both trees, is left out:
#      scripts/programs-tested-elsewhere.py); in it, only the tests that stage 2 did not run:
#      those of the skip list, slow and GPU tests (they skip without a GPU), and those only the
#      release build has (PyTorch interop, CUDA, benchmark smoke runs)
#   4. the concurrency tests under ThreadSanitizer
#   5. the current platform: inside a Debian sid root (g++ 16, fmt 11, CMake 4, PyTorch 2.14;
#      scripts/sid-root.sh makes it once, about 4 minutes, and later runs reuse it), this script
#      with --release-only: the release build of everything, warnings as errors, and every test
#      in it, in build-sid/ of this checkout. Not run where this system is sid itself. It starts
#      when stage 2's build ends and runs beside the rest of stages 2-4, at a lower priority: their
#      tests leave a core idle about a third of the time, which its build takes, so the whole run
#      is shorter than the stages one after another. Its output is printed when it ends.
# With --release-only it runs the format check, the release build of everything and every test in
# it (what stage 5 runs).
# Every build here is a unity build (CMAKE_UNITY_BUILD, 16 sources a step: the headers every test
# includes are parsed once per batch; files whose internal names clash are marked
# SKIP_UNITY_BUILD_INCLUSION in their CMakeLists.txt): it halves the compile time, which the sid
# stage's second whole build needs to stay inside CI's time. scripts/run.sh and users' builds are
# not unity builds; README.md ("The two commands") says how that build is checked on both
# platforms. Compile time is most of CI's time, so the builds here spend it where it checks
# something: the release builds are -O2 with line tables only (-g1), the test programs' own code
# -O1 (SCHEMAC_TESTS_OPTIMIZE; the libraries they test stay -O2); the ASan build is -O1 with line
# tables only (-gline-tables-only: reports still name file and line), its test programs -O0, and
# builds no benchmarks, CUDA or PyTorch interop (no sanitized test runs them). README.md has the
# figures.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${SCHEMAC_UPDATE_GOLDEN:-}" ]; then
  echo "test.sh: SCHEMAC_UPDATE_GOLDEN is set; with it the golden tests rewrite their files and pass." >&2
  echo "test.sh: unset it to run the suite (refresh goldens on purpose with ctest -R NAME instead)." >&2
  exit 2
fi
release_only=false
case "${1:-}" in
  "") ;;
  --release-only) release_only=true ;;
  *) echo "usage: scripts/test.sh [--release-only]" >&2; exit 2 ;;
esac
scripts/install-deps.sh --test
source scripts/ccache-env.sh
jobs=$(nproc)
build=${SCHEMAC_BUILD_DIR:-build}
logs=$(mktemp -d)
sid_stage=""
# On the way out (a failure above it included) the sid stage stops too: it runs in a process
# group of its own (setsid), ended as a whole.
trap '[ -n "$sid_stage" ] && kill -- -"$sid_stage" 2>/dev/null; rm -rf "$logs"' EXIT
# How long each stage took, printed at the end.
stage_start=$(date +%s)
stage_times=()
stage_done() {
  local now
  now=$(date +%s)
  stage_times+=("$1 $((now - stage_start)) s")
  stage_start=$now
}
# Runs ctest, keeping its output to count the results at the end.
run_ctest() {
  local name=$1; shift
  ctest "$@" 2>&1 | tee "$logs/$name.log"
}
# Flags of the sanitizer builds (see above): under ASan a test batch takes 33 CPU-seconds at -O1,
# 16 at -O0.
sanitizer_flags="-O1 -gline-tables-only -DNDEBUG"
# Unity builds (see above).
unity="-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16"
# Flags of the release builds (see above): a test batch that takes 31 CPU-seconds at -O2 -g takes
# 25 at -O2 -g1 and 18 with its own code at -O1 -g1 (nothing here reads full debug info).
release_flags="-O2 -g1 -DNDEBUG"
release_options=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$release_flags"
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="$release_flags" -DCMAKE_CUDA_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG"
  -DSCHEMAC_TESTS_OPTIMIZE=-O1)
# The tests of tests/sanitizer_skip.txt, as one ctest -E pattern.
sanitizer_skip="^($(sed -e 's/#.*//' -e 's/[[:space:]]*$//' tests/sanitizer_skip.txt | grep -v '^$' | paste -sd'|'))\$"

# Stage 5 runs in a session of its own (setsid: on the way out, a failure above included, it is
# ended as a whole), at a lower priority from the start. A new session is a new scheduler
# autogroup where the kernel has them, and a process's nice value counts only inside its
# autogroup, so the group itself is given the lower priority. While stage 2 builds it makes the
# sid root and installs the test tools in it (debootstrap and apt are mostly downloads and
# unpacking: in a cold run they took 379 s and about 150 s); then it waits for that build to end
# and runs beside the rest of stages 2-4.
on_sid=false
grep -q sid /etc/debian_version 2>/dev/null && on_sid=true
if ! $release_only && ! $on_sid; then
  setsid bash -c '
    echo 10 >/proc/self/autogroup 2>/dev/null
    scripts/sid-root.sh make || exit
    nice -n 10 scripts/sid-root.sh run scripts/install-deps.sh --test || exit
    while [ ! -e "$1" ]; do sleep 5; done
    exec nice -n 10 scripts/sid-root.sh run env SCHEMAC_BUILD_DIR=build-sid scripts/test.sh \
      --release-only' sid-stage "$logs/first-build-done" >"$logs/sid.out" 2>&1 &
  sid_stage=$!
fi

echo "== format (clang-format --dry-run --Werror over lib/ and tools/)"
scripts/check-format.sh

# The end: every test counted, and how long each stage took.
finish() {
  local total skipped
  total=$(( $(cat "$logs"/*.log | sed -n 's/.*tests failed out of \([0-9]*\)$/\1/p' | paste -sd+) ))
  skipped=$(cat "$logs"/*.log | grep -c '(Skipped)$' || true)
  echo "== all tests passed ($(IFS=';'; echo "${stage_times[*]}" | sed 's/;/, /g'))"
  echo "all: $((total - skipped)) passed, 0 failed, $skipped skipped"
}

release_build_options=(-DSCHEMAC_WERROR=ON -DSCHEMAC_TESTS=ON -DSCHEMAC_BENCH=ON $unity "${release_options[@]}")
if $release_only; then
  echo "== release build in $build/ (warnings are errors: everything, tests, benchmarks, CUDA, PyTorch interop)"
  echo "   $(g++ --version | head -n 1); $(cmake --version | head -n 1); Debian $(cat /etc/debian_version)"
  scripts/build.sh "${release_build_options[@]}"
  stage_done "release build"
  echo "== every test of the release build"
  run_ctest release --test-dir "$build" --output-on-failure -j"$jobs"
  stage_done "release tests"
  finish
  exit 0
fi

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests, with fuzz smoke runs"
# The release tree is configured first: which test programs it need not compile again is read from
# both trees after the sanitizer tests (below).
scripts/build.sh --configure "${release_build_options[@]}"
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
  $unity -DSCHEMAC_SANITIZE=address,undefined -DSCHEMAC_FUZZ=ON -DSCHEMAC_BENCH=OFF \
  -DSCHEMAC_TESTS_OPTIMIZE=-O0 >/dev/null
cmake --build build-asan -j"$jobs"
# Stage 5 from here on, beside the stages below (see above).
if ! $on_sid; then
  sid_started=$(date +%s)
  touch "$logs/first-build-done"
  echo "== Debian sid stage: beside the stages below once its root is made (its output follows them)"
fi
# The later stages find tests across trees by name, so a name must not hold a printed parameter
# (tests/CMakeLists.txt: NO_PRETTY_VALUES).
if ctest --test-dir build-asan -N | grep -E 'GetParam\(\) = |-byte object <'; then
  echo "test.sh: error: these test names hold a parameter's printed value; discover them with NO_PRETTY_VALUES" >&2
  exit 1
fi
asan_filter=(-LE "slow|gpu" -E "$sanitizer_skip")
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_ctest asan --test-dir build-asan --output-on-failure -j"$jobs" "${asan_filter[@]}"
stage_done "sanitizers"

echo "== release build in $build/ (warnings are errors: tools, libraries, benchmarks, CUDA, PyTorch interop,"
echo "   and the test programs whose tests did not all run under the sanitizers)"
echo "   $(g++ --version | head -n 1); $(cmake --version | head -n 1); Debian $(cat /etc/debian_version)"
# The test programs whose every test ran under the sanitizers, compiled alike in both trees: the
# release tree leaves them out (SCHEMAC_TEST_PROGRAMS_TESTED_ELSEWHERE), about half its compile time.
tested_elsewhere=$(scripts/programs-tested-elsewhere.py build-asan "$build" -- "${asan_filter[@]}")
echo "   $(echo "$tested_elsewhere" | grep -c .) test programs left out: every test of theirs ran under the sanitizers"
scripts/build.sh "${release_build_options[@]}" \
  -DSCHEMAC_TEST_PROGRAMS_TESTED_ELSEWHERE="$(echo "$tested_elsewhere" | paste -sd';')"
stage_done "release build"

echo "== release tests that did not run under the sanitizers (tests/sanitizer_skip.txt, slow, GPU,"
echo "   PyTorch interop, CUDA, benchmark smoke runs)"
# The numbers of the release tests whose names the ASan stage did not run, as a ctest -I file.
test_names() { sed -n 's/^ *Test *#\([0-9]*\): \(.*\)$/\1 \2/p'; }
ctest --test-dir build-asan -N "${asan_filter[@]}" | test_names | cut -d' ' -f2 | LC_ALL=C sort -u >"$logs/asan.names"
# The programs left out of the release build stand there as one test each, <program>_NOT_BUILT: not run.
echo "$tested_elsewhere" | sed 's/$/_NOT_BUILT/' >>"$logs/asan.names"
LC_ALL=C sort -u -o "$logs/asan.names" "$logs/asan.names"
ctest --test-dir "$build" -N | test_names | LC_ALL=C sort -k2,2 | LC_ALL=C join -1 2 -2 1 -v 1 - "$logs/asan.names" |
  cut -d' ' -f2 | paste -sd, | sed 's/^/0,0,0,/' >"$logs/release.numbers"
run_ctest release --test-dir "$build" --output-on-failure -j"$jobs" -I "$logs/release.numbers"
stage_done "release tests"

echo "== ThreadSanitizer"
CC=clang CXX=clang++ cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$sanitizer_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$sanitizer_flags" \
  $unity -DSCHEMAC_SANITIZE=thread -DSCHEMAC_BENCH=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target tsan_tests
run_ctest tsan --test-dir build-tsan --output-on-failure -L tsan
stage_done "thread sanitizer"

if $on_sid; then
  echo "== Debian sid stage: not run, this system is sid itself (the stages above ran on it)"
else
  echo "== Debian sid stage: the release build and every test with g++ 16, fmt 11, CMake 4, PyTorch 2.14"
  sid_status=0
  wait "$sid_stage" || sid_status=$?
  sid_stage=""
  cat "$logs/sid.out"
  # Its own counts join the others' (finish reads every log of $logs).
  sed -n '/tests failed out of/p; /(Skipped)$/p' "$logs/sid.out" >"$logs/sid.log"
  if [ "$sid_status" != 0 ]; then
    echo "test.sh: error: the sid stage failed (above)" >&2
    exit 1
  fi
  stage_times+=("sid stage $(($(date +%s) - sid_started)) s from the sanitizer build's end, beside the stages above")
fi
finish
