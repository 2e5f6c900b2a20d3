#!/usr/bin/env bash
# Installs what is missing from Debian's packages, only if something is missing.
#   scripts/install-deps.sh          what building and the main job need (scripts/run.sh)
#   scripts/install-deps.sh --test   that and the test tools (scripts/test.sh)
# Two platforms, told apart by /etc/os-release: Debian bookworm (g++ 12, fmt 9, CMake 3.25,
# PyTorch 1.13) and Debian sid (g++ 16, fmt 11, CMake 4, PyTorch 2.14); the package names differ
# only where bookworm's carry clang's version.
# Build and main job: the compiler, CMake and Ninja, ccache (optional; it makes rebuilds and the
# builds of scripts/test.sh cheap) and the libraries the tools link.
# Test tools: GoogleTest and GoogleMock (two packages) and Google Benchmark; clang with its
# sanitizer and libFuzzer runtime (the sanitizer and fuzz builds); clang-format (the format check;
# the style is clang-format 14's, bookworm's); libtorch-dev, python3-torch and python3-yaml
# (PyTorch: dispatch-inspect --runtime torch, examples/torch_extension and their tests; the build
# skips them when find_package(Torch) finds nothing); libopenblas-dev (the reference the mm
# benchmark is measured against; installed, it is also the BLAS that Debian's libtorch calls in
# place of the far slower reference BLAS); yaml-cpp (the lint benchmark's baseline); pre-commit
# and git (tests of .pre-commit-hooks.yaml, in a scratch repository), neovim (a real LSP client for schemac lsp's test), graphviz
# (`dot` renders dispatch-inspect's --format dot pictures) and chromium (headless, it runs the
# scripts of dispatch-inspect report's page). On bookworm, debootstrap makes the sid root of
# scripts/test.sh's current-platform stage (scripts/sid-root.sh).
set -euo pipefail
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
packages=(cmake ninja-build g++ ccache pkg-config python3
          libcli11-dev nlohmann-json3-dev tao-pegtl-dev libyaml-dev libfmt-dev)
if [ "${1:-}" = "--test" ]; then
  packages+=(libgtest-dev libgmock-dev libbenchmark-dev clang clang-format libyaml-cpp-dev
             libopenblas-dev libtorch-dev python3-torch python3-yaml pre-commit git neovim graphviz
             chromium)
  if [ "$codename" = bookworm ]; then
    packages+=(libclang-rt-14-dev debootstrap)
  else
    packages+=(libclang-rt-dev)
  fi
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
  # A Debian archive snapshot (sid's, in a root made from one) may serve a Release file past its
  # Valid-Until date; its signature is still checked.
  $SUDO apt-get -o Acquire::Check-Valid-Until=false update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
