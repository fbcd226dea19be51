#!/bin/bash
# What a keychainctl without Foundation would cost: instructions (callgrind), peak RSS and size of
# keychain-lookup-probe (Tests/LookupProbe), which finds one generic password by service and
# account through the engine's Swift API only, as a hand-read `find-generic-password -w` would,
# next to the same measures for a full keychainctl. The yardstick of BENCHMARKS.md section 4's
# "A keychainctl without Foundation" rows.
#
#   Benchmarks/lookup-probe-instructions.sh [PROBE [KEYCHAINCTL]]
#       default: .build/release/keychain-lookup-probe and .build/release/keychainctl (skipped
#       when missing)
#
# Build both as scripts/install.sh builds keychainctl first:
#   swift build -c release --static-swift-stdlib --product keychain-lookup-probe
#   swift build -c release --static-swift-stdlib --product keychainctl
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind > /dev/null || { echo "lookup-probe-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
PROBE=${1:-$ROOT/.build/release/keychain-lookup-probe}
CTL=${2:-$ROOT/.build/release/keychainctl}
WORK=$(mktemp -d /dev/shm/lookup-probe.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export SWIFT_KEYCHAIN_PATH=$WORK/k.keychain-db SWIFT_KEYCHAIN_DEVICE_KEY_FILE=$WORK/device-key
unset KEYCHAINCTL_PARSER KEYCHAIN_LOOKUP_PROBE_FALLBACK

# Instructions of one run of "$@" (valgrind 3.19 cannot read the debug information Swift 6.3
# writes, so the binaries run stripped of it; symbols stay).
count() {
  valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$@" > /dev/null 2> "$WORK/err" \
    || [ "${ALLOW_FAILURE:-}" = 1 ] || { cat "$WORK/err" >&2; exit 1; }
  grep -E "^(summary|totals):" "$WORK/out" | head -1 | awk '{ printf "%.1f M", $2 / 1e6 }'
}
rss() { /usr/bin/time -f "%M" "$@" 2>&1 > /dev/null | tail -1 | awk '{ printf "%.1f MiB", $1 / 1024 }'; }
size() { stat -c %s "$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'; }

strip --strip-debug -o "$WORK/probe" "$PROBE"
# The point of the probe: the engine's closure (KeychainStore, CSQLite, CKeychainSystem, Crypto,
# _CryptoExtras) links FoundationEssentials only, never Foundation or its ICU data.
if nm "$WORK/probe" | grep -q -e '\$s10Foundation' -e 'FoundationInternationalization'; then
  echo "$PROBE links Foundation: something in the engine's closure imports it" >&2; exit 1
fi
"$WORK/probe" add-generic-password -s S -a A -w secretsecret
[ "$("$WORK/probe" find-generic-password -s S -a A -w)" = secretsecret ] || { echo "$PROBE: lookup failed" >&2; exit 1; }
echo "$PROBE ($(size "$WORK/probe") stripped of debug information):"
echo "  find-generic-password -w:            $(count "$WORK/probe" find-generic-password -s S -a A -w), peak RSS $(rss "$WORK/probe" find-generic-password -s S -a A -w)"
echo "  add-generic-password:                $(count "$WORK/probe" add-generic-password -s S2 -a A -w secretsecret), peak RSS $(rss "$WORK/probe" add-generic-password -s S3 -a A -w secretsecret)"
# A command line it declines: everything up to the exec of the full program (here no program,
# so it exits 2 where it would exec).
echo "  a declined command line (to the exec): $(ALLOW_FAILURE=1 count "$WORK/probe" --version)"
if [ -x "$CTL" ]; then
  strip --strip-debug -o "$WORK/ctl" "$CTL"
  [ "$("$WORK/ctl" find-generic-password -s S -a A -w)" = secretsecret ] || { echo "$CTL: lookup failed" >&2; exit 1; }
  echo "$CTL ($(size "$WORK/ctl") stripped of debug information), the same keychain:"
  echo "  find-generic-password -w:            $(count "$WORK/ctl" find-generic-password -s S -a A -w), peak RSS $(rss "$WORK/ctl" find-generic-password -s S -a A -w)"
  echo "  add-generic-password:                $(count "$WORK/ctl" add-generic-password -s S4 -a A -w secretsecret), peak RSS $(rss "$WORK/ctl" add-generic-password -s S5 -a A -w secretsecret)"
fi
