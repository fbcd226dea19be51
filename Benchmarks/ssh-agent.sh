#!/bin/bash
# keychaind's SSH agent against OpenSSH's ssh-agent, side by side in one run (docs/ssh-agent.md):
# both agents hold the same keys (made with ssh-keygen, added with ssh-add), and one client,
# Benchmarks/ssh-agent-sign.c, times them alike, repetitions interleaved:
#   - signatures of a 32-byte message over one connection kept open, per key type (ECDSA P-256;
#     RSA 2048 with the rsa-sha2-256 flag; Ed25519 when our agent takes such a key);
#   - the same with a connection per signature, as ssh and git use an agent;
#   - REQUEST_IDENTITIES over one connection: a request answered without signing.
# Prints the median of the repetitions' mean per request, the lowest and highest beside it, and
# ours / OpenSSH's against the 1.5x target.
# Usage: Benchmarks/ssh-agent.sh [--debug] [COUNT [REPETITIONS]]   (release build by default;
#        SCRATCH_PATH=DIR builds in DIR instead of .build)
set -euo pipefail
# keychaind needs a session bus: a private one for this run.
if [ -z "${SSH_AGENT_BENCH_BUS:-}" ]; then SSH_AGENT_BENCH_BUS=1 exec dbus-run-session -- "$0" "$@"; fi
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CONFIG=release
if [ "${1:-}" = "--debug" ]; then CONFIG=debug; shift; fi
COUNT=${1:-2000}
REPETITIONS=${2:-7}
TARGET=1.5
cd "$ROOT"
BUILD=(-c "$CONFIG" --scratch-path "${SCRATCH_PATH:-.build}")
swift build "${BUILD[@]}" -Xcc -O2 --product keychaind >/dev/null
BIN=$(swift build "${BUILD[@]}" --show-bin-path)
WORK=$(mktemp -d /tmp/ssh-agent-bench.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
export HOME=$WORK XDG_RUNTIME_DIR=$WORK/run XDG_DATA_HOME=$WORK/data XDG_CONFIG_HOME=$WORK/config
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
unset SSH_AUTH_SOCK SSH_AGENT_PID
cc -O2 -Wall -o "$WORK/ssh-agent-sign" "$HERE/ssh-agent-sign.c"

OPENSSH=$WORK/openssh-agent.sock
OURS=$XDG_RUNTIME_DIR/keychain/ssh-agent
/usr/bin/ssh-agent -D -a "$OPENSSH" >/dev/null &
"$BIN/keychaind" --ssh-agent --no-sync --log-level warning >/dev/null 2>"$WORK/keychaind.log" &
for _ in $(seq 100); do [ -S "$OPENSSH" ] && [ -S "$OURS" ] && break; sleep 0.1; done
[ -S "$OPENSSH" ] && [ -S "$OURS" ] || { echo "an agent did not start" >&2; cat "$WORK/keychaind.log" >&2; exit 1; }

# name, ssh-keygen arguments, key type on the wire, sign flags (RFC 8332: 2 asks for rsa-sha2-256)
KEYS=("ECDSA P-256|-t ecdsa -b 256|ecdsa-sha2-nistp256|0"
      "RSA 2048, rsa-sha2-256|-t rsa -b 2048|ssh-rsa|2"
      "Ed25519|-t ed25519|ssh-ed25519|0")
served=()
for spec in "${KEYS[@]}"; do
  IFS='|' read -r name args type flags <<<"$spec"
  file=$WORK/key-$type
  # shellcheck disable=SC2086 # args are separate words
  ssh-keygen -q $args -N '' -C "bench $type" -f "$file"
  SSH_AUTH_SOCK=$OPENSSH ssh-add -q "$file" 2>/dev/null || { echo "OpenSSH's agent refused the $name key" >&2; exit 1; }
  if SSH_AUTH_SOCK=$OURS ssh-add -q "$file" 2>/dev/null; then served+=("$spec"); else echo "not measured: keychaind refuses the $name key" >&2; fi
done

rows=()
measure() { # label mode type flags
  local figures
  figures=$("$WORK/ssh-agent-sign" "$2" "$3" "$4" "$COUNT" "$REPETITIONS" "$OURS" "$OPENSSH" | tr '\n' ' ')
  rows+=("$1|$figures")
}
for spec in "${served[@]}"; do
  IFS='|' read -r name args type flags <<<"$spec"
  measure "sign, $name, kept connection" sign "$type" "$flags"
  measure "sign, $name, connection each" connect "$type" "$flags"
done
measure "REQUEST_IDENTITIES (${#served[@]} keys), kept connection" list ecdsa-sha2-nistp256 0

python3 - "$CONFIG" "$COUNT" "$REPETITIONS" "$TARGET" "${rows[@]}" <<'PY'
import os, sys
config, count, repetitions, target = sys.argv[1:5]
print(f'build: {config}, {count} requests per repetition, {repetitions} repetitions interleaved, '
      f'{os.cpu_count()} processors, load average {open("/proc/loadavg").read().split()[0]}')
print(f'{"us per request (median; lowest-highest)":56} {"keychaind":>22} {"OpenSSH ssh-agent":>22}  ours/OpenSSH')
for row in sys.argv[5:]:
    label, figures = row.split('|')
    v = [float(x) for x in figures.split()]
    ours, theirs = v[0:3], v[3:6]
    ratio = ours[0] / theirs[0]
    verdict = '' if label.startswith('REQUEST') else ('  within' if ratio <= float(target) else '  above') + f' {target}x'
    cell = lambda f: f'{f[0]:8.1f} ({f[1]:.1f}-{f[2]:.1f})'
    print(f'{label:56} {cell(ours):>22} {cell(theirs):>22}  {ratio:5.2f}{verdict}')
PY
