import Foundation
import KeychainServices
import KeychainStore

/// Unlock and lock times, and whether reads cost the same on a keychain with a
/// password (unlocked) as on one without.
struct LockResult: Codable, Sendable {
    var items: Int
    var unlock_sharing: String
    var scrypt_parameters: String
    var set_password_first: LatencySummary
    var change_password: LatencySummary
    var unlock: LatencySummary
    var unlock_wrong_password: LatencySummary
    var lock: LatencySummary
    var read_without_password: LatencySummary
    var read_with_password_unlocked: LatencySummary
    /// Median read with a password / median read without.
    var read_ratio: Double
    var write_without_password: LatencySummary
    var write_with_password_unlocked: LatencySummary
}

enum LockBench {
    /// Untimed updates of each keychain before the timed ones: more than the 1,000 pages after
    /// which SQLite checkpoints and starts reusing the WAL (one page per update).
    static let walWrapUpdates = 1_100

    static func run(directory: String, items: Int, reads: Int, repetitions: Int) throws -> LockResult {
        let plain = try SecItemSystem(path: directory + "/plain.keychain-db", deviceKeyPath: directory + "/device-key")
        let guarded = try SecItemSystem(path: directory + "/guarded.keychain-db", deviceKeyPath: directory + "/device-key")
        defer { guarded.file.forgetSharedUnlockState() }
        let plainContext = KeychainContext(file: plain.file, identity: .unconfigured)
        let guardedContext = KeychainContext(file: guarded.file, identity: .unconfigured)
        try KeychainContext.withContext(plainContext) { try plain.fill(from: 0, to: items) }
        try KeychainContext.withContext(guardedContext) { try guarded.fill(from: 0, to: items) }
        progress("  lock: two keychains of \(items) items")

        let password = "correct horse battery staple"
        let setFirst = try timeEach([()]) { try guarded.file.setPassword(password, currentPassword: nil) }
        // Change back and forth: each change derives twice (check the old, wrap with the new).
        var current = password
        let change = try timeEach(Array(0..<max(2, repetitions / 3))) { i in
            let next = i % 2 == 0 ? password + "!" : password
            try guarded.file.setPassword(next, currentPassword: current)
            current = next
        }
        var unlockSamples: [UInt64] = []
        var lockSamples: [UInt64] = []
        var wrongSamples: [UInt64] = []
        for _ in 0..<repetitions {
            var start = nowNanoseconds()
            guarded.file.lock()
            lockSamples.append(nowNanoseconds() - start)
            guard guarded.file.isLocked else { throw BenchFailure("lock() left the keychain unlocked") }
            start = nowNanoseconds()
            do { try guarded.file.unlock(password: "wrong") } catch {}
            wrongSamples.append(nowNanoseconds() - start)
            start = nowNanoseconds()
            try guarded.file.unlock(password: current)
            unlockSamples.append(nowNanoseconds() - start)
            guard !guarded.file.isLocked else { throw BenchFailure("unlock() left the keychain locked") }
        }

        // Setting and changing the password empties the guarded keychain's WAL (the old wrapped
        // keys leave the disk), so its next commits would extend the file, and a sync that must
        // also record a new file size costs about twice the steady one. Untimed updates of both
        // keychains first take each WAL past SQLite's automatic checkpoint (1,000 pages), after
        // which commits reuse its space, as in any keychain in use for a while.
        for (system, context) in [(plain, plainContext), (guarded, guardedContext)] {
            try KeychainContext.withContext(context) {
                for i in 0..<Self.walWrapUpdates {
                    try system.update(account: WorkloadKeys.filler(i % items), secret: WorkloadKeys.secret(i))
                }
            }
        }

        // Reads alternate between the two keychains in blocks, so drift (cache, other load)
        // falls on both alike.
        var generator = SplitMix64(seed: 3)
        var plainReads: [UInt64] = [], guardedReads: [UInt64] = []
        var plainWrites: [UInt64] = [], guardedWrites: [UInt64] = []
        let blocks = 10
        for block in 0..<blocks {
            let keys = (0..<(reads / blocks)).map { _ in WorkloadKeys.filler(Int(generator.next() % UInt64(items))) }
            for (system, context) in [(plain, plainContext), (guarded, guardedContext)] {
                try KeychainContext.withContext(context) {
                    var samples: [UInt64] = []
                    for key in keys {
                        let start = nowNanoseconds()
                        try system.lookup(account: key)
                        samples.append(nowNanoseconds() - start)
                    }
                    var writes: [UInt64] = []
                    for key in keys.prefix(20) {
                        let start = nowNanoseconds()
                        try system.update(account: key, secret: WorkloadKeys.secret(block))
                        writes.append(nowNanoseconds() - start)
                    }
                    if system === plain { plainReads += samples; plainWrites += writes } else { guardedReads += samples; guardedWrites += writes }
                }
            }
        }
        let without = LatencySummary(nanoseconds: plainReads)
        let with = LatencySummary(nanoseconds: guardedReads)
        let sharing: String
        switch guarded.file.unlockSharing {
        case .kernelKeyring: sharing = "kernel keyring"
        case .perProcess(let reason): sharing = "per process (\(reason))"
        }
        return LockResult(items: items, unlock_sharing: sharing, scrypt_parameters: "N=2^15, r=8, p=1 (engine default)",
                          set_password_first: setFirst, change_password: change,
                          unlock: LatencySummary(nanoseconds: unlockSamples),
                          unlock_wrong_password: LatencySummary(nanoseconds: wrongSamples),
                          lock: LatencySummary(nanoseconds: lockSamples),
                          read_without_password: without, read_with_password_unlocked: with,
                          read_ratio: ((with.median_us / without.median_us) * 1000).rounded() / 1000,
                          write_without_password: LatencySummary(nanoseconds: plainWrites),
                          write_with_password_unlocked: LatencySummary(nanoseconds: guardedWrites))
    }
}
