import Foundation
import KeychainStore
import KeychainTestSupport
import Testing
@testable import KeychainSecretService

/// The secret a search by a password's whole key keeps for the secret request that follows it:
/// handed out only while nothing changed, and read again after any change, from this collection,
/// another connection to the file, a lock or a new password. The daemon opens it after the
/// search's reply (`openKeptSecret`), as these tests do after each search.
@Suite struct SecretPrefetchTests {
    static let key = ["service": "svc", "username": "ann"]
    static func secret(_ text: String) -> SecretValue { SecretValue(bytes: Data(text.utf8)) }

    /// A collection holding one password by `key`, and the id of that item.
    static func collection(_ keychain: TestKeychain) throws -> (KeychainCollection, String) {
        let collection = KeychainCollection(file: keychain.file, label: "Login")
        let id = try collection.create(label: "l", attributes: key, secret: secret("first"), replace: true).item.id
        return (collection, id)
    }

    @Test func theSearchedItemsSecretIsTheStoredOne() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        #expect(try collection.secret(id: id) == Self.secret("first"))
        // Handed out once; the next request reads the keychain and finds the same.
        #expect(try collection.secret(id: id) == Self.secret("first"))
    }

    /// What the daemon learns from `openKeptSecret`: whether a secret now waits for its request
    /// (the daemon then expects that request at once).
    @Test func openingSaysWhetherASecretNowWaits() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        #expect(!collection.openKeptSecret())                       // nothing searched yet
        #expect(try collection.search(Self.key).map(\.id) == [id])
        #expect(collection.openKeptSecret())
        #expect(!collection.openKeptSecret())                       // already opened
        // A search that names only the service keeps nothing.
        #expect(try collection.search(["service": "svc"]).map(\.id) == [id])
        #expect(!collection.openKeptSecret())
        // Changed by another connection between the search and the opening: dropped.
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("svc"), AttributeName.account: .string("ann")])
        #expect(try other.update(query, changes: [:], secret: Data("second".utf8), identity: .unconfigured) == 1)
        #expect(!collection.openKeptSecret())
        #expect(try collection.secret(id: id).bytes == Data("second".utf8))
    }

    @Test func aSecretChangedByAnotherConnectionIsReadAgain() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("svc"), AttributeName.account: .string("ann")])
        #expect(try other.update(query, changes: [:], secret: Data("second".utf8), identity: .unconfigured) == 1)
        #expect(try collection.secret(id: id).bytes == Data("second".utf8))
    }

    @Test func aSecretChangedThroughTheCollectionIsReadAgain() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        try collection.setSecret(id: id, SecretValue(bytes: Data("second".utf8), contentType: "application/octet-stream"))
        #expect(try collection.secret(id: id) == SecretValue(bytes: Data("second".utf8), contentType: "application/octet-stream"))
    }

    @Test func anItemDeletedByAnotherConnectionIsGone() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        try other.delete(ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("svc")]), identity: .unconfigured)
        #expect(throws: SecretCollectionError.noSuchItem) { try collection.secret(id: id) }
    }

    @Test func aLockedKeychainKeepsItsSecrets() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        try keychain.file.setPassword("pw", currentPassword: nil)
        defer { keychain.file.forgetSharedUnlockState() }
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        // Locked behind the collection's back (as keychainctl lock-keychain would).
        keychain.file.lock()
        #expect(throws: SecretCollectionError.locked) { try collection.secret(id: id) }
        try collection.unlock(password: "pw")
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        try collection.lock()
        #expect(throws: SecretCollectionError.locked) { try collection.secret(id: id) }
    }

    @Test func onlyTheSearchedItemIsHandedOut() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        let otherID = try collection.create(label: "m", attributes: ["service": "svc", "username": "bob"], secret: Self.secret("bobs"),
                                            replace: true).item.id
        #expect(try collection.search(Self.key).map(\.id) == [id])
        collection.openKeptSecret()
        #expect(try collection.secret(id: otherID) == Self.secret("bobs"))
        #expect(try collection.secret(id: id) == Self.secret("first"))
    }

    @Test func aSecretChangedBeforeItIsOpenedIsReadAgain() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        let other = try KeychainFile.open(at: keychain.file.url, deviceKey: keychain.deviceKey, create: false)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        let query = ItemQuery(itemClass: .genericPassword, filters: [AttributeName.service: .string("svc"), AttributeName.account: .string("ann")])
        #expect(try other.update(query, changes: [:], secret: Data("second".utf8), identity: .unconfigured) == 1)
        collection.openKeptSecret()
        #expect(try collection.secret(id: id).bytes == Data("second".utf8))
    }

    /// A request that comes before the kept secret was opened (a client that did not wait for
    /// the search's answer) reads the keychain; the late opening then hands nothing out.
    @Test func aRequestBeforeTheOpeningReadsTheKeychain() throws {
        let keychain = try TestKeychain()
        let (collection, id) = try Self.collection(keychain)
        #expect(try collection.search(Self.key).map(\.id) == [id])
        #expect(try collection.secret(id: id) == Self.secret("first"))
        collection.openKeptSecret()
        try collection.setSecret(id: id, Self.secret("second"))
        #expect(try collection.secret(id: id) == Self.secret("second"))
    }
}

