#!/usr/bin/env bash
# Soak benchmark (not a test): PROCESSES worker processes (default 8) each make OPERATIONS mixed
# SecItem calls (default 10,000) on one keychain at once, then the keychain is checked: SQLite's
# integrity check, and every worker's acknowledged final state present.
# Reports throughput, latency percentiles (all calls and per kind of call), busy retries (calls
# that got errSecNotAvailable, -25291, and were retried) and failures. Uses a release build of
# keychain-test-worker in .build-release so that it does not fight the main .build for its lock.
# Exits non-zero when a worker saw a failure or a wrong read, or the final check fails.
#   scripts/soak.sh [PROCESSES] [OPERATIONS]
#   scripts/soak.sh 8 10000 | tee Benchmarks/results/soak-$(date -u +%Y%m%d).txt
set -euo pipefail
processes="${1:-8}"
operations="${2:-10000}"
cd "$(dirname "$0")/.."

log="$(mktemp)"
if ! swift build -c release --product keychain-test-worker --scratch-path .build-release > "$log" 2>&1; then
  grep -E "error" "$log" || tail -20 "$log"
  rm -f "$log"
  exit 1
fi
rm -f "$log"
worker="$(swift build -c release --scratch-path .build-release --show-bin-path)/keychain-test-worker"
work="$(mktemp -d "${TMPDIR:-/tmp}/swift-keychain-soak.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export SWIFT_KEYCHAIN_DEVICE_KEY_FILE="$work/device-key" SWIFT_KEYCHAIN_NO_KERNEL_KEYRING=1
keychain="$work/soak.keychain-db"
"$worker" is-locked "$keychain" > /dev/null   # creates the keychain and its device key

# The conditions, so that a figure can be compared with another run's.
echo "soak: $processes processes x $operations operations on one keychain"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')  commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (modified)')"
echo "machine: $(nproc) cores, $(uname -sr), keychain on $(df -T "$work" | awk 'NR == 2 { print $2 }'), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
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
# Nearest-rank percentiles of the microsecond column, for every call or one kind of call.
percentiles() {
  awk -v kind="$1" 'kind == "all" || $2 == kind { a[++n] = $1 }
    function at(p,  i) { i = int(n * p / 100 + 0.999999); if (i < 1) i = 1; return a[i] }
    END { printf "%-13s %6d calls  p50 %7d  p90 %7d  p99 %8d  p99.9 %8d  max %8d\n", kind, n, at(50), at(90), at(99), at(99.9), a[n] }' \
    "$work/all.latencies"
}
busy=$(grep -ho 'busy-retries=[0-9]*' "$work"/w*.out | cut -d= -f2 | awk '{ s += $1 } END { print s + 0 }')
awk -v n="$total" -v s="$seconds" 'BEGIN { printf "calls: %d in %.1f s = %.0f calls/s\n", n, s, n / s }'
echo "latency (us):"
for kind in all read add update delete shared-update; do percentiles "$kind"; done
awk '$1 >= 1000000 { n++ } END { printf "calls that took 1 s or more: %d\n", n }' "$work/all.latencies"
echo "busy retries (-25291): $busy"
"$worker" soak-verify "$keychain" "$work"/w*.state || failed=1
ls -l "$keychain"* | awk '{ print "file:", $5, $9 }'
[ "$failed" -eq 0 ] && echo "result: ok" || echo "result: FAILED"
exit $failed
