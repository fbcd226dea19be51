import Crypto
package import Foundation
import KeychainStore
import PostgresNIO

extension SyncEngine {
    /// What `join` did.
    package enum JoinOutcome: Sendable, Equatable {
        /// This device created the group and is its first member.
        case createdGroup(deviceFingerprint: String, groupFingerprint: String)
        /// The group existed: this device waits for a member to approve it.
        case pending(deviceFingerprint: String)
        /// This keychain was in the group already.
        case alreadyJoined(deviceFingerprint: String)
    }

    /// Joins the group in the database at `urlText`, creating it when the database has none.
    package func join(urlText: String, deviceName: String) async throws -> JoinOutcome {
        if try state.string(Setting.group) != nil {
            return .alreadyJoined(deviceFingerprint: try deviceFingerprint())
        }
        return try await withConnection(to: try SyncServerURL(urlText)) { [self] connection in
            try await join(connection, urlText: urlText, deviceName: deviceName)
        }
    }

    private func join(_ connection: PostgresConnection, urlText: String, deviceName: String) async throws -> JoinOutcome {
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        let device = UUID().uuidString.lowercased()
        let fingerprint = Fingerprint.of(publicKey: privateKey.publicKey)
        let outcome: JoinOutcome = try await transaction(connection) {
            try await connection.query("SELECT pg_advisory_xact_lock(7273616776)", logger: logger)
            var existing: String?
            for try await group in try await connection.query("SELECT group_id FROM sync_groups ORDER BY created_at LIMIT 1",
                                                             logger: logger).decode(String.self) {
                existing = group
            }
            let publicKey = privateKey.publicKey.rawRepresentation
            if let existing {
                try await connection.query(
                    """
                    INSERT INTO sync_devices (group_id, device_id, public_key, name, status, last_seen)
                    VALUES (\(existing), \(device), \(publicKey), \(deviceName), 'pending', now())
                    """, logger: logger)
                try state.transaction { () throws(KeychainStoreError) in
                    try state.setString(Setting.group, existing)
                    try state.setString(Setting.device, device)
                    try state.setSecret(Setting.devicePrivateKey, privateKey.rawRepresentation)
                    try state.setString(Setting.url, urlText)
                }
                return .pending(deviceFingerprint: fingerprint)
            }
            // The first device: a new group, its record-id key and the first epoch's key.
            let group = SymmetricKey(size: .bits128).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
            var keys = GroupKeys(groupID: group, recordIDKey: SymmetricKey(size: .bits256))
            keys.add(epoch: 1, key: SymmetricKey(size: .bits256))
            try await connection.query("INSERT INTO sync_groups (group_id, epoch, revision) VALUES (\(group), 1, 0)", logger: logger)
            try await connection.query(
                """
                INSERT INTO sync_devices (group_id, device_id, public_key, name, status, last_seen)
                VALUES (\(group), \(device), \(publicKey), \(deviceName), 'approved', now())
                """, logger: logger)
            try await insertWrapped(try keys.wrap(epoch: 1, to: privateKey.publicKey, deviceID: device), group: group, device: device,
                                    connection)
            let epochKey = keys.epochKeys[1]!
            try state.transaction { () throws(KeychainStoreError) in
                try state.setString(Setting.group, group)
                try state.setString(Setting.device, device)
                try state.setSecret(Setting.devicePrivateKey, privateKey.rawRepresentation)
                try state.setSecret(Setting.recordIDKey, keys.recordIDKey.withUnsafeBytes { Data($0) })
                try state.setSecret(Setting.epochKeyPrefix + "1", epochKey.withUnsafeBytes { Data($0) })
                try state.setString(Setting.url, urlText)
            }
            return .createdGroup(deviceFingerprint: fingerprint, groupFingerprint: keys.fingerprint)
        }
        return outcome
    }

