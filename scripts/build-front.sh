#!/usr/bin/env bash
# Builds keychainctl's front as it is installed and packaged (scripts/install.sh,
# scripts/build-deb.sh, the start-up benchmarks): release, fully static (-static-executable: no
# dynamic loader, no shared library to map or bind at each start; BENCHMARKS.md section 4), in a
# scratch folder of its own so that the other programs' build keeps its flags and is not redone.
# Prints the path of the built program on standard output; the build's own output goes to
# standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/front
swift build -c release --static-swift-stdlib -Xswiftc -static-executable --scratch-path "$scratch" --product keychainctl >&2
echo "$PWD/$scratch/release/keychainctl"
