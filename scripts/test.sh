#!/usr/bin/env bash
# The whole test suite, from a fresh machine: system packages, then every test target.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/debug-flags.sh
scripts/install-system-packages.sh
if [ "$(id -u)" -eq 0 ]; then
  # Said before, not found afterwards: what a run as root changes on the machine, and for how long.
  echo "test.sh: running as root, the PAM tests add users named kcpam… and PAM services" \
       "/etc/pam.d/swift-keychain-test-…, and remove each one when its test ends."
fi
# With sync (Package.swift's Sync trait, off by default): its suites start PostgreSQL and keychain-sync.
swift test --traits Sync "${debug_build_flags[@]}"
