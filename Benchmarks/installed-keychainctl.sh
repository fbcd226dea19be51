# Sourced by run.sh and cli-startup.sh: keychainctl laid out as scripts/install.sh and the Debian
# package install it, for timing. Not a program of its own.

# Builds the front as installed (scripts/build-front.sh: fully static) and puts it in the folder
# $2 as keychainctl, with $1 (a keychainctl-full already built) linked beside it, since the front
# hands every command it does not serve to the keychainctl-full next to it. Prints the front's
# path; fails, having printed the build's errors, when the front does not build.
stage_installed_keychainctl() {
  local full=$1 folder=$2 front root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  front=$("$root/scripts/build-front.sh" 2> >(grep -E "error|Build of product" | tail -3 >&2)) || return 1
  [ -x "$front" ] || return 1
  mkdir -p "$folder"
  cp "$front" "$folder/keychainctl"
  ln -sfn "$full" "$folder/keychainctl-full"
  echo "$folder/keychainctl"
}
