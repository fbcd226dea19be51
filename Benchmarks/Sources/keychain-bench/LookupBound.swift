import Crypto
import Foundation
import KeychainServices

/// `keychain-bench lookup-bound`: the least that a `SecItemCopyMatching` by service and account,
/// over rows sealed the way ours are, has to spend, timed piece by piece in the same run as the
/// floor's lookup and our own.
///
/// The pieces, each timed over the same random accounts:
/// - the floor's lookup (a plaintext `SELECT` through a prepared statement): any lookup reads
///   the row at least this fast;
/// - the caller's side of the API: the query `[String: Any]` bridged `as CFDictionary`, and the
///   result's `as? Data` on an object the API handed out (the lines around the call in every
///   caller, and in the bench's own lookup);
/// - the four AES-GCM opens of a sealed row through swift-crypto (each part's item key unwrapped
///   under the class key, then the part opened), with blobs and authenticated data of the sizes
///   the keychain file holds;
/// - one HMAC-SHA-256 of the account (its blind index), reported beside the bound, not in it;
/// - a freshness check (`PRAGMA data_version`, a read transaction of its own): what a lookup that
///   kept sealed rows in memory instead of reading them would still pay per call to see other
///   processes' writes, for a second bound with it in place of the floor's read.
///
/// Each piece is timed in its own tight loop, so it runs warm: the sum is an underestimate of
/// what a real call pays, which is what a bound should be.
enum LookupBound {
    struct Result: Codable {
        var items: Int
        var operations: Int
        var rounds: Int
        /// Sizes read from the filled keychain: sealed attributes, sealed secret, persistent reference.
        var sealed_attributes_bytes: Int
        var sealed_secret_bytes: Int
        var persistent_reference_bytes: Int
        /// Per piece, each round's median in µs.
        var rounds_median_us: [String: [Double]]
        /// Per piece, the median of the rounds' medians in µs.
        var median_us: [String: Double]
        /// (floor + caller's side + four opens) / floor: no implementation of this design behind
        /// this API goes below it.
        var bound_ratio: Double
        /// The same without the caller's side (what the call itself cannot go below).
        var bound_ratio_without_caller: Double
        /// (freshness check + caller's side + four opens) / floor: the bound for a lookup that keeps
        /// sealed rows in memory and only checks per call that the file has not changed.
        var cached_rows_bound_ratio: Double
        /// Our `SecItemCopyMatching` (with the caller's side, as the core benchmark times it) / floor.
        var ours_ratio: Double
    }

    /// What is timed; the raw names are the JSON's keys.
    enum Piece: String, CaseIterable {
        case floorLookup = "floor_lookup", secItemLookup = "secitem_lookup", callerSide = "caller_side",
             fourOpens = "four_opens", accountHMAC = "account_hmac", freshnessCheck = "freshness_check"
    }

    static func run(directory: String, items: Int, operations: Int, rounds: Int) throws -> Result {
        let floor = try SQLiteFloorSystem(path: directory + "/bound-floor.sqlite")
        let ours = try SecItemSystem(path: directory + "/bound.keychain-db", deviceKeyPath: directory + "/device-key")
        progress("lookup-bound: filling \(items) items into the floor and the keychain")
        try floor.fill(from: 0, to: items)
        try ours.fill(from: 0, to: items)

        let sizes = try sealedSizes(keychainPath: ours.path)
        let rows = try (0..<items).map { _ in try SealedRow(sizes) }
        let caller = try CallerSide(resultFrom: ours)
        let indexKey = SymmetricKey(size: .bits256)

        var generator = SplitMix64(seed: 7)
        let accounts = (0..<operations).map { _ in Int(generator.next() % UInt64(items)) }
        let pieces = Piece.allCases
        var perRound: [Piece: [Double]] = [:]
        for round in 0..<rounds {
            // The order turns with each round, so no piece always runs first or after another.
            for offset in 0..<pieces.count {
                let piece = pieces[(round + offset) % pieces.count]
                let summary: LatencySummary
                switch piece {
                case .floorLookup: summary = try timeEach(accounts) { try floor.lookup(account: WorkloadKeys.filler($0)) }
                case .secItemLookup: summary = try timeEach(accounts) { try ours.lookup(account: WorkloadKeys.filler($0)) }
                case .callerSide: summary = try timeEach(accounts) { try caller.bridge(account: WorkloadKeys.filler($0)) }
                case .fourOpens: summary = try timeEach(accounts) { try rows[$0].openAll() }
                case .freshnessCheck: summary = try timeEach(accounts) { _ in try floor.db.run("PRAGMA data_version", []) }
                case .accountHMAC: summary = try timeEach(accounts) { try accountIndex(WorkloadKeys.filler($0), indexKey) }
                }
                perRound[piece, default: []].append(summary.median_us)
            }
            progress("  round \(round + 1): " + pieces.map { "\($0.rawValue) \(perRound[$0]!.last!) µs" }.joined(separator: ", "))
        }
        let medians = perRound.mapValues(median)
        func ratio(_ sum: Piece...) -> Double { (sum.map { medians[$0]! }.reduce(0, +) / medians[.floorLookup]! * 100).rounded() / 100 }
        return Result(items: items, operations: operations, rounds: rounds,
                      sealed_attributes_bytes: sizes.attributes, sealed_secret_bytes: sizes.secret,
                      persistent_reference_bytes: sizes.persistentReference,
                      rounds_median_us: Dictionary(uniqueKeysWithValues: perRound.map { ($0.key.rawValue, $0.value) }),
                      median_us: Dictionary(uniqueKeysWithValues: medians.map { ($0.key.rawValue, $0.value) }),
                      bound_ratio: ratio(.floorLookup, .callerSide, .fourOpens),
                      bound_ratio_without_caller: ratio(.floorLookup, .fourOpens),
                      cached_rows_bound_ratio: ratio(.freshnessCheck, .callerSide, .fourOpens),
                      ours_ratio: ratio(.secItemLookup))
    }

