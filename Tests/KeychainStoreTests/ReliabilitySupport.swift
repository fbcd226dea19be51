import Foundation
@testable import KeychainStore
import KeychainTestSupport
import Testing

/// SQLite result codes the fault proofs inject (from sqlite3.h; the test target does not import
/// SQLite itself).
enum SQLiteCode {
    static let busy: Int32 = 5
    static let ioerr: Int32 = 10
    static let full: Int32 = 13
    /// SQLITE_IOERR_WRITE and SQLITE_IOERR_FSYNC: extended codes SQLite gives for failed
    /// write(2) and fsync(2).
    static let ioerrWrite: Int32 = 10 | (3 << 8)
    static let ioerrFsync: Int32 = 10 | (4 << 8)
}

/// What a keychain holds, as far as anything outside the engine can tell: every row of every
/// class (live items with their secrets, tombstones), whether it has a password, and SQLite's
/// own row counts. Two snapshots are equal when no call could tell the keychains apart.
struct KeychainSnapshot: Equatable, CustomStringConvertible {
    struct Row: Equatable {
        let itemClass: String
        let reference: Data
        let attributes: [String: AttributeValue]
        let secret: Data?
    }

    let rows: [Row]
    let rowCounts: [String: Int64]
    let hasPassword: Bool
    let lockTimeout: TimeInterval?

    init(_ file: KeychainFile) throws {
        var rows: [Row] = []
        var counts: [String: Int64] = [:]
        for itemClass in ItemClass.allCases {
            for tomb: Int64 in [0, 1] {
                let query = ItemQuery(itemClass: itemClass, filters: ["tomb": .integer(tomb)], anySynchronizable: true)
                let found = try Self.find(file, query, secrets: tomb == 0)
                rows += found.map { Row(itemClass: itemClass.code, reference: $0.persistentReference,
                                        attributes: $0.attributes, secret: $0.secret) }
            }
            counts[itemClass.code] = try file.withState { state throws(KeychainStoreError) -> Int64 in
                let statement = try state.db.statement("SELECT count(*) FROM \(itemClass.code)")
                _ = try statement.step()
                return statement.int64(0)
            }
        }
        self.rows = rows.sorted { $0.reference.lexicographicallyPrecedes($1.reference) }
        rowCounts = counts
        hasPassword = file.hasPassword
        lockTimeout = file.lockTimeout
    }

    /// The matching items, none when nothing matches.
    static func find(_ file: KeychainFile, _ query: ItemQuery, secrets: Bool) throws(KeychainStoreError) -> [StoredItem] {
        do {
            return try file.find(query, identity: .administrator(), limit: nil, includeSecrets: secrets)
        } catch {
            if error.status == SecStatus.itemNotFound { return [] }
            throw error
        }
    }

    // Names and counts only: a snapshot's description must not carry the secrets it holds.
    var description: String {
        "\(rows.count) rows (\(rowCounts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))), password: \(hasPassword)"
    }
}

/// A keychain on disk with a few items of two classes, one of them synchronizable (so deletes
/// and key changes leave tombstones), for proofs that must reopen the file.
struct ReliabilityFixture {
    let directory: URL
    let url: URL
    let deviceKey: DeviceKey

    init(password: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-reliability-\(UUID().uuidString)", isDirectory: true)
        url = directory.appendingPathComponent("reliability.keychain-db")
        deviceKey = .random()
        let file = try KeychainFile.open(at: url, deviceKey: deviceKey)
        for index in 0..<4 {
            _ = try file.add(.genericPassword, attributes: Self.attributes(index), secret: Data("secret-\(index)-Kq7".utf8),
                             identity: .unconfigured)
        }
        _ = try file.add(.internetPassword, attributes: ["acct": .string("web"), "srvr": .string("example.com"), "sync": .integer(1)],
                         secret: Data("web-secret".utf8), identity: .unconfigured)
        if let password { try file.setPassword(password, currentPassword: nil) }
        file.forgetSharedUnlockState()
    }

    static func attributes(_ index: Int) -> [String: AttributeValue] {
        ["acct": .string("account-\(index)"), "svce": .string("reliability.example"), "labl": .string("label \(index)"),
         "pdmn": .string("dk"), "sync": .integer(index == 3 ? 1 : 0)]
    }

    func open() throws -> KeychainFile { try KeychainFile.open(at: url, deviceKey: deviceKey, create: false) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// The state-changing calls the fault proofs run, each one transaction in the engine.
enum Mutation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case add, update, updateKey, delete, deleteSynchronizable, setPassword, setLockTimeout

    var testDescription: String { rawValue }

    func run(_ file: KeychainFile) throws(KeychainStoreError) {
        let genp = { (index: Int) in
            ItemQuery(itemClass: .genericPassword, filters: ["acct": .string("account-\(index)")], anySynchronizable: true)
        }
        switch self {
        case .add:
            _ = try file.add(.genericPassword, attributes: ["acct": .string("new"), "pdmn": .string("dk")],
                             secret: Data("new-secret".utf8), identity: .unconfigured)
        case .update:
            try file.update(genp(1), changes: ["labl": .string("changed label")], secret: Data("changed".utf8), identity: .unconfigured)
        case .updateKey:
            // A synchronizable item moving to a new primary key: the item row and a tombstone.
            try file.update(genp(3), changes: ["acct": .string("moved")], secret: nil, identity: .unconfigured)
        case .delete:
            try file.delete(genp(2), identity: .unconfigured)
        case .deleteSynchronizable:
            try file.delete(genp(3), identity: .unconfigured)
        case .setPassword:
            try file.setPassword("new password", currentPassword: nil)
        case .setLockTimeout:
            try file.setLockTimeout(300)
        }
    }
}

/// Runs `body` and returns the engine error it threw, or nil when it succeeded.
func engineError(of body: () throws(KeychainStoreError) -> Void) -> KeychainStoreError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
