#!/usr/bin/env bash
# Installs swift-keychain's programs for one user (or into any prefix), and removes them again.
#
#   scripts/install.sh [--prefix DIR] [--debug] [--no-build]
#   scripts/install.sh --uninstall [--prefix DIR]
#
# Builds in release mode (the Swift runtime and Foundation linked in: --static-swift-stdlib; the
# front, bin/keychainctl, fully static: scripts/build-front.sh) and installs, under DIR (default
# ~/.local; the share/ files below go to $XDG_DATA_HOME instead of ~/.local/share when it is set
# and no --prefix is given, as the session bus, systemd and the shells look there):
#   bin/keychainctl (the front) and bin/keychainctl-full (the program it hands most commands to), bin/keychaind, bin/keychain-sync;
#   bin/git-credential-keychain and bin/docker-credential-keychain, links to keychainctl-full
#       (stripped)
#   share/bash-completion/completions/keychainctl, share/zsh/site-functions/_keychainctl,
#   share/fish/vendor_completions.d/keychainctl.fish   (keychainctl --generate-completion-script)
#   share/man/man1/keychainctl.1, keychaind.1   (swift-argument-parser's generate-manual: its tool
#       for a release build, its plugin for a debug one; skipped with a warning when it cannot run)
#   share/dbus-1/services/org.freedesktop.secrets.service   (keychaind's D-Bus activation file;
#       run as root, share/swift-keychain/dbus-1/ instead, so that no user's session bus starts
#       keychaind unasked: the script then says how to put it in place)
#   share/systemd/user/keychaind.service, keychaind.socket   (keychaind's systemd --user units; the
#       socket starts it at a served program's first call)
#   lib/systemd/system/swift-keychain-keeper.service, .socket (the system keeper's units; as root only,
#       and not enabled; the script also makes the swift-keychain system user it runs as, which
#       --uninstall leaves, as Debian leaves the users of removed packages)
#   libexec/swift-keychain/keychain-pam-helper (mode 0711), lib/security/pam_keychain.so
#       (the PAM module, built by scripts/build-pam-module.sh for this prefix's helper; skipped with
#       a warning without libpam's headers; /etc/pam.d is never edited: see docs/pam.md)
# and records every file (and every folder it created) in DIR/share/swift-keychain/install-manifest.
# --uninstall removes exactly what the manifest lists, and nothing else. Nothing is started or
# enabled: see docs/secret-service.md for keychaind.
#
# --debug (or SWIFT_KEYCHAIN_INSTALL_BUILD=debug) builds and installs the debug configuration,
# for tests. --no-build installs what `swift build` (and, for release, scripts/build-front.sh)
# already built in that configuration (and a
# manual page only if the plugin generated one before): it runs no SwiftPM command, so it works
# while another one (such as `swift test`) holds the build folder.
set -euo pipefail

usage() { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

prefix="$HOME/.local"
prefix_given=false
configuration="${SWIFT_KEYCHAIN_INSTALL_BUILD:-release}"
uninstall=false
build=true
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || usage; prefix="$2"; prefix_given=true; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; prefix_given=true; shift ;;
        --debug) configuration=debug; shift ;;
        --no-build) build=false; shift ;;
        --uninstall) uninstall=true; shift ;;
        -h|--help) usage ;;
        *) echo "install.sh: unknown argument: $1" >&2; usage ;;
    esac
done
case "$configuration" in
    release|debug) ;;
    *) echo "install.sh: SWIFT_KEYCHAIN_INSTALL_BUILD must be release or debug, not $configuration" >&2; exit 2 ;;
