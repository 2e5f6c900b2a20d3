#!/usr/bin/env bash
# Installs what the build needs from Debian's packages, only if something is missing.
# ccache is optional (it makes the repeated builds of scripts/test.sh cheap); clang-format (14)
# checks the layout of the code (scripts/check-format.sh); clang and its
# runtime give the sanitizer and libFuzzer builds. libtorch-dev and python3-torch (PyTorch 1.13)
# give the PyTorch interop: dispatch-inspect --runtime torch, examples/torch_extension and its
# tests (the build skips them when find_package(Torch) finds nothing). libopenblas-dev is the
# reference the mm benchmark is measured against; installed, it is also the BLAS that Debian's
# libtorch calls (in place of the reference BLAS, which is far slower). Test only: clang-format
# (the format check), pre-commit (tests of .pre-commit-hooks.yaml), neovim (a real LSP client for
# schemac lsp's test), graphviz (`dot` renders dispatch-inspect's --format dot pictures) and
# chromium (headless, it runs the scripts of dispatch-inspect report's page).
set -euo pipefail
packages=(cmake ninja-build g++ clang libclang-rt-14-dev clang-format ccache python3
          libcli11-dev nlohmann-json3-dev tao-pegtl-dev libyaml-cpp-dev libyaml-dev pkg-config libfmt-dev
          libgtest-dev libbenchmark-dev libopenblas-dev libtorch-dev python3-torch python3-yaml pre-commit
          neovim graphviz chromium)
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
