#!/usr/bin/env bash
# Fails (listing each difference) when a C++ file under lib/ or tools/ is not as clang-format
# (Debian's clang-format 14, with the root .clang-format) writes it.
set -euo pipefail
cd "$(dirname "$0")/.."
find lib tools -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) \
  -print0 | sort -z | xargs -0 -r clang-format --dry-run --Werror
