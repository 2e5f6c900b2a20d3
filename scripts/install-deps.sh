#!/usr/bin/env bash
# Installs what is missing from Debian's packages, only if something is missing.
#   scripts/install-deps.sh          what building and the main job need (scripts/run.sh)
#   scripts/install-deps.sh --test   that and the test tools (scripts/test.sh)
# Build and main job: the compiler, CMake and Ninja, ccache (optional; it makes rebuilds and the
# three builds of scripts/test.sh cheap) and the libraries the tools link.
# Test tools: GoogleTest and Google Benchmark; clang with its sanitizer and libFuzzer runtime
# (the sanitizer and fuzz builds); clang-format (14, the format check); libtorch-dev,
# python3-torch and python3-yaml (PyTorch 1.13: dispatch-inspect --runtime torch,
# examples/torch_extension and their tests; the build skips them when find_package(Torch) finds
# nothing); libopenblas-dev (the reference the mm benchmark is measured against; installed, it is
# also the BLAS that Debian's libtorch calls in place of the far slower reference BLAS);
# yaml-cpp (the lint benchmark's baseline); pre-commit (tests of .pre-commit-hooks.yaml), neovim
# (a real LSP client for schemac lsp's test), graphviz (`dot` renders dispatch-inspect's --format
# dot pictures) and chromium (headless, it runs the scripts of dispatch-inspect report's page).
set -euo pipefail
packages=(cmake ninja-build g++ ccache pkg-config python3
          libcli11-dev nlohmann-json3-dev tao-pegtl-dev libyaml-dev libfmt-dev)
if [ "${1:-}" = "--test" ]; then
  packages+=(libgtest-dev libbenchmark-dev clang libclang-rt-14-dev clang-format libyaml-cpp-dev
             libopenblas-dev libtorch-dev python3-torch python3-yaml pre-commit neovim graphviz
             chromium)
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/install-deps.sh [--test]" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
