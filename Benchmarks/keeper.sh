#!/bin/bash
# The keeper's cost, side by side in one run (docs/design-notes.md, "The keeper"):
#   - SecItemCopyMatching of one password with its data, embedded (the process opens the file)
#     and served (keychaind --keeper), in one process making COUNT calls after a first one;
#   - a bare round trip of the same size on the same kind of socket (AF_UNIX stream, two
#     processes), in C: the floor any served call pays;
#   - the first served call minus a later one: connecting plus the keeper resolving the caller,
#     with no rule for the client and with a rule pinning its executable by SHA-256 (the keeper
#     then reads the executable whole);
#   - 2 and 8 client processes doing served lookups at once: throughput ratio;
#   - `keychainctl find-generic-password -w` served against `secret-tool lookup` from the same
#     keychaind's Secret Service, a new process each time.
# Usage: Benchmarks/keeper.sh [--debug] [COUNT]   (release build by default)
set -euo pipefail
# keychaind needs a session bus: a private one for this run.
if [ -z "${KEEPER_BENCH_BUS:-}" ]; then KEEPER_BENCH_BUS=1 exec dbus-run-session -- "$0" "$@"; fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CONFIG=release
if [ "${1:-}" = "--debug" ]; then CONFIG=debug; shift; fi
COUNT=${1:-2000}
cd "$ROOT"
swift build -c "$CONFIG" -Xcc -O2 --product keychaind >/dev/null
swift build -c "$CONFIG" -Xcc -O2 --product keychain-served-client >/dev/null
swift build -c "$CONFIG" -Xcc -O2 --product keychainctl >/dev/null
swift build -c "$CONFIG" -Xcc -O2 --product keychainctl-full >/dev/null
BIN=$(swift build -c "$CONFIG" --show-bin-path)
WORK=$(mktemp -d /tmp/keeper-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
export HOME=$WORK XDG_RUNTIME_DIR=$WORK/run XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

cat > "$WORK/pingpong.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
/* COUNT round trips of a 100-byte request and a 100-byte answer between two processes. */
int main(int argc, char **argv) {
    int count = atoi(argv[1]), pair[2];
    char buffer[100] = {0};
    socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
    if (fork() == 0) {
        for (int i = 0; i < count; i++) { read(pair[1], buffer, 100); write(pair[1], buffer, 100); }
        _exit(0);
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < count; i++) { write(pair[0], buffer, 100); read(pair[0], buffer, 100); }
    clock_gettime(CLOCK_MONOTONIC, &end);
    printf("%.2f\n", ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / 1000.0 / count);
    return 0;
}
C
cc -O2 -o "$WORK/pingpong" "$WORK/pingpong.c"

"$BIN/keychain-served-client" add bench acct value >/dev/null      # embedded: creates the keychain
"$BIN/keychaind" --keeper --no-sync --log-level warning &
for _ in $(seq 50); do [ -S "$XDG_RUNTIME_DIR/keychain/keeper" ] && break; sleep 0.1; done
embedded=$("$BIN/keychain-served-client" bench "$COUNT" bench acct)
served=$(SWIFT_KEYCHAIN_KEEPER=served "$BIN/keychain-served-client" bench "$COUNT" bench acct)
ping=$("$WORK/pingpong" "$COUNT")
# The first call again, the client's executable now pinned by a rule: the keeper hashes it.
client=$(readlink -f "$BIN/keychain-served-client")
rules="$XDG_CONFIG_HOME/swift-keychain/apps.d"
mkdir -p -m 700 "$XDG_CONFIG_HOME/swift-keychain" "$rules"
(umask 077; printf 'executable = %s\nexecutable-sha256 = %s\nkeychain-access-groups = swift-keychain.shared\n' \
  "$client" "$(sha256sum "$client" | cut -d' ' -f1)" > "$rules/bench.conf")
pinned=$(SWIFT_KEYCHAIN_KEEPER=served "$BIN/keychain-served-client" bench 10 bench acct)
rm "$rules/bench.conf"
client_mib=$(( $(stat -c %s "$client") / 1048576 ))
# Lookups per second of N served client processes at once.
throughput() {
  local start pids=()
  start=$(date +%s%N)
  for _ in $(seq "$1"); do
    SWIFT_KEYCHAIN_KEEPER=served "$BIN/keychain-served-client" bench "$COUNT" bench acct >/dev/null & pids+=($!)
  done
  wait "${pids[@]}"
  echo $(( $1 * COUNT * 1000000000 / ($(date +%s%N) - start) ))
}
two=$(throughput 2)
eight=$(throughput 8)
# One password read by a new process, RUNS times each, interleaved: keychainctl served (the
# front hands it to keychainctl-full, which asks the keeper) and secret-tool from the same
# keychaind's Secret Service. Mean nanoseconds per run.
RUNS=40
printf value | secret-tool store --label=bench service bench-ss account acct
per_run() {
  local start total=0
  for _ in $(seq "$RUNS"); do
    start=$(date +%s%N); SWIFT_KEYCHAIN_KEEPER=served "$BIN/keychainctl" find-generic-password -s bench -a acct -w >/dev/null
    total=$(( total + $(date +%s%N) - start ))
  done
  echo $(( total / RUNS ))
}
ctl=$(per_run)
ss_total=0
for _ in $(seq "$RUNS"); do
  start=$(date +%s%N); secret-tool lookup service bench-ss account acct >/dev/null
  ss_total=$(( ss_total + $(date +%s%N) - start ))
done
secret_tool=$(( ss_total / RUNS ))
python3 - "$CONFIG" "$COUNT" "$embedded" "$served" "$ping" "$two" "$eight" "$pinned" "$client_mib" "$ctl" "$secret_tool" <<'PY'
import sys
config, count, embedded, served, ping, two, eight, pinned, mib, ctl, secret_tool = sys.argv[1:]
e = float(embedded.split()[3]); s = float(served.split()[3]); first = float(served.split()[1]); p = float(ping)
first_pinned = float(pinned.split()[1])
print(f'build: {config}, {count} lookups per process, {__import__("os").cpu_count()} processors')
print(f'embedded SecItemCopyMatching  {e:8.2f} us')
print(f'served SecItemCopyMatching    {s:8.2f} us   (bound: embedded + 2 x round trip = {e + 2 * p:.2f} us; served / bound {s / (e + 2 * p):.2f})')
print(f'bare AF_UNIX round trip (C)   {p:8.2f} us')
print(f'first served call             {first:8.2f} us   (connect + identity resolution: about {first - s:.0f} us)')
print(f'first served call, digest rule {first_pinned:7.2f} us   (the keeper hashes the {mib} MiB client; {first_pinned / first:.1f}x the first call without)')
print(f'served lookups/s, 2 clients   {int(two):8d}')
print(f'served lookups/s, 8 clients   {int(eight):8d}   (8 / 2: {int(eight) / int(two):.2f}; target >= 1.6)')
print(f'keychainctl find -w, served   {int(ctl) / 1e6:8.2f} ms   (secret-tool lookup {int(secret_tool) / 1e6:.2f} ms: {int(secret_tool) / int(ctl):.2f}x; target >= 3)')
PY
