import Foundation
import KeychainServices
import KeychainStore

/// What one worker process did in its time window.
struct ScaleChildResult: Codable, Sendable {
    var lookups: Int
    var writes: Int
    /// Calls that returned anything but success (a busy database, a lost write...).
    var failures: Int
    /// Accounts this worker added and saw acknowledged, checked by the parent afterwards.
    var added_accounts: [String]
    /// Every timed call, so that the parent's percentiles are over all workers' calls together.
    var lookup_ns: [UInt64]
    var write_ns: [UInt64]
}

/// One configuration: `processes` workers at once, each for the same window.
struct ScaleRun: Codable, Sendable {
    var processes: Int
    var write_percent: Int
    var seconds: Double
    var lookups_per_second: Double
    var failures: Int
    /// Acknowledged adds not found in the keychain after the run (must be 0).
    var lost_writes: Int
    var lookup_latency: LatencySummary
    var write_latency: LatencySummary?
}

struct ScaleResult: Codable, Sendable {
    var items: Int
    var cores: Int
    var runs: [ScaleRun]
    /// Lookup throughput of two processes over that of one, per repetition, and their median.
    var two_over_one: [Double]
    var two_over_one_median: Double
}

/// Readers scale: N processes doing lookups on one keychain file at once, and a mixed load of
/// lookups and durable adds. Each worker is a separate process (as separate programs would be),
/// opening the same file; they start together at an agreed instant and stop at another.
enum ScaleBench {
    static func run(directory: String, items: Int, seconds: Double, repetitions: Int) throws -> ScaleResult {
        let keychain = directory + "/scale.keychain-db", deviceKey = directory + "/device-key"
        let system = try SecItemSystem(path: keychain, deviceKeyPath: deviceKey)
        let present = try countItems(system)
        if present < items { try system.fill(from: present, to: items) }
        progress("  scale: a keychain of \(items) items")

        var runs: [ScaleRun] = []
        var ratios: [Double] = []
        // One and two readers alternate, so drift in the machine's load falls on both.
        for repetition in 0..<repetitions {
            let one = try window(keychain: keychain, deviceKey: deviceKey, items: items, processes: 1,
                                 writePercent: 0, seconds: seconds, tag: "r\(repetition)a", system: system)
            let two = try window(keychain: keychain, deviceKey: deviceKey, items: items, processes: 2,
                                 writePercent: 0, seconds: seconds, tag: "r\(repetition)b", system: system)
            runs += [one, two]
            ratios.append(two.lookups_per_second / one.lookups_per_second)
            progress("  scale: 1 reader \(Int(one.lookups_per_second))/s, 2 readers \(Int(two.lookups_per_second))/s")
        }
        let mixed = try window(keychain: keychain, deviceKey: deviceKey, items: items, processes: 8,
                               writePercent: 10, seconds: seconds * 2, tag: "mix", system: system)
        runs.append(mixed)
        progress("  scale: 8 processes, 10 % writes: lookup p99 \(mixed.lookup_latency.p99_us) µs, failures \(mixed.failures), lost \(mixed.lost_writes)")
        let sorted = ratios.sorted()
        return ScaleResult(items: items, cores: ProcessInfo.processInfo.activeProcessorCount, runs: runs,
                           two_over_one: ratios.map { ($0 * 1000).rounded() / 1000 },
                           two_over_one_median: (sorted[sorted.count / 2] * 1000).rounded() / 1000)
    }

    /// Starts `processes` workers, waits for all, checks every acknowledged add is present.
    private static func window(keychain: String, deviceKey: String, items: Int, processes: Int, writePercent: Int,
                               seconds: Double, tag: String, system: SecItemSystem) throws -> ScaleRun {
        // Far enough ahead for every worker to have started and opened the file.
        let startAt = Date().timeIntervalSince1970 + 1.0
        let workers = try (0..<processes).map { index in
            try startSelf(["scale-child", "--keychain", keychain, "--device-key", deviceKey, "--items", String(items),
                           "--write-percent", String(writePercent), "--start-at", String(startAt),
                           "--seconds", String(seconds), "--tag", "\(tag)-\(index)"])
        }
        let results = try workers.map { try JSONDecoder().decode(ScaleChildResult.self, from: try $0.finish()) }
        var lost = 0
        for account in results.flatMap(\.added_accounts) where !(try exists(system, account: account)) { lost += 1 }
        let lookups = results.reduce(0) { $0 + $1.lookups }
        return ScaleRun(processes: processes, write_percent: writePercent, seconds: seconds,
                        lookups_per_second: Double(lookups) / seconds,
                        failures: results.reduce(0) { $0 + $1.failures }, lost_writes: lost,
                        lookup_latency: LatencySummary(nanoseconds: results.flatMap(\.lookup_ns)),
                        write_latency: writePercent > 0 ? LatencySummary(nanoseconds: results.flatMap(\.write_ns)) : nil)
    }

    /// The worker: waits for the agreed start, then loops lookups (and adds, `writePercent` of
    /// calls) until the window closes. Its samples go back to the parent as JSON.
    static func child(keychain: String, deviceKey: String, items: Int, writePercent: Int, startAt: Double,
                      seconds: Double, tag: String) throws -> ScaleChildResult {
        let system = try SecItemSystem(path: keychain, deviceKeyPath: deviceKey)
        var generator = SplitMix64(seed: UInt64(truncatingIfNeeded: tag.hashValue))
        let wait = startAt - Date().timeIntervalSince1970
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        let end = nowNanoseconds() + UInt64(seconds * 1_000_000_000)
        var lookupSamples: [UInt64] = [], writeSamples: [UInt64] = []
        var failures = 0, added: [String] = []
        lookupSamples.reserveCapacity(200_000)
        while true {
            let start = nowNanoseconds()
            if start >= end { break }
            if writePercent > 0, Int(generator.next() % 100) < writePercent {
                let account = "scale-\(tag)-\(added.count + failures)"
                do {
                    try system.add(account: account, secret: WorkloadKeys.secret(added.count))
                    added.append(account)
                } catch { failures += 1 }
                writeSamples.append(nowNanoseconds() - start)
            } else {
                do { try system.lookup(account: WorkloadKeys.filler(Int(generator.next() % UInt64(items)))) } catch { failures += 1 }
                lookupSamples.append(nowNanoseconds() - start)
            }
        }
        return ScaleChildResult(lookups: lookupSamples.count, writes: writeSamples.count, failures: failures,
                                added_accounts: added, lookup_ns: lookupSamples, write_ns: writeSamples)
    }

    private static func exists(_ system: SecItemSystem, account: String) throws -> Bool {
        do { try system.lookup(account: account); return true } catch { return false }
    }

    private static func countItems(_ system: SecItemSystem) throws -> Int {
        var result: CFTypeRef?
        let status = SecItemCopyMatching([kSecClass as String: kSecClassGenericPassword,
                                          kSecAttrService as String: WorkloadKeys.service,
                                          kSecMatchLimit as String: kSecMatchLimitAll,
                                          kSecReturnAttributes as String: true] as CFDictionary, &result)
        if status == errSecItemNotFound { return 0 }
        guard status == errSecSuccess else { throw BenchFailure("counting items returned \(status)") }
        return (result as? [Any])?.count ?? 0
    }
}