esac
case "$prefix" in
    "") echo "install.sh: empty prefix" >&2; exit 2 ;;
    *$'\n'*) echo "install.sh: the prefix may not contain a newline" >&2; exit 2 ;;
    /*) ;;
    *) prefix="$PWD/$prefix" ;;
esac
prefix="${prefix%/}"
# Where the data files go (the activation file, the unit, completions, the manifest): the XDG base
# directory specification's data home for a user's own install; it ignores a relative value.
data="$prefix/share"
if ! $prefix_given; then
    case "${XDG_DATA_HOME:-}" in /?*) data="${XDG_DATA_HOME%/}" ;; esac
fi
manifest="$data/swift-keychain/install-manifest"
# Neither the prefix nor an XDG_DATA_HOME outside it is the install's to create or remove; a share/
# folder inside the prefix is.
data_home="$prefix"
case "$data" in "$prefix"/*) ;; *) data_home="$data" ;; esac
# The command that undoes this install, for the messages below.
uninstall_command="scripts/install.sh --uninstall"
$prefix_given && uninstall_command+=" --prefix $prefix"

if $uninstall; then
    if [ ! -f "$manifest" ]; then
        echo "install.sh: nothing to uninstall: no $manifest" >&2
        exit 1
    fi
    # Files first, then the folders the install created, deepest first, when they are empty.
    while IFS= read -r entry; do
        case "$entry" in
            */) ;;
            "$prefix"/*|"$data"/*) rm -f -- "$entry" && echo "removed $entry" ;;
            *) echo "install.sh: skipping $entry: not under $prefix or $data" >&2 ;;
        esac
    done < "$manifest"
    folders=$(grep '/$' "$manifest" | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2- || true)
    rm -f -- "$manifest"
    while IFS= read -r folder; do
        [ -n "$folder" ] || continue
        case "$folder" in "$prefix"/*|"$data"/*) rmdir -- "$folder" 2>/dev/null || true ;; esac
    done <<< "$folders"
    exit 0
fi

cd "$(dirname "$0")/.."
root="$PWD"
products=(keychainctl keychainctl-full keychaind keychain-sync)
# The credential helpers are keychainctl-full under their own names (it runs as the helper its
# name says): links, not two more copies of the engine and, in a release build, of the Swift runtime.
helper_links=(git-credential-keychain docker-credential-keychain)
# A release build links the Swift runtime and Foundation statically (as the .deb does): the
# programs then run without the toolchain, and keychainctl and the credential helpers, which
# scripts, git and docker start once per credential, skip most of the dynamic loader's work at
# every start (BENCHMARKS.md, keychainctl start-up). The debug build, for tests, stays dynamic.
# The manual pages come from swift-argument-parser's generate-manual: built with the same flags
# and run on the built programs for a release build (the plugin would build every product again
# with the default flags, and SwiftPM would then rebuild every module twice); through the plugin
# for a debug build, as before.
# Every build passes the Sync trait (Package.swift), for keychain-sync: the same flags for all
# (scripts/build-release.sh for a release build), so that the modules they share are compiled once.
manuals=""
if $build; then
    if [ "$configuration" = release ]; then
        scripts/build-release.sh "${products[@]}" keychain-pam-helper generate-manual
        # keychainctl itself, the front: the same compiled modules, linked fully static.
        front="$(scripts/build-front.sh)"
        manuals="$(mktemp -d)"
        for program in keychainctl keychaind; do
            "$root/.build/release/generate-manual" "$root/.build/release/$program" --output-directory "$manuals" >/dev/null \
                || echo "install.sh: warning: generate-manual failed for $program; its manual page is not installed" >&2
        done
    else
        if ! swift package --traits Sync plugin generate-manual --configuration "$configuration" >/dev/null; then
            echo "install.sh: warning: the generate-manual plugin failed; no manual pages installed" >&2
        fi
        for product in "${products[@]}" keychain-pam-helper; do
            swift build -c "$configuration" --traits Sync --product "$product"
        done
    fi
fi
bin="$root/.build/$configuration"
# Where each program was built: the release front comes from scripts/build-front.sh's folder.
front="${front:-}"
if [ "$configuration" = release ] && [ -z "$front" ]; then front="$root/.build/front/release/keychainctl"; fi
built() { if [ "$1" = keychainctl ] && [ -n "$front" ]; then echo "$front"; else echo "$bin/$1"; fi; }
for product in "${products[@]}" keychain-pam-helper; do
    if [ ! -x "$(built "$product")" ]; then
        echo "install.sh: $(built "$product") is not built" >&2
        exit 1
    fi
done

installed=()
if [ -f "$manifest" ]; then
    while IFS= read -r entry; do installed+=("$entry"); done < "$manifest"
fi
# Records the folders `install -D` / `install -d` is about to create for `path`.
record_folders() {
    local folder missing=()
    folder="$(dirname "$1")"
    while [ "$folder" != "$prefix" ] && [ "$folder" != "$data_home" ] && [ "$folder" != / ] && [ ! -d "$folder" ]; do
        missing+=("$folder/")
        folder="$(dirname "$folder")"
    done
    installed+=("${missing[@]+"${missing[@]}"}")
}
# put_file MODE DESTINATION SOURCE [install options]: installs a file and records it.
put_file() {
    local mode="$1" destination="$2" source="$3"; shift 3
    record_folders "$destination"
    install -D -m "$mode" "$@" "$source" "$destination"
    installed+=("$destination")
    echo "installed $destination"
}
# put_output DESTINATION COMMAND...: installs what the command prints (not through a pipe, so
# that the record stays in this shell, and a failing command stops the script).
put_output() {
    local destination="$1" temporary; shift
    temporary="$(mktemp)"
    "$@" > "$temporary" || { rm -f "$temporary"; echo "install.sh: failed: $*" >&2; exit 1; }
    put_file 0644 "$destination" "$temporary"
    rm -f "$temporary"
}

for product in "${products[@]}"; do
    put_file 0755 "$prefix/bin/$product" "$(built "$product")" -s
done
for link in "${helper_links[@]}"; do
    ln -sfn keychainctl-full "$prefix/bin/$link"
    installed+=("$prefix/bin/$link")
    echo "installed $prefix/bin/$link -> keychainctl-full"
done

# The PAM module and the helper it runs as the user logging in (docs/pam.md). The module names
# the helper by its installed path, so it is built here, for this prefix (cc, not SwiftPM).
pam_helper="$prefix/libexec/swift-keychain/keychain-pam-helper"
# Mode 0711: a helper the user logging in cannot read starts non-dumpable, so no other process of
# theirs can copy the password from its standard input while it starts; the module refuses any
# other mode (docs/pam.md, "The helper's start").
put_file 0711 "$pam_helper" "$bin/keychain-pam-helper" -s
pam_build="$(mktemp -d)"
if scripts/build-pam-module.sh --helper "$pam_helper" --output "$pam_build/pam_keychain.so" >/dev/null; then
    put_file 0644 "$prefix/lib/security/pam_keychain.so" "$pam_build/pam_keychain.so"
else
    echo "install.sh: warning: pam_keychain.so was not built (see above); the PAM module is not installed" >&2
fi
rm -rf "$pam_build"

keychainctl="$prefix/bin/keychainctl"
put_output "$data/bash-completion/completions/keychainctl" "$keychainctl" --generate-completion-script bash
put_output "$data/zsh/site-functions/_keychainctl" "$keychainctl" --generate-completion-script zsh
put_output "$data/fish/vendor_completions.d/keychainctl.fish" "$keychainctl" --generate-completion-script fish

if [ -n "$manuals" ]; then
    pages=("$manuals"/*.1)
else
    pages=("$root"/.build/plugins/GenerateManual/outputs/*/*.1)
