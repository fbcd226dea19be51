#!/bin/bash
# What one call touches: the distinct cache lines and pages of code and of data that one
# SecItemAdd, SecItemUpdate and SecItemCopyMatching run through, next to the raw-SQLite floor's
# insert, update and lookup, traced by valgrind's lackey (Benchmarks/footprint.py counts them).
#
#   Benchmarks/footprint.sh [--no-install] [--calls N] [--items N] [--top N]
#
# --top N also lists, for each call, the N functions of the benchmark's executable (the engine,
# KeychainServices and swift-crypto are linked into it) with the most lines.
#
# Why: on this machine a durable call's time on disk grows with how much distinct code and memory
# it runs through, beyond its instruction count; even the kernel's write in the commit's fdatasync
# takes longer after a call with a large footprint (BENCHMARKS.md, "An update's extra time,
# located"). instructions.sh counts work; this counts reach. Both are free of the machine's noise.
#
# Each store is filled to --items items (1,000) on tmpfs outside valgrind; then N calls (30) of
# one kind run under lackey, the first 10 left out. The window of a call is one turn of the
# child's loop: the caller's side (building and bridging its dictionaries, for ours) and the call.
# User space only: the kernel's side of fsync and locks is not traced.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
INSTALL=1; CALLS=30; ITEMS=1000; TOP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) INSTALL=0 ;;
    --calls) CALLS=$2; shift ;;
    --items) ITEMS=$2; shift ;;
    --top) TOP=$2; shift ;;
    *) echo "usage: $0 [--no-install] [--calls N] [--items N] [--top N]" >&2; exit 2 ;;
  esac
  shift
done
if [ "$INSTALL" = 1 ] && ! command -v valgrind > /dev/null; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends valgrind > /dev/null
fi
PYTHON=/usr/bin/python3; [ -x "$PYTHON" ] || PYTHON=python3
WORK=$(mktemp -d /dev/shm/swift-keychain-footprint.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

rm -f "$HERE"/.build/*/release/description.json
(cd "$HERE" && swift build -c release --product keychain-bench 2>&1 | grep -E "error:" >&2 || true)
# Valgrind 3.19 cannot read the debug information Swift 6.3 writes; the symbols stay.
BENCH="$WORK/keychain-bench"
strip --strip-debug -o "$BENCH" "$HERE/.build/release/keychain-bench"

mkdir "$WORK/filled"
"$BENCH" fill --keychain "$WORK/filled/k.keychain-db" --device-key "$WORK/filled/device-key" --items "$ITEMS" > /dev/null
"$BENCH" fill --system floor --keychain "$WORK/filled/floor.sqlite" --items "$ITEMS" > /dev/null

# Traces N calls of kind $2 on a fresh copy of the filled store of system $1.
trace() {
  local system=$1 op=$2 copy
  copy=$(mktemp -d "$WORK/copy.XXXXXX")
  cp "$WORK"/filled/* "$copy/"
  valgrind --tool=lackey --trace-mem=yes --log-fd=1 "$BENCH" footprint-child --system "$system" \
      --keychain "$copy/$([ "$system" = ours ] && echo k.keychain-db || echo floor.sqlite)" \
      --device-key "$copy/device-key" --items "$ITEMS" --op "$op" --calls "$CALLS" 2> "$copy/err" \
    | "$PYTHON" "$HERE/footprint.py" "$system $op" "$BENCH" 10 "$TOP" \
    || { echo "footprint: the $system $op trace failed:" >&2; tail -5 "$copy/err" >&2; exit 1; }
  rm -rf "$copy"
}

for op in add update lookup; do
  trace floor "$op"
  trace ours "$op"
done
