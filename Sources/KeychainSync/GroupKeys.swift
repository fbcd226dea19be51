import Crypto
import Foundation
import KeychainStore

/// The keys of one sync group as a device holds them (docs/sync.md, "Keys"): the record-id key,
/// fixed for the group's life, and one sealing key per epoch.
struct GroupKeys: Sendable {
    let groupID: String
    /// Names records: HMAC of an item's class and primary key under a key derived from it.
    let recordIDKey: SymmetricKey
    /// Each epoch's group key; a re-key adds an epoch.
    private(set) var epochKeys: [Int64: SymmetricKey]

    init(groupID: String, recordIDKey: SymmetricKey, epochKeys: [Int64: SymmetricKey] = [:]) {
        self.groupID = groupID
        self.recordIDKey = recordIDKey
        self.epochKeys = epochKeys
    }

    var latestEpoch: Int64? { epochKeys.keys.max() }

    mutating func add(epoch: Int64, key: SymmetricKey) { epochKeys[epoch] = key }

    /// The record id of an item: equal on every device of the group, meaningless without the key.
    func recordID(of item: StoredItem) -> Data {
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: recordIDKey, info: Data("swift-keychain sync record id".utf8),
                                         outputByteCount: 32)
        let mac = HMAC<SHA256>.authenticationCode(for: SyncItemCodec.primaryKeyBytes(item.itemClass, item.attributes), using: key)
        return Data(mac)
    }

    /// A short fingerprint of the group's record-id key, which every member shows alike: two
    /// machines that show the same one hold the same group.
    var fingerprint: String {
        recordIDKey.withUnsafeBytes { Fingerprint.of(Data("group".utf8) + Data($0)) }
    }

    // MARK: Records

    /// What a record's seal authenticates besides its contents: the group, the record id, the
    /// epoch and the revision. A record moved to another id or group, relabelled with another
    /// epoch, or replayed under a newer revision fails to open.
    static func associatedData(groupID: String, recordID: Data, epoch: Int64, revision: Int64) -> Data {
        var data = Data("swift-keychain sync record v1".utf8)
        data.append(0)
        data += Data(groupID.utf8)
        data.append(0)
        data += recordID
        withUnsafeBytes(of: epoch.bigEndian) { data += $0 }
        withUnsafeBytes(of: revision.bigEndian) { data += $0 }
        return data
    }

    private func sealingKey(epoch: Int64) throws(SyncError) -> SymmetricKey {
        guard let groupKey = epochKeys[epoch] else { throw .missingEpochKey(epoch) }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: groupKey, info: Data("swift-keychain sync record".utf8), outputByteCount: 32)
    }

    func seal(_ plaintext: Data, recordID: Data, epoch: Int64, revision: Int64) throws(SyncError) -> Data {
        let key = try sealingKey(epoch: epoch)
        let ad = GroupKeys.associatedData(groupID: groupID, recordID: recordID, epoch: epoch, revision: revision)
        guard let sealed = try? AES.GCM.seal(plaintext, using: key, authenticating: ad).combined else { throw .crypto("sealing a record failed") }
        return sealed
    }

    /// Opens a record, or nil when it does not authenticate (tampered, moved, replayed under
    /// another revision, or sealed with a key this device does not hold).
    func open(_ ciphertext: Data, recordID: Data, epoch: Int64, revision: Int64) throws(SyncError) -> Data? {
        let key = try sealingKey(epoch: epoch)
        let ad = GroupKeys.associatedData(groupID: groupID, recordID: recordID, epoch: epoch, revision: revision)
        guard let box = try? AES.GCM.SealedBox(combined: ciphertext) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: ad)
    }

    // MARK: Wrapping to devices

    private static let suite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly

    private static func wrapInfo(groupID: String, deviceID: String, epoch: Int64) -> Data {
        var info = Data("swift-keychain sync group key v1".utf8)
        info.append(0)
        info += Data(groupID.utf8)
        info.append(0)
        info += Data(deviceID.utf8)
        withUnsafeBytes(of: epoch.bigEndian) { info += $0 }
        return info
    }

    /// The record-id key and one epoch's key, sealed with HPKE to a device's public key.
    func wrap(epoch: Int64, to publicKey: Curve25519.KeyAgreement.PublicKey, deviceID: String) throws(SyncError) -> WrappedKey {
        guard let epochKey = epochKeys[epoch] else { throw .missingEpochKey(epoch) }
        var payload = recordIDKey.withUnsafeBytes { Data($0) }
        epochKey.withUnsafeBytes { payload += $0 }
        do {
            var sender = try HPKE.Sender(recipientKey: publicKey, ciphersuite: GroupKeys.suite,
                                         info: GroupKeys.wrapInfo(groupID: groupID, deviceID: deviceID, epoch: epoch))
            let ciphertext = try sender.seal(payload)
            return WrappedKey(epoch: epoch, encapsulatedKey: sender.encapsulatedKey, ciphertext: ciphertext)
        } catch {
            throw .crypto("wrapping the group key failed")
        }
    }

    /// Opens a wrapped key with this device's private key: the record-id key and the epoch's key.
    static func unwrap(_ wrapped: WrappedKey, groupID: String, deviceID: String,
                       privateKey: Curve25519.KeyAgreement.PrivateKey) throws(SyncError) -> (recordIDKey: SymmetricKey, epochKey: SymmetricKey) {
        let payload: Data
        do {
            var recipient = try HPKE.Recipient(privateKey: privateKey, ciphersuite: suite,
                                               info: wrapInfo(groupID: groupID, deviceID: deviceID, epoch: wrapped.epoch),
                                               encapsulatedKey: wrapped.encapsulatedKey)
            payload = try recipient.open(wrapped.ciphertext)
        } catch {
            throw .crypto("a wrapped group key for epoch \(wrapped.epoch) does not open with this device's key")
        }
        guard payload.count == 64 else { throw .crypto("a wrapped group key has the wrong length") }
        return (SymmetricKey(data: payload.prefix(32)), SymmetricKey(data: payload.suffix(32)))
    }
}

/// A group key wrapped to one device, as the server stores it.
struct WrappedKey: Sendable {
    let epoch: Int64
    let encapsulatedKey: Data
    let ciphertext: Data
}

/// Short fingerprints people compare by eye: the first six bytes of a SHA-256, in three groups.
enum Fingerprint {
    static func of(_ data: Data) -> String {
        let hex = SHA256.hash(data: data).prefix(6).map { String(format: "%02x", $0) }.joined()
        var groups: [Substring] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            groups.append(rest.prefix(4))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: "-")
    }

    static func of(publicKey: Curve25519.KeyAgreement.PublicKey) -> String {
        of(Data("device".utf8) + publicKey.rawRepresentation)
    }
}
