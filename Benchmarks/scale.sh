#!/bin/bash
# Readers scale (BENCHMARKS.md, "Readers scale"): lookups per second of one process and of two
# processes on one keychain file at once (alternating, REPS times each), then 8 processes doing
# 90 % lookups and 10 % durable adds, with every acknowledged add checked afterwards. Each worker
# is a separate process opening the same file, as separate programs would. The JSON goes to
# results/scale.json; a summary to standard output.
#   Benchmarks/scale.sh [ITEMS] [SECONDS] [REPS] [DIR]     default 1000 3 5 /var/tmp/keychain-bench-scale
set -euo pipefail
cd "$(dirname "$0")"
items="${1:-1000}" seconds="${2:-3}" reps="${3:-5}" dir="${4:-/var/tmp/keychain-bench-scale}"
swift build -c release --product keychain-bench >&2
rm -rf "$dir"
echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
.build/release/keychain-bench scale --dir "$dir" --items "$items" --seconds "$seconds" --reps "$reps" > results/scale.json
echo "loadavg after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
rm -rf "$dir"
python3 - results/scale.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"{d['items']} items, {d['cores']} cores")
print("| processes | writes | lookups/s | lookup median | lookup p99 | failed calls | lost adds |")
print("|---|---|---|---|---|---|---|")
for r in d["runs"]:
    l = r["lookup_latency"]
    print(f"| {r['processes']} | {r['write_percent']} % | {r['lookups_per_second']:,.0f} | {l['median_us']} µs | {l['p99_us']} µs | {r['failures']} | {r['lost_writes']} |")
print(f"two processes / one: {d['two_over_one']} (median {d['two_over_one_median']}; target >= 1.8)")
PY
