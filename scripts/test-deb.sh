#!/usr/bin/env bash
# Builds the Debian package (scripts/build-deb.sh), installs it with dpkg -i, checks that the
# installed programs work from the PATH, removes it with dpkg -r and checks that every file it
# installed is gone. Needs root (dpkg); CI runs it as its own stage.
#
#   scripts/test-deb.sh [--no-build]     (--no-build: package what an earlier build left)
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "test-deb.sh: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "dpkg -i needs root"
if dpkg-query -W -f='${Status}' swift-keychain 2>/dev/null | grep -q "install ok installed"; then
    fail "swift-keychain is already installed; this test installs and removes it, so it will not touch that one"
fi

start=$(date +%s)
# The build's output is shown on standard error as it comes, through the inherited descriptor:
# `tee /dev/stderr` would re-open a log file that standard error points to with O_TRUNC and wipe
# what earlier CI stages wrote there (and `tee -a` would write past the shared offset).
deb=$(SWIFT_KEYCHAIN_DEB_COMPRESSION="${SWIFT_KEYCHAIN_DEB_COMPRESSION:-zstd}" scripts/build-deb.sh "$@" | tee >(cat >&2) | tail -n 1)
echo "test-deb.sh: package built in $(( $(date +%s) - start )) s: $deb ($(du -h "$deb" | cut -f1))"
[ -f "$deb" ] || fail "no package at $deb"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"

dpkg -i "$deb"
trap 'dpkg -r swift-keychain >/dev/null 2>&1 || true' EXIT
files=$(dpkg -L swift-keychain | while IFS= read -r path; do if [ -f "$path" ]; then echo "$path"; fi; done)

# From the PATH, with nothing of the build tree or the toolchain reachable.
home=$(mktemp -d)
clean_env=(env -i HOME="$home" PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 SWIFT_KEYCHAIN_NO_KERNEL_KEYRING=1)
[ "$("${clean_env[@]}" sh -c 'command -v keychainctl')" = /usr/bin/keychainctl ] || fail "keychainctl is not /usr/bin/keychainctl on the PATH"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/KeychainctlCommandLine/PackageVersion.swift)
got=$("${clean_env[@]}" keychainctl --version)
[ "$got" = "keychainctl $version" ] || fail "keychainctl --version printed '$got', not 'keychainctl $version'"
for program in keychainctl-full keychaind git-credential-keychain docker-credential-keychain keychain-sync; do
    "${clean_env[@]}" sh -c "command -v $program" >/dev/null || fail "$program is not on the PATH"
done
for program in keychainctl keychainctl-full keychaind git-credential-keychain docker-credential-keychain keychain-sync; do
    ! ldd "/usr/bin/$program" | grep -Eq 'not found|/opt/swift|libswift' || fail "/usr/bin/$program needs the Swift toolchain or a missing library"
done
"${clean_env[@]}" keychainctl add-generic-password -a alice -s deb-test -w s3cret 2>/dev/null
# keychainctl's `sync` reaches the installed keychain-sync, which answers for a keychain that never joined.
sync_said=$("${clean_env[@]}" keychainctl sync status 2>&1 || true)
grep -q "not in a sync group" <<< "$sync_said" || fail "keychainctl sync status did not reach keychain-sync: $sync_said"
[ "$("${clean_env[@]}" keychainctl find-generic-password -a alice -s deb-test -w)" = s3cret ] || fail "the installed keychainctl does not find what it stored"
# The same lookup by keychainctl-full itself, which the front hands everything else to (docs/keychainctl.md).
[ "$("${clean_env[@]}" keychainctl-full find-generic-password -a alice -s deb-test -w)" = s3cret ] \
    || fail "the installed keychainctl-full does not find what the front stored"
printf 'protocol=https\nhost=deb.example\nusername=bob\npassword=pw\n\n' | "${clean_env[@]}" git-credential-keychain store
[ "$(printf 'protocol=https\nhost=deb.example\n\n' | "${clean_env[@]}" git-credential-keychain get | grep '^password=')" = password=pw ] \
    || fail "the installed git-credential-keychain does not find what it stored"
# docker's helper, the same program under its other name.
printf '{"ServerURL":"https://registry.deb.example","Username":"carol","Secret":"tok"}' | "${clean_env[@]}" docker-credential-keychain store
printf 'https://registry.deb.example' | "${clean_env[@]}" docker-credential-keychain get | grep -q '"Secret":"tok"' \
    || fail "the installed docker-credential-keychain does not find what it stored"
for path in /usr/share/man/man1/keychainctl.1.gz /usr/share/bash-completion/completions/keychainctl \
            /usr/lib/systemd/user/keychaind.service /usr/share/swift-keychain/dbus-1/org.freedesktop.secrets.service \
            /usr/lib/systemd/system/swift-keychain-keeper.service /usr/lib/systemd/system/swift-keychain-keeper.socket \
            /usr/lib/systemd/user/keychaind.socket \
            /usr/share/doc/swift-keychain/examples/keychain-unlock.service /usr/share/doc/swift-keychain/copyright; do
    [ -f "$path" ] || fail "$path was not installed"
