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

    @Test("Record ids name the primary key: equal for equal keys, different otherwise, keyed by the group")
    func recordIDs() {
        let keys = GroupKeys(groupID: "g", recordIDKey: SymmetricKey(size: .bits256))
        let other = GroupKeys(groupID: "g", recordIDKey: SymmetricKey(size: .bits256))
        var edited = SyncRecordTests.item("one")
        edited.secret = Data("two".utf8)
        edited.attributes[AttributeName.modificationDate] = .date(1)
        #expect(keys.recordID(of: SyncRecordTests.item("one")) == keys.recordID(of: edited))
        #expect(keys.recordID(of: SyncRecordTests.item("one")) != keys.recordID(of: SyncRecordTests.item("one", account: "b")))
        #expect(keys.recordID(of: SyncRecordTests.item("one")) != other.recordID(of: SyncRecordTests.item("one")))
    }

    @Test("A sealed record opens only under its own group, id, epoch and revision")
    func sealBinding() throws {
        var keys = GroupKeys(groupID: "g", recordIDKey: SymmetricKey(size: .bits256))
        keys.add(epoch: 1, key: SymmetricKey(size: .bits256))
        keys.add(epoch: 2, key: SymmetricKey(size: .bits256))
        let id = Data(repeating: 1, count: 32)
        let sealed = try keys.seal(Data("plain".utf8), recordID: id, epoch: 1, revision: 5)
        #expect(try keys.open(sealed, recordID: id, epoch: 1, revision: 5) == Data("plain".utf8))
        #expect(try keys.open(sealed, recordID: Data(repeating: 2, count: 32), epoch: 1, revision: 5) == nil)
        #expect(try keys.open(sealed, recordID: id, epoch: 1, revision: 6) == nil)
        #expect(try keys.open(sealed, recordID: id, epoch: 2, revision: 5) == nil)
        let otherGroup = GroupKeys(groupID: "h", recordIDKey: keys.recordIDKey, epochKeys: keys.epochKeys)
        #expect(try otherGroup.open(sealed, recordID: id, epoch: 1, revision: 5) == nil)
        #expect(try keys.open(Data([1, 2, 3]), recordID: id, epoch: 1, revision: 5) == nil)
        #expect(throws: SyncError.self) { try keys.open(sealed, recordID: id, epoch: 3, revision: 5) }
    }

    @Test("A group key wrapped to one device opens only with that device's key and id")
    func wrapping() throws {
        var keys = GroupKeys(groupID: "g", recordIDKey: SymmetricKey(size: .bits256))
        keys.add(epoch: 1, key: SymmetricKey(size: .bits256))
        let device = Curve25519.KeyAgreement.PrivateKey(), stranger = Curve25519.KeyAgreement.PrivateKey()
        let wrapped = try keys.wrap(epoch: 1, to: device.publicKey, deviceID: "d1")
        let opened = try GroupKeys.unwrap(wrapped, groupID: "g", deviceID: "d1", privateKey: device)
        #expect(opened.recordIDKey == keys.recordIDKey)
        #expect(opened.epochKey == keys.epochKeys[1])
        #expect(throws: SyncError.self) { try GroupKeys.unwrap(wrapped, groupID: "g", deviceID: "d1", privateKey: stranger) }
        #expect(throws: SyncError.self) { try GroupKeys.unwrap(wrapped, groupID: "g", deviceID: "d2", privateKey: device) }
        #expect(throws: SyncError.self) { try GroupKeys.unwrap(wrapped, groupID: "h", deviceID: "d1", privateKey: device) }
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
