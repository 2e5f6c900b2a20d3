#!/usr/bin/env bash
# The hooks of .pre-commit-hooks.yaml run by Debian's pre-commit (`pre-commit try-repo`) in
# fresh git repositories: schemac-lint fails on a bad native_functions.yaml and passes once it is
# fixed; schemac-lint-fix fixes it in place; in a project of YAML, C++ and Python files, a change
# to one file gets the rules across all of them.
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
# A project: operators in ops.yaml, ext.yaml, C++ and Python, a CI workflow (YAML of another
# shape), gen's output. Only ops.yaml changes, yet the hook sees bind.cpp redefine ext.yaml's
# operator: the whole set is linted in one run, the operator files chosen by content.
mkdir -p "$tmp/project/.github/workflows" "$tmp/project/csrc"
cd "$tmp/project"
git_quiet init
printf -- '- func: relu(Tensor self) -> Tensor\n' > ops.yaml
printf -- '- func: myops::scale(Tensor self, float factor) -> Tensor\n' > ext.yaml
printf 'TORCH_LIBRARY(myops, m) {\n  m.def("scale(Tensor self, float factor) -> Tensor");\n}\n' > csrc/bind.cpp
printf 'import torch\nlib = torch.library.Library("pyops", "DEF")\nlib.define("twice(Tensor x) -> Tensor")\n' > ops.py
printf 'on: [push]\njobs: {test: {runs-on: ubuntu-latest}}\n' > .github/workflows/ci.yml
"$schemac" gen ext.yaml -o gen --target torch >/dev/null
git_quiet add .
git_quiet -c user.name=test -c user.email=test@example.com commit -m project
printf -- '- func: relu(Tensor self) -> Tensor\n- func: gelu(Tensor self) -> Tensor\n' > ops.yaml
git_quiet add ops.yaml
if out=$(pre-commit try-repo "$tmp/hooks" schemac-lint 2>&1); then
  echo "schemac-lint missed the duplicate across ext.yaml and csrc/bind.cpp:"; echo "$out"; exit 1
fi
grep -q "csrc/bind.cpp:2:.*\[duplicate-operator\]" <<<"$out" ||
  { echo "schemac-lint did not report the duplicate in csrc/bind.cpp:"; echo "$out"; exit 1; }
for quiet in ci.yml gen/ ops.py; do
  ! grep -q "$quiet" <<<"$out" || { echo "schemac-lint reported $quiet:"; echo "$out"; exit 1; }
done
printf 'TORCH_LIBRARY(myops, m) {\n  m.impl("scale", &scale);\n}\n' > csrc/bind.cpp
git_quiet add csrc/bind.cpp
out=$(pre-commit try-repo "$tmp/hooks" schemac-lint 2>&1) ||
  { echo "schemac-lint failed on a clean project:"; echo "$out"; exit 1; }
out=$(pre-commit try-repo "$tmp/hooks" schemac-lint-changed --all-files 2>&1) ||
  { echo "schemac-lint-changed failed on a clean project:"; echo "$out"; exit 1; }
echo "pre-commit hooks: ok"