done
# The manual pages render without a warning (scripts/tidy-manual-page.sh mends what mdoc rejects).
for page in /usr/share/man/man1/keychainctl.1.gz /usr/share/man/man1/keychaind.1.gz; do
    warnings=$(zcat "$page" | groff -ww -mandoc -Tutf8 -z 2>&1)
    [ -z "$warnings" ] || fail "$page renders with warnings: $(head -3 <<< "$warnings")"
done
# The copyright file names our licence and carries the licence of every library linked in.
grep -q "Apache License, Version 2.0" /usr/share/doc/swift-keychain/copyright || fail "the copyright file does not name the package's licence"
for checkout in .build/checkouts/*/; do
    grep -q "^==== $(basename "$checkout"): LICENSE" /usr/share/doc/swift-keychain/copyright \
        || fail "the copyright file has no licence for $(basename "$checkout")"
done
dpkg-deb --field "$deb" Maintainer | grep -q '<.*@.*>' || fail "the package has no maintainer address"
dpkg-deb --field "$deb" Recommends | grep -q pinentry || fail "the package does not recommend a pinentry for keychaind's prompts"
# The PAM module, when the package has it, comes with the helper whose path it has built in.
module=$(dpkg -L swift-keychain | grep '/security/pam_keychain.so$' || true)
if [ -n "$module" ]; then
    [ -x /usr/libexec/swift-keychain/keychain-pam-helper ] || fail "$module is installed without its helper"
    grep -aq /usr/libexec/swift-keychain/keychain-pam-helper "$module" || fail "$module does not name /usr/libexec/swift-keychain/keychain-pam-helper"
    ! ldd /usr/libexec/swift-keychain/keychain-pam-helper | grep -Eq 'not found|/opt/swift|libswift' || fail "the PAM helper needs the Swift toolchain"
    # The module runs only a helper no one else can read (docs/pam.md): the package must ship it so.
    [ "$(stat -c %a /usr/libexec/swift-keychain/keychain-pam-helper)" = 711 ] || fail "the PAM helper is not mode 0711, so the module would refuse it"
    echo "test-deb.sh: the package has the PAM module $module and its helper"
else
    echo "test-deb.sh: the package has no PAM module"
fi
grep -q '^ExecStart=/usr/bin/keychaind' /usr/lib/systemd/user/keychaind.service || fail "keychaind.service does not run /usr/bin/keychaind"
# The system keeper: its unit, its user (made by the package), and the installed keychaind serving
# a SecItem program (git's helper, run with SWIFT_KEYCHAIN_KEEPER=system) from its own folder.
grep -q '^ExecStart=/usr/bin/keychaind --system$' /usr/lib/systemd/system/swift-keychain-keeper.service \
    || fail "swift-keychain-keeper.service does not run /usr/bin/keychaind --system"
getent passwd swift-keychain >/dev/null || fail "the package did not make the swift-keychain user"
keeper_state=$(mktemp -d)
chmod 0755 "$keeper_state"  # the keeper, once its own user, must reach its state folder inside
keeper_socket="$keeper_state/run/keeper"
/usr/bin/keychaind --system --state-directory "$keeper_state/state" --socket "$keeper_socket" 2>"$keeper_state/log" &
keeper_pid=$!
for _ in $(seq 100); do [ -S "$keeper_socket" ] && break; sleep 0.1; done
[ -S "$keeper_socket" ] || fail "keychaind --system did not start: $(cat "$keeper_state/log")"
printf 'protocol=https\nhost=keeper.example\nusername=dan\npassword=kept\n\n' \
    | "${clean_env[@]}" SWIFT_KEYCHAIN_KEEPER="$keeper_socket" git-credential-keychain store
[ "$(printf 'protocol=https\nhost=keeper.example\n\n' | "${clean_env[@]}" SWIFT_KEYCHAIN_KEEPER="$keeper_socket" git-credential-keychain get \
    | grep '^password=')" = password=kept ] || fail "the system keeper did not serve git's helper: $(cat "$keeper_state/log")"
[ "$(stat -c %U "$keeper_state/state/users/0/login.keychain-db")" = swift-keychain ] \
    || fail "the system keeper's keychain is not its user's"
kill "$keeper_pid"; wait "$keeper_pid" || true
rm -rf "$keeper_state"
rm -rf "$home"

dpkg -r swift-keychain
trap - EXIT
left=$(while IFS= read -r path; do if [ -e "$path" ]; then echo "$path"; fi; done <<< "$files")
[ -z "$left" ] || fail "left behind by dpkg -r: $left"
[ ! -e /usr/bin/keychainctl ] || fail "/usr/bin/keychainctl is still there"
[ ! -e /usr/bin/keychainctl-full ] || fail "/usr/bin/keychainctl-full is still there"
echo "test-deb.sh: installed, ran from the PATH and removed cleanly ($(wc -l <<< "$files") files) in $(( $(date +%s) - start )) s"
