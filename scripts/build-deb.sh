#!/usr/bin/env bash
# Builds a Debian package of swift-keychain with dpkg-deb:
#
#   scripts/build-deb.sh [--output DIR] [--no-build]
#
# writes DIR/swift-keychain_VERSION_ARCH.deb (DIR defaults to .build/deb) and prints its path
# on the last line. It builds the four programs in release mode with --static-swift-stdlib, so
# the package needs nothing from the Swift toolchain (/opt/swift or wherever it is): only the
# system libraries dpkg-shlibdeps finds in the binaries (libc6, libsqlite3-0, libdbus-1-3, ...),
# which become its Depends:. The package installs:
#   /usr/bin/keychainctl (the front) and keychainctl-full (the program it hands most commands to), keychaind (stripped);
#   git-credential-keychain and docker-credential-keychain, links to keychainctl-full
#   /usr/share/man/man1/keychainctl.1.gz, keychaind.1.gz  (swift-argument-parser's generate-manual)
#   /usr/share/bash-completion/completions/keychainctl, /usr/share/zsh/vendor-completions/_keychainctl,
#   /usr/share/fish/vendor_completions.d/keychainctl.fish
#   /usr/lib/systemd/user/keychaind.service, keychaind.socket  (keychaind's systemd --user units; not enabled)
#   /usr/lib/systemd/system/swift-keychain-keeper.service, .socket  (the system keeper, keychaind --system; not
#       enabled), and the postinst makes the swift-keychain system user it becomes
#   /usr/share/swift-keychain/dbus-1/org.freedesktop.secrets.service
#       keychaind's D-Bus activation file, kept out of /usr/share/dbus-1/services because
#       gnome-keyring's package owns that name there (docs/secret-service.md says how to use it)
#   /usr/share/doc/swift-keychain/: README.md, SECURITY.md, docs/*.md, copyright (our licence and those of
#       the statically linked libraries), and examples/keychain-unlock.service
#       (dist/systemd: unlock a keychain at boot from a sealed credential, docs/machine-unlock.md)
#   /usr/lib/<multiarch>/security/pam_keychain.so and /usr/libexec/swift-keychain/keychain-pam-helper
#       (mode 0711; docs/pam.md; /etc/pam.d is not touched), when scripts/build-pam-module.sh can build the
#       module here (cc and libpam0g-dev); the script says whether they were included.
#
# --no-build packages what an earlier run built (.build/release), running no SwiftPM command.
# SWIFT_KEYCHAIN_DEB_COMPRESSION chooses dpkg-deb's compressor: xz (default; the smallest, and
# read by every dpkg: 66 MB without the PAM helper, about 5 minutes here) or zstd (116 MB with
# it, in seconds; dpkg >= 1.21.18, Debian 12, reads it), which scripts/test-deb.sh uses in CI.
set -euo pipefail

usage() { sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cd "$(dirname "$0")/.."
root="$PWD"
output="$root/.build/deb"
build=true
while [ $# -gt 0 ]; do
    case "$1" in
        --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
        --no-build) build=false; shift ;;
        -h|--help) usage ;;
        *) echo "build-deb.sh: unknown argument: $1" >&2; usage ;;
    esac
