#!/usr/bin/env bash
# The Debian sid root in which scripts/test.sh runs its current-platform stage (g++ 16, fmt 11,
# CMake 4, PyTorch 2.14), made once with debootstrap and reused:
#   scripts/sid-root.sh make          make the root unless it is there (about 4 minutes, 2.3 GB)
#   scripts/sid-root.sh run CMD...    run CMD as root inside the root, in this checkout
#   scripts/sid-root.sh path          print the root's folder
# The root is $SCHEMAC_SID_ROOT, else /var/cache/schemac/sid-root: outside the checkout, so that a
# fresh clone (CI) reuses what an earlier run made. It is made as the README says a user makes
# one (python3, python3-torch, libtorch-dev, g++, cmake, ninja-build), into a temporary folder
# renamed into place at the end, so that an interrupted debootstrap is never reused. `run` gives
# the command a mount namespace of its own (unshare): /proc, terminals (/dev/pts), /dev/shm and the
# checkout (at /src) are mounted there and vanish with it, so runs from several checkouts do not
# meet.
set -euo pipefail
checkout=$(cd "$(dirname "$0")/.." && pwd -P)
root=${SCHEMAC_SID_ROOT:-/var/cache/schemac/sid-root}
made="$root/.schemac-sid-root"  # written last: the root is complete
include=python3,python3-torch,libtorch-dev,g++,cmake,ninja-build

# The Debian mirror this system's apt uses (its first deb URI), so that no host is named here;
# $SCHEMAC_SID_MIRROR overrides it.
mirror() {
  if [ -n "${SCHEMAC_SID_MIRROR:-}" ]; then echo "$SCHEMAC_SID_MIRROR"; return; fi
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
          sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' | head -n 1)
  [ -n "$uri" ] || uri=$(cat /etc/apt/sources.list 2>/dev/null |
          sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\/debian\)[[:space:]].*/\2/p' |
          head -n 1)
  if [ -z "$uri" ]; then
    echo "sid-root: error: no Debian mirror found in /etc/apt/sources.list*; set SCHEMAC_SID_MIRROR" >&2
    return 1
  fi
  echo "$uri"
}

make_root() {
  if [ -e "$made" ]; then
    echo "sid-root: reusing $root ($(cat "$made"))"
    return
  fi
  command -v debootstrap >/dev/null || {
    echo "sid-root: error: debootstrap is not installed (scripts/install-deps.sh --test installs it)" >&2
    return 1
  }
  local url started
  url=$(mirror)
  started=$(date +%s)
  echo "sid-root: making $root with debootstrap (sid from $url; a few minutes)"
  rm -rf "$root.new"
  mkdir -p "$(dirname "$root")"
  if ! debootstrap --variant=minbase --include="$include" sid "$root.new" "$url" >"$root.new.log" 2>&1; then
    echo "sid-root: error: debootstrap failed; the end of its log ($root.new.log):" >&2
    tail -n 20 "$root.new.log" >&2
    return 1
  fi
  # The archive's sid snapshot may carry a Release file past its Valid-Until date; apt inside the
  # root must still read it (its signature is checked as usual).
  echo 'Acquire::Check-Valid-Until "false";' >"$root.new/etc/apt/apt.conf.d/99schemac-snapshot"
  mkdir -p "$root.new/src"
  echo "made $(date -u +%Y-%m-%dT%H:%MZ) in $(($(date +%s) - started)) s" >"$root.new/.schemac-sid-root"
  rm -rf "$root"
  mv "$root.new" "$root"
  rm -f "$root.new.log"
  echo "sid-root: $(cat "$made")"
}

run_in_root() {
  [ -e "$made" ] || make_root
  # A clean environment: nothing of this system's (compiler caches, Python paths) leaks in.
  # shellcheck disable=SC2016
  unshare --mount --propagation private -- bash -c '
    set -e
    root=$1; checkout=$2; shift 2
    mount -t proc proc "$root/proc"
    # Terminals of its own (the tests that need one run under script(1)), and shared memory.
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
    mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"
    mkdir -p "$root/dev/shm"
    mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"
    mount --bind "$checkout" "$root/src"
    exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" DEBIAN_FRONTEND=noninteractive \
      bash -c "cd /src && exec \"\$@\"" bash "$@"
  ' bash "$root" "$checkout" "$@"
}

case "${1:-}" in
  make) make_root ;;
  run) shift; (($#)) || { echo "usage: scripts/sid-root.sh run CMD..." >&2; exit 2; }; run_in_root "$@" ;;
  path) echo "$root" ;;
  *) echo "usage: scripts/sid-root.sh make | run CMD... | path" >&2; exit 2 ;;
esac
