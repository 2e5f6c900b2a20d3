#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job on the embedded default: checks
# examples/ops.yaml, generates its registration code, runs its kernels through the dispatcher,
# and explains which kernel wins for add.Tensor. Pass another native-functions file to check and
# generate that one instead: scripts/run.sh path/to/ops.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh  # the build and the main job only; scripts/test.sh adds the test tools
# What the main job runs, nothing else: no tests, benchmarks or PyTorch interop.
scripts/build.sh -DSCHEMAC_TESTS=OFF -DSCHEMAC_BENCH=OFF -- schemac dispatch-inspect schemac_kernels \
  hello_dispatch >/dev/null
yaml="${1:-examples/ops.yaml}"
build=${SCHEMAC_BUILD_DIR:-build}  # as scripts/build.sh
schemac=$build/tools/schemac/schemac
inspect=$build/tools/dispatch-inspect/dispatch-inspect
kernels=$build/lib/runtime/kernels/libschemac_kernels.so

echo "== schemac lint $yaml"
"$schemac" lint "$yaml" && echo "clean"

echo "== schemac gen $yaml -o $build/run-gen"
"$schemac" gen "$yaml" -o "$build/run-gen"
ls "$build/run-gen"

if [ "$yaml" = examples/ops.yaml ]; then
  echo "== the kernels built from it, called through the dispatcher (examples/hello)"
  "$build/examples/hello/hello_dispatch"
  echo "== dispatch-inspect resolve aten::add.Tensor for a CPU tensor"
  "$inspect" resolve aten::add.Tensor --keys CPU,ADInplaceOrView,AutogradCPU,AutocastCPU --load "$kernels"
  echo "== dispatch-inspect trace aten::matmul"
  "$inspect" trace aten::matmul --load "$kernels" --arg 'cpu:float32[2,3]' --arg 'cpu:float32[3,4]'
fi