done
case "$output" in /*) ;; *) output="$root/$output" ;; esac
compression="${SWIFT_KEYCHAIN_DEB_COMPRESSION:-xz}"
case "$compression" in xz|zstd|gzip) ;; *) echo "build-deb.sh: SWIFT_KEYCHAIN_DEB_COMPRESSION is xz, zstd or gzip" >&2; exit 2 ;; esac

for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture; do
    command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done

# Who answers for the package: the project's maintainers, as they sign its commits.
maintainer="Seed 63d0bdc1 maintainers <maintainers@users.noreply.a-seed-63d0bdc1.example>"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/KeychainctlCommandLine/PackageVersion.swift)
[ -n "$version" ] || { echo "build-deb.sh: no version in PackageVersion.swift" >&2; exit 1; }
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# keychain-sync too: keychainctl's `sync` and keychaind's continuous sync run it (docs/sync.md).
products=(keychainctl keychainctl-full keychaind keychain-sync)
# The credential helpers are keychainctl-full under their own names (it runs as the helper its
# name says): links, not two more copies of the engine and the Swift runtime (about 64 MiB each).
helper_links=(git-credential-keychain docker-credential-keychain)
bin="$root/.build/release"

if $build; then
    start=$(date +%s)
    # The same flags for every product (scripts/build-release.sh), generate-manual included
    # (swift-argument-parser's tool that writes the manual pages), so that modules they share
    # are built once.
    scripts/build-release.sh "${products[@]}" generate-manual
    if [ -d Sources/keychain-pam-helper ]; then scripts/build-release.sh keychain-pam-helper; fi
    # keychainctl itself, the front: the same compiled modules, linked fully static.
    scripts/build-front.sh > /dev/null
    echo "build-deb.sh: release build took $(( $(date +%s) - start )) s"
fi
# Where each program was built: the front comes from scripts/build-front.sh's folder.
front="$root/.build/front/release/keychainctl"
built() { if [ "$1" = keychainctl ]; then echo "$front"; else echo "$bin/$1"; fi; }
for product in "${products[@]}" generate-manual; do
    [ -x "$(built "$product")" ] || { echo "build-deb.sh: $(built "$product") is not built" >&2; exit 1; }
done

# Nothing may come from the Swift toolchain: every library must resolve, and none to a Swift one.
checked=("${products[@]}")
[ ! -x "$bin/keychain-pam-helper" ] || checked+=(keychain-pam-helper)
# The front loads no library at all.
if readelf -d "$front" | grep -q NEEDED; then
    echo "build-deb.sh: keychainctl (the front) is not fully static:" >&2; readelf -d "$front" | grep NEEDED >&2; exit 1
fi
for product in "${checked[@]}"; do
    [ "$product" != keychainctl ] || continue
    libraries=$(ldd "$bin/$product")
    if grep -q 'not found' <<< "$libraries"; then
        echo "build-deb.sh: $product needs a library that is not found:" >&2; grep 'not found' <<< "$libraries" >&2; exit 1
    fi
    if grep -Eq 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|/opt/swift' <<< "$libraries"; then
        echo "build-deb.sh: $product still loads the Swift runtime dynamically:" >&2; echo "$libraries" >&2; exit 1
    fi
done

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 0755 "$stage"
put() { install -D -m "$1" "$2" "$stage$3"; }

for product in "${products[@]}"; do
    install -D -m 0755 -s "$(built "$product")" "$stage/usr/bin/$product"
done
for link in "${helper_links[@]}"; do ln -s keychainctl-full "$stage/usr/bin/$link"; done

# Manual pages, from the same binaries the package ships.
manuals=$(mktemp -d)
for program in keychainctl keychaind; do
    "$bin/generate-manual" "$bin/$program" --output-directory "$manuals" >/dev/null
done
for page in keychainctl.1 keychaind.1; do
    [ -f "$manuals/$page" ] || { echo "build-deb.sh: generate-manual wrote no $page" >&2; exit 1; }
    scripts/tidy-manual-page.sh < "$manuals/$page" | gzip -9n > "$manuals/$page.gz"
    put 0644 "$manuals/$page.gz" "/usr/share/man/man1/$page.gz"
done
rm -rf "$manuals"

completions=$(mktemp -d)
"$bin/keychainctl" --generate-completion-script bash > "$completions/bash"
"$bin/keychainctl" --generate-completion-script zsh > "$completions/zsh"
"$bin/keychainctl" --generate-completion-script fish > "$completions/fish"
put 0644 "$completions/bash" /usr/share/bash-completion/completions/keychainctl
put 0644 "$completions/zsh" /usr/share/zsh/vendor-completions/_keychainctl
put 0644 "$completions/fish" /usr/share/fish/vendor_completions.d/keychainctl.fish
rm -rf "$completions"

substituted=$(mktemp -d)
substitute() { sed -e "s|@KEYCHAIND@|/usr/bin/keychaind|g" -e "s|@KEYCHAINCTL@|/usr/bin/keychainctl|g" \
                   -e "s|@DOCS@|/usr/share/doc/swift-keychain/docs|g" "$1"; }
substitute dist/systemd/keychaind.service.in > "$substituted/keychaind.service"
substitute dist/dbus/org.freedesktop.secrets.service.in > "$substituted/secrets.service"
substitute dist/systemd/keychain-unlock.service.in > "$substituted/keychain-unlock.service"
substitute dist/systemd/swift-keychain-keeper.service.in > "$substituted/swift-keychain-keeper.service"
substitute dist/systemd/keychaind.socket.in > "$substituted/keychaind.socket"
substitute dist/systemd/swift-keychain-keeper.socket.in > "$substituted/swift-keychain-keeper.socket"
put 0644 "$substituted/keychaind.service" /usr/lib/systemd/user/keychaind.service
put 0644 "$substituted/swift-keychain-keeper.service" /usr/lib/systemd/system/swift-keychain-keeper.service
put 0644 "$substituted/keychaind.socket" /usr/lib/systemd/user/keychaind.socket
put 0644 "$substituted/swift-keychain-keeper.socket" /usr/lib/systemd/system/swift-keychain-keeper.socket
put 0644 "$substituted/secrets.service" /usr/share/swift-keychain/dbus-1/org.freedesktop.secrets.service
put 0644 "$substituted/keychain-unlock.service" /usr/share/doc/swift-keychain/examples/keychain-unlock.service
rm -rf "$substituted"

put 0644 README.md /usr/share/doc/swift-keychain/README.md
put 0644 SECURITY.md /usr/share/doc/swift-keychain/SECURITY.md
for doc in docs/*.md; do put 0644 "$doc" "/usr/share/doc/swift-keychain/$doc"; done

# The copyright file Debian's policy asks for: our licence, then the licence and notice of each
# library the programs are linked with statically (the Swift runtime and Foundation from the
# toolchain, every package SwiftPM checked out), since the package carries their code.
# The toolchain's licence is beside the swift that builds the package (usr/bin/swift, usr/share/swift).
toolchain_licence="$(dirname "$(dirname "$(command -v swift)")")/share/swift/LICENSE.txt"
[ -f "$toolchain_licence" ] || { echo "build-deb.sh: no licence of the Swift toolchain at $toolchain_licence" >&2; exit 1; }
copyright=$(mktemp)
{
    echo "swift-keychain $version"
    echo
    echo "Copyright 2026 the swift-keychain authors. Licensed under the Apache License, Version 2.0"
    echo "(LICENSE in the source; on Debian systems also /usr/share/common-licenses/Apache-2.0)."
    echo
    echo "The programs are linked statically with the libraries below; their licences and notices follow."
    echo "Foundation's ICU (lib_FoundationICU) is under the Unicode License v3: https://www.unicode.org/license.txt"
    printf '\n==== The Swift runtime and Foundation (the Swift toolchain)\n\n'
    cat "$toolchain_licence"
    for checkout in "$root"/.build/checkouts/*/; do
        for text in "$checkout"LICENSE* "$checkout"NOTICE*; do
            [ -f "$text" ] || continue
            printf '\n==== %s: %s\n\n' "$(basename "$checkout")" "$(basename "$text")"
            cat "$text"
        done
    done
} > "$copyright"
put 0644 "$copyright" /usr/share/doc/swift-keychain/copyright
rm -f "$copyright"

