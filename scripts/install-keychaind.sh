#!/usr/bin/env bash
# Kept so that older instructions still work: scripts/install.sh is the one install path, and
# installs keychaind (with its D-Bus activation file and systemd --user unit) together with
# keychainctl, the credential helpers, completions and manual pages, recording them for
# `scripts/install.sh --uninstall`.
#   scripts/install-keychaind.sh [PREFIX]    is    scripts/install.sh [--prefix PREFIX]
set -euo pipefail
exec "$(dirname "$0")/install.sh" ${1:+--prefix "$1"}
