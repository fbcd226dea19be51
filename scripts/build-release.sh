#!/usr/bin/env bash
# Builds products of the package as they are installed: release mode, the Swift runtime and
# Foundation linked statically (--static-swift-stdlib), with the Sync trait (keychain-sync is
# installed, and a change of traits recompiles every module, so every product gets it).
#
#   scripts/build-release.sh PRODUCT...
#
# Used by scripts/install.sh, scripts/build-deb.sh and scripts/build-front.sh, so that the
# programs they install share one build. SwiftPM's output goes to standard error, without one
# warning the linker repeats for every program: Foundation's static library calls mktemp(3)
# (in FoundationEssentials' createTemporaryFile), and ld warns about any program that links
# it. Our code never calls it; the warning is about the toolchain's library, not something to fix here.
set -euo pipefail
cd "$(dirname "$0")/.."
for product in "$@"; do
    swift build -c release --static-swift-stdlib --traits Sync --product "$product" 2>&1 \
        | { grep -v "warning: the use of \`mktemp' is dangerous" || true; } >&2
done