    func insertWrapped(_ wrapped: WrappedKey, group: String, device: String, _ connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO sync_group_keys (group_id, device_id, epoch, encapsulated_key, ciphertext)
            VALUES (\(group), \(device), \(wrapped.epoch), \(wrapped.encapsulatedKey), \(wrapped.ciphertext))
            """, logger: logger)
    }

    /// A device of the group as the server lists it.
    package struct Device: Sendable, Equatable {
        package let id: String
        package let name: String
        package let fingerprint: String
        package let status: String
        package let lastSeen: Date?
        let publicKey: Data
    }

    func devices(_ connection: PostgresConnection) async throws -> [Device] {
        var devices: [Device] = []
        for try await (id, name, key, status, seen) in try await connection.query(
            "SELECT device_id, name, public_key, status, last_seen FROM sync_devices WHERE group_id = \(try groupID()) ORDER BY name, device_id",
            logger: logger).decode((String, String, Data, String, Date?).self) {
            let fingerprint = (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: key)).map(Fingerprint.of(publicKey:)) ?? "invalid key"
            devices.append(Device(id: id, name: name, fingerprint: fingerprint, status: status, lastSeen: seen, publicKey: key))
        }
        return devices
    }

    /// Finds one device by fingerprint or id among `devices`.
    static func find(_ name: String, in devices: [Device]) throws(SyncError) -> Device {
        let matches = devices.filter { $0.fingerprint == name || $0.id == name }
        guard matches.count == 1 else { throw .noSuchDevice(name) }
        return matches[0]
    }

    /// Lets a pending device in: wraps the current group key to its public key.
    /// - Returns: the approved device (its fingerprint is what the person compared).
    package func approve(_ name: String) async throws -> Device {
        try await withConnection { [self] connection in
            let keys = try await refreshKeys(connection)
            let group = try groupID()
            return try await transaction(connection) {
                let epoch = try await lockGroup(connection).epoch
                guard epoch == keys.latestEpoch else { throw SyncError.missingEpochKey(epoch) }
                let device = try SyncEngine.find(name, in: try await devices(connection).filter { $0.status == "pending" })
                let publicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: device.publicKey)
                try await insertWrapped(try keys.wrap(epoch: epoch, to: publicKey, deviceID: device.id), group: group,
                                        device: device.id, connection)
                try await connection.query(
                    "UPDATE sync_devices SET status = 'approved' WHERE group_id = \(group) AND device_id = \(device.id)", logger: logger)
                return device
            }
        }
    }

    /// Takes the group's row lock for the rest of the transaction; returns its epoch and revision.
    func lockGroup(_ connection: PostgresConnection) async throws -> (epoch: Int64, revision: Int64) {
        var result: (Int64, Int64)?
        for try await row in try await connection.query(
            "SELECT epoch, revision FROM sync_groups WHERE group_id = \(try groupID()) FOR UPDATE", logger: logger).decode((Int64, Int64).self) {
            result = row
        }
        guard let result else { throw SyncError.server("the group's row is missing") }
        return result
    }

    /// Removes a device and re-keys the group so that it reads nothing written afterwards.
    package func removeDevice(_ name: String) async throws -> Device {
        try await withConnection { [self] connection in
            let keys = try await refreshKeys(connection)
            let device = try SyncEngine.find(name, in: try await devices(connection).filter { $0.status != "removed" })
            try await rekey(connection, keys: keys, removing: device.id)
            return device
        }
    }

    /// This device leaves its group: the others are re-keyed without it, and its sync state is
    /// forgotten. The keychain's items stay as they are.
    package func leave() async throws {
        let device = try deviceID()
        try await withConnection { [self] connection in
            do {
                let keys = try await refreshKeys(connection)
                try await rekey(connection, keys: keys, removing: device)
            } catch SyncError.pendingApproval {
                try await connection.query(
                    "UPDATE sync_devices SET status = 'removed' WHERE group_id = \(try groupID()) AND device_id = \(device)", logger: logger)
            } catch SyncError.removed {}
        }
        try state.reset()
    }

    /// A new epoch: a fresh group key wrapped to every approved device but `removed`, and every
    /// record sealed again under it, all in one transaction with the group's row locked, so no
    /// record written under the old key can appear afterwards.
    func rekey(_ connection: PostgresConnection, keys: GroupKeys, removing removed: String) async throws {
        let group = try groupID(), me = try deviceID()
        var keys = keys
        let newKey = SymmetricKey(size: .bits256)
        let newEpoch: Int64 = try await transaction(connection) {
            let epoch = try await lockGroup(connection).epoch
            guard epoch == keys.latestEpoch else { throw SyncError.missingEpochKey(epoch) }
            let next = epoch + 1
            keys.add(epoch: next, key: newKey)
            try await connection.query(
                "UPDATE sync_devices SET status = 'removed' WHERE group_id = \(group) AND device_id = \(removed)", logger: logger)
            for device in try await devices(connection) where device.status == "approved" {
                let publicKey = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: device.publicKey)
                try await insertWrapped(try keys.wrap(epoch: next, to: publicKey, deviceID: device.id), group: group,
                                        device: device.id, connection)
            }
            var records: [(Data, Int64, Int64, Data)] = []
            for try await row in try await connection.query(
                "SELECT record_id, revision, epoch, ciphertext FROM sync_records WHERE group_id = \(group)", logger: logger)
                .decode((Data, Int64, Int64, Data).self) {
                records.append(row)
            }
            for (recordID, revision, recordEpoch, ciphertext) in records {
                // A record that does not open (tampered with) is left as it is: no device applies it.
                guard let plaintext = try? keys.open(ciphertext, recordID: recordID, epoch: recordEpoch, revision: revision) else { continue }
                let sealed = try keys.seal(plaintext, recordID: recordID, epoch: next, revision: revision)
                try await connection.query(
                    "UPDATE sync_records SET epoch = \(next), ciphertext = \(sealed) WHERE group_id = \(group) AND record_id = \(recordID)",
                    logger: logger)
            }
            try await connection.query("UPDATE sync_groups SET epoch = \(next) WHERE group_id = \(group)", logger: logger)
            return next
        }
        if removed != me { try storeKey(epoch: newEpoch, key: newKey) }
    }
}
