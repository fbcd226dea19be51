#!/usr/bin/env bash
# CI's fuzzing stage: builds the libFuzzer targets of Fuzz/ (FuzzQueryParser,
# FuzzDecoders, FuzzBackup, FuzzDBusMessage, FuzzCertificates, FuzzKeyData, FuzzSSHAgent, FuzzKeeper; with AddressSanitizer) and runs each for FUZZ_SECONDS (default 10,
# libFuzzer's -max_total_time) starting from the committed corpus in Fuzz/corpus/. Fails on a
# crash, a sanitizer report, a failed build, or when the whole stage runs past its time limit.
# The work is Fuzz/run.sh's; this adds the time limit and puts a crashing input into the log,
# so that it can be recovered from CI, which keeps no files.
#
# A crash found here is kept fixed in two steps:
#   1. its input goes into Fuzz/corpus/<target>/ (named for what it found), so every later run
#      starts from it;
#   2. a test replaying it goes into the test target of the code that crashed (for the engine:
#      Tests/KeychainStoreTests/ReliabilityFuzzRegressionTests.swift; for the D-Bus layer:
#      Tests/KeychainDBusTests/CodecTests.swift), failing until the fix.
#   scripts/fuzz-ci.sh                  10 s per target: every committed input is replayed first,
#                                       which is the regression check; the rest explores. CI is short
#                                       of time (two cores; 10 s since the eighth target, FuzzKeeper,
#                                       was added), so longer runs are on demand:
#   FUZZ_SECONDS=600 scripts/fuzz-ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-10}"
# The build (the whole keychain again, instrumented) takes about 6 minutes from nothing on two
# cores; the targets run one after another.
limit=$((1800 + 6 * seconds + 300))

rm -rf Fuzz/artifacts
status=0
timeout --kill-after=30 "$limit" Fuzz/run.sh "$seconds" || status=$?
[ "$status" -eq 124 ] && echo "!! fuzzing ran past its limit of ${limit}s"
for artifact in Fuzz/artifacts/*; do
  [ -f "$artifact" ] || continue
  echo "!! input that failed: $artifact ($(wc -c < "$artifact") bytes), base64:"
  base64 -w 76 < "$artifact"
done
exit "$status"
