import Foundation
import KeychainStore

/// Evidence for the lookup-plan fix, measured without changing the engine: the same filled
/// keychain, copied, with only SQLite's knowledge of it changed.
///
/// The engine's lookup SQL filters on the blind-index columns `i_svce = ? AND i_acct = ?` (plus
/// the access group). Until commit daadcf6 each had only its own one-column index, and SQLite,
/// knowing nothing of their selectivity, picked `genp_svce`: when one service holds many
/// accounts, as here, every lookup, update and delete walked every item of the service. The
/// engine now creates a two-column index on (service, account); the variants drop it again to
/// show what it is worth, and show that statistics (`ANALYZE`) would also have fixed the plan.
struct WhatIfResult: Codable, Sendable {
    var variant: String
    var items: Int
    var query_plan: String
    var lookup: LatencySummary
    var update: LatencySummary
}

enum WhatIf {
    static let variants: [(name: String, sql: String?)] = [
        ("as shipped (index on (i_svce, i_acct))", nil),
        ("without the two-column index (schema before daadcf6)", "DROP INDEX IF EXISTS genp_svce_acct"),
        ("without it, after ANALYZE", "DROP INDEX IF EXISTS genp_svce_acct; ANALYZE"),
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
                plan = try db.queryPlan("SELECT rowid FROM genp WHERE i_acct = ? AND i_svce = ? AND agrp IN (?) ORDER BY rowid")
            }
            let system = try SecItemSystem(path: copy, deviceKeyPath: deviceKey)
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

/// Evidence for the proposed write-path fix: adds into two copies of the same keychain, one as
/// shipped and one whose rarely-set attribute indexes only hold the rows that set them (partial
/// indexes) and without the one-column service index (the (service, account) index answers
/// service-only queries too), interleaved in short blocks.
struct WriteWhatIfResult: Codable, Sendable {
    var items: Int
    var shipped_add: LatencySummary
    var lean_add: LatencySummary
    var shipped_wal_bytes_per_add: Double
    var lean_wal_bytes_per_add: Double
    var lean_schema_change: String
}

extension WhatIf {
    static let leanIndexes = """
        DROP INDEX IF EXISTS genp_vwht; CREATE INDEX genp_vwht ON genp(i_vwht) WHERE i_vwht IS NOT NULL;
        DROP INDEX IF EXISTS genp_tkid; CREATE INDEX genp_tkid ON genp(i_tkid) WHERE i_tkid IS NOT NULL;
        DROP INDEX IF EXISTS genp_ggrp; CREATE INDEX genp_ggrp ON genp(i_ggrp) WHERE i_ggrp IS NOT NULL;
        DROP INDEX IF EXISTS genp_labl; CREATE INDEX genp_labl ON genp(i_labl) WHERE i_labl IS NOT NULL;
        DROP INDEX IF EXISTS genp_svce;
        CREATE INDEX IF NOT EXISTS genp_svce_acct ON genp(i_svce, i_acct);
        """

    static func writes(keychain: String, deviceKey: String, items: Int, operations: Int, directory: String) throws -> WriteWhatIfResult {
        try RawSQLite(path: keychain).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let shippedPath = directory + "/whatif-shipped.keychain-db", leanPath = directory + "/whatif-lean.keychain-db"
        for path in [shippedPath, leanPath] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: keychain, toPath: path)
        }
        defer { for path in [shippedPath, leanPath] { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } } }
        try RawSQLite(path: leanPath).execute(leanIndexes + "PRAGMA wal_checkpoint(TRUNCATE);")
        let shipped = try SecItemSystem(path: shippedPath, deviceKeyPath: deviceKey)
        let lean = try SecItemSystem(path: leanPath, deviceKeyPath: deviceKey)
        var shippedSamples: [UInt64] = [], leanSamples: [UInt64] = []
        // The copies start with empty WALs: 50 untimed adds show what each commit appends; then
        // 300 untimed updates grow each WAL past SQLite's automatic checkpoint, so that the timed
        // adds reuse WAL space as a long-lived keychain does.
        for i in 0..<50 {
            try shipped.add(account: WorkloadKeys.fresh(81_000_000 + i), secret: WorkloadKeys.secret(i))
            try lean.add(account: WorkloadKeys.fresh(81_000_000 + i), secret: WorkloadKeys.secret(i))
        }
        let walShipped = PairedWrites.walBytes(shippedPath), walLean = PairedWrites.walBytes(leanPath)
        let walCount = 50
        for i in 0..<300 {
            try shipped.update(account: WorkloadKeys.fresh(81_000_000 + i % 50), secret: WorkloadKeys.secret(i))
            try lean.update(account: WorkloadKeys.fresh(81_000_000 + i % 50), secret: WorkloadKeys.secret(i))
        }
        // Blocks of 25 adds alternate between the copies (and which goes first), as in PairedWrites.
        let block = 25
        for start in stride(from: 0, to: operations, by: block) {
            let range = start..<min(start + block, operations)
            for system in ((start / block) % 2 == 0 ? [shipped, lean] : [lean, shipped]) {
                for i in range {
                    let begin = nowNanoseconds()
                    try system.add(account: WorkloadKeys.fresh(80_000_000 + i), secret: WorkloadKeys.secret(i))
                    if system === shipped { shippedSamples.append(nowNanoseconds() - begin) } else { leanSamples.append(nowNanoseconds() - begin) }
                }
            }
        }
        let result = WriteWhatIfResult(items: items, shipped_add: LatencySummary(nanoseconds: shippedSamples),
                                       lean_add: LatencySummary(nanoseconds: leanSamples),
                                       shipped_wal_bytes_per_add: Double(walShipped) / Double(walCount),
                                       lean_wal_bytes_per_add: Double(walLean) / Double(walCount),
                                       lean_schema_change: "partial indexes (WHERE … IS NOT NULL) on i_vwht, i_tkid, i_ggrp, i_labl; no one-column genp_svce")
        progress("  write what-if at \(items): add \(result.shipped_add.median_us) µs shipped vs \(result.lean_add.median_us) µs lean; WAL/add \(result.shipped_wal_bytes_per_add) vs \(result.lean_wal_bytes_per_add)")
        return result
    }
}
