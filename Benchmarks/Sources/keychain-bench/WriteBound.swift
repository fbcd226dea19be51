import Crypto
import Foundation
import KeychainServices

/// `keychain-bench write-bound`: the least that a durable `SecItemAdd` and a durable
/// `SecItemUpdate` of a generic password, stored the way ours are, have to spend, timed in the
/// same run as the floor's insert and update and as our own calls.
///
/// Writers take turns in blocks (all adds first, then all updates), so that all of them meet the
/// disk in the same state. For each of the two calls:
/// - the floor's durable statement (a plaintext row, one unique index);
/// - ours (the query bridged as a caller does, then the whole engine);
/// - the schema's statement: a durable `INSERT`, or an `UPDATE` of both sealed parts found by the
///   account's blind index, with values of our file's lengths made before the clock starts, in a
///   keychain file of the same items, through a bare prepared statement: what the file's design
///   costs in pages and syncs, with no work around it;
/// - the essential call: the same statement preceded by the work that no implementation of this
///   design behind this API can skip, done the cheapest way this benchmark knows
///   (``EssentialWork``); once with the caller's side of the API and once without it;
/// - for adds, the essential add inside the engine's transaction (``BareGenericPasswordTable/insertInTransaction(_:)``).
///
/// Each bare writer has a keychain file of its own, made by the engine and filled with the same
/// items by ``EssentialWork`` (so the bench holds their keys), and each call's writers change the
/// same items, each in its own file: no writer's file grows faster or holds rows fresher than
/// another's. Then, warm in a tight loop, the essential work without its statement: the CPU
/// that a durable call pays again, and more, after each fsync's sleep has cooled the caches.
///
/// With `--pause-us N` every timed durable call is followed by an untimed sleep of N µs, so that
/// each starts on a CPU that has been idle, as it does after an fsync's wait (the warm pieces
/// run without pauses). On a tmpfs, where the fsync costs nothing, that shows what the idle alone
/// does to each writer's CPU time (BENCHMARKS.md, "What an idle CPU costs a write").
enum WriteBound {
    struct Result: Codable {
        var items: Int
        var operations: Int
        /// The untimed sleep after each timed call, in µs (0: none).
        var pause_us: Int
        /// Sizes read from the filled keychain: sealed attributes, sealed secret, persistent reference.
        var sealed_attributes_bytes: Int
        var sealed_secret_bytes: Int
        var persistent_reference_bytes: Int
        /// Per writer (and warm piece), the median of its timed calls in µs, and the 90th percentile.
        var median_us: [String: Double]
        var p90_us: [String: Double]
        var add: Ratios
        var update: Ratios
    }

    /// Medians over the floor's for the same call.
    struct Ratios: Codable {
        /// The schema's statement alone: the file's pages and syncs.
        var schema_ratio: Double
        /// The essential call: no implementation of this design behind this API goes below it.
        var bound_ratio: Double
        /// The same without the caller's side (what the call itself cannot go below).
        var bound_ratio_without_caller: Double
        /// Ours, with the caller's side, as the core benchmark times it.
        var ours_ratio: Double
        /// The essential call inside the engine's transaction (adds only).
        var in_engine_transaction_ratio: Double?
    }

    enum Writer: String, CaseIterable {
        case floorAdd = "floor_add", secItemAdd = "secitem_add", schemaInsert = "schema_insert",
             essentialAdd = "essential_add", essentialAddWithoutCaller = "essential_add_without_caller",
             essentialAddInTransaction = "essential_add_in_engine_transaction"
        case floorUpdate = "floor_update", secItemUpdate = "secitem_update", schemaUpdate = "schema_update",
             essentialUpdate = "essential_update", essentialUpdateWithoutCaller = "essential_update_without_caller"

        static let adds: [Writer] = [.floorAdd, .secItemAdd, .schemaInsert, .essentialAdd, .essentialAddWithoutCaller, .essentialAddInTransaction]
        static let updates: [Writer] = [.floorUpdate, .secItemUpdate, .schemaUpdate, .essentialUpdate, .essentialUpdateWithoutCaller]
    }

    /// The warm pieces' keys in `median_us`.
    static let essentialAddCPU = "essential_add_cpu_warm", essentialUpdateCPU = "essential_update_cpu_warm"