# The PAM module and the helper it runs (docs/pam.md). The module has the helper's installed path
# built in, so it is built here for /usr/libexec (scripts/build-pam-module.sh, cc and libpam's
# headers); without them the package has neither, and says so. A module given in
# $SWIFT_KEYCHAIN_PAM_MODULE is taken as it is (it must name /usr/libexec/swift-keychain/keychain-pam-helper).
pam_helper=/usr/libexec/swift-keychain/keychain-pam-helper
pam_build=$(mktemp -d)
pam=""
if [ -n "${SWIFT_KEYCHAIN_PAM_MODULE:-}" ] && [ -f "$SWIFT_KEYCHAIN_PAM_MODULE" ]; then
    pam="$SWIFT_KEYCHAIN_PAM_MODULE"
elif [ -x scripts/build-pam-module.sh ] && scripts/build-pam-module.sh --helper "$pam_helper" --output "$pam_build/pam_keychain.so" >/dev/null; then
    pam="$pam_build/pam_keychain.so"
fi
if [ -n "$pam" ] && [ -x "$bin/keychain-pam-helper" ]; then
    install -D -m 0644 -s "$pam" "$stage/usr/lib/$multiarch/security/pam_keychain.so"
    # 0711: readable by no user, so it starts non-dumpable (docs/pam.md); the module insists.
    install -D -m 0711 -s "$bin/keychain-pam-helper" "$stage$pam_helper"
    echo "build-deb.sh: including the PAM module as /usr/lib/$multiarch/security/pam_keychain.so, with $pam_helper"
else
    echo "build-deb.sh: no PAM module (scripts/build-pam-module.sh needs cc and libpam0g-dev, and keychain-pam-helper must be built); the package has none"
fi
rm -rf "$pam_build"

# Depends: what dpkg-shlibdeps derives from the ELF files' needed libraries (it wants a
# debian/control to read, so it runs in a scratch source folder).
shlibs=$(mktemp -d)
mkdir "$shlibs/debian"
printf 'Source: swift-keychain\n\nPackage: swift-keychain\nArchitecture: any\n' > "$shlibs/debian/control"
elves=()
while IFS= read -r file; do elves+=("$file"); done < <(find "$stage/usr/bin" "$stage/usr/lib" "$stage/usr/libexec" -type f \( -perm -u+x -o -name '*.so' \) 2>/dev/null)
depends=$(cd "$shlibs" && dpkg-shlibdeps -O "${elves[@]}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlibs"
[ -n "$depends" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
# Recommends: what keychaind and keychainctl run when present, and say so when not: a pinentry for
# keychaind's unlock prompts (docs/secret-service.md), dbus-send for show-keychain-info's line on
# who serves org.freedesktop.secrets (dbus-bin since Debian 12, dbus before).
recommends="pinentry-curses | pinentry, dbus-bin | dbus"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: swift-keychain
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $size
Depends: $depends
Recommends: $recommends
Section: utils
Priority: optional
Description: Apple's Keychain Services for Linux: keychainctl, keychaind and credential helpers
 keychainctl manages encrypted keychains in the words of macOS's security tool;
 keychaind serves them as the freedesktop Secret Service; git-credential-keychain
 and docker-credential-keychain keep git's and docker's credentials in them.
CONTROL

# The system keeper's user (keychaind --system becomes it); kept on removal, as Debian keeps the
# users of removed packages (their files may still be on the disk).
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ] && ! getent passwd swift-keychain >/dev/null; then
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group swift-keychain
fi
POSTINST
chmod 0755 "$stage/DEBIAN/postinst"

mkdir -p "$output"
deb="$output/swift-keychain_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Z"$compression" --build "$stage" "$deb" >/dev/null
echo "build-deb.sh: Depends: $depends"
echo "$deb"
