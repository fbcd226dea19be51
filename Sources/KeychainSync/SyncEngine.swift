#if Sync  // built only with the Sync trait (Package.swift)
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
        /// The X25519 key group keys are shared to.
        static let devicePrivateKey = "device.private-key"
        /// The Ed25519 key this device signs roster statements and key shares with.
        static let deviceSigningKey = "device.signing-key"
        /// The fingerprint of the group this device founded or was told to join (`join --group`).
        static let groupFingerprint = "group.fingerprint"
        /// Each verified roster statement, by its sequence number (sealed, as every secret here).
        static let rosterPrefix = "roster."
        static let epochKeyPrefix = "key.epoch."
        /// The highest manifest version this device verified.
        static let manifestVersion = "manifest.version"
        static let cursor = "cursor"
        static let lastSync = "last-sync"
        static let rejected = "count.rejected"
        static let replayed = "count.replayed"
        /// Written only by versions before the roster: its presence marks a state to upgrade.
        static let legacyRecordIDKey = "key.record-id"
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

    /// This device's private keys; throws for a state written before the roster existed.
    func deviceKeys() throws -> DeviceKeys {
        guard let agreement = try state.secret(Setting.devicePrivateKey) else { throw SyncError.notJoined }
        guard let signing = try state.secret(Setting.deviceSigningKey) else { throw SyncError.rosterReestablished(groupFingerprint: nil) }
        return DeviceKeys(signing: try Curve25519.Signing.PrivateKey(rawRepresentation: signing),
                          agreement: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreement))
    }

    /// Whether this keychain's sync state was written by a version before the roster.
    func isLegacyState() throws -> Bool {
        try state.string(Setting.group) != nil && state.secret(Setting.deviceSigningKey) == nil
    }

    /// The group keys this device holds, or nil before its approval.
    func heldKeys() throws -> GroupKeys? {
        var keys = GroupKeys(groupID: try groupID())
        for name in try state.names(withPrefix: Setting.epochKeyPrefix) {
            guard let epoch = Int64(name.dropFirst(Setting.epochKeyPrefix.count)), let key = try state.secret(name) else { continue }
            keys.add(epoch: epoch, key: SymmetricKey(data: key))
        }
        return keys.latestEpoch == nil ? nil : keys
    }

    func storeKey(epoch: Int64, key: SymmetricKey) throws {
        try state.setSecret(Setting.epochKeyPrefix + String(epoch), key.withUnsafeBytes { Data($0) })
    }

    /// This device's own fingerprint, which `approve` is given on another device.
    package func deviceFingerprint() throws -> String {
        try deviceKeys().identity.fingerprint
    }

    /// The roster this device verified and keeps in its state file.
    func localRoster() throws -> Roster {
        var roster = Roster(groupID: try groupID())
        for name in try state.names(withPrefix: Setting.rosterPrefix) {
            guard let encoded = try state.secret(name) else { continue }
            try roster.append(try RosterStatement(encoded: encoded))
        }
        return roster
    }

    /// What one connection's work knows of the group: the verified roster and the keys held.
    struct GroupView: Sendable {
        var roster: Roster
        var keys: GroupKeys
    }

    /// Brings this device's view of the group up to date from the server, believing only what
    /// members signed: new roster statements are verified against the chain this device holds
    /// (or, before its approval, against the group fingerprint it was given), and key shares
    /// are accepted only from the member the roster says decided on them. Records under a new
    /// epoch have new ids, to which the agreed record states are carried over.
    func refresh(_ connection: PostgresConnection) async throws -> GroupView {
        if try isLegacyState() { return try await upgradeLegacyState(connection) }
        let group = try groupID()
        let me = try deviceKeys()
        let myID = me.identity.id
        var roster = try localRoster()
        var fetched: [RosterStatement] = []
        for try await encoded in try await connection.query(
            "SELECT statement FROM sync_roster WHERE group_id = \(group) AND seq > \(roster.head?.sequence ?? 0) ORDER BY seq",
            logger: logger).decode(Data.self) {
            let statement = try RosterStatement(encoded: encoded)
            try roster.append(statement)
            fetched.append(statement)
        }
        if let expected = try state.string(Setting.groupFingerprint), let found = roster.groupFingerprint, found != expected {
            throw SyncError.wrongGroup(expected: expected, found: found)
        }
        try state.transaction { () throws(KeychainStoreError) in
            for statement in fetched { try storeStatement(statement) }
        }
        guard roster.members[myID] != nil else {
            if roster.removed.contains(myID) { throw SyncError.removed }
            throw SyncError.pendingApproval(fingerprint: me.identity.fingerprint)
        }
        var keys = try heldKeys() ?? GroupKeys(groupID: group)
        let previousLatest = keys.latestEpoch
        var shares: [KeyShare] = []
        for try await encoded in try await connection.query(
            """
            SELECT share FROM sync_key_shares WHERE group_id = \(group) AND recipient = \(myID) AND epoch > \(previousLatest ?? 0)
            AND epoch <= \(roster.epoch) ORDER BY epoch
            """, logger: logger).decode(Data.self) {
            shares.append(try KeyShare(encoded: encoded))
        }
        for share in shares {
            guard roster.mayShare(epoch: share.epoch, from: share.author, to: myID), let author = roster.everAdmitted[share.author] else {
                throw SyncError.untrustedServer("a key share for epoch \(share.epoch) comes from a device no member statement names for it")
            }
            let key = try share.open(groupID: group, me: me, authorIdentity: author.identity)
            keys.add(epoch: share.epoch, key: key)
            try storeKey(epoch: share.epoch, key: key)
        }
        guard keys.latestEpoch == roster.epoch else {
            throw SyncError.untrustedServer("the group is in epoch \(roster.epoch), and its key has not reached this device")
        }
        if let previousLatest, previousLatest < roster.epoch {
            try renameRecordStates(from: previousLatest, to: roster.epoch, keys: keys)
        }
        try await connection.query("UPDATE sync_devices SET last_seen = now() WHERE group_id = \(group) AND device_id = \(myID)",
                                   logger: logger)
        return GroupView(roster: roster, keys: keys)
    }

    /// Record ids change with the epoch while revisions stay (a re-key seals every record again
    /// under its new id, at its old revision): carries each local item's agreed state over to
    /// its new id, so that a re-key costs no device a full comparison or a second push of its
    /// deletes. States of records with no local item are dropped; the next pull sets them again.
    func renameRecordStates(from old: Int64, to new: Int64, keys: GroupKeys) throws {
        let known = try state.recordStates()
        var renamed: [Data: SyncStateFile.RecordState] = [:]
        for item in try keychain.synchronizableItems(includeSecrets: false) {
            if let agreed = known[try keys.recordID(of: item, epoch: old)] { renamed[try keys.recordID(of: item, epoch: new)] = agreed }
        }
        try state.replaceRecordStates(renamed)
    }

    /// Keeps a verified statement in the state file.
    func storeStatement(_ statement: RosterStatement) throws(KeychainStoreError) {
        try state.setSecret(Setting.rosterPrefix + String(format: "%012lld", statement.sequence), statement.encoded)
    }
}
#endif
