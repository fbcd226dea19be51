#!/usr/bin/env bash
# Builds keychainctl's front as it is installed and packaged (scripts/install.sh,
# scripts/build-deb.sh, the start-up benchmarks): release, fully static (-static-executable: no
# dynamic loader, no shared library to map or bind at each start; BENCHMARKS.md section 4).
#
# The front's modules are compiled once, in the release build the other programs share
# (scripts/build-release.sh, which scripts/build-deb.sh and scripts/install.sh run too); only the
# link differs. Building the front with
# `-Xswiftc -static-executable` would change every module's flags and so compile the engine and
# swift-crypto a second time (about 215 s of CI's 1,050 s release build on two cores). Instead this
# runs SwiftPM's own link command for the product, read from the build description SwiftPM wrote
# (.build/release.yaml), with -static-stdlib replaced by -static-executable, and writes the program
# to .build/front/release/keychainctl. The check that it loads no library is scripts/build-deb.sh's.
#
# Prints the path of the built program on standard output; the build's own output goes to
# standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-release.sh keychainctl
output="$PWD/.build/front/release/keychainctl"
mkdir -p "$(dirname "$output")"
python3 - "$PWD/.build/release.yaml" "$output" <<'EOF'
import json, re, subprocess, sys

description, output = sys.argv[1], sys.argv[2]
text = open(description, encoding="utf-8").read()
# SwiftPM names each link command "C.<product>-<triple>-release.exe" and writes its arguments as
# one JSON list on the `args:` line; keychainctl-full's has the same prefix, so the product is
# told by what the command outputs.
commands = re.finditer(r'^  "C\.keychainctl-[^"]*-release\.exe":\n((?:    .*\n)*)', text, re.M)
match = next((m for m in commands if re.search(r'^    outputs: \[".*/release/keychainctl"\]$', m.group(1), re.M)), None)
match = match and re.search(r'^    args: (\[.*\])$', match.group(1), re.M)
if not match:
    sys.exit(f"build-front.sh: no link command for keychainctl in {description}")
args = json.loads(match.group(1))
if args.count("-static-stdlib") != 1 or args.count("-o") != 1:
    sys.exit("build-front.sh: the link command has not the shape expected (one -static-stdlib, one -o)")
args[args.index("-static-stdlib")] = "-static-executable"
args[args.index("-o") + 1] = output
# The linker warns that getpwuid_r and dlopen in a static program need glibc's shared modules at
# run time: the front never needs them (without HOME it hands the command to keychainctl-full,
# Sources/keychainctl/Front.swift), so those warnings are dropped and everything else is shown.
result = subprocess.run(args, stderr=subprocess.PIPE, text=True)
for line in result.stderr.splitlines():
    if "statically linked applications requires at runtime" not in line and "is dangerous" not in line:
        print(line, file=sys.stderr)
sys.exit(result.returncode)
EOF
echo "$output"
