#!/bin/bash
# usage: private_bus.sh CMD [ARGS...]
# Runs CMD on a private D-Bus session bus with its own gnome-keyring-daemon (secrets only),
# whose login keyring is created and unlocked from a fixed password on stdin, in a throw-away
# HOME. Nothing reaches the user's real bus or keyrings. The daemon is stopped by its pid when
# CMD ends; CMD sees it as $GKD_PID (to read its memory).
set -euo pipefail
if [ -z "${KB_PRIVATE_BUS:-}" ]; then
  export KB_PRIVATE_BUS=1
  exec dbus-run-session -- bash "$0" "$@"
fi
WORK=$(mktemp -d /var/tmp/kb-bus.XXXXXX)
export HOME=$WORK/home XDG_RUNTIME_DIR=$WORK/run XDG_DATA_HOME=$WORK/home/.local/share \
       XDG_CONFIG_HOME=$WORK/home/.config XDG_CACHE_HOME=$WORK/home/.cache
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"
mkdir -m 700 "$XDG_RUNTIME_DIR"
printf 'bench-password' | gnome-keyring-daemon --foreground --unlock --components=secrets \
    >"$WORK/daemon.out" 2>"$WORK/daemon.err" &
GKD_PID=$!
export GKD_PID
stop() { kill "$GKD_PID" 2>/dev/null || true; wait "$GKD_PID" 2>/dev/null || true; rm -rf "$WORK"; }
trap stop EXIT
for _ in $(seq 1 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
       string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then break; fi
  sleep 0.1
done
"$@"
