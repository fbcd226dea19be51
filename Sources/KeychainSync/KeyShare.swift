#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation

/// One epoch's group key, sealed with HPKE to one member's X25519 key and signed by the member
/// that shared it (docs/sync.md, "Keys"). The recipient accepts it only when the verified
/// roster says that this author decided on this epoch for it (``Roster/mayShare(epoch:from:to:)``),
/// so neither the server nor a removed device can hand a member a key of its own choosing.
struct KeyShare: Sendable, Equatable {
    let groupID: String
    let epoch: Int64
    let recipient: String
    let author: String
    let encapsulatedKey: Data
    let ciphertext: Data
    let signature: Data

    static let label = "swift-keychain sync key share v1"
    private static let suite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly

    private static func wrapInfo(groupID: String, recipient: String, epoch: Int64) -> Data {
        var writer = ByteWriter(label: "swift-keychain sync epoch key v1")
        writer.field(groupID)
        writer.field(recipient)
        writer.integer(epoch)
        return writer.data
    }

    private static func signedBytes(groupID: String, epoch: Int64, recipient: String, author: String,
                                    encapsulatedKey: Data, ciphertext: Data) -> Data {
        var writer = ByteWriter(label: label)
        writer.field(groupID)
        writer.integer(epoch)
        writer.field(recipient)
        writer.field(author)
        writer.field(encapsulatedKey)
        writer.field(ciphertext)
        return writer.data
    }

    /// Shares `key`, the key of `epoch`, with `recipient`, signed by `author`.
    init(key: SymmetricKey, epoch: Int64, groupID: String, to recipient: DeviceIdentity, by author: DeviceKeys) throws(SyncError) {
        let sealed: (Data, Data)
        do {
            var sender = try HPKE.Sender(recipientKey: recipient.agreementPublicKey, ciphersuite: KeyShare.suite,
                                         info: KeyShare.wrapInfo(groupID: groupID, recipient: recipient.id, epoch: epoch))
            let ciphertext = try key.withUnsafeBytes { try sender.seal(Data($0)) }
            sealed = (sender.encapsulatedKey, ciphertext)
        } catch {
            throw .crypto("sharing the group key failed")
        }
        let authorID = author.identity.id
        let bytes = KeyShare.signedBytes(groupID: groupID, epoch: epoch, recipient: recipient.id, author: authorID,
                                         encapsulatedKey: sealed.0, ciphertext: sealed.1)
        self.init(groupID: groupID, epoch: epoch, recipient: recipient.id, author: authorID, encapsulatedKey: sealed.0,
                  ciphertext: sealed.1, signature: try author.sign(bytes))
    }

    private init(groupID: String, epoch: Int64, recipient: String, author: String, encapsulatedKey: Data, ciphertext: Data,
                 signature: Data) {
        self.groupID = groupID
        self.epoch = epoch
        self.recipient = recipient
        self.author = author
        self.encapsulatedKey = encapsulatedKey
        self.ciphertext = ciphertext
        self.signature = signature
    }

    /// As stored in the database's `share` column: the signed bytes, then the signature.
    var encoded: Data {
        var writer = ByteWriter(continuing: KeyShare.signedBytes(groupID: groupID, epoch: epoch, recipient: recipient, author: author,
                                                                 encapsulatedKey: encapsulatedKey, ciphertext: ciphertext))
        writer.field(signature)
        return writer.data
    }

    init(encoded data: Data) throws(SyncError) {
        var scanner = try ByteScanner(data, label: KeyShare.label, what: "a key share")
        let groupID = try scanner.text(limit: 64)
        let epoch = try scanner.integer()
        let recipient = try scanner.text(limit: 64)
        let author = try scanner.text(limit: 64)
        let encapsulatedKey = try scanner.field(limit: 256)
        let ciphertext = try scanner.field(limit: 256)
        let signature = try scanner.field(limit: 64)
        try scanner.finish()
        self.init(groupID: groupID, epoch: epoch, recipient: recipient, author: author, encapsulatedKey: encapsulatedKey,
                  ciphertext: ciphertext, signature: signature)
    }

    /// The epoch key, once the share is shown to be `author`'s and meant for `me` in this group.
    func open(groupID expectedGroup: String, me: DeviceKeys, authorIdentity: DeviceIdentity) throws(SyncError) -> SymmetricKey {
        let myID = me.identity.id
        guard groupID == expectedGroup, recipient == myID, authorIdentity.id == author else {
            throw .crypto("a key share for epoch \(epoch) is addressed to another device or group")
        }
        let bytes = KeyShare.signedBytes(groupID: groupID, epoch: epoch, recipient: recipient, author: author,
                                         encapsulatedKey: encapsulatedKey, ciphertext: ciphertext)
        guard authorIdentity.verify(signature, of: bytes) else {
            throw .crypto("a key share for epoch \(epoch) does not carry its author's signature")
        }
        let payload: Data
        do {
            var receiver = try HPKE.Recipient(privateKey: me.agreement, ciphersuite: KeyShare.suite,
                                              info: KeyShare.wrapInfo(groupID: groupID, recipient: myID, epoch: epoch),
                                              encapsulatedKey: encapsulatedKey)
            payload = try receiver.open(ciphertext)
        } catch {
            throw .crypto("a key share for epoch \(epoch) does not open with this device's key")
        }
        guard payload.count == 32 else { throw .crypto("a key share for epoch \(epoch) has the wrong length") }
        return SymmetricKey(data: payload)
    }
}
#endif
