#!/bin/bash
# Sync through PostgreSQL (BENCHMARKS.md, "Sync through PostgreSQL"): 10,000 synchronizable items
# added locally and then carried to a second device, one change's latency to a device that
# listens (with the writer syncing continuously as keychaind does, and with the writer running
# `sync now`), and the server's bytes per item, all in one run of keychain-sync-bench (release build
# of the root package with its Sync trait; it starts and stops its own PostgreSQL 15 on a Unix socket).
#   Benchmarks/sync.sh [ITEMS] [LATENCY-SAMPLES]     default 10000 20
# Needs Debian's postgresql package (scripts/install-system-packages.sh installs it).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
swift build -c release --traits Sync --product keychain-sync-bench >&2
echo "loadavg before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$ROOT/.build/release/keychain-sync-bench" "${1:-10000}" "${2:-20}"
