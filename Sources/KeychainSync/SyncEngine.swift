import Crypto
package import Foundation
package import KeychainStore
import Logging
import PostgresNIO

/// One keychain's side of a sync group (docs/sync.md): joining, approving and removing devices,
/// and sync rounds that pull other devices' records and push this keychain's changes.
///
/// Everything here runs outside `SecItem*` calls: those only write the keychain file, and a
/// round reads what changed from it. An engine is used by one process at a time per keychain
/// (the sync state file's transactions keep two from corrupting it, not from doing work twice).
package actor SyncEngine {
    let keychain: KeychainFile
    let state: SyncStateFile
    let logger: Logger
    /// How many records go to the server in one transaction.
    static let pushBatch = 500
    /// How many records one pull query reads.
    static let pullBatch = 1000

    /// The names under which the state file keeps its settings; each lives only here.
    enum Setting {
        static let url = "url"
        static let group = "group"
        static let device = "device"
        static let devicePrivateKey = "device.private-key"
        static let recordIDKey = "key.record-id"
        static let epochKeyPrefix = "key.epoch."
        static let cursor = "cursor"
        static let lastSync = "last-sync"
        static let rejected = "count.rejected"
        static let replayed = "count.replayed"
    }

    /// An engine for the keychain at `keychainURL`, whose state lives in the file beside it.
    package init(keychainURL: URL, deviceKey: DeviceKey) throws {
        keychain = try KeychainFile.open(at: keychainURL, deviceKey: deviceKey, create: true)
        state = try SyncStateFile(at: SyncStateFile.location(forKeychain: keychainURL), deviceKey: deviceKey)
        // PostgresNIO logs every query at debug level; nothing of it is for the user.
        logger = Logger(label: "keychain-sync", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    // MARK: Connection

    func connect(_ url: SyncServerURL) async throws -> PostgresConnection {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try url.configuration(), id: 1, logger: logger)
        } catch {
            throw SyncConnectionError.explaining(error, url: url)
        }
        do {
            let logger = logger
            let migration = Task {
                // A client that vanishes mid-transaction (a network cut without a reset) would
                // otherwise hold its group's row lock, and so every other device's push, until
                // TCP gives up on it hours later: the server ends such a session itself. A push
                // sends its statements back to back, so only a vanished client comes near this.
                try await connection.query("SET idle_in_transaction_session_timeout = '60s'", logger: logger)
                try await ServerSchema.migrate(connection, logger: logger)
            }
            try await ConnectionGuard.value(of: migration, on: connection, deadline: SyncEngine.deadline)
        } catch {
            try? await connection.close()
            throw SyncConnectionError.explaining(error, url: url)
        }
        return connection
    }

    /// How long one connection's work may take before it is cut (ConnectionGuard): a peer that
    /// vanishes without closing the socket leaves a query waiting for an answer that never comes.
    /// `SWIFT_KEYCHAIN_SYNC_DEADLINE` (seconds) overrides it.
    package static var deadline: Double {
        ProcessInfo.processInfo.environment["SWIFT_KEYCHAIN_SYNC_DEADLINE"].flatMap(Double.init) ?? 300
    }

    func withConnection<T: Sendable>(_ body: @escaping (PostgresConnection) async throws -> T) async throws -> T {
        guard let text = try state.string(Setting.url) else { throw SyncError.notJoined }
        return try await withConnection(to: try SyncServerURL(text), body)
    }

    /// Connects, runs `body` until it ends, the connection closes or the deadline passes, and
    /// closes the connection.
    func withConnection<T: Sendable>(to url: SyncServerURL,
                                     _ body: @escaping (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await connect(url)
        do {
            // Isolated to this actor, like the caller that formed `body`.
            let work = Task { [self] in
                _ = self
                return try await body(connection)
            }
            let result = try await ConnectionGuard.value(of: work, on: connection, deadline: SyncEngine.deadline)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw SyncConnectionError.explaining(error, url: url)
        }
    }

    func transaction<T: Sendable>(_ connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        do {
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            // A closed connection's transaction is rolled back by the server, and a query on it
            // would never return (ConnectionGuard).
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    // MARK: Identity and keys held locally

    func groupID() throws -> String {
        guard let group = try state.string(Setting.group) else { throw SyncError.notJoined }
        return group
    }

    func deviceID() throws -> String {
        guard let device = try state.string(Setting.device) else { throw SyncError.notJoined }
        return device
    }

    func devicePrivateKey() throws -> Curve25519.KeyAgreement.PrivateKey {
        guard let raw = try state.secret(Setting.devicePrivateKey) else { throw SyncError.notJoined }
        return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
    }

    /// The group keys this device holds, or nil before its approval.
    func heldKeys() throws -> GroupKeys? {
        guard let recordIDKey = try state.secret(Setting.recordIDKey) else { return nil }
        var keys = GroupKeys(groupID: try groupID(), recordIDKey: SymmetricKey(data: recordIDKey))
        for name in try state.names(withPrefix: Setting.epochKeyPrefix) {
            guard let epoch = Int64(name.dropFirst(Setting.epochKeyPrefix.count)), let key = try state.secret(name) else { continue }
            keys.add(epoch: epoch, key: SymmetricKey(data: key))
        }
        return keys
    }

    func storeKey(epoch: Int64, key: SymmetricKey) throws {
        try state.setSecret(Setting.epochKeyPrefix + String(epoch), key.withUnsafeBytes { Data($0) })
    }

    /// This device's own fingerprint, which `approve` is given on another device.
    package func deviceFingerprint() throws -> String {
        Fingerprint.of(publicKey: try devicePrivateKey().publicKey)
    }

    /// Asks the server for this device's standing and any group keys wrapped to it since the
    /// last time; returns the keys it now holds.
    func refreshKeys(_ connection: PostgresConnection) async throws -> GroupKeys {
        let group = try groupID(), device = try deviceID()
        var status: String?
        for try await value in try await connection.query(
            "SELECT status FROM sync_devices WHERE group_id = \(group) AND device_id = \(device)", logger: logger).decode(String.self) {
            status = value
        }
        switch status {
        case "approved": break
        case "pending": throw SyncError.pendingApproval(fingerprint: try deviceFingerprint())
        default: throw SyncError.removed
        }
        var keys = try heldKeys()
        let after = keys?.latestEpoch ?? 0
        var wrapped: [WrappedKey] = []
        for try await (epoch, encapsulated, ciphertext) in try await connection.query(
            """
            SELECT epoch, encapsulated_key, ciphertext FROM sync_group_keys
            WHERE group_id = \(group) AND device_id = \(device) AND epoch > \(after) ORDER BY epoch
            """, logger: logger).decode((Int64, Data, Data).self) {
            wrapped.append(WrappedKey(epoch: epoch, encapsulatedKey: encapsulated, ciphertext: ciphertext))
        }
        let privateKey = try devicePrivateKey()
        for key in wrapped {
            let (recordIDKey, epochKey) = try GroupKeys.unwrap(key, groupID: group, deviceID: device, privateKey: privateKey)
            if let held = keys {
                // The record-id key is fixed for a group's life: a different one means someone
                // other than a member wrapped this key.
                guard held.recordIDKey == recordIDKey else { throw SyncError.crypto("a wrapped group key does not belong to this group") }
            } else {
                try state.setSecret(Setting.recordIDKey, recordIDKey.withUnsafeBytes { Data($0) })
                keys = GroupKeys(groupID: group, recordIDKey: recordIDKey)
            }
            keys?.add(epoch: key.epoch, key: epochKey)
            try storeKey(epoch: key.epoch, key: epochKey)
        }
        guard let keys else { throw SyncError.server("this device is approved but holds no group key") }
        try await connection.query("UPDATE sync_devices SET last_seen = now() WHERE group_id = \(group) AND device_id = \(device)",
                                   logger: logger)
        return keys
    }
}
