#!/usr/bin/env bash
# Fails (listing each difference) when a C++ file under lib/ or tools/ is not as clang-format
# (Debian bookworm's clang-format 14, with the root .clang-format) writes it. The style is that
# version's: other versions format some constructs differently, so on a system without it (Debian
# sid has clang-format 21) the check says so and is not run there; bookworm's stage runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
format=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null &&
     "$candidate" --version | grep -q 'clang-format version 14\.'; then
    format=$candidate
    break
  fi
done
if [ -z "$format" ]; then
  echo "check-format: not run here: the style is clang-format 14's (Debian bookworm), and this" \
       "system has $(clang-format --version 2>/dev/null | sed -n 's/.*\(clang-format version [0-9.]*\).*/\1/p' || echo none)"
  exit 0
fi
find lib tools -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) \
  -print0 | sort -z | xargs -0 -r "$format" --dry-run --Werror
