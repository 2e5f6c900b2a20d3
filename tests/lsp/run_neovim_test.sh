#!/usr/bin/env bash
# Runs neovim_client_test.lua in a headless neovim against SCHEMAC: run_neovim_test.sh SCHEMAC LUA.
# A missing nvim is a failure, not a skip: scripts/install-deps.sh installs Debian's neovim.
set -euo pipefail
if ! command -v nvim >/dev/null; then
  echo "run_neovim_test.sh: nvim is not installed (apt-get install neovim, or scripts/install-deps.sh)" >&2
  exit 1
fi
export SCHEMAC_EXE=$1
exec timeout 50 nvim --headless -u NONE -i NONE -n -c "luafile $2"