    struct Sizes { var attributes: Int, secret: Int, persistentReference: Int }

    /// The lengths of one generic password's sealed parts, as the engine wrote them.
    static func sealedSizes(keychainPath: String) throws -> Sizes {
        let db = try RawSQLite(path: keychainPath)
        func length(_ column: String) throws -> Int {
            guard let bytes = try db.run("SELECT \(column) FROM genp LIMIT 1", []).firstBlob, !bytes.isEmpty else {
                throw BenchFailure("lookup-bound: the keychain has no generic password with a \(column) column")
            }
            return bytes.count
        }
        return Sizes(attributes: try length("meta"), secret: try length("secret"), persistentReference: try length("persistref"))
    }

    /// One row's two sealed parts, laid out as the keychain lays them out (``SealedPart``).
    struct SealedRow {
        let classKey: SymmetricKey
        let parts: [(blob: Data, wrapAAD: [UInt8], contentAAD: [UInt8])]

        init(_ sizes: Sizes) throws {
            classKey = SymmetricKey(size: .bits256)
            let reference = [UInt8](repeating: 0x5a, count: sizes.persistentReference)
            var parts: [(blob: Data, wrapAAD: [UInt8], contentAAD: [UInt8])] = []
            var generator = SystemRandomNumberGenerator()
            for (name, total) in [("meta", sizes.attributes), ("secret", sizes.secret)] {
                let contentLength = total - SealedPart.overhead
                guard contentLength >= 0 else { throw BenchFailure("lookup-bound: a sealed part of \(total) bytes is too short") }
                let random = (0..<SealedPart.randomLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let blob = try SealedPart.seal(Data(count: contentLength), part: name, reference: reference, classKey: classKey,
                                               random: random[...])
                parts.append((Data(blob), SealedPart.wrapAAD(name, reference), SealedPart.contentAAD(name, reference)))
            }
            self.parts = parts
        }

        /// Unwraps each part's key and opens the part: the four opens of a lookup with data.
        func openAll() throws {
            for part in parts {
                let start = part.blob.startIndex + 1
                let wrapped = part.blob[start..<start + SealedPart.wrappedKeyLength]
                let keyBytes = try AES.GCM.open(AES.GCM.SealedBox(combined: wrapped), using: classKey, authenticating: part.wrapAAD)
                let content = part.blob[(start + SealedPart.wrappedKeyLength)...]
                let plaintext = try AES.GCM.open(AES.GCM.SealedBox(combined: content), using: SymmetricKey(data: keyBytes),
                                                 authenticating: part.contentAAD)
                guard plaintext.count == content.count - SealedPart.boxOverhead else { throw BenchFailure("lookup-bound: an open lost bytes") }
            }
        }
    }

    /// What a caller of `SecItemCopyMatching` does around the call: the query dictionary
    /// bridged for the API, and the returned `CFData` read back as `Data`.
    final class CallerSide {
        /// A result as the API hands it out, of the class it hands out (a fresh object per call
        /// there; making it is the API's cost, and how fast `as? Data` reads it depends on its class).
        let result: CFTypeRef

        init(resultFrom system: SecItemSystem) throws {
            result = try system.copyData(account: WorkloadKeys.filler(0))
        }

        func bridge(account: String) throws {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: WorkloadKeys.service,
                kSecAttrAccount as String: account,
                kSecReturnData as String: kCFBooleanTrue!,
            ]
            let bridged = query as CFDictionary
            guard bridged.count == 4, let data = result as? Data, data.count == 24 else {
                throw BenchFailure("lookup-bound: the caller's bridging lost something")
            }
        }
    }

    /// The account's blind index: one HMAC-SHA-256 of its bytes.
    static func accountIndex(_ account: String, _ key: SymmetricKey) throws {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(account.utf8), using: key)
        guard mac.byteCount == 32 else { throw BenchFailure("lookup-bound: a short MAC") }
    }
}
