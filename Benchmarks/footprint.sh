#!/bin/bash
# What one call touches: the distinct cache lines and pages of code and of data that one
# SecItemAdd, SecItemUpdate and SecItemCopyMatching run through, next to the raw-SQLite floor's
# insert, update and lookup, traced by valgrind's lackey (Benchmarks/footprint.py counts them).
#
#   Benchmarks/footprint.sh [--no-install] [--calls N] [--items N] [--top N]
#
# --top N also lists, for the last call of each kind, the N functions of the benchmark's
# executable (the engine, KeychainServices and swift-crypto are linked into it) with the most lines.
#
# Why: on this machine a durable call's time on disk is not explained by its instruction count
# alone; the kernel's own write in the commit's fdatasync took longer after our update than after
# the floor's, for the same pages, and longer after C code that ran through much code or many
# pages (BENCHMARKS.md, "An update's extra time, located"). instructions.sh counts work; this
# counts reach. Neither depends on the machine's fast and slow phases (the counts move by about
# 1 % between runs, with Swift's per-process hash seed and the keychain's random keys).
#
# Each store is filled to --items items (1,000) on tmpfs outside valgrind; then N calls (30, more
# than the 10 left out at the start) of one kind run under lackey. The window of a call is one turn of the
# child's loop: the caller's side (building and bridging its dictionaries, for ours) and the call.
# User space only: the kernel's side of fsync and locks is not traced.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
INSTALL=1; CALLS=30; ITEMS=1000; TOP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) INSTALL=0 ;;
    --calls|--items|--top)
      [ $# -ge 2 ] || { echo "$0: $1 wants a number" >&2; exit 2; }
      case "$1" in --calls) CALLS=$2 ;; --items) ITEMS=$2 ;; --top) TOP=$2 ;; esac
      shift ;;
    *) echo "usage: $0 [--no-install] [--calls N] [--items N] [--top N]" >&2; exit 2 ;;
  esac
  shift
done
SKIP=10  # calls left out at the start, while caches and lazy set-up settle
[ "$CALLS" -gt "$SKIP" ] || { echo "$0: --calls must be more than $SKIP" >&2; exit 2; }
. "$HERE/valgrind-bench.sh"
[ "$INSTALL" = 0 ] || install_valgrind
PYTHON=/usr/bin/python3; [ -x "$PYTHON" ] || PYTHON=python3
WORK=$(mktemp -d /dev/shm/swift-keychain-footprint.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

BENCH="$WORK/keychain-bench"
build_stripped_bench "$(dirname "$HERE")" "$BENCH"

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
    | "$PYTHON" "$HERE/footprint.py" "$system $op" "$BENCH" "$SKIP" "$TOP" \
    || { echo "footprint: the $system $op trace failed; the child's last lines:" >&2; tail -5 "$copy/err" >&2; exit 1; }
  rm -rf "$copy"
}

for op in add update lookup; do
  trace floor "$op"
  trace ours "$op"
done
