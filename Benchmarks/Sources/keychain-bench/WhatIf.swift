import Foundation
import KeychainStore

/// Evidence for the lookup plan, measured without changing the engine: the same filled
/// keychain, copied, with only SQLite's knowledge of it changed.
///
/// The engine's lookup SQL filters on the blind-index columns `i_svce = ? AND i_acct = ?` (plus
/// the access group) and, since schema 3, on the range of the primary-key index that starts with
/// both. Until commit daadcf6 each column had its own one-column index, and SQLite, knowing
/// nothing of their selectivity, picked `genp_svce`: when one service holds many accounts, as
/// here, every lookup, update and delete walked every item of the service. The variants put that
/// index back to show what a poorly chosen index costs, and that statistics (`ANALYZE`) would
/// also have fixed the plan.
///
/// Since the engine audits a file's schema when it opens it, it refuses an index it never makes
/// (a planted index could change what its statements do), so the variants that add one are
/// reported as not run, with the engine's refusal as the reason, instead of ending the benchmark.
struct WhatIfResult: Codable, Sendable {
    var variant: String
    var items: Int
    var query_plan: String
    var lookup: LatencySummary?
    var update: LatencySummary?
    /// Why the variant could not be measured (the engine refused the copy), or nil.
    var not_run: String?
}

enum WhatIf {
    static let variants: [(name: String, sql: String?)] = [
        ("as shipped (schema 3: primary-key index by (service, account), index on account)", nil),
        ("plus schema 1's one-column service index", "CREATE INDEX genp_svce ON genp(i_svce)"),
        ("plus that index, after ANALYZE", "CREATE INDEX genp_svce ON genp(i_svce); ANALYZE"),
    ]

    static func run(keychain: String, deviceKey: String, items: Int, operations: Int, directory: String) throws -> [WhatIfResult] {
        // Fold the WAL into the file so that a copy of the file alone is the whole keychain.
        try RawSQLite(path: keychain).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        var results: [WhatIfResult] = []
        for (offset, variant) in variants.enumerated() {
            let copy = directory + "/whatif-\(offset).keychain-db"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
            try FileManager.default.copyItem(atPath: keychain, toPath: copy)
            let plan: String
            do {
                let db = try RawSQLite(path: copy)
                if let sql = variant.sql { try db.execute(sql) }
                plan = try db.queryPlan("SELECT rowid FROM genp WHERE agrp IN (?) AND pk >= ? AND pk < ? ORDER BY rowid")
            }
            let system: SecItemSystem
            do {
                system = try SecItemSystem(path: copy, deviceKeyPath: deviceKey)
            } catch {
                results.append(WhatIfResult(variant: variant.name, items: items, query_plan: plan, not_run: "\(error)"))
                progress("  what-if '\(variant.name)' at \(items): not run: \(error)")
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
                continue
            }
            var generator = SplitMix64(seed: 11)
            let keys = (0..<operations).map { _ in WorkloadKeys.filler(Int(generator.next() % UInt64(items))) }
            let lookup = try timeEach(keys) { try system.lookup(account: $0) }
            let update = try timeEach(keys) { try system.update(account: $0, secret: WorkloadKeys.secret(2)) }
            results.append(WhatIfResult(variant: variant.name, items: items, query_plan: plan, lookup: lookup, update: update))
            progress("  what-if '\(variant.name)' at \(items): lookup \(lookup.median_us) µs, update \(update.median_us) µs (\(plan))")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) }
        }
        return results
    }
}

/// Evidence for schema 3's write path: adds into two copies of the same keychain, one as
/// shipped and one with schema 2's (service, account) index put back, which schema 3 replaced
/// by ordering the primary-key index by the pair, interleaved in short blocks.
struct WriteWhatIfResult: Codable, Sendable {
    var items: Int
    var shipped_add: LatencySummary
    var alternative_add: LatencySummary
    var shipped_wal_bytes_per_add: Double
    var alternative_wal_bytes_per_add: Double
    var alternative_schema_change: String
}

extension WhatIf {
    static let schema2PairIndex = "CREATE INDEX IF NOT EXISTS genp_svce_acct ON genp(i_svce, i_acct);"

    static func writes(keychain: String, deviceKey: String, items: Int, operations: Int, directory: String) throws -> WriteWhatIfResult? {
        try RawSQLite(path: keychain).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let shippedPath = directory + "/whatif-shipped.keychain-db", alternativePath = directory + "/whatif-alternative.keychain-db"
        for path in [shippedPath, alternativePath] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: keychain, toPath: path)
        }
        defer { for path in [shippedPath, alternativePath] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } } }
        try RawSQLite(path: alternativePath).execute(schema2PairIndex + "PRAGMA wal_checkpoint(TRUNCATE);")
        let shipped = try SecItemSystem(path: shippedPath, deviceKeyPath: deviceKey)
        let alternative: SecItemSystem
        do {
            alternative = try SecItemSystem(path: alternativePath, deviceKeyPath: deviceKey)
        } catch {
            // The schema audit refuses the index put back (see WhatIfResult).
            progress("  write what-if at \(items): not run: \(error)")
            return nil
        }
        var shippedSamples: [UInt64] = [], alternativeSamples: [UInt64] = []
        // The copies start with empty WALs: 50 untimed adds show what each commit appends; then
        // 300 untimed updates grow each WAL past SQLite's automatic checkpoint, so that the timed
        // adds reuse WAL space as a long-lived keychain does.
        for i in 0..<50 {
            try shipped.add(account: WorkloadKeys.fresh(81_000_000 + i), secret: WorkloadKeys.secret(i))
            try alternative.add(account: WorkloadKeys.fresh(81_000_000 + i), secret: WorkloadKeys.secret(i))
        }
        let walShipped = PairedWrites.walBytes(shippedPath), walAlternative = PairedWrites.walBytes(alternativePath)
        let walCount = 50
        for i in 0..<300 {
            try shipped.update(account: WorkloadKeys.fresh(81_000_000 + i % 50), secret: WorkloadKeys.secret(i))
            try alternative.update(account: WorkloadKeys.fresh(81_000_000 + i % 50), secret: WorkloadKeys.secret(i))
        }
        // Blocks of 25 adds alternate between the copies (and which goes first), as in PairedWrites.
        let block = 25
        for start in stride(from: 0, to: operations, by: block) {
            let range = start..<min(start + block, operations)
            for system in ((start / block) % 2 == 0 ? [shipped, alternative] : [alternative, shipped]) {
                for i in range {
                    let begin = nowNanoseconds()
                    try system.add(account: WorkloadKeys.fresh(80_000_000 + i), secret: WorkloadKeys.secret(i))
                    if system === shipped { shippedSamples.append(nowNanoseconds() - begin) } else { alternativeSamples.append(nowNanoseconds() - begin) }
                }
            }
        }
        let result = WriteWhatIfResult(items: items, shipped_add: LatencySummary(nanoseconds: shippedSamples),
                                       alternative_add: LatencySummary(nanoseconds: alternativeSamples),
                                       shipped_wal_bytes_per_add: Double(walShipped) / Double(walCount),
                                       alternative_wal_bytes_per_add: Double(walAlternative) / Double(walCount),
                                       alternative_schema_change: "schema 2's two-column index on (i_svce, i_acct) put back")
        progress("  write what-if at \(items): add \(result.shipped_add.median_us) µs shipped vs \(result.alternative_add.median_us) µs with the pair index; WAL/add \(result.shipped_wal_bytes_per_add) vs \(result.alternative_wal_bytes_per_add)")
        return result
    }
}
