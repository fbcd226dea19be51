import Foundation

/// The shared workload, the same for every system in BENCHMARKS.md: items keyed by a service and
/// an account, a 24-byte secret, one durable operation per call.
///
/// Filler item i is (service `com.example.bench`, account `user-0000123`): one application with
/// many accounts, the way apps use the keychain, and the case where a lookup must use both key
/// attributes to be selective.
enum WorkloadKeys {
    static let service = "com.example.bench"
    static func filler(_ i: Int) -> String { "user-" + pad(i) }
    static func fresh(_ i: Int) -> String { "new-" + pad(i) }
    static func secret(_ i: Int, version: Int = 0) -> [UInt8] { Array("pw\(version)-\(pad(i))-abcdefghijklm".utf8.prefix(24)) }
    static func pad(_ i: Int) -> String {
        let digits = String(i)
        return String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }
}

/// One system under test, driven through the shared workload.
protocol KeyValueSystem: AnyObject {
    var name: String { get }
    /// Grows the store from `from` to `to` filler items (untimed, may be batched).
    func fill(from: Int, to: Int) throws
    func add(account: String, secret: [UInt8]) throws
    /// Looks the item up by its key, with its secret; fails when it is absent.
    func lookup(account: String) throws
    func update(account: String, secret: [UInt8]) throws
    func delete(account: String) throws
    /// Bytes on disk now.
    var bytesOnDisk: Int { get }
    /// The SQLite database file.
    var databasePath: String { get }
}

extension KeyValueSystem {
    /// Bytes of the database file alone once its WAL is checkpointed into it, through a
    /// separate plain SQLite connection (a checkpoint moves pages, it changes no content). The
    /// WAL file keeps its size: truncating it would make the next commits extend the file, and
    /// an fsync that must also record a new file size costs more than the steady state.
    func settledBytes(path: String) throws -> Int {
        let db = try RawSQLite(path: path)
        try db.execute("PRAGMA wal_checkpoint(FULL)")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
}

/// Figures of one system at one item count.
struct SizeResult: Codable, Sendable {
    var items: Int
    var add: LatencySummary
    var lookup: LatencySummary
    var update: LatencySummary
    var delete: LatencySummary
    var fill_seconds: Double
    /// Database, WAL and shared-memory files with n + ops items, as the workload left them.
    var bytes_on_disk: Int
    /// The database file alone with n items, after a WAL checkpoint, divided by n.
    var bytes_per_item: Double
}

/// Runs the workload at each size, growing one store: fill to n, then `operations` timed
/// lookups and updates of random existing items, adds of new items, and deletes of the new
/// items (so the store is back to n items).
func runWorkload(_ system: any KeyValueSystem, sizes: [Int], operations: Int, seed: UInt64 = 42) throws -> [SizeResult] {
    var generator = SplitMix64(seed: seed)
    var filled = 0
    var results: [SizeResult] = []
    for n in sizes.sorted() {
        let fillStart = nowNanoseconds()
        try system.fill(from: filled, to: n)
        let fillSeconds = Double(nowNanoseconds() - fillStart) / 1e9
        progress("  \(system.name): filled to \(n) in \(String(format: "%.1f", fillSeconds)) s")
        filled = n
        let fresh = (0..<operations).map { (WorkloadKeys.fresh($0 + n * 10), $0) }
        let existing = (0..<operations).map { _ in Int(generator.next() % UInt64(n)) }
        // Lookups and updates first, at exactly n items; then adds (n to n + ops) and deletes
        // of the added items (back to n).
        let lookup = try timeEach(existing) { try system.lookup(account: WorkloadKeys.filler($0)) }
        let update = try timeEach(existing) { try system.update(account: WorkloadKeys.filler($0), secret: WorkloadKeys.secret($0, version: 1)) }
        let add = try timeEach(fresh) { try system.add(account: $0.0, secret: WorkloadKeys.secret($0.1)) }
        let bytes = system.bytesOnDisk
        let delete = try timeEach(fresh) { try system.delete(account: $0.0) }
        let settled = try system.settledBytes(path: system.databasePath)
        results.append(SizeResult(items: n, add: add, lookup: lookup, update: update, delete: delete,
                                  fill_seconds: (fillSeconds * 1000).rounded() / 1000,
                                  bytes_on_disk: bytes, bytes_per_item: (Double(settled) / Double(n) * 10).rounded() / 10))
        progress("  \(system.name) n=\(n): add \(add.median_us) µs, lookup \(lookup.median_us) µs, update \(update.median_us) µs, delete \(delete.median_us) µs")
    }
    return results
}

/// A small deterministic generator, so every system gets the same random keys.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One kind of call of the shared workload.
enum CallKind: String { case add, update, lookup }

/// `count` calls of `kind` on `system`, filled to `items` filler items: adds of fresh accounts
/// (in a range of their own; the other benchmarks use 70–85 and 90 million), updates of filler
/// items to a new secret, lookups of filler items, the items drawn from `seed`. `beforeEach`
/// runs before each call. What the children of instructions.sh and footprint.sh run.
func runCalls(_ kind: CallKind, on system: any KeyValueSystem, items: Int, count: Int, seed: UInt64,
              beforeEach: () -> Void = {}) throws {
    var generator = SplitMix64(seed: seed)
    for n in 0..<count {
        beforeEach()
        let i = Int(generator.next() % UInt64(items))
        switch kind {
        case .add: try system.add(account: WorkloadKeys.fresh(86_000_000 + n), secret: WorkloadKeys.secret(n))
        case .update: try system.update(account: WorkloadKeys.filler(i), secret: WorkloadKeys.secret(i, version: 1 + n % 9))
        case .lookup: try system.lookup(account: WorkloadKeys.filler(i))
        }
    }
}
