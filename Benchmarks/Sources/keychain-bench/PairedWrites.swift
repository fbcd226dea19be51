import Foundation

/// Writes of our keychain and of the raw-SQLite floor interleaved in short blocks, so that both
/// meet the disk in the same state (fsync latency on a shared virtual disk drifts over seconds).
/// This is the comparison the "within 2× of a durable SQLite insert" target is checked on.
struct PairedResult: Codable, Sendable {
    var items: Int
    var location: String
    var ours_add: LatencySummary
    var floor_add: LatencySummary
    var ours_update: LatencySummary
    var floor_update: LatencySummary
    var ours_delete: LatencySummary
    var floor_delete: LatencySummary
    /// WAL bytes appended per committed add (database pages written plus frame headers); 0 where
    /// not measured.
    var ours_wal_bytes_per_add: Double
    var floor_wal_bytes_per_add: Double
    /// WAL bytes appended per committed update of an item's data alone.
    var ours_wal_bytes_per_update: Double
    var floor_wal_bytes_per_update: Double
    var add_ratio: Double
}

enum PairedWrites {
    static func run(ours: SecItemSystem, floor: SQLiteFloorSystem, items: Int, operations: Int, location: String,
                    measureWal: Bool = false) throws -> PairedResult {
        var samples: [String: [UInt64]] = [:]
        func timed(_ key: String, _ body: () throws -> Void) throws {
            let start = nowNanoseconds()
            try body()
            samples[key, default: []].append(nowNanoseconds() - start)
        }
        var generator = SplitMix64(seed: UInt64(items) &+ 99)
        let fresh = (0..<operations).map { WorkloadKeys.fresh(90_000_000 + items + $0) }
        let existing = (0..<operations).map { _ in WorkloadKeys.filler(Int(generator.next() % UInt64(items))) }
        // WAL bytes per add, measured only where asked (a fresh pair on tmpfs): both WALs are
        // emptied and 50 untimed adds show what each commit appends. On disk the WALs are left
        // as the workload left them (full size, reused), since commits that extend the file pay
        // for recording its new size and would not be the steady state.
        var oursWal = 0.0, floorWal = 0.0, oursUpdateWal = 0.0, floorUpdateWal = 0.0
        if measureWal {
            try RawSQLite(path: ours.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try RawSQLite(path: floor.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for i in 0..<50 {
                try ours.add(account: WorkloadKeys.fresh(70_000_000 + i), secret: WorkloadKeys.secret(i))
                try floor.add(account: WorkloadKeys.fresh(70_000_000 + i), secret: WorkloadKeys.secret(i))
            }
            oursWal = Double(walBytes(ours.path)) / 50
            floorWal = Double(walBytes(floor.path)) / 50
            // The same for an update of the data alone.
            try RawSQLite(path: ours.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try RawSQLite(path: floor.path).execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for i in 0..<50 {
                try ours.update(account: WorkloadKeys.fresh(70_000_000 + i), secret: WorkloadKeys.secret(i, version: 5))
                try floor.update(account: WorkloadKeys.fresh(70_000_000 + i), secret: WorkloadKeys.secret(i, version: 5))
            }
            oursUpdateWal = Double(walBytes(ours.path)) / 50
            floorUpdateWal = Double(walBytes(floor.path)) / 50
            for i in 0..<50 {
                try ours.delete(account: WorkloadKeys.fresh(70_000_000 + i))
                try floor.delete(account: WorkloadKeys.fresh(70_000_000 + i))
            }
        }
        // Blocks of `block` operations alternate between the systems, and which goes first
        // alternates too: both see the disk in the same few seconds, yet an fsync rarely has to
        // push the other system's writes (one by one, each commit would pay for the other's).
        let block = 25
        var pending: [(first: () throws -> Void, second: () throws -> Void)] = []
        func pair(_ i: Int, _ first: @escaping () throws -> Void, _ second: @escaping () throws -> Void) throws {
            pending.append((first, second))
            guard pending.count == block || i == operations - 1 else { return }
            let firstGoesFirst = (i / block) % 2 == 0
            for (a, b) in pending { try (firstGoesFirst ? a : b)() }
            for (a, b) in pending { try (firstGoesFirst ? b : a)() }
            pending.removeAll()
        }
        // Updates first, as in the workload, then adds and deletes of new items.
        for (i, account) in existing.enumerated() {
            try pair(i, { try timed("ours_update") { try ours.update(account: account, secret: WorkloadKeys.secret(i, version: 3)) } },
                     { try timed("floor_update") { try floor.update(account: account, secret: WorkloadKeys.secret(i, version: 3)) } })
        }
        for (i, account) in fresh.enumerated() {
            try pair(i, { try timed("ours_add") { try ours.add(account: account, secret: WorkloadKeys.secret(i)) } },
                     { try timed("floor_add") { try floor.add(account: account, secret: WorkloadKeys.secret(i)) } })
        }
        for (i, account) in fresh.enumerated() {
            try pair(i, { try timed("ours_delete") { try ours.delete(account: account) } },
                     { try timed("floor_delete") { try floor.delete(account: account) } })
        }
        func summary(_ key: String) -> LatencySummary { LatencySummary(nanoseconds: samples[key] ?? []) }
        let oursAdd = summary("ours_add"), floorAdd = summary("floor_add")
        return PairedResult(items: items, location: location, ours_add: oursAdd, floor_add: floorAdd,
                            ours_update: summary("ours_update"), floor_update: summary("floor_update"),
                            ours_delete: summary("ours_delete"), floor_delete: summary("floor_delete"),
                            ours_wal_bytes_per_add: oursWal, floor_wal_bytes_per_add: floorWal,
                            ours_wal_bytes_per_update: oursUpdateWal, floor_wal_bytes_per_update: floorUpdateWal,
                            add_ratio: ((oursAdd.median_us / floorAdd.median_us) * 100).rounded() / 100)
    }

    static func walBytes(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The same paired writes on a fresh pair of stores of `items` items in `directory`, e.g. on
    /// a tmpfs, where fsync costs nothing: what is left is CPU and SQLite work.
    static func fresh(in directory: String, items: Int, operations: Int, location: String) throws -> PairedResult {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let ours = try SecItemSystem(path: directory + "/k.keychain-db", deviceKeyPath: directory + "/device-key")
        let floor = try SQLiteFloorSystem(path: directory + "/floor.sqlite")
        try ours.fill(from: 0, to: items)
        try floor.fill(from: 0, to: items)
        return try run(ours: ours, floor: floor, items: items, operations: operations, location: location, measureWal: true)
    }
}
