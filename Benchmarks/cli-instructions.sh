#!/bin/bash
# CPU instructions of one `keychainctl find-generic-password -s S -a A -w` from process start to
# exit (valgrind's callgrind, user space: the dynamic loader, the Swift runtime, Foundation,
# SQLite), on a keychain of one item: the noise-free yardstick for the start-up rows of
# BENCHMARKS.md section 4, as instructions.sh is for SecItemAdd.
#
#   Benchmarks/cli-instructions.sh [KEYCHAINCTL...]   default: .build/release/keychainctl
#
# For each binary: the hand-read command line, the same with KEYCHAINCTL_PARSER=full (every
# command line through swift-argument-parser), and `--version`. Build what you compare first,
# e.g. `swift build -c release --static-swift-stdlib --product keychainctl` (what
# scripts/install.sh installs) or without the flag (dynamic).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "cli-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$ROOT/.build/release/keychainctl"
WORK=$(mktemp -d /dev/shm/cli-instructions.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export SWIFT_KEYCHAIN_PATH=$WORK/k.keychain-db SWIFT_KEYCHAIN_DEVICE_KEY_FILE=$WORK/device-key
unset KEYCHAINCTL_PARSER

# Instructions of one run of "$@" (valgrind 3.19 cannot read the debug information Swift 6.3
# writes, so the binary runs stripped of it; symbols stay).
count() {
  valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$@" > /dev/null 2> "$WORK/err" \
    || { cat "$WORK/err" >&2; exit 1; }
  grep -E "^(summary|totals):" "$WORK/out" | head -1 | awk '{ printf "%.1f M", $2 / 1e6 }'
}

for ctl in "$@"; do
  strip --strip-debug -o "$WORK/ctl" "$ctl"
  rm -f "$SWIFT_KEYCHAIN_PATH"* "$SWIFT_KEYCHAIN_DEVICE_KEY_FILE"
  "$WORK/ctl" add-generic-password -s S -a A -w secretsecret 2> /dev/null
  [ "$("$WORK/ctl" find-generic-password -s S -a A -w)" = secretsecret ] || { echo "$ctl: lookup failed" >&2; exit 1; }
  echo "$ctl:"
  echo "  find-generic-password -w:                        $(count "$WORK/ctl" find-generic-password -s S -a A -w)"
  echo "  the same with KEYCHAINCTL_PARSER=full:           $(KEYCHAINCTL_PARSER=full count "$WORK/ctl" find-generic-password -s S -a A -w)"
  echo "  --version:                                       $(count "$WORK/ctl" --version)"
done
