#!/usr/bin/env bash
# Configures and builds the release tree in build/ ($SCHEMAC_BUILD_DIR when set: the sid stage of
# scripts/test.sh builds in build-sid/ of the same checkout), CUDA kernels too when nvcc is found:
# everything, or the targets given after `--`. Other arguments go to CMake:
#   scripts/build.sh -DSCHEMAC_WERROR=ON
#   scripts/build.sh -DSCHEMAC_TESTS=OFF -- schemac dispatch-inspect
# With --configure first it only configures (scripts/test.sh reads the configured tree first).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ccache-env.sh
build=${SCHEMAC_BUILD_DIR:-build}
configure_only=false
[ "${1:-}" = --configure ] && { configure_only=true; shift; }
options=()
while (($#)) && [ "$1" != "--" ]; do options+=("$1"); shift; done
(($#)) && shift
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${options[@]}" >/dev/null
$configure_only && exit 0
cmake --build "$build" -j"$(nproc)" "${targets[@]}"
