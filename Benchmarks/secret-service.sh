#!/bin/bash
# keychaind against gnome-keyring-daemon as the Secret Service, side by side in one run
# (BENCHMARKS.md, "Secret Service: keychaind against gnome-keyring"):
#   Benchmarks/secret-service.sh           full run: 1,000 and 10,000 items; writes
#                                           Benchmarks/results/secret-service.json and .png
#   Benchmarks/secret-service.sh --quick   300 and 2,000 items, fewer operations (gnome-keyring's 2,000
#                                           from a written file); results in a temp folder
#   --no-install                            skip apt-get (everything already installed)
#
# Installs, only if missing and only through apt: gnome-keyring libsecret-tools python3-gi
# gir1.2-secret-1 dbus (and python3-matplotlib for the plot, skipped if that fails). Builds
# keychaind and keychainctl in release mode in the root package, then runs
# Benchmarks/peers/secret_service.py with the system's python3 (PyGObject). Each daemon gets its
# own private dbus-daemon and throw-away HOME/XDG folders under /var/tmp; everything started is
# stopped at the end, and nothing reaches the user's bus, keyrings or keychains.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
QUICK=0; INSTALL=1
for a in "$@"; do
  case "$a" in
    --quick) QUICK=1 ;;
    --no-install) INSTALL=0 ;;
    *) echo "usage: $0 [--quick] [--no-install]" >&2; exit 2 ;;
  esac
done
START=$SECONDS
say() { echo "[$(date -u +%T)] $* (loadavg $(cut -d' ' -f1-3 /proc/loadavg))" >&2; }
PY=/usr/bin/python3

if [ "$INSTALL" = 1 ]; then
  missing=()
  for p in gnome-keyring libsecret-tools python3-gi gir1.2-secret-1 dbus python3-matplotlib; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      gnome-keyring libsecret-tools python3-gi gir1.2-secret-1 dbus >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-matplotlib >/dev/null \
      || say "python3-matplotlib could not be installed: no plot"
  fi
fi

say "building keychaind and keychainctl (release, root package)"
(cd "$ROOT" && swift build -c release --traits Sync --product keychaind 2>&1 | grep -E "error|Build of product" | tail -3 >&2 \
  && swift build -c release --traits Sync --product keychainctl 2>&1 | grep -E "error|Build of product" | tail -2 >&2 \
  && swift build -c release --traits Sync --product keychainctl-full 2>&1 | grep -E "error|Build of product" | tail -2 >&2)
BIN=$(cd "$ROOT" && swift build -c release --traits Sync --show-bin-path)
[ -x "$BIN/keychaind" ] && [ -x "$BIN/keychainctl" ] && [ -x "$BIN/keychainctl-full" ] || { echo "build failed" >&2; exit 1; }

if [ "$QUICK" = 1 ]; then
  OUT=$(mktemp -d /var/tmp/swift-keychain-ss-quick.XXXXXX); SIZES=300,2000; MODE=(--quick --gkr-fill-budget 10)
else
  OUT=$HERE/results; SIZES=1000,10000; MODE=()
fi
mkdir -p "$OUT"
CMD=Benchmarks/secret-service.sh; [ "$QUICK" = 0 ] || CMD="$CMD --quick"

# The driver stops its daemons, buses and clients itself (also on SIGTERM); this trap makes sure
# an interrupted run passes the signal on and waits for that.
DRIVER=""
cleanup() { if [ -n "$DRIVER" ] && kill -0 "$DRIVER" 2>/dev/null; then kill -TERM "$DRIVER"; wait "$DRIVER" || true; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM
say "running both providers, sizes $SIZES"
"$PY" "$HERE/peers/secret_service.py" run --keychaind "$BIN/keychaind" --keychainctl "$BIN/keychainctl" \
  --out "$OUT/secret-service.json" --png "$OUT/secret-service.png" --sizes "$SIZES" --command "$CMD" \
  "${MODE[@]}" 2> >(grep -v "Failed to set fd limit" >&2) &
DRIVER=$!
wait "$DRIVER"
DRIVER=""
say "done in $((SECONDS - START)) s: $OUT/secret-service.json, $OUT/secret-service.png"
