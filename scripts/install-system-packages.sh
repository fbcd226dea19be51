#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, if any is missing:
#   libsqlite3-dev, pkg-config  the keychain's storage (system SQLite)
#   sqlite3                      tests that tamper with a keychain file directly
#   tmux                         tests that type at a real terminal prompt
#   python3-secretstorage        the Secret Service session tests run the real client's crypto
#                                (/usr/bin/python3 -c 'import secretstorage'), brings python3-cryptography
#   python3-keyring              the keyring client the Secret Service daemon is checked against
#   libdbus-1-dev                the Secret Service daemon's D-Bus layer (system libdbus-1)
#   dbus                         dbus-daemon and dbus-send, for the D-Bus tests' private buses
set -euo pipefail
packages=(libsqlite3-dev pkg-config sqlite3 tmux python3-secretstorage python3-keyring libdbus-1-dev dbus)
missing=()
# gnome-keyring, libsecret-tools: `import --from gnome-keyring` is tested on keyring files the real
# gnome-keyring-daemon and libsecret's file backend (secret-tool) write (GnomeKeyringImportTests).
packages+=(gnome-keyring libsecret-tools)
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
