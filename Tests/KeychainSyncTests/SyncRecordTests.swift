#if Sync  // built only with the Sync trait (Package.swift)
import Crypto
import Foundation
import KeychainStore
@testable import KeychainSync
import Testing

/// The record format and keys, without a server.
@Suite("Sync: records and keys")
struct SyncRecordTests {
    static func item(_ secret: String?, account: String = "acct") -> StoredItem {
        StoredItem(itemClass: .genericPassword, attributes: [
            AttributeName.account: .string(account), AttributeName.service: .string("svc"), AttributeName.synchronizable: .integer(1),
            AttributeName.accessible: .string("ak"), AttributeName.modificationDate: .date(812_345_678.5),
            AttributeName.accessGroup: .string("group"),
        ], secret: secret.map { Data($0.utf8) })
    }

    @Test("An item's whole state survives the record codec, and plaintexts are padded")
    func codecRoundTrip() throws {
        for secret in [nil, "", "p", String(repeating: "x", count: 200)] {
            let encoded = SyncItemCodec.encode(SyncRecordTests.item(secret))
            #expect(encoded.count % SyncItemCodec.padding == 0)
            let decoded = try SyncItemCodec.decode(encoded)
            #expect(decoded.attributes == SyncRecordTests.item(secret).attributes)
            #expect(decoded.secret == secret.map { Data($0.utf8) })
            #expect(decoded.itemClass == .genericPassword)
        }
    }

    @Test("A cut, extended or garbled plaintext is an error, never a crash")
    func codecRejectsDamage() throws {
        let encoded = SyncItemCodec.encode(SyncRecordTests.item("secret"))
        for length in [0, 1, 5, 9, 20, encoded.count / 2] {
            #expect(throws: KeychainStoreError.self) { try SyncItemCodec.decode(encoded.prefix(length)) }
        }
        var trailing = encoded
        trailing.append(7)
        #expect(throws: KeychainStoreError.self) { try SyncItemCodec.decode(trailing) }
        var badClass = encoded
        badClass[1] = UInt8(ascii: "z")
        #expect(throws: KeychainStoreError.self) { try SyncItemCodec.decode(badClass) }
    }

    @Test("Record ids name the primary key: equal for equal keys, different otherwise, keyed by the group's epoch")
    func recordIDs() throws {
        let keys = GroupKeys(groupID: "g", epochKeys: [1: SymmetricKey(size: .bits256), 2: SymmetricKey(size: .bits256)])
        let other = GroupKeys(groupID: "g", epochKeys: [1: SymmetricKey(size: .bits256)])
        var edited = SyncRecordTests.item("one")
        edited.secret = Data("two".utf8)
        edited.attributes[AttributeName.modificationDate] = .date(1)
        let one = SyncRecordTests.item("one")
        #expect(try keys.recordID(of: one, epoch: 1) == keys.recordID(of: edited, epoch: 1))
        #expect(try keys.recordID(of: one, epoch: 1) != keys.recordID(of: SyncRecordTests.item("one", account: "b"), epoch: 1))
        #expect(try keys.recordID(of: one, epoch: 1) != other.recordID(of: one, epoch: 1))
        // A new epoch renames every record: a removed device cannot follow which ones change.
        #expect(try keys.recordID(of: one, epoch: 1) != keys.recordID(of: one, epoch: 2))
        #expect(try keys.recordID(of: one) == keys.recordID(of: one, epoch: 2))
    }

    @Test("A sealed record opens only under its own group, id, epoch and revision")
    func sealBinding() throws {
        let keys = GroupKeys(groupID: "g", epochKeys: [1: SymmetricKey(size: .bits256), 2: SymmetricKey(size: .bits256)])
        let id = Data(repeating: 1, count: 32)
        let sealed = try keys.seal(Data("plain".utf8), recordID: id, epoch: 1, revision: 5)
        #expect(try keys.open(sealed, recordID: id, epoch: 1, revision: 5) == Data("plain".utf8))
        #expect(try keys.open(sealed, recordID: Data(repeating: 2, count: 32), epoch: 1, revision: 5) == nil)
        #expect(try keys.open(sealed, recordID: id, epoch: 1, revision: 6) == nil)
        #expect(try keys.open(sealed, recordID: id, epoch: 2, revision: 5) == nil)
        let otherGroup = GroupKeys(groupID: "h", epochKeys: keys.epochKeys)
        #expect(try otherGroup.open(sealed, recordID: id, epoch: 1, revision: 5) == nil)
        #expect(try keys.open(Data([1, 2, 3]), recordID: id, epoch: 1, revision: 5) == nil)
        #expect(throws: SyncError.self) { try keys.open(sealed, recordID: id, epoch: 3, revision: 5) }
    }

    @Test("A key share opens only for its recipient, in its group, with its author's signature")
    func keyShares() throws {
        let author = SyncRecordTests.deviceKeys(), recipient = SyncRecordTests.deviceKeys(), stranger = SyncRecordTests.deviceKeys()
        let key = SymmetricKey(size: .bits256)
        let share = try KeyShare(key: key, epoch: 3, groupID: "g", to: recipient.identity, by: author)
        let stored = try KeyShare(encoded: share.encoded)
        #expect(stored == share)
        #expect(try stored.open(groupID: "g", me: recipient, authorIdentity: author.identity) == key)
        #expect(throws: SyncError.self) { try stored.open(groupID: "g", me: stranger, authorIdentity: author.identity) }
        #expect(throws: SyncError.self) { try stored.open(groupID: "h", me: recipient, authorIdentity: author.identity) }
        // Claimed for another author: its signature does not verify.
        let forged = try KeyShare(key: SymmetricKey(size: .bits256), epoch: 3, groupID: "g", to: recipient.identity, by: stranger)
        #expect(throws: SyncError.self) { try forged.open(groupID: "g", me: recipient, authorIdentity: author.identity) }
        for length in [0, 10, share.encoded.count - 1] {
            #expect(throws: SyncError.self) { try KeyShare(encoded: share.encoded.prefix(length)) }
        }
    }

