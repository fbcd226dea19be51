#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, if any is missing.
#
#   scripts/install-system-packages.sh           what the build and the tests need (scripts/test.sh, CI)
#   scripts/install-system-packages.sh --build   what the build alone needs (scripts/demo.sh)
#
# The build:
#   libsqlite3-dev, pkg-config  the keychain's storage (system SQLite)
#   libdbus-1-dev                keychaind's D-Bus layer (system libdbus-1)
# The tests:
#   sqlite3                      tests that tamper with a keychain file directly
#   tmux                         tests that type at a real terminal prompt
#   dbus                         dbus-daemon and dbus-send, for the D-Bus tests' private buses
#   python3-secretstorage        the Secret Service session tests run the real client's crypto
#                                (/usr/bin/python3 -c 'import secretstorage'), brings python3-cryptography
#   python3-keyring              the keyring client keychaind is checked against
#   libsecret-tools              secret-tool, the client keychaind is checked against, and libsecret's
#                                file backend, which writes the v1 keyrings `import --from gnome-keyring` reads
#   gnome-keyring                the peer keychaind is compared with, and the writer of the legacy
#                                keyring files `import --from gnome-keyring` reads
#   git, libsecret-1-dev         git's own libsecret credential helper, built from the source Debian's
#                                git ships, against keychaind; git for git-credential-keychain's tests
#   pinentry-tty                 the prompter keychaind's unlock prompts are typed at (in tmux)
#   zsh, fish                    `zsh -n` / `fish -n` on keychainctl's completion scripts (those tests
#                                are skipped without them)
#   libpam0g-dev                 the headers scripts/build-pam-module.sh builds pam_keychain.so against
#   pamtester, keyutils          the PAM tests drive a real PAM stack with pamtester, each login in a
#                                session keyring of its own (keyctl session)
#   systemd                      systemd-creds, which `seal-keychain --with systemd-creds` runs and its tests
#                                use with a host key of their own (no systemd needs to run), and
#                                systemd-socket-activate, the manager the keepers' on-demand tests start
#   tpm2-tools, swtpm, swtpm-tools  `seal-keychain --with tpm2` runs tpm2-tools; its tests start the
#                                software TPM swtpm
#   dpkg-dev                     dpkg-shlibdeps and dpkg-architecture, for scripts/build-deb.sh
#   openssl, python3-cryptography  independent implementations SecKey's signatures, OAEP and ECIES
#                                are checked against (SecKeyInteropTests); openssl also makes the
#                                certificates and PKCS#12 files the certificate tests import
#   ca-certificates              /etc/ssl/certs, the system anchors SecTrust trusts by default
#   openssh-client               ssh-keygen reads the public keys `keychainctl export -f openssh2` writes
#                                and, with ssh-add and ssh, drives the SSH agent (KeychainSSHAgentTests)
#   openssh-server               KeychainSSHAgentTests log in to an sshd of their own (loopback, a
#                                temporary configuration) with keys held by the agent
#   groff-base                   scripts/test-deb.sh renders the installed manual pages with warnings on
#   postgresql                   the sync tests start a PostgreSQL 15 server of their own (initdb, pg_ctl,
#                                psql) as the sync store
#   bubblewrap                   KeychainCallerIdentityTests run clients in a fresh root with a written
#                                /.flatpak-info (bwrap), as a Flatpak sandbox looks to keychaind
set -euo pipefail
build_packages=(libsqlite3-dev pkg-config libdbus-1-dev)
test_packages=(sqlite3 tmux dbus python3-secretstorage python3-keyring
          libsecret-tools gnome-keyring git libsecret-1-dev pinentry-tty zsh fish
          libpam0g-dev pamtester keyutils
          systemd tpm2-tools swtpm swtpm-tools dpkg-dev
          openssl python3-cryptography ca-certificates postgresql openssh-client openssh-server groff-base bubblewrap)
case "${1:-}" in
  --build) packages=("${build_packages[@]}") ;;
  "") packages=("${build_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: scripts/install-system-packages.sh [--build]" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "Installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
