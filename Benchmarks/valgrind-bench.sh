# Sourced by instructions.sh and footprint.sh: what both need to run keychain-bench under
# valgrind. Not a program of its own.

# Installs valgrind, and binutils for nm and strip, when either is missing (Debian).
install_valgrind() {
  { command -v valgrind && command -v nm && command -v strip; } > /dev/null && return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends valgrind binutils > /dev/null
}

# Builds the release keychain-bench of the package at $1 (its Benchmarks/ folder) and writes it
# to $2 without its debug information (valgrind 3.19 cannot read what Swift 6.3 writes; the
# symbols stay). A failed build stops the caller rather than leaving an older binary measured.
build_stripped_bench() {
  local package=$1 out=$2 log
  log=$(mktemp)
  rm -f "$package"/Benchmarks/.build/*/release/description.json
  if ! (cd "$package/Benchmarks" && swift build -c release --product keychain-bench > "$log" 2>&1); then
    grep -E "error:" "$log" >&2 || tail -20 "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
  strip --strip-debug -o "$out" "$package/Benchmarks/.build/release/keychain-bench"
}
