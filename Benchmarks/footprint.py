#!/usr/bin/env python3
"""Counts what one call touches, from a valgrind lackey trace of `keychain-bench footprint-child`.

Reads the trace (lackey's `--trace-mem=yes` lines, mixed with the child's `marker` and `map`
lines) on standard input. The child stores to its marker before each call, so the trace is cut
at those stores; for every call after the first SKIP, the distinct 64-byte lines and 4 KiB pages
of code (instruction fetches) and of data (loads, stores) are counted. Prints one line of
medians, then the median code lines per library and, inside the benchmark's own executable
(where the engine, KeychainServices and swift-crypto are linked), per module.

usage: footprint.py LABEL BINARY [SKIP [TOP]]
  LABEL   printed at the start of each line ("ours update")
  BINARY  the executable that was traced, for its symbol table (`nm`)
  SKIP    calls left out at the start, while caches and lazy set-up settle (10)
  TOP     also list the TOP functions of the executable with the most lines in the last call (0)
"""
import bisect
import collections
import os
import re
import statistics
import subprocess
import sys

LINE, PAGE = 6, 12  # log2 of a cache line's and a page's size


def module_of(symbol):
    """The Swift module a mangled name belongs to, or the C library a name's prefix shows."""
    if "BoringSSL" in symbol or symbol.startswith(("aes", "gcm", "_aesni", "aesni", "bn_", "sha")):
        return "BoringSSL (swift-crypto)"
    match = re.match(r"\$s(\d+)([A-Za-z_]\w*)", symbol)
    if match:
        length = int(match.group(1))
        return match.group(2)[:length]
    if symbol.startswith(("$sS", "$ss")):
        return "Swift (specialised here)"
    return "other"


def symbols(binary):
    """(address, module, name) of every function in `binary`, sorted by address."""
    table = []
    listing = subprocess.run(["nm", "--defined-only", binary], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            table.append((int(parts[0], 16), module_of(parts[2]), parts[2]))
    table.sort()
    return table


def demangled(names):
    """Swift's readable forms of `names`, or the names themselves without the toolchain."""
    try:
        result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                                capture_output=True, text=True, check=True)
        readable = result.stdout.splitlines()
        return readable if len(readable) == len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names


def main():
    label, binary = sys.argv[1], sys.argv[2]
    skip = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    marker, maps = None, []
    calls, code, data = [], set(), set()
    opened = False
    for line in sys.stdin:
        kind = line[:2]
        if kind in ("I ", " L", " S", " M"):
            try:
                address_text, size_text = line[2:].split(",", 1)
                address = int(address_text, 16)
            except ValueError:
                continue
            # The child's marker is one 8-byte increment per call.
            if address == marker and kind in (" S", " M") and size_text.strip() == "8":
                if opened:
                    calls.append((code, data))
                opened, code, data = True, set(), set()
            elif opened:
                (code if kind == "I " else data).add(address >> LINE)
        elif line.startswith("marker "):
            marker = int(line.split()[1])
        elif line.startswith("map "):
            low, high, name = line[4:].split(" ", 2)
            maps.append((int(low, 16), int(high, 16), name.strip()))
    measured = calls[skip:]
    if not measured:
        sys.exit(f"{label}: no calls in the trace (was the marker found? {marker is not None})")

    def median(values):
        return int(statistics.median(values))

    code_lines = median([len(c) for c, _ in measured])
    data_lines = median([len(d) for _, d in measured])
    code_pages = median([len({line >> (PAGE - LINE) for line in c}) for c, _ in measured])
    data_pages = median([len({line >> (PAGE - LINE) for line in d}) for _, d in measured])
    print(f"{label}: {len(measured)} calls; code {code_lines} lines ({code_lines * 64 // 1024} KiB) "
          f"in {code_pages} pages; data {data_lines} lines ({data_lines * 64 // 1024} KiB) in {data_pages} pages")

    # Code lines by library, and by module inside the traced executable.
    maps.sort()
    starts = [low for low, _, _ in maps]
    executable = os.path.realpath(binary)
    base = min((low for low, _, name in maps if os.path.realpath(name) == executable), default=None)
    table = symbols(binary) if base is not None else []
    addresses = [address for address, _, _ in table]
    by_library, by_module = collections.defaultdict(list), collections.defaultdict(list)
    for code_set, _ in measured:
        libraries, modules = collections.Counter(), collections.Counter()
        for line in code_set:
            address = line << LINE
            index = bisect.bisect_right(starts, address) - 1
            name = "?"
            if index >= 0 and address < maps[index][1]:
                name = maps[index][2]
            libraries[os.path.basename(name)] += 1
            if base is not None and os.path.realpath(name) == executable:
                position = bisect.bisect_right(addresses, address - base) - 1
                modules[table[position][1] if position >= 0 else "other"] += 1
        for name, count in libraries.items():
            by_library[name].append(count)
        for name, count in modules.items():
            by_module[name].append(count)

    def listing(counts):
        # A library a call did not touch counts as 0 in that call.
        rows = sorted(((sorted(v + [0] * (len(measured) - len(v)))[len(measured) // 2], k) for k, v in counts.items()),
                      reverse=True)
        return ", ".join(f"{name} {count}" for count, name in rows if count > 0)

    print(f"{label}: code lines by library: {listing(by_library)}")
    if by_module:
        print(f"{label}: code lines in {os.path.basename(binary)} by module: {listing(by_module)}")
    if top and base is not None:
        functions = collections.Counter()
        inside = [(low, high) for low, high, name in maps if os.path.realpath(name) == executable]
        for line in measured[-1][0]:
            address = line << LINE
            if not any(low <= address < high for low, high in inside):
                continue
            position = bisect.bisect_right(addresses, address - base) - 1
            if position >= 0:
                functions[table[position][2]] += 1
        ranked = functions.most_common(top)
        for (name, count), readable in zip(ranked, demangled([name for name, _ in ranked])):
            print(f"{label}:   {count:4d} lines  {readable[:160]}")


if __name__ == "__main__":
    main()
