import Foundation
import KeychainStore

/// What a fresh process doing lookups costs in memory.
struct MemoryResult: Codable, Sendable {
    var items: Int
    var lookups: Int
    /// Resident set after opening the keychain, before any lookup (KiB).
    var rss_after_open_kib: Int
    /// Peak resident set of the process (VmHWM, KiB).
    var peak_rss_kib: Int
    /// getrusage ru_maxrss (KiB): equal to the above unless the parent's peak was larger.
    var ru_maxrss_kib: Int
    var lookup: LatencySummary
}

enum MemoryProbe {
    /// The child side: open the keychain, look up `lookups` random filler items, report.
    static func child(keychain: String, deviceKey: String, items: Int, lookups: Int) throws -> MemoryResult {
        let system = try SecItemSystem(path: keychain, deviceKeyPath: deviceKey)
        let afterOpen = currentResidentKiB()
        var generator = SplitMix64(seed: 7)
        let keys = (0..<lookups).map { _ in WorkloadKeys.filler(Int(generator.next() % UInt64(items))) }
        let lookup = try timeEach(keys) { try system.lookup(account: $0) }
        return MemoryResult(items: items, lookups: lookups, rss_after_open_kib: afterOpen,
                            peak_rss_kib: peakResidentKiB(), ru_maxrss_kib: rusageMaxResidentKiB(), lookup: lookup)
    }

    /// The parent side: runs the child in a new process of this same executable.
    static func spawn(keychain: String, deviceKey: String, items: Int, lookups: Int) throws -> MemoryResult {
        let output = try runSelf(["memory-child", "--keychain", keychain, "--device-key", deviceKey,
                                  "--items", String(items), "--lookups", String(lookups)])
        return try JSONDecoder().decode(MemoryResult.self, from: output)
    }
}

/// Runs this executable with `arguments`; returns its standard output, failing on a non-zero exit.
func runSelf(_ arguments: [String]) throws -> Data {
    try startSelf(arguments).finish()
}

/// A child run of this executable whose standard output is read when it finishes, so that
/// several can run at once (ScaleBench).
struct SelfChild {
    let process: Process
    let output: Pipe
    let name: String

    /// Reads the child's whole output and waits for it, failing on a non-zero exit.
    func finish() throws -> Data {
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchFailure("child \(name) exited \(process.terminationStatus)") }
        return data
    }
}

/// Starts this executable with `arguments`, its standard output on a pipe.
func startSelf(_ arguments: [String]) throws -> SelfChild {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    return SelfChild(process: process, output: pipe, name: arguments.first ?? "")
}
