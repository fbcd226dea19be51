#!/usr/bin/env bash
# The test suites each sanitizer covers (listed below, with the reasons) under AddressSanitizer
# and/or ThreadSanitizer. Each sanitizer
# builds in its own scratch folder (.build-asan, .build-tsan: git-ignored), so it neither fights
# nor invalidates the main .build. Exits non-zero when a build fails, a test fails, a sanitizer
# reports, or a stage runs past its time limit.
#   scripts/sanitizers.sh              both, AddressSanitizer first
#   scripts/sanitizers.sh address      one of them (address | thread)
#   SANITIZER_BUILD_TIMEOUT=1800 SANITIZER_TEST_TIMEOUT=2400 scripts/sanitizers.sh thread
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/debug-flags.sh
build_limit="${SANITIZER_BUILD_TIMEOUT:-1800}"
test_limit="${SANITIZER_TEST_TIMEOUT:-1800}"
case "${1:-all}" in
  all) sanitizers=(address thread) ;;
  address|thread) sanitizers=("$1") ;;
  *) echo "usage: scripts/sanitizers.sh [address|thread|all]" >&2; exit 64 ;;
esac

# A sanitizer report fails the run: AddressSanitizer stops at the first one, ThreadSanitizer
# makes the process exit non-zero at the end (exitcode) and prints every race it saw.
# Child processes (keychain-test-worker, keychainctl, the seed programs) are built with the same
# sanitizer; those a test starts with the environment it inherits get these settings too.
export ASAN_OPTIONS="abort_on_error=0:${ASAN_OPTIONS:-}"
export TSAN_OPTIONS="exitcode=66:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
# Swift's own crash handler trips the sanitizers while it prints a backtrace.
export SWIFT_BACKTRACE="enable=no"

# What each sanitizer runs. The plain run (scripts/test.sh) runs everything; the sanitizers run
# the suites where their reports mean something, as positive lists, so that a new suite is in the
# plain run only until it is named here.
#
# AddressSanitizer looks for memory errors, which live where Swift meets C or raw memory: the
# engine over SQLite and the kernel keyring, the key and certificate code over DER bytes, our own
# big numbers, the D-Bus codec over libdbus, the GVariant reader, the terminal reader, the caller
# identity's /proc reads through system calls, the SSH agent's wire codec. So: every unit target
# but KeychainKitTests (KeychainKit is Swift with no unsafe pointer, over the KeychainServices
# layer its own suites run here) and KeychainSSHAgentTests (its other suites run OpenSSH's
# programs and sshd; its hostile-message suite runs here), and the end-to-end suites that feed the
# engine hostile input (RobustnessTests: 10,000 malformed dictionaries; TamperingTests and
# AtRestTests: damaged and inspected files).
#
# ThreadSanitizer looks for data races, which live where threads share state: the engine's
# connections and locks, KeychainKit's executor and async calls (these drive the SecItem layer
# from many tasks at once), the D-Bus connection's threads and the Secret Service's model.
# KeychainAuthenticationTests are not among them: KeychainAuthentication keeps no state shared
# between threads (no lock, no unchecked Sendable), and its suites spend their time in scrypt. Its reports are about one process, so the suites that race processes
# against each other (ConcurrencyTests, LockSharingTests, CrossProcessVisibilityTests) prove what
# they prove in the plain run, where their workers run at full speed; so do KeychainServicesTests
# (single-threaded rules of Apple's API, 400 tests) and KeychainCryptoTests (arithmetic on one
# thread), whose memory safety AddressSanitizer covers.
#
# Left out of both: suites that test what processes print, exit with and survive (the CLI, the
# seed programs, SIGKILLs, a full disk, PAM through pamtester with a module built without a
# sanitizer, keychaind with a bus and real clients per test, machine unlock through systemd-creds
# and swtpm), and the certificate and SecKey interoperability suites, which make fixtures with
# openssl for every test (their parsers are fuzzed under AddressSanitizer instead, FuzzCertificates).
# The sync targets compile to nothing here: these builds leave Package.swift's Sync trait off (as
# any build does unless given `--traits Sync`), so SwiftPM neither resolves nor builds SwiftNIO,
# swift-nio-ssl's BoringSSL and postgres-nio, which cost CI several minutes under each sanitizer;
# the sync suites start a PostgreSQL server and keychain-sync processes, and run in the plain run.
# The rules for synchronizable items and their local tombstones (RulesTombstoneTests and the other
# KeychainServices rule suites) still run under AddressSanitizer.
selected_address="^(KeychainStoreTests|KeychainServicesTests|KeychainCryptoTests|KeychainAuthenticationTests|KeychainDBusTests|KeychainSecretServiceTests|KeychainCallerIdentityTests)\\.|^EndToEndTests\\.(RobustnessTests|TamperingTests|AtRestTests)|^KeychainSSHAgentTests\\.HostileMessageTests"
selected_thread='^(KeychainStoreTests|KeychainKitTests|KeychainDBusTests|KeychainSecretServiceTests)\.'
# SecKeySmallRSATests is another such suite, and most of its time is key generation in our own
# big numbers, whose arithmetic RSAKeyGenerationTests checks under AddressSanitizer.
skipped_under_sanitizers='SecKeySmallRSATests|SecKeyInteropTests|SecCertificateTests|SecTrustTests|PKCS12ImportTests|PKCS12WriterTests|RulesCertificateItemTests|SecKeyOAEPInteropTests|SecKeySHA224InteropTests|SHA224OpenSSLTests|RulesCertificateChainMatchTests'
# gnome-keyring's file format is read on one thread; its bit-flip and truncation suites (thousands of
# KDF runs) took most of the Secret Service target's time under ThreadSanitizer, and
# AddressSanitizer, which they are for, runs them.
skipped_address="$skipped_under_sanitizers"
skipped_thread="$skipped_under_sanitizers|GnomeKeyringFileTests|GVariantReaderTests"

