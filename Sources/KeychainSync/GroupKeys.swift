#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation
import KeychainStore

/// The keys of one sync group as a device holds them (docs/sync.md, "Keys"): one random key per
/// epoch, from which that epoch's record-id key, record sealing key and manifest key are
/// derived. A re-key starts a new epoch, so a removed device loses both what records say and
/// which records change.
struct GroupKeys: Sendable {
    let groupID: String
    /// Each epoch's group key; a re-key adds an epoch.
    private(set) var epochKeys: [Int64: SymmetricKey]

    init(groupID: String, epochKeys: [Int64: SymmetricKey] = [:]) {
        self.groupID = groupID
        self.epochKeys = epochKeys
    }

    var latestEpoch: Int64? { epochKeys.keys.max() }

    mutating func add(epoch: Int64, key: SymmetricKey) { epochKeys[epoch] = key }

    private func derived(_ purpose: String, epoch: Int64) throws(SyncError) -> SymmetricKey {
        guard let groupKey = epochKeys[epoch] else { throw .missingEpochKey(epoch) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: groupKey, info: Data("swift-keychain sync \(purpose) v2".utf8), outputByteCount: 32)
    }

    /// The record id of an item in `epoch`: equal on every device of the group, meaningless
    /// without that epoch's key.
    func recordID(of item: StoredItem, epoch: Int64) throws(SyncError) -> Data {
        let mac = HMAC<SHA256>.authenticationCode(for: SyncItemCodec.primaryKeyBytes(item.itemClass, item.attributes),
                                                  using: try derived("record id", epoch: epoch))
        return Data(mac)
    }

    /// The record id of an item in the latest epoch.
    func recordID(of item: StoredItem) throws(SyncError) -> Data {
        guard let epoch = latestEpoch else { throw .missingEpochKey(0) }
        return try recordID(of: item, epoch: epoch)
    }

    // MARK: Records

    /// What a record's seal authenticates besides its contents: the group, the record id, the
    /// epoch and the revision. A record moved to another id or group, relabelled with another
    /// epoch, or replayed under a newer revision fails to open.
    static func associatedData(groupID: String, recordID: Data, epoch: Int64, revision: Int64) -> Data {
        var writer = ByteWriter(label: "swift-keychain sync record v2")
        writer.field(groupID)
        writer.field(recordID)
        writer.integer(epoch)
        writer.integer(revision)
        return writer.data
    }

    func seal(_ plaintext: Data, recordID: Data, epoch: Int64, revision: Int64) throws(SyncError) -> Data {
        let ad = GroupKeys.associatedData(groupID: groupID, recordID: recordID, epoch: epoch, revision: revision)
        return try GroupKeys.seal(plaintext, using: try derived("record", epoch: epoch), authenticating: ad)
    }

    /// Opens a record, or nil when it does not authenticate (tampered, moved, replayed under
    /// another revision, or sealed with a key this device does not hold).
    func open(_ ciphertext: Data, recordID: Data, epoch: Int64, revision: Int64) throws(SyncError) -> Data? {
        let ad = GroupKeys.associatedData(groupID: groupID, recordID: recordID, epoch: epoch, revision: revision)
        return GroupKeys.open(ciphertext, using: try derived("record", epoch: epoch), authenticating: ad)
    }

    // MARK: Manifests

    func sealManifest(_ plaintext: Data, epoch: Int64, version: Int64) throws(SyncError) -> Data {
        try GroupKeys.seal(plaintext, using: try derived("manifest", epoch: epoch),
                           authenticating: GroupKeys.manifestData(groupID: groupID, epoch: epoch, version: version))
    }

    func openManifest(_ ciphertext: Data, epoch: Int64, version: Int64) throws(SyncError) -> Data? {
        GroupKeys.open(ciphertext, using: try derived("manifest", epoch: epoch),
                       authenticating: GroupKeys.manifestData(groupID: groupID, epoch: epoch, version: version))
    }

    private static func manifestData(groupID: String, epoch: Int64, version: Int64) -> Data {
        var writer = ByteWriter(label: "swift-keychain sync manifest v1")
        writer.field(groupID)
        writer.integer(epoch)
        writer.integer(version)
        return writer.data
    }

    private static func seal(_ plaintext: Data, using key: SymmetricKey, authenticating ad: Data) throws(SyncError) -> Data {
        guard let sealed = try? AES.GCM.seal(plaintext, using: key, authenticating: ad).combined else { throw .crypto("sealing failed") }
        return sealed
    }

    private static func open(_ ciphertext: Data, using key: SymmetricKey, authenticating ad: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: ciphertext) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: ad)
    }

    /// A short fingerprint of an epoch's key, for tests and diagnostics.
    func fingerprint(epoch: Int64) -> String? {
        epochKeys[epoch].map { key in key.withUnsafeBytes { Fingerprint.of(Data("epoch".utf8) + Data($0)) } }
    }
}
#endif
