#!/bin/bash
# CPU instructions of one `keychainctl find-generic-password -s S -a A -w` from process start to
# exit (valgrind's callgrind, user space: the dynamic loader, the Swift runtime, Foundation,
# SQLite), on a keychain of one item: the noise-free yardstick for the start-up rows of
# BENCHMARKS.md section 4, as instructions.sh is for SecItemAdd.
#
#   Benchmarks/cli-instructions.sh [KEYCHAINCTL...]   default: the installed front, built by
#                                                     scripts/build-front.sh (.build/front)
#
# keychainctl is a small front that serves `find … -w` and `add` itself and execs
# keychainctl-full, beside it, for everything else (docs/design-notes.md); the full program is
# copied along when it is there (a keychainctl from before the front has none). For each binary:
# the lookup and an add as the front serves them; the lookup by keychainctl-full run directly,
# read by the shared reader and, spelled `--service=S --account=A`, by swift-argument-parser;
# `--version`. Callgrind loses the instructions before an exec (valgrind starts the new program
# afresh), so a handed-on line counts keychainctl-full only, and "front until the exec" (the
# front alone, whose exec fails) is what to add to it. Build what you compare first: scripts/build-front.sh and
# `swift build -c release --static-swift-stdlib --traits Sync --product keychainctl-full` (what
# scripts/install.sh installs), or other builds of the front, given as arguments.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "cli-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$ROOT/.build/front/release/keychainctl"
WORK=$(mktemp -d /dev/shm/cli-instructions.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export SWIFT_KEYCHAIN_PATH=$WORK/k.keychain-db SWIFT_KEYCHAIN_DEVICE_KEY_FILE=$WORK/device-key

# Instructions of one run of "$@" (valgrind 3.19 cannot read the debug information Swift 6.3
# writes, so the binary runs stripped of it; symbols stay).
count() {
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$WORK/out" "$@" > /dev/null 2> "$WORK/err" \
    || [ "${ALLOW_FAILURE:-}" = 1 ] || { cat "$WORK/err" >&2; exit 1; }
  grep -E "^(summary|totals):" "$WORK/out" | head -1 | awk '{ printf "%.1f M", $2 / 1e6 }'
}

for ctl in "$@"; do
  rm -rf "$WORK/bin" "$WORK/lone" && mkdir -p "$WORK/bin" "$WORK/lone"
  strip --strip-debug -o "$WORK/bin/keychainctl" "$ctl"
  full="$(dirname "$ctl")/keychainctl-full"
  # The installed front's full program is the release build's.
  [ -x "$full" ] || [ "$ctl" != "$ROOT/.build/front/release/keychainctl" ] || full="$ROOT/.build/release/keychainctl-full"
  [ ! -x "$full" ] || strip --strip-debug -o "$WORK/bin/keychainctl-full" "$full"
  cp "$WORK/bin/keychainctl" "$WORK/lone/keychainctl"
  rm -f "$SWIFT_KEYCHAIN_PATH"* "$SWIFT_KEYCHAIN_DEVICE_KEY_FILE"
  "$WORK/bin/keychainctl" add-generic-password -s S -a A -w secretsecret 2> /dev/null
  [ "$("$WORK/bin/keychainctl" find-generic-password -s S -a A -w)" = secretsecret ] || { echo "$ctl: lookup failed" >&2; exit 1; }
  echo "$ctl:"
  # The front's point is to leave Foundation out (a static build links only what is used; a debug
  # build's dynamic link lists libFoundation anyway): say so when it has crept back in.
  if nm "$WORK/bin/keychainctl" 2> /dev/null | grep -q -e '\$s10Foundation' -e 'FoundationInternationalization'; then
    echo "  warning: $ctl holds Foundation symbols: something in the front's closure uses Foundation" >&2
  fi
  echo "  find-generic-password -w:                        $(count "$WORK/bin/keychainctl" find-generic-password -s S -a A -w)"
  echo "  add-generic-password -w (a new item):            $(count "$WORK/bin/keychainctl" add-generic-password -s S -a B -w secretsecret)"
  echo "  --version (after exec, if handed on):            $(count "$WORK/bin/keychainctl" --version)"
  if [ -x "$full" ]; then
    echo "  find -w by keychainctl-full itself:              $(count "$WORK/bin/keychainctl-full" find-generic-password -s S -a A -w)"
    echo "  the same through swift-argument-parser:          $(count "$WORK/bin/keychainctl-full" find-generic-password --service=S --account=A -w)"
    echo "  front until the exec (--version, no full beside): $(ALLOW_FAILURE=1 count "$WORK/lone/keychainctl" --version)"
  fi
done
