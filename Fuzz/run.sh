#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Package.swift) and runs each for SECONDS (default 60),
# starting from the committed seed corpus in Fuzz/corpus/<target>/. Fails when a target crashes
# or a sanitizer reports; the input that did it is left in Fuzz/artifacts/.
#   Fuzz/run.sh 60             build, then fuzz every target for 60 s
#   Fuzz/run.sh 0              build, then only replay the seed corpus (a regression check)
#   FUZZ_TARGETS=FuzzDecoders Fuzz/run.sh 300
set -euo pipefail
seconds="${1:-60}"
cd "$(dirname "$0")"
targets=(${FUZZ_TARGETS:-FuzzQueryParser FuzzDecoders FuzzBackup FuzzDBusMessage FuzzCertificates FuzzKeyData FuzzSSHAgent FuzzKeeper})
flags=(-c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)

# The linker's notes about sanitizer symbols are noise; a failed build still stops here.
swift build "${flags[@]}" > build.log 2>&1 || { grep -v "Cannot export local symbol" build.log; exit 1; }
rm -f build.log
bin="$(swift build "${flags[@]}" --show-bin-path)"
mkdir -p artifacts
scratch="$(mktemp -d "${TMPDIR:-/tmp}/swift-keychain-fuzz.XXXXXX")"
[ -d /dev/shm ] && [ -w /dev/shm ] && scratch_keychains="$(mktemp -d /dev/shm/swift-keychain-fuzz.XXXXXX)" || scratch_keychains="$scratch"
trap 'rm -rf "$scratch" "$scratch_keychains"' EXIT

status=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "$scratch/$target"
  echo "== $target: ${seconds}s from $(ls "corpus/$target" | wc -l) seeds"
  # New inputs go to the scratch corpus (first folder); the committed seeds are only read.
  args=(-detect_leaks=0 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1
        "-artifact_prefix=artifacts/$target-")
  if [ "$seconds" -gt 0 ]; then args+=("-max_total_time=$seconds"); else args+=(-runs=0); fi
  # Swift's runtime keeps caches LeakSanitizer would call leaks, and its own crash handler
  # trips AddressSanitizer while printing a backtrace: both are off.
  if ! ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no SWIFT_KEYCHAIN_FUZZ_DIR="$scratch_keychains" "$bin/$target" "${args[@]}" "$scratch/$target" "corpus/$target" \
       > "$scratch/$target.log" 2>&1; then
    echo "!! $target failed; see the input in Fuzz/artifacts/:"
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$scratch/$target.log" | head -20
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added|cov:" "$scratch/$target.log" | tail -3 || true
done
exit $status
