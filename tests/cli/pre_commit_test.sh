#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml run by Debian's pre-commit (`pre-commit try-repo`) in a
# fresh git repository: schemac-lint fails on a bad native_functions.yaml and passes once it is
# fixed; schemac-lint-fix fixes it in place.
# Usage: pre_commit_test.sh SOURCE_DIR SCHEMAC_EXE
set -euo pipefail
source_dir=$1
schemac=$(realpath "$2")
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (scripts/install-deps.sh)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git_quiet() { git -c user.name=test -c user.email=test@example.com -c init.defaultBranch=main "$@" >/dev/null; }

# The hook repository: only the hooks file, committed.
mkdir "$tmp/hooks"
cp "$source_dir/.pre-commit-hooks.yaml" "$tmp/hooks/"
git_quiet -C "$tmp/hooks" init
git_quiet -C "$tmp/hooks" add .pre-commit-hooks.yaml
git_quiet -C "$tmp/hooks" commit -m hooks

mkdir "$tmp/work"
git_quiet -C "$tmp/work" init
printf -- '- func: relu(Tensor self) -> Tensor\r\n  dispach:\r\n    CPU: relu  # kept\r\n' > "$tmp/work/native_functions.yaml"
printf 'not an operator file\n' > "$tmp/work/README.md"
git_quiet -C "$tmp/work" add .
export PATH="$(dirname "$schemac"):$PATH" PRE_COMMIT_HOME="$tmp/cache"
cd "$tmp/work"

if out=$(pre-commit try-repo "$tmp/hooks" schemac-lint --all-files 2>&1); then
  echo "schemac-lint passed on a bad file:"; echo "$out"; exit 1
fi
grep -q "native_functions.yaml:2:3: error: unknown field 'dispach' \[unknown-field\]" <<<"$out" ||
  { echo "schemac-lint did not report the bad field:"; echo "$out"; exit 1; }

pre-commit try-repo "$tmp/hooks" schemac-lint-fix --all-files >/dev/null 2>&1 || true
expected=$(printf -- '- func: relu(Tensor self) -> Tensor\r\n  dispatch:\r\n    CPU: relu  # kept\r\n')
[ "$(cat native_functions.yaml)" = "$expected" ] ||
  { echo "schemac-lint-fix did not fix the file:"; cat -A native_functions.yaml; exit 1; }

git_quiet add native_functions.yaml
out=$(pre-commit try-repo "$tmp/hooks" schemac-lint --all-files 2>&1) ||
  { echo "schemac-lint failed on a fixed file:"; echo "$out"; exit 1; }
echo "pre-commit hooks: ok"