    @Test("The roster accepts only statements signed by members, in order, each by its rules")
    func rosterRules() throws {
        let founder = SyncRecordTests.deviceKeys(), second = SyncRecordTests.deviceKeys(), outsider = SyncRecordTests.deviceKeys()
        let found = try RosterStatement(groupID: "g", after: nil, kind: .found, subject: founder.identity, subjectName: "a", epoch: 1,
                                        manifestPin: 1, signedBy: founder)
        var roster = try Roster(groupID: "g", statements: [try RosterStatement(encoded: found.encoded)])
        // An outsider cannot admit anyone, itself included.
        let selfAdmitted = try RosterStatement(groupID: "g", after: found, kind: .admit, subject: outsider.identity, subjectName: "x",
                                               epoch: 1, manifestPin: 1, signedBy: outsider)
        #expect(throws: SyncError.self) { try roster.append(selfAdmitted) }
        let admitted = try RosterStatement(groupID: "g", after: found, kind: .admit, subject: second.identity, subjectName: "b",
                                           epoch: 1, manifestPin: 1, signedBy: founder)
        // Out of its place: a statement that skips one, or replays the founding.
        #expect(throws: SyncError.self) { try roster.append(found) }
        try roster.append(admitted)
        #expect(roster.members.count == 2 && roster.mayShare(epoch: 1, from: founder.identity.id, to: second.identity.id))
        #expect(!roster.mayShare(epoch: 1, from: second.identity.id, to: second.identity.id))
        // A removal must move the epoch on by exactly one.
        let skipping = try RosterStatement(groupID: "g", after: admitted, kind: .remove, subject: founder.identity, subjectName: "a",
                                           epoch: 3, manifestPin: 1, signedBy: second)
        #expect(throws: SyncError.self) { try roster.append(skipping) }
        let removal = try RosterStatement(groupID: "g", after: admitted, kind: .remove, subject: founder.identity, subjectName: "a",
                                          epoch: 2, manifestPin: 1, signedBy: second)
        try roster.append(removal)
        #expect(roster.members.keys.sorted() == [second.identity.id] && roster.removed == [founder.identity.id])
        // The removed founder signs nothing that counts any more.
        let comeback = try RosterStatement(groupID: "g", after: removal, kind: .admit, subject: outsider.identity, subjectName: "x",
                                           epoch: 2, manifestPin: 1, signedBy: founder)
        #expect(throws: SyncError.self) { try roster.append(comeback) }
        #expect(roster.mayShare(epoch: 2, from: second.identity.id, to: second.identity.id))
        #expect(!roster.mayShare(epoch: 2, from: founder.identity.id, to: second.identity.id))
        // A flipped bit anywhere breaks the signature or the chain.
        var damaged = admitted.encoded
        damaged[damaged.count / 2] ^= 1
        #expect(throws: SyncError.self) { try Roster(groupID: "g", statements: [found, try RosterStatement(encoded: damaged)]) }
    }

    static func deviceKeys() -> DeviceKeys {
        DeviceKeys(signing: Curve25519.Signing.PrivateKey(), agreement: Curve25519.KeyAgreement.PrivateKey())
    }

    @Test("Sync URLs: sockets, hosts, passwords from the environment, and what is refused")
    func urls() throws {
        let socket = try SyncServerURL("postgresql://alice@/keychain?host=/run/postgresql")
        #expect(socket.socketFolder == "/run/postgresql" && socket.host == nil && socket.database == "keychain")
        let tcp = try SyncServerURL("postgres://bob:pw@db.example:6543/kc")
        #expect(tcp.host == "db.example" && tcp.port == 6543 && tcp.password == "pw")
        #expect(!tcp.redacted.contains("pw"))
        let fromEnvironment = try SyncServerURL("postgresql://bob@localhost/kc", environment: ["PGPASSWORD": "env"])
        #expect(fromEnvironment.password == "env")
        // Another machine is reached with a checked certificate unless a weaker mode is named.
        #expect(tcp.tlsMode == .verifyFull && tcp.redacted.hasSuffix("?sslmode=verify-full"))
        #expect(try SyncServerURL("postgresql://u@10.1.2.3/kc").tlsMode == .verifyFull)
        #expect(try SyncServerURL("postgresql://u@db.example/kc?sslmode=prefer").redacted.contains("sslmode=prefer"))
        for local in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]"] {
            #expect(try SyncServerURL("postgresql://u@\(local)/kc").tlsMode == .prefer, "\(local)")
        }
        #expect(try SyncServerURL("postgresql://u@127.0.0.1.example/kc").tlsMode == .verifyFull)
        for bad in ["http://x@y/z", "postgresql://host/db", "postgresql://u@host/", "postgresql://u@/db", "not a url"] {
            #expect(throws: SyncError.self) { try SyncServerURL(bad) }
        }
    }

    @Test("Only synchronizable items without a device-only protection take part in sync")
    func eligibility() {
        var item = SyncRecordTests.item("x").attributes
        #expect(KeychainFile.isSyncEligible(item))
        item[AttributeName.accessible] = .string("aku")
        #expect(!KeychainFile.isSyncEligible(item))
        item[AttributeName.accessible] = .string("akpu")
        #expect(!KeychainFile.isSyncEligible(item))
        item[AttributeName.accessible] = .string("ck")
        item[AttributeName.synchronizable] = .integer(0)
        #expect(!KeychainFile.isSyncEligible(item))
    }
}
#endif
