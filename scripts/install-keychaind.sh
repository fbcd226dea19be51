#!/usr/bin/env bash
# Installs keychaind for the current user: builds it in release mode, installs the stripped binary
# in ~/.local/bin, the D-Bus activation file in ~/.local/share/dbus-1/services and the
# systemd --user unit in ~/.config/systemd/user. Nothing is started or enabled: see
# docs/secret-service.md for taking over from gnome-keyring.
#   scripts/install-keychaind.sh [PREFIX]    (PREFIX defaults to ~/.local)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-$HOME/.local}"
data_home="${XDG_DATA_HOME:-$HOME/.local/share}"
config_home="${XDG_CONFIG_HOME:-$HOME/.config}"
swift build -c release --product keychaind
install -D -s -m 0755 .build/release/keychaind "$prefix/bin/keychaind"
substitute() { sed -e "s|@KEYCHAIND@|$prefix/bin/keychaind|g" -e "s|@DOCS@|$PWD/docs|g" "$1"; }
install -d "$data_home/dbus-1/services" "$config_home/systemd/user"
substitute dist/dbus/org.freedesktop.secrets.service.in > "$data_home/dbus-1/services/org.freedesktop.secrets.service"
substitute dist/systemd/keychaind.service.in > "$config_home/systemd/user/keychaind.service"
echo "installed $prefix/bin/keychaind"
echo "  activation file: $data_home/dbus-1/services/org.freedesktop.secrets.service"
echo "  systemd unit:    $config_home/systemd/user/keychaind.service"
