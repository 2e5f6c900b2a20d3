#!/usr/bin/env bash
# After format.sh (or rename_namespaces.sh) moved registration lines in lib/dispatch/src/
# dispatch_default_fallbacks.cpp or lib/kernels/layering/layering.cpp, dispatch-inspect prints
# other line numbers (`file.cpp:NN`) and golden/inspect must be refreshed:
#   SCHEMAC_UPDATE_GOLDEN=1 ctest --test-dir build -R 'InspectGolden'
# then this script checks that every golden file changed (against REV, default HEAD) differs only
# in such line numbers. Exit 1, with the other differences, when not.
set -euo pipefail
rev="${1:-HEAD}"
status=0
mask() { sed -E 's/([A-Za-z0-9_.-]+\.(cpp|cc|cu|h|c)):[0-9]+/\1:N/g'; }
for f in $(git diff --name-only "$rev" -- golden); do
  if ! diff <(git show "$rev:$f" | mask) <(mask < "$f") >/dev/null; then
    echo "check_golden_lines: $f changed beyond line numbers:"
    diff <(git show "$rev:$f" | mask) <(mask < "$f") | head -20
    status=1
  fi
done
[ $status -eq 0 ] && echo "check_golden_lines: golden files differ from $rev in line numbers only"
exit $status
