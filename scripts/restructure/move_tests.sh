#!/usr/bin/env bash
# Tests by library (issue 26, item 4): run from the repository root on the merged tree (after
# rename_namespaces.sh), then build and test; commit the result on its own. --dry-run lists the
# moves only. See scripts/restructure/STRUCTURE.md and the docstring of move_tests.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="."
args=()
for a in "$@"; do case "$a" in --dry-run) args+=("$a") ;; *) root="$a" ;; esac; done
cd "$root"
python3 "$here/move_tests.py" . "${args[@]}"
