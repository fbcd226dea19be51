#!/bin/bash
# CPU instructions per SecItemAdd and per SecItemCopyMatching, counted by valgrind's callgrind:
# figures that do not move with this shared machine's fast and slow phases, for comparing two
# versions of the engine.
#
#   Benchmarks/instructions.sh                 this working tree
#   Benchmarks/instructions.sh REV [REV...]    each git revision (built in a temporary worktree),
#                                              then this working tree, side by side
#   --no-install                               skip apt-get (valgrind already installed)
#   --lookup-items N                           the keychain size for the lookup figure (1000)
#   --runs N                                   N rounds, the versions alternating within each
#                                              round, then each figure's median and range (1)
#
# One run of a binary differs from the next by up to about 5k instructions per call (Swift's
# per-process hash seed, the keychain's random keys), so a change smaller than that needs
# --runs 3 or more before it is read as a change.
#
# Each version's release keychain-bench fills a fresh keychain on tmpfs to 1,000 and to 2,000
# items under callgrind; (instructions at 2,000 - at 1,000) / 1,000 is the cost of one add,
# start-up and keychain creation cancelled out. Lookups likewise: one keychain filled to
# --lookup-items items (outside callgrind), then `keychain-bench memory-child` doing 500 and 1,500
# random lookups by service and account with data (SecItemCopyMatching, kSecReturnData; the
# query dictionary built and the result cast as a caller does); the difference / 1,000 is one
# lookup. Updates likewise (`keychain-bench update-child`: SecItemUpdate giving a random item,
# found by service and account, a new secret), on copies of that keychain. User-space
# instructions only (SQLite, the Swift runtime, Foundation and swift-crypto included; the
# kernel's side of fsync and locks is not).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
INSTALL=1; REVS=(); LOOKUP_ITEMS=1000; RUNS=1
while [ $# -gt 0 ]; do
  case "$1" in
    --no-install) INSTALL=0 ;;
    --lookup-items) LOOKUP_ITEMS=$2; shift ;;
    --runs) RUNS=$2; shift ;;
    -*) echo "usage: $0 [--no-install] [--lookup-items N] [--runs N] [REV...]" >&2; exit 2 ;;
    *) REVS+=("$1") ;;
  esac
  shift
done
. "$HERE/valgrind-bench.sh"
[ "$INSTALL" = 0 ] || install_valgrind
WORK=$(mktemp -d /dev/shm/swift-keychain-instructions.XXXXXX)
trap 'rm -rf "$WORK"; for r in "${REVS[@]}"; do git -C "$ROOT" worktree remove --force "$WORK-$r" 2>/dev/null || true; done' EXIT


# Instructions of one fill to $2 items with binary $1.
count() {
  local dir; dir=$(mktemp -d "$WORK/fill.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$dir/out" "$1" fill --keychain "$dir/k.keychain-db" \
    --device-key "$dir/device-key" --items "$2" > /dev/null 2> "$dir/err"
  grep -E "^(summary|totals):" "$dir/out" | head -1 | awk '{print $2}'
  rm -rf "$dir"
}

# Instructions of $3 lookups with binary $1 in the filled keychain of folder $2.
count_lookups() {
  local out; out=$(mktemp "$WORK/lookups.XXXXXX")
  valgrind --tool=callgrind --callgrind-out-file="$out" "$1" memory-child --keychain "$2/k.keychain-db" \
    --device-key "$2/device-key" --items "$LOOKUP_ITEMS" --lookups "$3" > /dev/null 2> "$out.err"
  grep -E "^(summary|totals):" "$out" | head -1 | awk '{print $2}'
  rm -f "$out" "$out.err"
}

# Instructions of $3 updates with binary $1 in a copy of the filled keychain of folder $2.
count_updates() {
  local out dir; out=$(mktemp "$WORK/updates.XXXXXX"); dir=$(mktemp -d "$WORK/copy.XXXXXX")
  cp "$2"/k.keychain-db* "$2/device-key" "$dir/"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$1" update-child --keychain "$dir/k.keychain-db" \
    --device-key "$dir/device-key" --items "$LOOKUP_ITEMS" --updates "$3" > /dev/null 2> "$out.err"
  grep -E "^(summary|totals):" "$out" | head -1 | awk '{print $2}'
  rm -rf "$out" "$out.err" "$dir"
}

# Measures binary $1 once, printing its figures under name $2 and appending "call count" lines
# to the file $3 for the summary.
measure() {
  local binary=$1 name=$2 results=$3 a b dir
  a=$(count "$binary" 1000); b=$(count "$binary" 2000)
  echo "$name: $(( (b - a) / 1000 )) instructions per SecItemAdd"
  echo "SecItemAdd $(( (b - a) / 1000 ))" >> "$results"
  dir=$(mktemp -d "$WORK/lookup.XXXXXX")
  "$binary" fill --keychain "$dir/k.keychain-db" --device-key "$dir/device-key" --items "$LOOKUP_ITEMS" > /dev/null
  a=$(count_lookups "$binary" "$dir" 500); b=$(count_lookups "$binary" "$dir" 1500)
  echo "$name: $(( (b - a) / 1000 )) instructions per SecItemCopyMatching (service + account, with data; $LOOKUP_ITEMS items)"
  echo "SecItemCopyMatching $(( (b - a) / 1000 ))" >> "$results"
  if { "$binary" 2>&1 || true; } | grep -q update-child; then  # a bench from before update-child has none
    a=$(count_updates "$binary" "$dir" 500); b=$(count_updates "$binary" "$dir" 1500)
    echo "$name: $(( (b - a) / 1000 )) instructions per SecItemUpdate (service + account, new data; $LOOKUP_ITEMS items)"
    echo "SecItemUpdate $(( (b - a) / 1000 ))" >> "$results"
  fi
  rm -rf "$dir"
}

# Every version built first, so that the rounds alternate them back to back.
BINARIES=(); NAMES=()
for r in "${REVS[@]}"; do
  git -C "$ROOT" worktree add -q --detach "$WORK-$r" "$r"
  build_stripped_bench "$WORK-$r" "$WORK/bench-$r"
  BINARIES+=("$WORK/bench-$r"); NAMES+=("$r ($(git -C "$ROOT" rev-parse --short "$r"))")
done
build_stripped_bench "$ROOT" "$WORK/bench-tree"
BINARIES+=("$WORK/bench-tree"); NAMES+=("working tree")

for round in $(seq 1 "$RUNS"); do
  [ "$RUNS" = 1 ] || echo "== round $round of $RUNS"
  for i in "${!BINARIES[@]}"; do
    measure "${BINARIES[$i]}" "${NAMES[$i]}" "$WORK/results-$i"
  done
done

if [ "$RUNS" != 1 ]; then
  echo "== medians of $RUNS runs (range)"
  for i in "${!BINARIES[@]}"; do
    for call in SecItemAdd SecItemCopyMatching SecItemUpdate; do
      values=$(awk -v c="$call" '$1 == c {print $2}' "$WORK/results-$i" | sort -n)
      [ -n "$values" ] || continue
      count=$(echo "$values" | wc -l)
      median=$(echo "$values" | sed -n "$(( (count + 1) / 2 ))p")
      echo "${NAMES[$i]}: $median instructions per $call ($(echo "$values" | head -1)-$(echo "$values" | tail -1))"
    done
  done
fi