/// The record reader agrees with JSONDecoder wherever it answers, and leaves everything else to it.
@Suite struct StoredAttributesReaderTests {
    static func decoded(_ json: String) -> StoredAttributes? {
        try? JSONDecoder().decode(StoredAttributes.self, from: Data(json.utf8))
    }

    @Test(arguments: [
        #"{"attributes":{"service":"s","username":"u","xdg:schema":"org.freedesktop.Secret.Generic"},"contentType":"text/plain"}"#,
        #"{"contentType":"text/plain","attributes":{}}"#,
        #" { "attributes" : { "a" : "b" } , "contentType" : "" } "#,
        #"{"attributes":{"q\"uote":"back\\slash\/","nl":"a\nb\tc\r\b\f","u":"\u00e9\u20ac\ud83d\ude00","raw":"é€😀"},"contentType":"x"}"#,
        #"{"attributes":{"nul":"a\u0000b"},"contentType":"t"}"#,
    ])
    func readsWhatJSONDecoderReads(_ json: String) throws {
        let read = StoredAttributesReader.read(Data(json.utf8))
        #expect(read != nil)
        #expect(read == Self.decoded(json))
    }

    @Test(arguments: [
        #"{"attributes":{"a":"b","a":"c"},"contentType":"t"}"#,  // a key twice
        #"{"attributes":{"a":"b"},"contentType":"t","extra":1}"#,  // another key
        #"{"attributes":{"a":"b"}}"#,  // no content type
        #"{"attributes":{"a":1},"contentType":"t"}"#,  // not a string
        #"{"attributes":{"a":"\ud800"},"contentType":"t"}"#,  // a lone surrogate
        #"{"attributes":{"a":"b"},"contentType":"t"} x"#,  // text after the object
        "{\"attributes\":{\"a\":\"\u{1}\"},\"contentType\":\"t\"}",  // a raw control character
        #"{"attributes":{"a":"b"},"contentType":"t""#,  // cut short
        "",
    ])
    func leavesEverythingElseToJSONDecoder(_ json: String) {
        #expect(StoredAttributesReader.read(Data(json.utf8)) == nil)
    }

    @Test func invalidUTF8IsNotRead() {
        var bytes = Array(#"{"attributes":{"a":"x"},"contentType":"t"}"#.utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "x"))!] = 0xFF
        #expect(StoredAttributesReader.read(bytes) == nil)
    }

    /// Damaged records (bytes changed, dropped or repeated, from a fixed seed): the reader never
    /// traps, and whenever it answers, JSONDecoder answers the same.
    @Test func damagedRecordsAreReadAsJSONDecoderReadsThem() {
        let seeds = [
            StoredAttributes(attributes: ["service": "s", "username": "u", "xdg:schema": "org.freedesktop.Secret.Generic"], contentType: "text/plain"),
            StoredAttributes(attributes: ["q\"": "\\\n\u{1}é😀", "": ""], contentType: ""),
        ].map { Array($0.encoded.drop { $0 != UInt8(ascii: "{") }) }
        var generator = SeededGenerator(state: 0x5EED)
        var answered = 0
        for round in 0..<4000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(generator.next() % 3)) where !bytes.isEmpty {
                let at = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: at)
                default: bytes.insert(bytes[at], at: at)
                }
            }
            guard let read = StoredAttributesReader.read(bytes) else { continue }
            answered += 1
            #expect(read == (try? JSONDecoder().decode(StoredAttributes.self, from: Data(bytes))), "\(bytes)")
        }
        #expect(answered > 0)
    }

    @Test func whatTheRecordWritesIsReadBack() {
        let record = StoredAttributes(attributes: ["service": "s/ø", "q\"": "\\\n\u{7f}", "": ""], contentType: "text/plain; charset=utf8")
        let json = record.encoded.drop { $0 != UInt8(ascii: "{") }
        #expect(StoredAttributesReader.read(json) == record)
        #expect(StoredAttributes(.data(record.encoded)) == record)
    }
}

/// A reproducible generator for the damaged-record test (splitmix64).
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
