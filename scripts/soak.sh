#!/usr/bin/env bash
# Soak benchmark (not a test): PROCESSES worker processes (default 8) each make OPERATIONS mixed
# SecItem calls (default 10,000) on one keychain at once, then the keychain is checked: SQLite's
# integrity check, and every worker's acknowledged final state present.
# Reports throughput, latency percentiles, busy retries (calls that got errSecNotAvailable, -25291,
# and were retried) and failures. Uses a release build of keychain-test-worker in .build-release
# so that it does not fight the main .build for its lock.
#   scripts/soak.sh [PROCESSES] [OPERATIONS]
set -euo pipefail
processes="${1:-8}"
operations="${2:-10000}"
cd "$(dirname "$0")/.."

swift build -c release --product keychain-test-worker --scratch-path .build-release > /dev/null
worker="$(swift build -c release --scratch-path .build-release --show-bin-path)/keychain-test-worker"
work="$(mktemp -d "${TMPDIR:-/tmp}/swift-keychain-soak.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export SWIFT_KEYCHAIN_DEVICE_KEY_FILE="$work/device-key" SWIFT_KEYCHAIN_NO_KERNEL_KEYRING=1
keychain="$work/soak.keychain-db"
"$worker" is-locked "$keychain" > /dev/null   # creates the keychain and its device key

echo "soak: $processes processes x $operations operations on $keychain"
start=$(date +%s%N)
pids=()
for i in $(seq 0 $((processes - 1))); do
  "$worker" soak "$keychain" "$i" "$operations" 7919 "$work/w$i" > "$work/w$i.out" 2>&1 &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
end=$(date +%s%N)
cat "$work"/w*.out

total=$((processes * operations))
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
sort -n "$work"/w*.latencies > "$work/all.latencies"
percentile() { awk -v p="$1" '{ a[NR] = $1 } END { i = int(NR * p / 100); if (i < 1) i = 1; print a[i] }' "$work/all.latencies"; }
busy=$(grep -ho 'busy-retries=[0-9]*' "$work"/w*.out | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')
awk -v n="$total" -v s="$seconds" 'BEGIN { printf "calls: %d in %.1f s = %.0f calls/s\n", n, s, n / s }'
echo "latency (us): p50 $(percentile 50)  p90 $(percentile 90)  p99 $(percentile 99)  p99.9 $(percentile 99.9)  max $(tail -1 "$work/all.latencies")"
echo "busy retries (-25291): $busy"
"$worker" soak-verify "$keychain" "$work"/w*.state || failed=1
ls -l "$keychain"* | awk '{ print "file:", $5, $9 }'
exit $failed
