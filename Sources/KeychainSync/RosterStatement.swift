#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation

/// One decision about a sync group's members, made and signed by a device already in it
/// (docs/sync.md, "Trust"): the group's founding, a device's admission, a device's removal.
/// Statements form a chain: each names the hash of the one before it and its place in the
/// chain, so none can be dropped, reordered or replaced without the devices that verified the
/// chain noticing. This plays the part of the trusted-peer set that Apple's Octagon keeps, each
/// peer's view signed by the peer (Apple's TrustedPeersHelper, `TPPeerDynamicInfo`).
struct RosterStatement: Sendable, Equatable {
    enum Kind: UInt8, Sendable {
        /// The first statement: its subject creates the group and is its first member.
        case found = 1
        /// The subject becomes a member; the current epoch's key is shared to it.
        case admit = 2
        /// The subject stops being a member; a new epoch begins, whose key it never receives.
        case remove = 3
    }

    let groupID: String
    /// Its place in the chain, from 1.
    let sequence: Int64
    /// The hash of the statement before it (32 zero bytes for the first).
    let previousHash: Data
    let kind: Kind
    let subject: DeviceIdentity
    /// The name the subject asked to be shown by, bounded to ``nameLimit`` bytes.
    let subjectName: String
    /// The epoch in force once this statement holds.
    let epoch: Int64
    /// The manifest version the author had verified when it signed: a device admitted by this
    /// statement refuses any older manifest, so the server cannot show it an older copy of
    /// the group than the one its approver saw.
    let manifestPin: Int64
    /// The id of the device that made and signed it.
    let author: String
    let signature: Data

    static let label = "swift-keychain sync roster statement v1"
    static let nameLimit = 256
    static let hashLength = 32

    /// The bytes the author signs: everything but the signature.
    var signedBytes: Data {
        RosterStatement.signedBytes(groupID: groupID, sequence: sequence, previousHash: previousHash, kind: kind, subject: subject,
                                    subjectName: subjectName, epoch: epoch, manifestPin: manifestPin, author: author)
    }

    private static func signedBytes(groupID: String, sequence: Int64, previousHash: Data, kind: Kind, subject: DeviceIdentity,
                                    subjectName: String, epoch: Int64, manifestPin: Int64, author: String) -> Data {
        var writer = ByteWriter(label: label)
        writer.field(groupID)
        writer.integer(sequence)
        writer.fixed(previousHash)
        writer.byte(kind.rawValue)
        writer.fixed(subject.encoded)
        writer.field(subjectName)
        writer.integer(epoch)
        writer.integer(manifestPin)
        writer.field(author)
        return writer.data
    }

    /// The statement as stored: the signed bytes, then the 64-byte signature.
    var encoded: Data { signedBytes + signature }

    /// What the next statement names as its predecessor.
    var hash: Data { Data(SHA256.hash(data: encoded)) }

    /// A statement made now by `author`, signed with its key.
    init(groupID: String, after previous: RosterStatement?, kind: Kind, subject: DeviceIdentity, subjectName: String, epoch: Int64,
         manifestPin: Int64, signedBy author: DeviceKeys) throws(SyncError) {
        let name = RosterStatement.bounded(subjectName)
        let sequence = (previous?.sequence ?? 0) + 1
        let previousHash = previous?.hash ?? Data(count: RosterStatement.hashLength)
        let authorID = author.identity.id
        let bytes = RosterStatement.signedBytes(groupID: groupID, sequence: sequence, previousHash: previousHash, kind: kind,
                                                subject: subject, subjectName: name, epoch: epoch, manifestPin: manifestPin, author: authorID)
        self.init(groupID: groupID, sequence: sequence, previousHash: previousHash, kind: kind, subject: subject, subjectName: name,
                  epoch: epoch, manifestPin: manifestPin, author: authorID, signature: try author.sign(bytes))
    }

    private init(groupID: String, sequence: Int64, previousHash: Data, kind: Kind, subject: DeviceIdentity, subjectName: String,
                 epoch: Int64, manifestPin: Int64, author: String, signature: Data) {
        self.groupID = groupID
        self.sequence = sequence
        self.previousHash = previousHash
        self.kind = kind
        self.subject = subject
        self.subjectName = subjectName
        self.epoch = epoch
        self.manifestPin = manifestPin
        self.author = author
        self.signature = signature
    }

    /// Reads a stored statement. Its signature is checked by ``Roster``, which knows the author's key.
    init(encoded data: Data) throws(SyncError) {
        guard data.count > 64 else { throw .crypto("a roster statement is cut short") }
        var scanner = try ByteScanner(data.dropLast(64), label: RosterStatement.label, what: "a roster statement")
        let groupID = try String(decoding: scanner.field(limit: 64), as: UTF8.self)
        let sequence = try scanner.integer()
        let previousHash = try scanner.fixed(RosterStatement.hashLength)
        guard let kind = Kind(rawValue: try scanner.byte()) else { throw .crypto("a roster statement is of an unknown kind") }
        let subject = try DeviceIdentity(encoded: try scanner.fixed(DeviceIdentity.encodedLength))
        let name = try scanner.text(limit: RosterStatement.nameLimit)
        let epoch = try scanner.integer()
        let pin = try scanner.integer()
        let author = try String(decoding: scanner.field(limit: 64), as: UTF8.self)
        try scanner.finish()
        self.init(groupID: groupID, sequence: sequence, previousHash: previousHash, kind: kind, subject: subject, subjectName: name,
                  epoch: epoch, manifestPin: pin, author: author, signature: Data(data.suffix(64)))
    }

    /// A name cut to ``nameLimit`` bytes on a character boundary.
    static func bounded(_ name: String) -> String {
        var result = ""
        for character in name {
            guard result.utf8.count + character.utf8.count <= nameLimit else { break }
            result.append(character)
        }
        return result
    }
}
#endif
