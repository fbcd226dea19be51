#!/usr/bin/env python3
"""Counts what one call touches, from a valgrind lackey trace of `keychain-bench footprint-child`.

Reads the trace (lackey's `--trace-mem=yes` lines, mixed with the child's `marker` and `map`
lines) on standard input. The child increments its 8-byte marker before each call, so the trace
is cut at those accesses; for every call after the first SKIP, the distinct 64-byte cache lines
and 4 KiB pages of code (instruction fetches) and of data (loads, stores) are counted. An access
is counted in the cache line of its first byte. Prints one line of medians, then the median code
lines per library and, inside the benchmark's own executable (where the engine,
KeychainServices and swift-crypto are linked), per module.

usage: footprint.py LABEL BINARY [SKIP [TOP]]
  LABEL   printed at the start of each line ("ours update")
  BINARY  the executable that was traced, for its symbol table (`nm`)
  SKIP    calls left out at the start, while caches and lazy set-up settle (10)
  TOP     also list the TOP functions of the executable with the most lines, in the last call (0)
"""
import bisect
import collections
import os
import re
import statistics
import subprocess
import sys

LINE_BITS, PAGE_BITS = 6, 12  # a cache line is 64 bytes, a page 4 KiB
NO_SYMBOL = "(no symbol: call stubs and the like)"


def module_of(symbol):
    """The Swift module a mangled name belongs to, or the C library a name's prefix shows."""
    match = re.match(r"\$s(\d+)([A-Za-z_]\w*)", symbol)
    if match:
        return match.group(2)[:int(match.group(1))]
    if symbol.startswith(("$sS", "$ss")):
        return "Swift (specialised here)"
    if "BoringSSL" in symbol or symbol.startswith(("aes", "gcm", "_aesni", "aesni", "bn_", "sha")):
        return "BoringSSL (swift-crypto)"
    return "other"


def symbols(binary):
    """(start, end, module, name) of every sized function in `binary`, sorted by address."""
    table = []
    listing = subprocess.run(["nm", "--defined-only", "--print-size", binary],
                             capture_output=True, text=True, check=True).stdout
    for entry in listing.splitlines():
        parts = entry.split(" ", 3)
        if len(parts) == 4 and parts[2] in "tTwW":
            start, size = int(parts[0], 16), int(parts[1], 16)
            table.append((start, start + size, module_of(parts[3]), parts[3]))
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


def read_calls(stream):
    """The marker's address, the child's mappings, and each call's (code, data) cache-line sets."""
    marker, mappings, calls = None, [], []
    code, data, opened = set(), set(), False
    for record in stream:
        kind = record[:2]
        if kind in ("I ", " L", " S", " M"):
            try:
                address_text, size_text = record[2:].split(",", 1)
                address = int(address_text, 16)
            except ValueError:
                continue
            if address == marker and kind in (" S", " M") and size_text.strip() == "8":
                if opened:
                    calls.append((code, data))
                opened, code, data = True, set(), set()
            elif opened:
                (code if kind == "I " else data).add(address >> LINE_BITS)
        elif record.startswith("marker "):
            marker = int(record.split()[1])
        elif record.startswith("map "):
            low, high, name = record[4:].split(" ", 2)
            mappings.append((int(low, 16), int(high, 16), name.strip()))
    return marker, sorted(mappings), calls


def main():
    label, binary = sys.argv[1], sys.argv[2]
    skip = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    marker, mappings, calls = read_calls(sys.stdin)
    measured = calls[skip:]
    if not measured:
        sys.exit(f"{label}: {len(calls)} calls in the trace, none after the first {skip} "
                 f"(marker {'found' if marker is not None else 'not found'})")

    # One median throughout: the upper middle value, a count that some call really had.
    def median(values):
        return statistics.median_high(values)

    def pages(cache_lines):
        return len({block >> (PAGE_BITS - LINE_BITS) for block in cache_lines})

    code_lines = median([len(code) for code, _ in measured])
    data_lines = median([len(data) for _, data in measured])
    kib = (1 << LINE_BITS) / 1024
    print(f"{label}: {len(measured)} calls; code {code_lines} lines ({int(code_lines * kib)} KiB) "
          f"in {median([pages(code) for code, _ in measured])} pages; data {data_lines} lines "
          f"({int(data_lines * kib)} KiB) in {median([pages(data) for _, data in measured])} pages")

    # Code lines by library, and by module inside the traced executable. The executable is
    # position-independent: its lowest mapping is where its address 0 was loaded.
    starts = [low for low, _, _ in mappings]
    executable = os.path.realpath(binary)
    own = [(low, high) for low, high, name in mappings if os.path.realpath(name) == executable]
    base = min((low for low, _ in own), default=None)
    table = symbols(binary) if base is not None else []
    symbol_starts = [start for start, _, _, _ in table]

    def library_of(address):
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and address < mappings[index][1]:
            return os.path.basename(mappings[index][2])
        return "(not mapped when the child started)"

    def symbol_of(address):
        """The executable's function holding `address`, or None outside the executable."""
        if not any(low <= address < high for low, high in own):
            return None
        index = bisect.bisect_right(symbol_starts, address - base) - 1
        if index >= 0 and address - base < table[index][1]:
            return table[index]
        return (0, 0, NO_SYMBOL, NO_SYMBOL)

    by_library, by_module = collections.defaultdict(list), collections.defaultdict(list)
    for code, _ in measured:
        libraries, modules = collections.Counter(), collections.Counter()
        for block in code:
            address = block << LINE_BITS
            libraries[library_of(address)] += 1
            symbol = symbol_of(address)
            if symbol is not None:
                modules[symbol[2]] += 1
        for name, count in libraries.items():
            by_library[name].append(count)
        for name, count in modules.items():
            by_module[name].append(count)

    def listing(counts):
        # A library or module a call did not touch counts as 0 in that call.
        rows = sorted(((median(v + [0] * (len(measured) - len(v))), k) for k, v in counts.items()), reverse=True)
        return ", ".join(f"{name} {count}" for count, name in rows if count > 0)

    print(f"{label}: code lines by library: {listing(by_library)}")
    if by_module:
        print(f"{label}: code lines in {os.path.basename(binary)} by module: {listing(by_module)}")
    if top and base is not None:
        functions = collections.Counter()
        for block in measured[-1][0]:
            symbol = symbol_of(block << LINE_BITS)
            if symbol is not None:
                functions[symbol[3]] += 1
        ranked = functions.most_common(top)
        for (name, count), readable in zip(ranked, demangled([name for name, _ in ranked])):
            print(f"{label}:   {count:4d} lines  {readable[:160]}")


if __name__ == "__main__":
    main()
