import Foundation

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC: not moved by clock changes).
@inline(__always)
func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Per-operation latencies of one measured loop, summarised as the report needs them.
struct LatencySummary: Codable, Sendable {
    /// Number of timed operations.
    var n: Int
    var median_us: Double
    var p99_us: Double
    var p10_us: Double
    var p90_us: Double
    var mean_us: Double

    init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        n = sorted.count
        func at(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            // Nearest-rank percentile: with fewer than 100 samples p99 is the maximum.
            let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[min(max(rank, 0), sorted.count - 1)]) / 1000
        }
        if sorted.isEmpty {
            median_us = .nan
        } else if sorted.count % 2 == 1 {
            median_us = Double(sorted[sorted.count / 2]) / 1000
        } else {
            median_us = Double(sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2000
        }
        p99_us = at(0.99)
        p10_us = at(0.10)
        p90_us = at(0.90)
        mean_us = sorted.isEmpty ? .nan : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
        for keyPath in [\LatencySummary.median_us, \.p99_us, \.p10_us, \.p90_us, \.mean_us] {
            self[keyPath: keyPath] = (self[keyPath: keyPath] * 100).rounded() / 100
        }
    }
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Times `body` once per element of `inputs`; a failing operation aborts the benchmark, since
/// a figure for an operation that did not happen would be a lie.
func timeEach<Input>(_ inputs: [Input], _ body: (Input) throws -> Void) rethrows -> LatencySummary {
    var samples: [UInt64] = []
    samples.reserveCapacity(inputs.count)
    for input in inputs {
        let start = nowNanoseconds()
        try body(input)
        samples.append(nowNanoseconds() - start)
    }
    return LatencySummary(nanoseconds: samples)
}

/// getrusage's ru_maxrss, in KiB. On Linux it survives execve: a child started by a larger
/// process reports the parent's peak until it exceeds it, so it is kept only for reference.
func rusageMaxResidentKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// Peak resident set size of this process image, in KiB: VmHWM from /proc/self/status, which
/// belongs to the address space and so starts afresh at execve.
func peakResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? -1
    }
    return -1
}

/// All of a file under /proc. Its size reads as 0, and a reader that trusts the size, or stops at
/// the first short read (as `String(contentsOfFile:)` does here), gets the first page at most:
/// enough for `status` and `statm`, not for `maps`.
func procFile(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw BenchFailure("cannot open \(path)") }
    defer { close(descriptor) }
    var contents: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { break }
        contents += chunk[0..<count]
    }
    return contents
}

/// Current resident set size in KiB, from /proc/self/statm.
func currentResidentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// Size of a SQLite database with its WAL and shared-memory files, in bytes.
func databaseBytes(_ path: String) -> Int {
    ["", "-wal", "-shm"].reduce(0) { total, suffix in
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
        return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
}

/// A failure that stops the benchmark with a message (never containing a secret).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line to standard error, where progress goes (standard output carries JSON).
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