    static func run(directory: String, items: Int, operations: Int, pauseMicroseconds: Int = 0) throws -> Result {
        let floor = try SQLiteFloorSystem(path: directory + "/write-floor.sqlite")
        let ours = try SecItemSystem(path: directory + "/write.keychain-db", deviceKeyPath: directory + "/device-key")
        progress("write-bound: filling \(items) items into the floor, our keychain and four bare ones")
        try floor.fill(from: 0, to: items)
        try ours.fill(from: 0, to: items)
        let sizes = try LookupBound.sealedSizes(keychainPath: ours.path)
        let work = try EssentialWork(sizes: sizes)
        // Keychain files made by the engine (whose connections stay open and idle) and filled
        // with the same items through the bare statements.
        var engineHandles: [SecItemSystem] = []
        func boundFile(_ name: String) throws -> BareGenericPasswordTable {
            let path = directory + "/write-bound-\(name).keychain-db"
            engineHandles.append(try SecItemSystem(path: path, deviceKeyPath: directory + "/device-key"))
            let table = try BareGenericPasswordTable(path: path)
            try table.fill(items: items, with: work)
            return table
        }
        let schemaFile = try boundFile("schema"), essentialFile = try boundFile("essential")
        let withoutCallerFile = try boundFile("without-caller"), inTransactionFile = try boundFile("in-transaction")

        // Adds of accounts nobody has; updates of the same random filled items in every file.
        let newRows = (0..<operations).map { _ in BareGenericPasswordTable.Row(sizes) }
        var generator = SplitMix64(seed: 11)
        let targets = (0..<operations).map { _ in WorkloadKeys.filler(Int(generator.next() % UInt64(items))) }
        let targetIndexes = targets.map { work.accountIndex(Array($0.utf8)) }

        var samples: [Writer: [UInt64]] = [:]
        func turns(_ writers: [Writer], _ body: (Writer, Int) throws -> Void) throws {
            let block = 25
            for start in stride(from: 0, to: operations, by: block) {
                // The order turns with each block, so no writer always syncs first or after another.
                for offset in 0..<writers.count {
                    let writer = writers[(start / block + offset) % writers.count]
                    for i in start..<min(start + block, operations) {
                        let began = nowNanoseconds()
                        try body(writer, i)
                        samples[writer, default: []].append(nowNanoseconds() - began)
                        if pauseMicroseconds > 0 { usleep(useconds_t(pauseMicroseconds)) }
                    }
                }
            }
        }
        try turns(Writer.adds) { writer, i in
            let account = WorkloadKeys.fresh(80_000_000 + i), secret = WorkloadKeys.secret(i)
            switch writer {
            case .floorAdd: try floor.add(account: account, secret: secret)
            case .secItemAdd: try ours.add(account: account, secret: secret)
            case .schemaInsert: try schemaFile.insert(newRows[i])
            case .essentialAdd: try essentialFile.insert(work.add(account: account, secret: secret, asCaller: true))
            case .essentialAddWithoutCaller: try withoutCallerFile.insert(work.add(account: account, secret: secret, asCaller: false))
            case .essentialAddInTransaction: try inTransactionFile.insertInTransaction(work.add(account: account, secret: secret, asCaller: true))
            default: throw BenchFailure("write-bound: \(writer.rawValue) is not an add")
            }
        }
        try turns(Writer.updates) { writer, i in
            let secret = WorkloadKeys.secret(i, version: 4)
            switch writer {
            case .floorUpdate: try floor.update(account: targets[i], secret: secret)
            case .secItemUpdate: try ours.update(account: targets[i], secret: secret)
            case .schemaUpdate: try schemaFile.update(accountIndex: targetIndexes[i], meta: newRows[i].meta, secret: newRows[i].secret)
            case .essentialUpdate: try work.update(account: targets[i], secret: secret, asCaller: true, in: essentialFile)
            case .essentialUpdateWithoutCaller: try work.update(account: targets[i], secret: secret, asCaller: false, in: withoutCallerFile)
            default: throw BenchFailure("write-bound: \(writer.rawValue) is not an update")
            }
        }
        withExtendedLifetime(engineHandles) {}

        // The essential work alone, warm: an add's, and an update's on a row already read.
        let someRow = try work.add(account: WorkloadKeys.fresh(84_000_000), secret: WorkloadKeys.secret(0), asCaller: false)
        let addCPU = try timeEach(Array(0..<operations)) { i in
            let row = try work.add(account: WorkloadKeys.fresh(85_000_000 + i), secret: WorkloadKeys.secret(i), asCaller: true)
            guard row.meta.count == sizes.attributes else { throw BenchFailure("write-bound: a sealed part has the wrong length") }
        }
        let updateCPU = try timeEach(Array(0..<operations)) { i in
            let secret = WorkloadKeys.secret(i, version: 5)
            _ = try work.updateIndexes(account: WorkloadKeys.fresh(84_000_000), secret: secret, asCaller: true)
            let changed = try work.rewrite(reference: someRow.persistentReference, meta: someRow.meta, secret: secret)
            guard changed.meta.count == sizes.attributes else { throw BenchFailure("write-bound: a sealed part has the wrong length") }
        }

        var medians: [String: Double] = [:], p90: [String: Double] = [:]
        for writer in Writer.allCases {
            let summary = LatencySummary(nanoseconds: samples[writer] ?? [])
            medians[writer.rawValue] = summary.median_us
            p90[writer.rawValue] = summary.p90_us
        }
        (medians[essentialAddCPU], p90[essentialAddCPU]) = (addCPU.median_us, addCPU.p90_us)
        (medians[essentialUpdateCPU], p90[essentialUpdateCPU]) = (updateCPU.median_us, updateCPU.p90_us)
        func ratio(_ writer: Writer, over floorWriter: Writer) -> Double {
            (medians[writer.rawValue]! / medians[floorWriter.rawValue]! * 100).rounded() / 100
        }
        return Result(items: items, operations: operations, pause_us: pauseMicroseconds,
                      sealed_attributes_bytes: sizes.attributes, sealed_secret_bytes: sizes.secret,
                      persistent_reference_bytes: sizes.persistentReference, median_us: medians, p90_us: p90,
                      add: Ratios(schema_ratio: ratio(.schemaInsert, over: .floorAdd),
                                  bound_ratio: ratio(.essentialAdd, over: .floorAdd),
                                  bound_ratio_without_caller: ratio(.essentialAddWithoutCaller, over: .floorAdd),
                                  ours_ratio: ratio(.secItemAdd, over: .floorAdd),
                                  in_engine_transaction_ratio: ratio(.essentialAddInTransaction, over: .floorAdd)),
                      update: Ratios(schema_ratio: ratio(.schemaUpdate, over: .floorUpdate),
                                     bound_ratio: ratio(.essentialUpdate, over: .floorUpdate),
                                     bound_ratio_without_caller: ratio(.essentialUpdateWithoutCaller, over: .floorUpdate),
                                     ours_ratio: ratio(.secItemUpdate, over: .floorUpdate)))
    }
}
