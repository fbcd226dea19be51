#!/usr/bin/env bash
# The whole test suite, from a fresh machine: system packages, then every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
swift test
