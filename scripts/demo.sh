#!/usr/bin/env bash
# The main job on a fresh machine: build keychainctl, store a password in the default keychain
# (created on first use) and find it again.
set -euo pipefail
cd "$(dirname "$0")/.."
# Only what the build needs: the tests' clients, servers and peers are scripts/test.sh's to install.
scripts/install-system-packages.sh --build
# keychainctl is a small front; keychainctl-full, beside it, runs what it does not serve.
# --traits Sync and the debug flags, as scripts/test.sh builds this folder: a change of either
# recompiles every module.
source scripts/debug-flags.sh
swift build --traits Sync "${debug_build_flags[@]}" --product keychainctl
swift build --traits Sync "${debug_build_flags[@]}" --product keychainctl-full
keychainctl="$(swift build --traits Sync "${debug_build_flags[@]}" --show-bin-path)/keychainctl"
account="${USER:-demo}"
# -U updates the item if an earlier run stored it; a password on the command line shows in
# process listings, which is fine for a demo value (omit -w's value to be prompted instead).
"$keychainctl" add-generic-password -U -a "$account" -s swift-keychain.demo -w "demo password"
echo "Stored a password for $account at swift-keychain.demo; finding it again:"
"$keychainctl" find-generic-password -a "$account" -s swift-keychain.demo -w
