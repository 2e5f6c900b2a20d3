#!/usr/bin/env bash
# Namespaces = folders (issue 26, item 3): run from the repository root on the merged tree, then
# build and test; commit the result on its own. Needs python3 and universal-ctags (Debian:
# universal-ctags, with JSON output). See scripts/restructure/STRUCTURE.md and the docstring of
# rename_namespaces.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${1:-.}"
command -v ctags >/dev/null && ctags --version | grep -q 'Universal Ctags' ||
  { echo "rename_namespaces.sh: needs universal-ctags (apt-get install -y universal-ctags)" >&2; exit 1; }
cd "$root"
git diff --quiet && git diff --cached --quiet ||
  { echo "rename_namespaces.sh: commit or stash your changes first (the pass rewrites the tree)" >&2; exit 1; }
time python3 "$here/rename_namespaces.py" .
git add -A lib tools tests bench fuzz examples
git status --short | wc -l | xargs echo "rename_namespaces.sh: files changed:"
