#!/bin/bash
# Command start-up side by side (BENCHMARKS.md, "keychainctl start-up"): one
# `keychainctl find-generic-password -w` from process start to exit, against `/bin/true` and
# `secret-tool lookup` (gnome-keyring-daemon on a private bus), plus keychainctl's add and
# --version, at 1,000 and 100,000 items, commands interleaved round by round; medians, p90 and
# the ratios of the medians. Only these rows: a few minutes, not the whole Benchmarks/run.sh.
#   Benchmarks/cli-startup.sh                 build keychainctl as scripts/install.sh does
#                                             (the front fully static: scripts/build-front.sh;
#                                             keychainctl-full --static-swift-stdlib), measure it
#   --ctl PATH                                measure that keychainctl instead (no build)
#   --sizes 1000,100000  --rounds 200         what to run (the defaults)
#   --quick                                   1,000 items, 40 rounds (a check that it runs)
#   --no-install                              skip apt-get (gnome-keyring, libsecret-tools, dbus)
# Writes the JSON to Benchmarks/results/cli-startup.json (a temp file with --quick) and prints
# the table. Everything it starts (dbus-daemon, gnome-keyring-daemon) is stopped at the end.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CTL=""; SIZES=1000,100000; ROUNDS=200; INSTALL=1; QUICK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --ctl) CTL="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --quick) QUICK=1; SIZES=1000; ROUNDS=40; shift ;;
    --no-install) INSTALL=0; shift ;;
    *) echo "usage: $0 [--ctl PATH] [--sizes N,N] [--rounds N] [--quick] [--no-install]" >&2; exit 2 ;;
  esac
done
say() { echo "[$(date -u +%T)] $* (loadavg $(cut -d' ' -f1-3 /proc/loadavg))" >&2; }
START=$SECONDS

if [ "$INSTALL" = 1 ]; then
  missing=()
  for p in gnome-keyring libsecret-tools python3-gi gir1.2-secret-1 dbus; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || say "apt-get failed: secret-tool will be reported as not run"
  fi
fi

if [ -z "$CTL" ]; then
  say "building keychainctl as scripts/install.sh does (the front fully static, keychainctl-full with --static-swift-stdlib)"
  # keychainctl is the front; keychainctl-full, beside it, runs what it does not serve: the two
  # are put side by side in a folder of their own, as installed.
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --traits Sync --product keychainctl-full 2>&1 | grep -E "error|Build of product" | tail -3 >&2)
  . "$HERE/installed-keychainctl.sh"
  CTL=$(stage_installed_keychainctl "$ROOT/.build/release/keychainctl-full" "$(mktemp -d /var/tmp/cli-startup-bin.XXXXXX)") || CTL=""
fi
say "building keychain-bench (release), which fills our keychain"
rm -f "$HERE"/.build/*/release/description.json
(cd "$HERE" && swift build -c release --product keychain-bench 2>&1 | grep -E "error|Build of product" | tail -3 >&2)
BENCH=$HERE/.build/release/keychain-bench
[ -x "$CTL" ] && [ -x "$BENCH" ] || { echo "cli-startup.sh: build failed" >&2; exit 1; }

if [ "$QUICK" = 1 ]; then OUT=$(mktemp /var/tmp/cli-startup.XXXXXX.json); else mkdir -p "$HERE/results"; OUT=$HERE/results/cli-startup.json; fi
say "measuring sizes $SIZES, $ROUNDS rounds each"
/usr/bin/python3 "$HERE/peers/cli_startup.py" --keychainctl "$CTL" --bench "$BENCH" --out "$OUT" --sizes "$SIZES" --rounds "$ROUNDS"
[ -z "${INSTALLED:-}" ] || rm -rf "$INSTALLED"
say "done in $((SECONDS - START)) s: $OUT"
