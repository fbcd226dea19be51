import Foundation
import KeychainStore

/// Evidence for a proposed engine fix, measured without changing the engine: the same filled
/// keychain, copied, with only SQLite's knowledge of it changed.
///
/// The engine's lookup SQL filters on the blind-index columns `i_svce = ? AND i_acct = ?` (plus
/// the access group); each has its own single-column index, and SQLite, knowing nothing of their
/// selectivity, picks `genp_svce`. When one service holds many accounts, as here, that scans every
/// item of the service. The variants show what a lookup costs when SQLite can go straight to the
/// row: with statistics (`ANALYZE`), or with a two-column index on (service, account).
struct WhatIfResult: Codable, Sendable {
    var variant: String
    var items: Int
    var query_plan: String
    var lookup: LatencySummary
    var update: LatencySummary
}

enum WhatIf {
    static let variants: [(name: String, sql: String?)] = [
        ("as shipped", nil),
        ("after ANALYZE", "ANALYZE"),
        ("with an index on (i_svce, i_acct)", "CREATE INDEX genp_svce_acct ON genp(i_svce, i_acct)"),
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