status=0
for sanitizer in "${sanitizers[@]}"; do
  scratch=".build-${sanitizer:0:1}san"
  mkdir -p "$scratch"
  log="$scratch/sanitizer-run.log"
  flags=(--sanitize="$sanitizer" --scratch-path "$scratch" "${debug_build_flags[@]}")
  if [ "$sanitizer" = address ]; then
    # LeakSanitizer is switched off inside every linked binary, not through ASAN_OPTIONS, because
    # the CLI tests start keychainctl with an environment of their own. Its reports are false:
    # Swift keeps pointers in the spare bits of enums and bridged values, where LeakSanitizer
    # cannot see them, so objects still in use at exit look unreachable (first seen: the keychain
    # id's Data in every keychainctl run). Leaks are not what this run is for.
    echo 'int __lsan_is_turned_off(void) { return 1; }' > "$scratch/lsan-off.c"
    clang -c -O1 -o "$scratch/lsan-off.o" "$scratch/lsan-off.c"
    flags+=(-Xlinker "$PWD/$scratch/lsan-off.o")
  fi
  echo "== $sanitizer: building in $scratch (limit ${build_limit}s)"
  start=$(date +%s)
  if ! timeout --kill-after=30 "$build_limit" swift build --build-tests "${flags[@]}" > "$log" 2>&1; then
    grep -E "error:|Terminated|Killed" "$log" | head -20 || tail -20 "$log"
    echo "!! $sanitizer: build failed or ran past ${build_limit}s (log: $log)"
    status=1
    continue
  fi
  built=$(date +%s)
  echo "   built in $((built - start)) s; testing (limit ${test_limit}s)"
  selected="selected_${sanitizer}" skipped="skipped_${sanitizer}"
  if timeout --kill-after=30 "$test_limit" swift test --skip-build "${flags[@]}" --filter "${!selected}" --skip "${!skipped}" > "$log" 2>&1 \
     && ! grep -qE "^[[:space:]]*(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Thread)Sanitizer)" "$log"; then
    tail -3 "$log"
    echo "   $sanitizer: passed; tests took $(( $(date +%s) - built )) s, build and tests $(( $(date +%s) - start )) s"
  else
    grep -E "^[[:space:]]*(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY:)|✘|recorded an issue|error:|Terminated" "$log" | head -40
    tail -3 "$log"
    echo "!! $sanitizer: failed after $(( $(date +%s) - built )) s of tests (log: $log)"
    status=1
  fi
done
exit $status