fi
# man finds a user's pages beside the bin folder on the PATH (../share/man), so they stay under
# the prefix whatever XDG_DATA_HOME says.
for page in "${pages[@]}"; do
    [ -f "$page" ] || continue
    case "$(basename "$page")" in keychainctl.1|keychaind.1) ;; *) continue ;; esac
    put_output "$prefix/share/man/man1/$(basename "$page")" scripts/tidy-manual-page.sh < "$page"
done
[ -z "$manuals" ] || rm -rf "$manuals"

substitute() { sed -e "s|@KEYCHAIND@|$prefix/bin/keychaind|g" -e "s|@DOCS@|$root/docs|g" "$1"; }
# The D-Bus activation file makes keychaind the Secret Service of everyone whose session bus
# reads this folder. For the user's own prefix that is the point; installed by root (into
# /usr/local, say, which every session bus reads) it would choose keychaind for every user of
# the machine, so it is kept aside, as the Debian package does, for an administrator or each
# user to put in place (docs/keychainctl.md, Install).
activation_name=org.freedesktop.secrets.service
if [ "$(id -u)" -eq 0 ]; then
    activation="$data/swift-keychain/dbus-1/$activation_name"
    # An earlier install by root put it where every bus reads it: that one goes (and leaves the
    # manifest, so that the uninstall does not look for it).
    shared="$data/dbus-1/services/$activation_name"
    kept=()
    for entry in "${installed[@]+"${installed[@]}"}"; do
        if [ "$entry" = "$shared" ]; then
            rm -f -- "$shared" && echo "removed $shared (an earlier install put it there)"
        else
            kept+=("$entry")
        fi
    done
    installed=("${kept[@]+"${kept[@]}"}")
else
    activation="$data/dbus-1/services/$activation_name"
fi
put_output "$activation" substitute dist/dbus/org.freedesktop.secrets.service.in
put_output "$data/systemd/user/keychaind.service" substitute dist/systemd/keychaind.service.in
put_output "$data/systemd/user/keychaind.socket" substitute dist/systemd/keychaind.socket.in
# The system keeper (keychaind --system) runs as a user of its own, which only root can make.
if [ "$(id -u)" -eq 0 ]; then
    put_output "$prefix/lib/systemd/system/swift-keychain-keeper.service" substitute dist/systemd/swift-keychain-keeper.service.in
    put_output "$prefix/lib/systemd/system/swift-keychain-keeper.socket" substitute dist/systemd/swift-keychain-keeper.socket.in
    if ! getent passwd swift-keychain >/dev/null; then
        useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group swift-keychain
        echo "created the system user swift-keychain (the system keeper's)"
    fi
fi

# The manifest: every entry once, the order of first installation kept.
record_folders "$manifest"
mkdir -p "$(dirname "$manifest")"
printf '%s\n' "${installed[@]}" | awk '!seen[$0]++' > "$manifest.tmp"
mv -f "$manifest.tmp" "$manifest"
echo "manifest: $manifest ($uninstall_command removes what it lists)"
if [ "$(id -u)" -eq 0 ]; then
    echo "keychaind's D-Bus activation file is in $activation, not in a folder session buses read:"
    echo "  each user: cp $activation ~/.local/share/dbus-1/services/"
    echo "  every user of this machine: cp $activation $data/dbus-1/services/ (if their session buses read $data)"
fi
# The programs are found by name only from a folder on the PATH (the git and docker helpers too).
case ":${PATH:-}:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on your PATH; add it to your shell's start-up file: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
