#!/usr/bin/env bash
# Builds pam_keychain.so, the PAM module that unlocks the login keychain at login (docs/pam.md).
#
#   scripts/build-pam-module.sh [--helper PATH] [--output FILE]
#
# --helper is the keychain-pam-helper the module runs when its line in /etc/pam.d gives no
# helper= (default: /usr/local/libexec/swift-keychain/keychain-pam-helper); --output is where the
# module is written (default: .build/pam/pam_keychain.so). Needs a C compiler and libpam's headers
# (Debian: libpam0g-dev). A script rather than a SwiftPM target: a target linking libpam would
# make every build of the package need libpam0g-dev, SwiftPM cannot name a library
# pam_keychain.so, and the sanitizer builds would instrument a module that pamtester, login or sshd
# load uninstrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
helper=/usr/local/libexec/swift-keychain/keychain-pam-helper
output=.build/pam/pam_keychain.so
while [ $# -gt 0 ]; do
    case "$1" in
        --helper) [ $# -ge 2 ] || { echo "build-pam-module.sh: --helper needs a path" >&2; exit 2; }; helper="$2"; shift 2 ;;
        --output) [ $# -ge 2 ] || { echo "build-pam-module.sh: --output needs a path" >&2; exit 2; }; output="$2"; shift 2 ;;
        *) echo "usage: scripts/build-pam-module.sh [--helper PATH] [--output FILE]" >&2; exit 2 ;;
    esac
done
case "$helper" in
    /*) ;;
    *) echo "build-pam-module.sh: the helper must be an absolute path, not $helper" >&2; exit 2 ;;
esac
case "$helper" in
    *[\"\\]*|*$'\n'*) echo "build-pam-module.sh: the helper path may not contain quotes, backslashes or newlines" >&2; exit 2 ;;
esac
if [ ! -f /usr/include/security/pam_modules.h ]; then
    echo "build-pam-module.sh: libpam's headers are missing (Debian: apt-get install libpam0g-dev)" >&2
    exit 1
fi
mkdir -p "$(dirname "$output")"
cc="${CC:-cc}"
# Only the pam_sm_* entry points are exported (-fvisibility=hidden; they are marked visible).
"$cc" -std=gnu11 -O2 -g -Wall -Wextra -fPIC -shared -fvisibility=hidden \
    -D_FORTIFY_SOURCE=2 -fstack-protector-strong -Wl,-z,relro,-z,now -Wl,--no-undefined \
    -DPAM_KEYCHAIN_HELPER="\"$helper\"" \
    -o "$output.tmp.$$" pam/pam_keychain.c -lpam
mv -f "$output.tmp.$$" "$output"
echo "built $output (helper: $helper)"
